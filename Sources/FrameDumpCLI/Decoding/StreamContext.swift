import PacketDecoding

/// What the CLI attaches to each stream the framing engine frames: its label for the output
/// and, with `--summary`, its totals.
struct StreamContext {
    /// The connection, direction and endpoints; `nil` for a hex dump's single stream, whose
    /// outputs carry neither label nor time.
    let label: StreamLabel?
    /// The `--summary` counts; `nil` without `--summary`.
    let totals: StreamTotals?
}
