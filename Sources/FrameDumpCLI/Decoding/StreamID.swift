/// Identifies one direction's byte stream within an input: 0 for a hex dump's only stream; a
/// capture source numbers each connection's directions densely from 0 in order of appearance.
struct StreamID: Hashable, Sendable {
    var rawValue: Int
}
