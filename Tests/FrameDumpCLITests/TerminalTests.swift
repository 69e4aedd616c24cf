import Testing
@testable import FrameDumpCLI

@Suite struct TerminalTests {
    @Test func autoFollowsTheTerminal() {
        #expect(Terminal.usesColor(.auto, environment: [:], outputIsTerminal: true))
        #expect(!Terminal.usesColor(.auto, environment: [:], outputIsTerminal: false))
    }

    @Test func alwaysAndNever() {
        #expect(Terminal.usesColor(.always, environment: [:], outputIsTerminal: false))
        #expect(!Terminal.usesColor(.never, environment: [:], outputIsTerminal: true))
    }

    @Test func noColorWinsWhenNonEmpty() {
        for choice in ColorChoice.allCases {
            #expect(!Terminal.usesColor(choice, environment: ["NO_COLOR": "1"], outputIsTerminal: true))
        }
        // no-color.org: only a non-empty value counts.
        #expect(Terminal.usesColor(.auto, environment: ["NO_COLOR": ""], outputIsTerminal: true))
    }

    @Test func styleEscapesOnlyWhenEnabled() {
        #expect(TextStyle(enabled: false).apply(.bad, "x") == "x")
        #expect(TextStyle(enabled: true).apply(.bad, "x") == "\u{1B}[1;31mx\u{1B}[0m")
    }
}
