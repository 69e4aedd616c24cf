import CCRCFold

extension CRC32 {
    /// A CRC over bytes that arrive in many pieces, reduced to its 32 bits once, by
    /// ``finish()``: the running checksum of a frame spanning many segments.
    ///
    /// ``CRC32/update(_:)-(UnsafeRawBufferPointer)`` finishes the CRC on every call; on the
    /// folding paths that is a fixed cost (the tail, the 128 → 32-bit reduction, the dispatch)
    /// comparable to folding a few hundred bytes. Here each update folds only whole 64-byte
    /// blocks into the `crcfold_state` lanes and keeps the rest for the next one (CCRCFold.h).
    /// On the portable path the state is the finished value, continued by the tables.
    ///
    /// Made not to fold, it keeps the finished value too, each update a one-shot CRC
    /// continuing it (``CRC32Tables/update(_:_:)``): for a CRC of two or three pieces that costs
    /// less than the lanes' load, store and final reduction (docs/performance.md).
    ///
    /// The path is the one ``CRC32Acceleration/selected`` names when the state is made, kept
    /// to its end, so that a test switching paths never mixes two within one CRC.
    struct Running: Sendable {
        private var state = crcfold_state()
        private let tables: CRC32Tables
        private let path: Int32
        /// Whether updates fold into the lanes (`false`: each finishes the CRC).
        private let folds: Bool

        /// A CRC continuing the finished CRC `crc` of `tables`' polynomial.
        ///
        /// - Parameters:
        ///   - tables: the polynomial; CRC-32 (zlib's) when omitted.
        ///   - crc: the finished CRC of the bytes before (0 to start).
        ///   - folding: whether updates fold into the lanes, reduced once by ``finish()`` (the
        ///     default, for many pieces), or each finish the CRC (for a few).
        init(_ tables: CRC32Tables = .isoHDLC, continuing crc: UInt32 = 0, folding: Bool = true) {
            self.tables = tables
            path = crcfold_path()
            folds = folding
            state.crc = crc
        }

        /// Folds `bytes` in; any length, 0 included.
        @inline(__always)
        mutating func update(_ bytes: UnsafeRawBufferPointer) {
            if !folds {
                state.crc = tables.update(state.crc, bytes)
            } else if path == CRC32Acceleration.portable.rawValue {
                state.crc = tables.portableUpdate(state.crc, bytes)
            } else {
                crcfold_state_update(path, tables.foldAlgorithm, &state, bytes.baseAddress, bytes.count)
            }
        }

        /// The finished CRC of everything folded in so far (the state can go on).
        ///
        /// - Returns: the value ``CRC32/value`` would have after the same updates.
        func finish() -> UInt32 {
            guard folds, path != CRC32Acceleration.portable.rawValue else { return state.crc }
            return withUnsafePointer(to: state) { crcfold_state_finish(path, tables.foldAlgorithm, $0) }
        }
    }
}
