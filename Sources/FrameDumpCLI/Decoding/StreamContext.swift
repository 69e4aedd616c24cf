import PacketDecoding

/// What the CLI attaches to each stream the framing engine frames: its label for the output
/// and, with `--summary`, its totals.
///
/// A class: every frame reads its label, and a class's constant properties are read in place,
/// where a struct context was copied (its label's strings retained and released) per frame.
final class StreamContext {
    /// The connection, direction and endpoints; `nil` for a hex dump's single stream, whose
    /// outputs carry neither label nor time.
    let label: StreamLabel?
    /// The `--summary` counts; `nil` without `--summary`.
    let totals: StreamTotals?
    /// Whether outputs carry a time: labelled streams' do (capture or wall-clock time), a hex
    /// dump's do not.
    let isTimed: Bool

    init(label: StreamLabel?, totals: StreamTotals?) {
        self.label = label
        self.totals = totals
        isTimed = label != nil
    }
}
