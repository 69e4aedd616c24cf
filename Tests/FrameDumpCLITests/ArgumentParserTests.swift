import Testing
@testable import FrameDumpCLI

@Suite struct ArgumentParserTests {
    static let spec = CommandSpec(
        name: "demo",
        summary: "A command to parse against.",
        discussion: "",
        options: [
            .value("format", short: "f", valueName: "NAME", help: "Format."),
            .flag("json", short: "j", help: "JSON."),
            .flag("quiet", short: "q", help: "Quiet."),
            .value("color", valueName: "WHEN", allowedValues: ["auto", "always", "never"], defaultValue: "auto", help: "Colour."),
        ],
        positionals: [PositionalSpec(name: "FILE", isOptional: true, help: "Input.")]
    )

    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        try ArgumentParser.parse(arguments, for: Self.spec)
    }

    func error(_ arguments: [String]) -> String? {
        do {
            _ = try parse(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func valuesInEveryForm() throws {
        for arguments in [["--format", "h12"], ["--format=h12"], ["-f", "h12"], ["-fh12"]] {
            #expect(try parse(arguments).value("format") == "h12", "\(arguments)")
        }
    }

    @Test func valueMayContainEqualsAndStartWithDash() throws {
        #expect(try parse(["--format=magic:u16=0x55AA len:u16"]).value("format") == "magic:u16=0x55AA len:u16")
        #expect(try parse(["--format", "-x"]).value("format") == "-x")
    }

    @Test func lastOccurrenceWins() throws {
        #expect(try parse(["-f", "a", "--format", "b"]).value("format") == "b")
    }

    @Test func flagsAloneAndCombined() throws {
        let parsed = try parse(["-jq"])
        #expect(parsed.flag("json") && parsed.flag("quiet"))
        #expect(try parse(["--json"]).flag("json"))
        #expect(try !parse([]).flag("json"))
    }

    @Test func positionalsMixedWithOptionsAndDash() throws {
        #expect(try parse(["in.hex", "--json"]).positionals == ["in.hex"])
        #expect(try parse(["-"]).positionals == ["-"])
        #expect(try parse(["--", "--json"]).positionals == ["--json"])
        #expect(try parse(["--json"]).positionals.isEmpty)
    }

    @Test func helpIsAlwaysKnownAndSkipsPositionalChecks() throws {
        #expect(try parse(["--help"]).helpRequested)
        #expect(try parse(["-h", "a", "b", "c"]).helpRequested)
    }

    @Test func unknownOptionSuggestsTheClosest() {
        #expect(error(["--jsn"]) == "unknown option '--jsn' (did you mean '--json'?)")
        #expect(error(["--fromat", "x"]) == "unknown option '--fromat' (did you mean '--format'?)")
        #expect(error(["--verbose"]) == "unknown option '--verbose'")
        #expect(error(["-x"]) == "unknown option '-x'")
    }

    @Test func missingValue() {
        #expect(error(["--format"]) == "option '--format' needs a value (NAME)")
        #expect(error(["-f"]) == "option '-f' needs a value (NAME)")
    }

    @Test func flagGivenAValue() {
        #expect(error(["--json=yes"]) == "option '--json' takes no value")
    }

    @Test func valueOutsideTheAllowedSet() throws {
        #expect(error(["--color", "alway"]) == "invalid value 'alway' for '--color'; expected auto, always or never (did you mean 'always'?)")
        #expect(try parse(["--color=never"]).value("color") == "never")
    }

    @Test func tooManyPositionals() {
        #expect(error(["a", "b"]) == "unexpected argument 'b' (expected at most 1: FILE)")
    }

    @Test func missingRequiredPositional() {
        var spec = Self.spec
        spec.positionals = [PositionalSpec(name: "COMMAND", isOptional: false, help: "")]
        #expect(throws: UsageError("missing argument COMMAND")) { try ArgumentParser.parse([], for: spec) }
    }

    @Test func commandWithoutPositionals() {
        var spec = Self.spec
        spec.positionals = []
        #expect(throws: UsageError("unexpected argument 'x' (this command takes no arguments)")) {
            try ArgumentParser.parse(["x"], for: spec)
        }
    }
}

@Suite struct SuggestionTests {
    @Test func editDistance() {
        #expect(Suggestion.editDistance("", "abc") == 3)
        #expect(Suggestion.editDistance("abc", "") == 3)
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
        #expect(Suggestion.editDistance("json", "json") == 0)
        #expect(Suggestion.editDistance("jsn", "json") == 1)
    }

    @Test func closestNeedsAPlausibleTypo() {
        #expect(Suggestion.closest(to: "decod", among: ["decode", "formats", "help"]) == "decode")
        #expect(Suggestion.closest(to: "fromats", among: ["decode", "formats", "help"]) == "formats")
        // Short words would match anything within distance 2; they get no suggestion.
        #expect(Suggestion.closest(to: "x", among: ["h12"]) == nil)
        #expect(Suggestion.closest(to: "capture", among: ["decode", "formats"]) == nil)
    }

    @Test func hintText() {
        #expect(Suggestion.hint(for: "jsn", among: ["json"], prefix: "--") == " (did you mean '--json'?)")
        #expect(Suggestion.hint(for: "zzzzzz", among: ["json"]) == "")
    }
}
