/// When to colour human output: the `--color` option.
enum ColorChoice: String, CaseIterable, Sendable {
    /// Colour when standard output is a terminal and `NO_COLOR` is not set.
    case auto
    /// Colour even into a pipe or file, unless `NO_COLOR` is set.
    case always
    /// Never colour.
    case never
}
