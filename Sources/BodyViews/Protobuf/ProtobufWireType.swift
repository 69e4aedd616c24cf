/// The wire type in the low 3 bits of a protobuf field tag
/// (https://protobuf.dev/programming-guides/encoding/#structure).
public enum ProtobufWireType: UInt8, Sendable, Hashable, CaseIterable {
    /// `VARINT`: int32, int64, uint32, uint64, sint32, sint64, bool, enum.
    case varint = 0
    /// `I64`: fixed64, sfixed64, double; 8 bytes little-endian.
    case i64 = 1
    /// `LEN`: string, bytes, embedded messages, packed repeated fields; a varint length first.
    case len = 2
    /// `SGROUP`: group start (deprecated).
    case startGroup = 3
    /// `EGROUP`: group end (deprecated).
    case endGroup = 4
    /// `I32`: fixed32, sfixed32, float; 4 bytes little-endian.
    case i32 = 5

    /// The name the encoding guide uses: `VARINT`, `I64`, `LEN`, `SGROUP`, `EGROUP`, `I32`.
    public var name: String {
        switch self {
        case .varint: "VARINT"
        case .i64: "I64"
        case .len: "LEN"
        case .startGroup: "SGROUP"
        case .endGroup: "EGROUP"
        case .i32: "I32"
        }
    }
}
