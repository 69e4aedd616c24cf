/// Which copy of a stream byte a ``TCPReassembler`` keeps when captured segments overlap with
/// different bytes (retransmissions that changed, a broken middlebox, an IDS-evasion attempt).
///
/// Receivers differ (docs/reassembly.md, "Overlap policies", has the rules with their sources):
/// Linux keeps what it can deliver in order, Zeek keeps the first copy, Suricata picks per
/// target OS. Under every policy, bytes already delivered in a `data` event stay delivered (a
/// receiver cannot take back what its application read), and every overlap whose bytes differ
/// is reported (``ReassemblyNotice/overlap(offset:length:kept:)``).
public enum OverlapPolicy: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The first captured copy of each byte wins (Zeek; framedump before the policies existed).
    case first
    /// The last captured copy of each byte not yet delivered wins (Suricata's `last` policy).
    case last
    /// Linux's `tcp_data_queue`: a segment that starts at or before the next expected byte (it
    /// fills the hole) wins over the held bytes it overlaps; among held bytes, the copy whose
    /// held run (chunk) starts lower wins, and at the same start the longer one
    /// (`tcp_data_queue_ofo`).
    case linux

    /// The name the `--overlap-policy` option takes: `first`, `last` or `linux`.
    public var description: String { rawValue }
}

/// Which of two overlapping copies of stream bytes was kept.
public enum OverlapCopy: Sendable, Hashable, CustomStringConvertible {
    /// The copy captured earlier (held, or already delivered).
    case earlier
    /// The copy captured later (the segment that overlapped it).
    case later

    /// `first` or `last`, as JSON Lines `kept` shows it.
    public var description: String { self == .earlier ? "first" : "last" }
}
