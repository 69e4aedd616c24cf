
/// The input of `decode` and `streams` and the filter words after it, as tcpdump and tshark take
/// them: `FILE [FILTER...]`, or `-r FILE [FILTER...]` where every positional is a filter word.
///
/// A filter word that looks like a second input is refused: `decode a.pcap b.pcap` would
/// otherwise compile `b.pcap` as a BPF expression and fail with libpcap's puzzling
/// `invalid filter 'b.pcap'`.
struct InputArgument {
    /// The `-r FILE` option, shared by the commands that read one input.
    static let readOption = OptionSpec.value(
        "read", short: "r", valueName: "FILE",
        help: "Read this file, as tcpdump -r and tshark -r do: the same as\ngiving FILE first; every argument is then a filter word."
    )

    /// The file to read (`-`: standard input), or `nil` when neither `-r` nor a positional gave one.
    var path: String?
    /// The words of the filter: the positionals after the input, or all of them with `-r`.
    var filterWords: ArraySlice<String>

    /// Splits `arguments`' positionals into the input and the filter words.
    ///
    /// - Throws: ``UsageError`` `one input only: …` when a filter word is `-`, names an existing
    ///   regular file, or ends like a capture or dump file name (`.pcap`, `.pcapng`, `.cap`,
    ///   `.hex`, `.txt`). A filter word that is also a file name can be given with `-f EXPR`,
    ///   which is not checked.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        if let read = arguments.value(Self.readOption.long) {
            path = read
            filterWords = arguments.positionals[...]
        } else {
            path = arguments.positionals.first
            filterWords = arguments.positionals.dropFirst()
        }
        if let path, let second = filterWords.first(where: Self.looksLikeInput) {
            let merge = Self.isHexName(path) || Self.isHexName(second) ? "" : "merge captures first: mergecap -w merged.pcap \(path) \(second); "
            throw UsageError("one input only: got '\(path)' and '\(second)' (\(merge)a filter word that names a file goes in -f EXPR)")
        }
    }

    /// Whether `name` ends like a hex dump's (`.hex`, `.txt`), which mergecap cannot merge.
    private static func isHexName(_ name: String) -> Bool {
        let lowercased = name.lowercased()
        return lowercased.hasSuffix(".hex") || lowercased.hasSuffix(".txt")
    }

    /// Whether `word` is more likely an input than a word of a BPF expression.
    static func looksLikeInput(_ word: String) -> Bool {
        if word == "-" { return true }
        let lowercased = word.lowercased()
        if [".pcap", ".pcapng", ".cap", ".hex", ".txt"].contains(where: { lowercased.hasSuffix($0) }) { return true }
        return FileDescriptorIO.isRegularFile(atPath: word)
    }
}
