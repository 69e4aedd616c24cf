import Testing
@testable import FrameDumpCLI

/// A short option means one thing in every command, as a tcpdump or tshark user expects.
@Suite struct OptionLettersTests {
    /// The long option each letter stands for wherever a command has it.
    static let meanings: [Character: String] = [
        "f": "filter", "F": "format", "r": "read", "c": "count", "j": "json", "w": "write", "i": "interface",
    ]

    @Test func eachLetterHasOneMeaningAcrossCommands() {
        var seen: [Character: (long: String, command: String)] = [:]
        for command in CommandTable.commands {
            for option in command.spec.options {
                guard let letter = option.short else { continue }
                if let meaning = Self.meanings[letter] {
                    // `-w` writes a file in capture and a directory in streams: both tcpdump's -w.
                    #expect(option.long == meaning || letter == "w", "-\(letter) is --\(option.long) in \(command.spec.name)")
                } else if let earlier = seen[letter] {
                    #expect(earlier.long == option.long, "-\(letter): --\(earlier.long) in \(earlier.command), --\(option.long) in \(command.spec.name)")
                }
                seen[letter] = seen[letter] ?? (option.long, command.spec.name)
            }
        }
    }

    @Test func everyFormatOptionIsCapitalF() {
        for command in CommandTable.commands {
            for option in command.spec.options where option.long == "format" {
                #expect(option.short == "F", "\(command.spec.name)")
            }
        }
    }

    @Test func theOtherCaseOfAnUnknownLetterIsSuggested() {
        let spec = CommandSpec(name: "demo", summary: "", discussion: "",
                               options: [.value("format", short: "F", valueName: "NAME", help: "Format.")], positionals: [])
        #expect(throws: UsageError("unknown option '-f' (did you mean '-F' (--format)?)")) { try ArgumentParser.parse(["-f", "h12"], for: spec) }
        #expect(throws: UsageError("unknown option '-x'")) { try ArgumentParser.parse(["-x"], for: spec) }
    }
}
