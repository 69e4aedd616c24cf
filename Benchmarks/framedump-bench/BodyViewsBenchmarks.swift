import BodyViews
import FrameFuzzing

/// The schema-less protobuf view (`--body protobuf`) on chat-message-like bodies: decoding with
/// protoc's guesses (each length-delimited field tried as a message, strings checked as UTF-8)
/// into a visitor that only counts, so the row is the decoder's cost, not a renderer's. The
/// issue's target is 200 MB/s of body bytes.
func runBodyViewsBenchmarks(options: BenchmarkOptions, report: inout BenchmarkReport) {
    let count = options.size(20_000, quick: 200)
    var random = FuzzRandom(seed: 0xB0D1)
    var bodies: [[UInt8]] = []
    for index in 0..<count { bodies.append(chatMessage(index, &random)) }
    let bytes = bodies.reduce(0) { $0 + $1.count }
    let cases = [
        BenchmarkCase(name: "protobuf raw view \(count) bodies", bytes: bytes, items: count, itemUnit: "bodies") {
            var visitor = CountingVisitor()
            for body in bodies {
                body.withUnsafeBytes { try? ProtobufRawDecoder.decode($0, into: &visitor) }
            }
            return visitor.count
        },
    ].filter { options.selects($0.name) }
    guard !cases.isEmpty else { return }
    report.add(group: "Body views (average body \(bytes / max(count, 1)) bytes)", measure(cases, options: options))
}

/// A body like a chat app's message: ids, a sender and text, a kind, tags (packed), a nested
/// attachment with a double and a flag, a fixed64 timestamp.
private func chatMessage(_ index: Int, _ random: inout FuzzRandom) -> [UInt8] {
    var message: [UInt8] = []
    func varint(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
    func field(_ number: UInt64, _ contents: [UInt8], to bytes: inout [UInt8]) {
        varint(number << 3 | 2, to: &bytes)
        varint(UInt64(contents.count), to: &bytes)
        bytes += contents
    }
    varint(1 << 3, to: &message)
    varint(UInt64(index) * 7919, to: &message)
    field(2, Array("user-\(index % 97)".utf8), to: &message)
    let words = ["hello", "see", "you", "at", "eight", "🙂", "ok", "thanks", "the", "report"]
    let text = (0..<Int.random(in: 3...20, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
    field(3, Array(text.utf8), to: &message)
    varint(4 << 3, to: &message)
    varint(UInt64(index % 3), to: &message)
    var tags: [UInt8] = []
    for _ in 0..<Int.random(in: 0...4, using: &random) { varint(UInt64.random(in: 1...500, using: &random), to: &tags) }
    if !tags.isEmpty { field(5, tags, to: &message) }
    var attachment: [UInt8] = [0x09]
    attachment += withUnsafeBytes(of: Double(index).bitPattern.littleEndian) { Array($0) }
    attachment += [0x10, UInt8(index & 1)]
    field(6, attachment, to: &message)
    message.append(0x39)
    message += withUnsafeBytes(of: (UInt64(1_733_000_000_000) + UInt64(index)).littleEndian) { Array($0) }
    return message
}

/// Counts the decoder's events.
private struct CountingVisitor: ProtobufRawVisitor {
    var count: UInt64 = 0
    mutating func varint(_ number: UInt32, _ value: UInt64) { count &+= value & 1 &+ 1 }
    mutating func fixed64(_ number: UInt32, _ value: UInt64) { count &+= 1 }
    mutating func fixed32(_ number: UInt32, _ value: UInt32) { count &+= 1 }
    mutating func lengthDelimited(_ number: UInt32, _ bytes: UnsafeRawBufferPointer, isUTF8: Bool) { count &+= UInt64(bytes.count) }
    mutating func beginMessage(_ number: UInt32, isGroup: Bool) { count &+= 1 }
    mutating func endMessage() {}
}
