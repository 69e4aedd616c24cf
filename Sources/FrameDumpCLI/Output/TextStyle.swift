/// ANSI SGR styles (ECMA-48 §8.3.117) for human output, or none when colour is off.
///
/// Only a few, each with one meaning: bold for a frame's heading, green for a good checksum,
/// red for a bad one and for data lost, yellow for bytes skipped or left over.
struct TextStyle: Sendable {
    /// Whether escapes are emitted at all.
    var enabled: Bool

    enum Tone: Sendable {
        case heading, good, bad, warning, dim

        var code: String {
            switch self {
            case .heading: "1"
            case .good: "32"
            case .bad: "1;31"
            case .warning: "33"
            case .dim: "2"
            }
        }
    }

    /// `text` wrapped in the escape for `tone` and a reset, or `text` alone when colour is off.
    func apply(_ tone: Tone, _ text: String) -> String {
        enabled ? "\u{1B}[\(tone.code)m\(text)\u{1B}[0m" : text
    }
}
