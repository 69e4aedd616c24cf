/// Reassembles fragmented IPv4 and IPv6 datagrams, in bounded memory, by capture time.
///
/// Fragments are grouped by (source, destination, protocol, identification) as RFC 791 §3.2
/// prescribes for IPv4, and by (source, destination, identification) for IPv6 (RFC 8200 §4.5).
/// Each datagram in progress keeps one buffer and a list of *holes* — the byte ranges not yet
/// received — following RFC 815: a fragment fills the parts of the holes it covers and splits
/// them; the datagram is complete once its length is known (from the fragment without "more
/// fragments") and no hole remains.
///
/// ```
///  fragment  [0 ....... 1480)            [2960 .. 3000) last
///  holes     [0 ......................................... 65535)
///         →  [1480 ........................................ 65535)
///         →  [1480 .. 2960)                   (length is now 3000)
///  fragment             [1480 .. 2960)   → no hole left: complete, 3000 bytes
/// ```
///
/// Choices, where the RFCs leave room:
/// - **Overlaps: the first copy wins.** Bytes already received are never overwritten, so a
///   duplicate or overlapping fragment cannot change data already assembled; the ignored bytes
///   are counted in `Statistics.overlappingBytesIgnored`. The first fragment without "more
///   fragments" fixes the datagram's length; bytes past it are ignored the same way.
/// - **Snaplen.** A fragment cut by the snaplen covers its whole range, but the bytes not captured
///   are remembered: the reassembled payload is delivered up to the first byte never captured
///   and the rest is reported as missing (it becomes a gap in the TCP stream, never garbage).
/// - **Limits** (see `Configuration`): a datagram is dropped when it is older than the timeout
///   (measured in capture time, not wall time), when holding it would exceed the total bytes
///   limit (oldest first), when a new datagram would exceed the count limit (oldest first), or
///   at the end of the capture. Every drop is counted in `statistics` and reported as a `Drop`.
/// - Fragments may carry at most 65,535 bytes of reassembled payload; a fragment reaching
///   further is malformed (the IPv4 total length field cannot describe more).
///
/// A `PacketParser` owns one; it is configured and observed through the parser. The defragmenter
/// itself is protocol-agnostic; `PacketParser` feeds it only IPv4 fragments
/// whose protocol is TCP, and all IPv6 fragments (their upper-layer protocol can hide behind
/// further extension headers).
public struct IPDefragmenter {
    /// Limits on the memory and time spent on incomplete datagrams.
    public struct Configuration: Sendable, Hashable {
        /// Most bytes held for all datagrams in progress together (buffers and hole lists);
        /// default 4 MiB, as Linux's `ipfrag_high_thresh`. One fragment may exceed it briefly,
        /// by at most one datagram's buffer, before the oldest datagrams are dropped.
        public var maxBytesHeld: Int
        /// Most datagrams in progress at once; default 1024.
        public var maxDatagramsInProgress: Int
        /// How long, in capture-time nanoseconds after its first fragment, a datagram may stay
        /// incomplete; default 30 s (Linux `ipfrag_time`).
        public var timeoutNanoseconds: Int64

        /// Limits for the defragmenter; every default mirrors Linux's (`ipfrag_high_thresh`,
        /// `ipfrag_time`).
        ///
        /// - Parameters:
        ///   - maxBytesHeld: Bytes all incomplete datagrams may hold together; default 4 MiB.
        ///   - maxDatagramsInProgress: Incomplete datagrams at once; default 1024.
        ///   - timeoutNanoseconds: Capture-time nanoseconds a datagram may stay incomplete; default 30 s.
        public init(maxBytesHeld: Int = 4 << 20, maxDatagramsInProgress: Int = 1024,
                    timeoutNanoseconds: Int64 = 30_000_000_000) {
            self.maxBytesHeld = maxBytesHeld
            self.maxDatagramsInProgress = maxDatagramsInProgress
            self.timeoutNanoseconds = timeoutNanoseconds
        }
    }

    /// Running totals since the defragmenter was created.
    public struct Statistics: Sendable, Hashable {
        /// Fragments accepted (including duplicates).
        public var fragments = 0
        /// Datagrams completed and handed on.
        public var datagramsReassembled = 0
        /// Incomplete datagrams dropped, for any `DropReason`.
        public var datagramsDropped = 0
        /// Fragment payload bytes those dropped datagrams had received.
        public var bytesDropped = 0
        /// Fragment bytes ignored because earlier fragments had already supplied them.
        public var overlappingBytesIgnored = 0
        /// Drops counted above but not kept as `Drop` values because `takeDrops()` was not called
        /// (at most 1024 wait there).
        public var dropsNotRecorded = 0
    }

    /// Why an incomplete datagram was given up.
    public enum DropReason: Sendable, Hashable, CustomStringConvertible {
        /// Still incomplete `timeoutNanoseconds` after its first fragment.
        case timeout
        /// Evicted to stay under `maxBytesHeld`.
        case memoryLimit
        /// Evicted to stay under `maxDatagramsInProgress`.
        case datagramLimit
        /// Still incomplete when the capture ended (`dropAll`).
        case endOfCapture

        /// The reason in words (`timeout`, `memory limit`, …).
        public var description: String {
            switch self {
            case .timeout: "timeout"
            case .memoryLimit: "memory limit"
            case .datagramLimit: "datagram limit"
            case .endOfCapture: "end of capture"
            }
        }
    }

    /// One incomplete datagram given up: its data is lost and becomes a gap in its stream.
    public struct Drop: Sendable, Hashable {
        /// The datagram's source address.
        public var source: IPAddress
        /// The datagram's destination address.
        public var destination: IPAddress
        /// The IPv4 Identification or IPv6 Fragment header Identification.
        public var identification: UInt32
        /// Why it was given up.
        public var reason: DropReason
        /// Fragment payload bytes received for this datagram.
        public var bytesReceived: Int
        /// Capture time of its first fragment.
        public var firstFragmentTime: Timestamp
    }

    /// The identity of a datagram's fragments. `protocolNumber` is the IPv4 Protocol, or 44
    /// (Fragment) for IPv6, whose fragments are not keyed by protocol.
    struct Key: Hashable {
        var source: IPAddress
        var destination: IPAddress
        var identification: UInt32
        var protocolNumber: UInt8
    }

    /// What one fragment did.
    enum Outcome {
        /// Buffered (or dropped at once by a limit, which is reported as a `Drop`).
        case held
        /// The datagram is complete: `payload` holds its first bytes (up to the first byte the
        /// snaplen cut from a fragment), `length` is its full payload length, and `firstHeader`
        /// the protocol or next header that the first fragment announced.
        case complete(payload: UnsafeRawBufferPointer, length: Int, firstHeader: UInt8)
        case malformed(MalformedReason)
    }

    /// Largest reassembled payload, in bytes.
    static let maxDatagramLength = 65_535
    private static let maxPendingDrops = 1024

    let configuration: Configuration
    private(set) var statistics = Statistics()
    /// Bytes currently held by datagrams in progress (buffers and hole lists).
    private(set) var bytesHeld = 0
    private var inProgress: [Key: PartialDatagram] = [:]
    /// The datagram completed by the last call, kept alive because the caller is reading its bytes.
    private var completed: PartialDatagram?
    private var earliestDeadline = Int64.max
    private var pendingDrops: [Drop] = []

    init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Returns the drops reported since the last call, oldest first.
    mutating func takeDrops() -> [Drop] {
        defer { pendingDrops.removeAll() }
        return pendingDrops
    }

    /// Drops every incomplete datagram, reporting each with `reason` (`.endOfCapture` when the
    /// capture is over), and releases the last reassembled payload.
    mutating func dropAll(reason: DropReason = .endOfCapture) {
        completed = nil
        dropOldestFirst(reason: reason) { _ in true }
    }

    /// Starts a new packet at capture time `now`: releases the previous reassembled datagram and
    /// drops those whose timeout passed. Costs one comparison when nothing is in progress.
    @inline(__always)
    mutating func advance(to now: Timestamp) {
        if completed != nil { completed = nil }
        if now.nanoseconds >= earliestDeadline { expire(now: now) }
    }

    /// Adds one fragment.
    ///
    /// - Parameters:
    ///   - key: the datagram it belongs to.
    ///   - offset: its byte offset in the datagram payload (the header field times 8).
    ///   - length: its data length according to the IP header, in bytes.
    ///   - moreFragments: the MF flag (IPv4) or M flag (IPv6).
    ///   - captured: the data bytes captured, at most `length` (fewer when the snaplen cut it).
    ///   - firstHeader: the IPv4 protocol or the Fragment header's Next Header; kept from the
    ///     fragment at offset 0.
    ///   - now: its capture time.
    /// - Returns: `.complete` with a view of the reassembled payload, valid until the next call
    ///   on this defragmenter; `.held`; or `.malformed` for a fragment no datagram can hold.
    mutating func add(_ key: Key, offset: Int, length: Int, moreFragments: Bool,
                      captured: UnsafeRawBufferPointer, firstHeader: UInt8, at now: Timestamp) -> Outcome {
        let end = offset + length
        guard end <= Self.maxDatagramLength else { return .malformed(.fragmentBeyondMaximumDatagram(end: end)) }
        guard !moreFragments || length % 8 == 0 else { return .malformed(.misalignedFragment(length: length)) }
        statistics.fragments += 1

        let datagram: PartialDatagram
        if let existing = inProgress[key] {
            datagram = existing
        } else {
            if inProgress.count >= configuration.maxDatagramsInProgress, let oldest = oldestKey() {
                drop(oldest, reason: .datagramLimit)
            }
            datagram = PartialDatagram(firstFragmentTime: now, timeout: configuration.timeoutNanoseconds)
            inProgress[key] = datagram
            bytesHeld += datagram.footprint
            earliestDeadline = min(earliestDeadline, datagram.deadline)
        }

        let footprintBefore = datagram.footprint
        let ignored = datagram.insert(offset: offset, length: length, isLast: !moreFragments,
                                      captured: captured, firstHeader: firstHeader)
        statistics.overlappingBytesIgnored += ignored
        bytesHeld += datagram.footprint - footprintBefore

        if let total = datagram.totalLength, datagram.holes.isEmpty, let header = datagram.firstHeader {
            inProgress[key] = nil
            bytesHeld -= datagram.footprint
            completed = datagram
            statistics.datagramsReassembled += 1
            let valid = min(datagram.firstMissing, total)
            let payload = UnsafeRawBufferPointer(start: datagram.storage, count: datagram.storage == nil ? 0 : valid)
            return .complete(payload: payload, length: total, firstHeader: header)
        }
        while bytesHeld > configuration.maxBytesHeld, let oldest = oldestKey() {
            drop(oldest, reason: .memoryLimit)
        }
        return .held
    }

    private mutating func expire(now: Timestamp) {
        dropOldestFirst(reason: .timeout) { now.nanoseconds >= $0.deadline }
        earliestDeadline = inProgress.values.lazy.map(\.deadline).min() ?? .max
    }

    /// Drops the datagrams `isDropped` selects, in the order their first fragments arrived.
    private mutating func dropOldestFirst(reason: DropReason, where isDropped: (PartialDatagram) -> Bool) {
        let selected = inProgress.filter { isDropped($0.value) }
            .sorted { $0.value.firstFragmentTime < $1.value.firstFragmentTime }
        for (key, _) in selected { drop(key, reason: reason) }
    }

    // Linear in the datagrams in progress, which the count limit bounds; runs only when a limit is hit.
    private func oldestKey() -> Key? {
        inProgress.min { $0.value.firstFragmentTime < $1.value.firstFragmentTime }?.key
    }

    private mutating func drop(_ key: Key, reason: DropReason) {
        guard let datagram = inProgress.removeValue(forKey: key) else { return }
        bytesHeld -= datagram.footprint
        statistics.datagramsDropped += 1
        statistics.bytesDropped += datagram.bytesReceived
        if pendingDrops.count < Self.maxPendingDrops {
            pendingDrops.append(Drop(source: key.source, destination: key.destination, identification: key.identification,
                                     reason: reason, bytesReceived: datagram.bytesReceived,
                                     firstFragmentTime: datagram.firstFragmentTime))
        } else {
            statistics.dropsNotRecorded += 1
        }
        if inProgress.isEmpty { earliestDeadline = .max }
    }
}

/// One datagram being reassembled: its buffer and the holes (RFC 815) still to fill.
final class PartialDatagram {
    /// Bytes of bookkeeping charged to each datagram besides its buffer and holes.
    private static let overhead = 128

    let firstFragmentTime: Timestamp
    /// Capture time at which it times out, saturated at `Int64.max`.
    let deadline: Int64
    /// Payload buffer; grows as fragments reach further, up to `IPDefragmenter.maxDatagramLength`.
    private(set) var storage: UnsafeMutableRawPointer?
    private(set) var capacity = 0
    /// Byte ranges not yet received, sorted and disjoint.
    private(set) var holes: [Range<Int>] = [0..<IPDefragmenter.maxDatagramLength]
    /// Payload length, known once the fragment without "more fragments" arrives.
    private(set) var totalLength: Int?
    /// First payload byte covered by a fragment but not captured (snaplen); `Int.max` if none.
    private(set) var firstMissing = Int.max
    /// Protocol / Next Header of the fragment at offset 0.
    private(set) var firstHeader: UInt8?
    private(set) var bytesReceived = 0

    init(firstFragmentTime: Timestamp, timeout: Int64) {
        self.firstFragmentTime = firstFragmentTime
        let (sum, overflow) = firstFragmentTime.nanoseconds.addingReportingOverflow(timeout)
        deadline = overflow ? .max : sum
    }

    deinit { storage?.deallocate() }

    /// Memory charged against `IPDefragmenter.Configuration.maxBytesHeld`.
    var footprint: Int { Self.overhead + capacity + holes.capacity * MemoryLayout<Range<Int>>.stride }

    /// Adds a fragment covering `offset..<offset + length`, of which the first `captured.count`
    /// bytes were captured.
    /// - Returns: the number of bytes ignored because they were already received or lie past the
    ///   datagram's known length.
    func insert(offset: Int, length: Int, isLast: Bool, captured: UnsafeRawBufferPointer, firstHeader: UInt8) -> Int {
        var end = offset + length
        bytesReceived += captured.count
        if offset == 0, self.firstHeader == nil { self.firstHeader = firstHeader }
        if isLast, totalLength == nil {
            totalLength = end
            clipHoles(at: end)
        }
        if let total = totalLength { end = min(end, total) }
        guard offset < end else { return length }

        let capturedEnd = min(offset + captured.count, end)
        var filled = 0
        if offset < capturedEnd, let source = captured.baseAddress {
            reserve(capturedEnd)
            filled += fill(offset..<capturedEnd, from: source, at: offset).count
        }
        if capturedEnd < end {
            let notCaptured = fill(capturedEnd..<end, from: nil, at: capturedEnd)
            if let first = notCaptured.first { firstMissing = min(firstMissing, first) }
            filled += notCaptured.count
        }
        return length - filled
    }

    /// Removes the parts of holes inside `range`, copying the bytes there from `source` (whose
    /// first byte belongs at datagram offset `origin`) or, when `source` is nil, leaving them
    /// unfilled as not captured.
    /// - Returns: how many bytes of `range` were holes, and the first of them.
    private func fill(_ range: Range<Int>, from source: UnsafeRawPointer?, at origin: Int) -> (count: Int, first: Int?) {
        var count = 0
        var first: Int?
        var index = firstHoleEnding(after: range.lowerBound)
        while index < holes.count, holes[index].lowerBound < range.upperBound {
            let hole = holes[index]
            let part = hole.clamped(to: range)
            if let source, let storage {
                (storage + part.lowerBound).copyMemory(from: source + (part.lowerBound - origin), byteCount: part.count)
            }
            count += part.count
            if first == nil { first = part.lowerBound }
            switch (hole.lowerBound < part.lowerBound, part.upperBound < hole.upperBound) {
            case (true, true):
                holes[index] = hole.lowerBound..<part.lowerBound
                holes.insert(part.upperBound..<hole.upperBound, at: index + 1)
                index += 2
            case (true, false):
                holes[index] = hole.lowerBound..<part.lowerBound
                index += 1
            case (false, true):
                holes[index] = part.upperBound..<hole.upperBound
                index += 1
            case (false, false):
                holes.remove(at: index)
            }
        }
        return (count, first)
    }

    /// Index of the first hole whose end lies after `position` (binary search: holes are sorted).
    private func firstHoleEnding(after position: Int) -> Int {
        var low = 0, high = holes.count
        while low < high {
            let middle = (low + high) / 2
            if holes[middle].upperBound <= position { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func clipHoles(at end: Int) {
        while let last = holes.last, last.lowerBound >= end { holes.removeLast() }
        if let last = holes.last, last.upperBound > end { holes[holes.count - 1] = last.lowerBound..<end }
    }

    /// Grows the buffer to hold at least `end` bytes, doubling to keep copies amortised.
    private func reserve(_ end: Int) {
        guard end > capacity else { return }
        let newCapacity = min(IPDefragmenter.maxDatagramLength, max(end, capacity * 2, 2048))
        let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 8)
        // Zeroed so that no byte is ever uninitialised, though holes and missing bytes are never delivered.
        grown.initializeMemory(as: UInt8.self, repeating: 0, count: newCapacity)
        if let storage {
            grown.copyMemory(from: storage, byteCount: capacity)
            storage.deallocate()
        }
        storage = grown
        capacity = newCapacity
    }
}
