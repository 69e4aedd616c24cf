/// What ``MessagePackDecoder`` reports, value by value in encoding order
/// (https://github.com/msgpack/msgpack/blob/master/spec.md).
///
/// Arrays and maps are bracketed: ``beginArray(count:)`` is followed by `count` values, then
/// ``endArray()``; ``beginMap(count:)`` by `count` key–value pairs (key, value, key, …), then
/// ``endMap()``. Byte buffers handed to the visitor are valid only during the call.
public protocol MessagePackVisitor {
    /// `nil` (0xc0).
    mutating func null()
    /// `false` (0xc2) or `true` (0xc3).
    mutating func bool(_ value: Bool)
    /// A non-negative integer, whatever its encoding (positive fixint, uint 8–64, or a signed
    /// int family holding a value ≥ 0).
    mutating func unsigned(_ value: UInt64)
    /// A negative integer (negative fixint, int 8–64).
    mutating func negative(_ value: Int64)
    /// float 32 (0xca).
    mutating func float32(_ value: Float)
    /// float 64 (0xcb).
    mutating func float64(_ value: Double)
    /// A str family value, checked to be UTF-8.
    mutating func string(_ bytes: UnsafeRawBufferPointer)
    /// A bin family value.
    mutating func binary(_ bytes: UnsafeRawBufferPointer)
    /// An ext family value other than a well-formed timestamp.
    mutating func ext(type: Int8, _ bytes: UnsafeRawBufferPointer)
    /// The timestamp extension (type −1) in any of its three sizes: seconds since 1970-01-01
    /// 00:00:00 UTC (may be negative in the 96-bit form) and nanoseconds 0 … 999 999 999.
    mutating func timestamp(seconds: Int64, nanoseconds: UInt32)
    /// An array of `count` values.
    mutating func beginArray(count: Int)
    /// The end of the array ``beginArray(count:)`` started.
    mutating func endArray()
    /// A map of `count` key–value pairs.
    mutating func beginMap(count: Int)
    /// The end of the map ``beginMap(count:)`` started.
    mutating func endMap()
}
