/// One positional argument a command accepts.
struct PositionalSpec: Sendable {
    /// The placeholder shown in usage (`"FILE|-"`).
    var name: String
    /// Whether it may be left out.
    var isOptional: Bool
    /// One line of help text.
    var help: String
    /// Whether it takes every remaining argument (only the last positional may): a filter
    /// expression written as several words, as tcpdump takes it.
    var isVariadic = false
}
