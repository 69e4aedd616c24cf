import FrameCodec
import PacketDecoding
@testable import StreamFraming

/// One engine event reduced to comparable values: which stream, what, where, how many bytes,
/// and the time the stream had when it was emitted.
struct Recorded: Hashable, CustomStringConvertible {
    var connection: Int
    var direction: StreamDirection
    var kind: String
    var offset: UInt64 = 0
    var byteCount: UInt64 = 0
    var time: Int64 = 0

    var description: String { "\(connection)/\(direction) \(kind) @\(offset)+\(byteCount) t\(time)" }
}

/// Feeds a ``FramingEngine`` whose contexts are the streams' names and records what it emits.
struct FramingRecorder {
    var engine: FramingEngine<String>
    private(set) var events: [Recorded] = []

    init(_ configuration: FramingConfiguration) {
        engine = FramingEngine(configuration: configuration)
    }

    mutating func open(_ connection: Int) {
        engine.openConnection(connection, client: "c\(connection)", server: "s\(connection)")
    }

    mutating func receive(_ bytes: [UInt8], _ connection: Int, _ direction: StreamDirection = .clientToServer, at time: Int64 = 0) throws {
        var events = self.events
        defer { self.events = events }
        try bytes.withUnsafeBytes { raw in
            try engine.receive(raw, on: StreamKey(connection: connection, direction: direction), at: Timestamp(nanoseconds: time)) {
                events.append(Self.record($0))
            }
        }
    }

    mutating func gap(_ byteCount: UInt64, _ connection: Int, _ direction: StreamDirection = .clientToServer, at time: Int64 = 0) throws {
        try run { engine, emit in
            try engine.noteGap(byteCount: byteCount, on: StreamKey(connection: connection, direction: direction),
                               at: Timestamp(nanoseconds: time), emit)
        }
    }

    mutating func end(_ connection: Int, _ direction: StreamDirection = .clientToServer, at time: Int64 = 0) throws {
        try run { engine, emit in try engine.endStream(StreamKey(connection: connection, direction: direction), at: Timestamp(nanoseconds: time), emit) }
    }

    mutating func close(_ connection: Int, at time: Int64 = 0) throws {
        try run { engine, emit in try engine.closeConnection(connection, at: Timestamp(nanoseconds: time), emit) }
    }

    mutating func finish() throws {
        try run { engine, emit in try engine.finish(emit) }
    }

    mutating func frame(_ connection: Int, with framing: ConnectionFraming) throws {
        try run { engine, emit in try engine.frame(connection, with: framing, emit) }
    }

    mutating func notice(_ notice: ReassemblyNotice, _ connection: Int, _ direction: StreamDirection = .clientToServer, at time: Int64 = 0) throws {
        try run { engine, emit in
            try engine.with(emit) { engine, receiver in
                try engine.noteNotice(notice, on: StreamKey(connection: connection, direction: direction), at: Timestamp(nanoseconds: time),
                                      into: &receiver)
            }
        }
    }

    /// Feeds a reassembler event through the adapter.
    mutating func consume(_ event: ReassemblyEvent, at time: Int64 = 0) throws {
        try run { engine, emit in
            try engine.consume(event, at: Timestamp(nanoseconds: time), contexts: { number, _, _ in ("c\(number)", "s\(number)") }, emit)
        }
    }

    private mutating func run(_ body: (inout FramingEngine<String>, FramingEngine<String>.Emit) throws -> Void) throws {
        var events = self.events
        defer { self.events = events }
        try body(&engine) { events.append(Self.record($0)) }
    }

    /// The outputs only (frames and decoder events), as `kind`s `frame`, `skip`, `oversize`,
    /// `truncated`, `gap`.
    var outputs: [Recorded] { events.filter { ["frame", "skip", "oversize", "truncated", "gap"].contains($0.kind) } }

    static func record(_ event: FramingEvent<String>) -> Recorded {
        func on(_ stream: FramedStream<String>, _ kind: String, _ offset: UInt64 = 0, _ count: UInt64 = 0) -> Recorded {
            Recorded(connection: stream.key.connection, direction: stream.key.direction, kind: kind, offset: offset, byteCount: count,
                     time: stream.time.nanoseconds)
        }
        switch event {
        case .output(let output, let stream):
            let kind = switch output {
            case .frame(let frame): frame.crcOK == false ? "bad-frame" : "frame"
            case .skip: "skip"
            case .oversize: "oversize"
            case .truncated: "truncated"
            case .gap: "gap"
            }
            return on(stream, kind, output.offset, output.byteCount)
        case .formatDetected(let format, let stream, let isNew):
            return on(stream, "detected \(format.name)\(isNew ? " new" : "")")
        case .formatAssumed(let stream):
            return on(stream, "assumed")
        case .formatUndetectable(let stream, let firstBytes):
            return on(stream, "undetectable", 0, UInt64(firstBytes.count))
        case .limit(let limit, let stream):
            return on(stream, "limit \(limit)")
        case .notice(.discarded(let offset, let length, _), let stream):
            return on(stream, "discarded", offset, length)
        case .notice(let notice, let stream):
            return on(stream, "notice \(notice)")
        case .connectionClosed(let client, _):
            return on(client, "closed")
        }
    }
}

/// `count` h12 frames with bodies of varied sizes and `cmd` = index.
func h12Frames(_ count: Int, bodySize: Int = 9) -> [UInt8] {
    let encoder = FrameEncoder(format: .h12)
    var bytes: [UInt8] = []
    for index in 0..<count {
        try! encoder.encode(fields: ["cmd": UInt64(index & 0xFF)], body: Array(repeating: UInt8(index & 0xFF), count: bodySize + index % 5),
                            into: &bytes)
    }
    return bytes
}

/// `count` fefd frames.
func fefdFrames(_ count: Int) -> [UInt8] {
    let encoder = FrameEncoder(format: .fefd)
    var bytes: [UInt8] = []
    for index in 0..<count { try! encoder.encode(body: Array("{\"n\":\(index)}".utf8), into: &bytes) }
    return bytes
}
