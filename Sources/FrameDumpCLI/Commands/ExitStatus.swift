/// The process exit status; the values are documented in docs/cli.md and stable.
enum ExitStatus: Int32, Sendable {
    /// Everything decoded cleanly (or help, version, formats printed).
    case success = 0
    /// The command line was wrong: unknown option, missing value, bad `--format`, no format detected.
    case usage = 1
    /// The input had bad frames (skip, oversize, checksum mismatch, truncated, gap) or could not
    /// be read or parsed.
    case badInput = 2
}
