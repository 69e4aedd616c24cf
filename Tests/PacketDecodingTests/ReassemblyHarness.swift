import PacketDecoding

/// A reassembly event with its bytes copied, so tests can keep and compare it.
enum RecordedEvent: Equatable {
    case opened(Int, client: Endpoint, server: Endpoint, RoleEvidence)
    case data(Int, StreamDirection, offset: UInt64, [UInt8])
    case gap(Int, StreamDirection, offset: UInt64, length: UInt64, GapCause)
    case directionClosed(Int, StreamDirection, offset: UInt64, DirectionCloseReason)
    case closed(Int, ConnectionCloseReason)
    case forgotten(Int)
    case limit(ReassemblyLimit, Int, StreamDirection?)
    case notice(ReassemblyNotice, Int, StreamDirection)
}

let client = Endpoint(address: .v4(0x0A00_0001), port: 40000)
let server = Endpoint(address: .v4(0x0A00_0002), port: 9000)

/// Feeds synthetic segments to a ``TCPReassembler`` and records what comes out.
struct ReassemblyHarness {
    var reassembler: TCPReassembler
    var events: [RecordedEvent] = []
    /// Final counters from `connectionClosed`, by connection number.
    var summaries: [Int: ConnectionSummary] = [:]
    var time: Int64 = 0

    /// Where payloads are placed while ``placesInArena`` is set: memory that outlives the
    /// reassembler, given to it as ``TCPReassembler/persistentBytes``; `nil`: none.
    let arena: PayloadArena?
    /// Whether the next payloads go to the arena (else they are read from a temporary array).
    var placesInArena: Bool

    /// - Parameter arenaCapacity: Bytes of an arena for payloads (see ``arena``); 0: none.
    init(limits: ReassemblyLimits = .default, overlapPolicy: OverlapPolicy = .linux, arenaCapacity: Int = 0) {
        reassembler = TCPReassembler(limits: limits, overlapPolicy: overlapPolicy)
        arena = arenaCapacity > 0 ? PayloadArena(capacity: arenaCapacity) : nil
        placesInArena = arena != nil
        reassembler.persistentBytes = arena.map { UnsafeRawBufferPointer($0.bytes) }
    }

    mutating func send(_ source: Endpoint = client, _ destination: Endpoint = server, seq: UInt32, ack: UInt32? = nil,
                       _ flags: TCPFlags = [], _ payload: [UInt8] = [], missing: Int = 0, at seconds: Int64? = nil) {
        if let seconds { time = seconds * 1_000_000_000 }
        let allFlags = ack == nil ? flags : flags.union(.ack)
        var recorded: [ReassemblyEvent.Recorded] = []
        func process(_ bytes: UnsafeRawBufferPointer) {
            let segment = TCPSegment(source: source, destination: destination, sequenceNumber: seq,
                                     acknowledgmentNumber: ack ?? 0, flags: allFlags, window: 65535,
                                     payload: bytes, missingPayloadLength: missing)
            reassembler.process(segment, at: Timestamp(nanoseconds: time)) { recorded.append($0.recorded) }
        }
        if let arena, placesInArena {
            process(arena.place(payload))
        } else {
            payload.withUnsafeBytes { process($0) }
        }
        keep(recorded)
    }

    /// A segment with payload and no flags (besides ACK when `ack` is given).
    mutating func send(_ source: Endpoint = client, _ destination: Endpoint = server, seq: UInt32, ack: UInt32? = nil,
                       _ payload: [UInt8], missing: Int = 0, at seconds: Int64? = nil) {
        send(source, destination, seq: seq, ack: ack, [], payload, missing: missing, at: seconds)
    }

    mutating func finish() {
        var recorded: [ReassemblyEvent.Recorded] = []
        reassembler.finish { recorded.append($0.recorded) }
        keep(recorded)
    }

    private mutating func keep(_ recorded: [ReassemblyEvent.Recorded]) {
        for (event, summary) in recorded {
            events.append(event)
            if let summary { summaries[summary.connection] = summary }
        }
    }
}

/// Memory for payloads that stays put for a harness's life, as a mapped capture file does.
final class PayloadArena {
    let bytes: UnsafeMutableRawBufferPointer
    private var used = 0

    init(capacity: Int) {
        bytes = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { bytes.deallocate() }

    /// Copies `payload` after the payloads placed so far.
    func place(_ payload: [UInt8]) -> UnsafeRawBufferPointer {
        precondition(used + payload.count <= bytes.count, "arena full")
        let placed = UnsafeMutableRawBufferPointer(rebasing: bytes[used..<(used + payload.count)])
        placed.copyBytes(from: payload)
        used += payload.count
        return UnsafeRawBufferPointer(placed)
    }
}

extension ReassemblyEvent {
    typealias Recorded = (event: RecordedEvent, summary: ConnectionSummary?)

    /// The event with its bytes copied, and the summary a `connectionClosed` carries.
    var recorded: Recorded {
        switch self {
        case .connectionOpened(let connection, let client, let server, let roles):
            (.opened(connection, client: client, server: server, roles), nil)
        case .data(let connection, let direction, let offset, let bytes):
            (.data(connection, direction, offset: offset, Array(bytes)), nil)
        case .gap(let connection, let direction, let offset, let length, let cause):
            (.gap(connection, direction, offset: offset, length: length, cause), nil)
        case .directionClosed(let connection, let direction, let offset, let reason):
            (.directionClosed(connection, direction, offset: offset, reason), nil)
        case .connectionClosed(let summary, let reason):
            (.closed(summary.connection, reason), summary)
        case .limitHit(let limit, let connection, let direction):
            (.limit(limit, connection, direction), nil)
        case .notice(let notice, let connection, let direction):
            (.notice(notice, connection, direction), nil)
        case .connectionForgotten(let summary):
            (.forgotten(summary.connection), summary)
        }
    }
}

extension ReassemblyHarness {
    /// The delivered bytes of one direction, with each gap and discarded range as `nil`s; `nil`
    /// if the data, gap and discarded events do not tile the stream from offset 0 without overlap.
    func stream(_ connection: Int = 1, _ direction: StreamDirection = .clientToServer) -> [UInt8?]? {
        var bytes: [UInt8?] = []
        for event in events {
            switch event {
            case .data(connection, direction, let offset, let data):
                guard offset == UInt64(bytes.count) else { return nil }
                bytes += data.map { $0 }
            case .gap(connection, direction, let offset, let length, _),
                 .notice(.discarded(let offset, let length, _), connection, direction):
                guard offset == UInt64(bytes.count) else { return nil }
                bytes += Array(repeating: nil, count: Int(length))
            default:
                continue
            }
        }
        return bytes
    }

    /// The delivered bytes of one direction, gaps left out.
    func delivered(_ connection: Int = 1, _ direction: StreamDirection = .clientToServer) -> [UInt8] {
        events.flatMap { event -> [UInt8] in
            if case .data(connection, direction, _, let data) = event { return data }
            return []
        }
    }

    /// The notices of one direction.
    func notices(_ connection: Int = 1, _ direction: StreamDirection = .clientToServer) -> [ReassemblyNotice] {
        events.compactMap { event in
            if case .notice(let notice, connection, direction) = event { return notice }
            return nil
        }
    }

    func gaps(_ connection: Int = 1, _ direction: StreamDirection = .clientToServer) -> [RecordedEvent] {
        events.filter {
            if case .gap(connection, direction, _, _, _) = $0 { return true }
            return false
        }
    }
}

/// Bytes `"a"`, `"b"`… as a payload.
func text(_ string: String) -> [UInt8] { Array(string.utf8) }
