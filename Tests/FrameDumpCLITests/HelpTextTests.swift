import Testing
@testable import FrameDumpCLI

@Suite struct HelpTextTests {
    @Test func programHelpListsEveryCommandFromTheTable() {
        let help = HelpText.programHelp()
        for name in CommandTable.names {
            #expect(help.contains("\n  \(name) "), "\(name) missing from help")
        }
        #expect(help.contains(framedumpVersion))
    }

    @Test func commandHelpShowsUsageOptionsAndDefaults() {
        let help = HelpText.commandHelp(DecodeCommand.spec)
        #expect(help.hasPrefix("usage: framedump decode [OPTIONS] [FILE|-] [FILTER...]\n"))
        #expect(help.contains("  -F, --format NAME|SPEC  "))
        #expect(help.contains("  -f, --filter EXPR  "))
        #expect(help.contains("      --color WHEN"))
        #expect(help.contains("(default: auto)"))
        #expect(help.contains("  -h, --help"))
    }

    @Test func everyCommandHasAUniqueNameAndUniqueOptions() {
        #expect(Set(CommandTable.names).count == CommandTable.names.count)
        for command in CommandTable.commands {
            let longs = command.spec.options.map(\.long)
            let shorts = command.spec.options.compactMap(\.short)
            #expect(Set(longs).count == longs.count, "\(command.spec.name)")
            #expect(Set(shorts).count == shorts.count, "\(command.spec.name)")
            #expect(!longs.contains("help") && !shorts.contains("h"), "--help/-h are built in")
        }
    }
}
