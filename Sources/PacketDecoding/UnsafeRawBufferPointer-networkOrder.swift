extension UnsafeRawBufferPointer {
    // Header fields sit at arbitrary alignment inside captured packets, hence `loadUnaligned`.
    // Callers check `offset + size <= count` first: these reads do no bounds checking of their own
    // in release builds.

    /// The big-endian (network byte order) 16-bit value at `offset`.
    @inline(__always)
    func networkUInt16(at offset: Int) -> UInt16 {
        UInt16(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    /// The big-endian (network byte order) 32-bit value at `offset`.
    @inline(__always)
    func networkUInt32(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The big-endian (network byte order) 64-bit value at `offset`.
    @inline(__always)
    func networkUInt64(at offset: Int) -> UInt64 {
        UInt64(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// The bytes from `offset` to `end`, re-based so that index 0 is `offset`; no copy.
    @inline(__always)
    func slice(_ offset: Int, _ end: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: self[offset..<end])
    }

    /// The little-endian value of type `T` at `offset`: PKTAP headers are in the capturing
    /// host's order, little endian on every Apple machine.
    @inline(__always)
    func littleEndian<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T {
        T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
