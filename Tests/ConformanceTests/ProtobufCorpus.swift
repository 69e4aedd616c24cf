import TestSupport

/// Seeded random protobuf messages built field by field on the wire, for the schema-less view's
/// conformance test: every wire type, varints of every length, strings with escapes and
/// non-ASCII UTF-8, bytes that are not UTF-8, empty fields, nested messages, groups, and
/// bytes that happen to parse as a message. The generator only encodes; what the bytes mean is
/// protoc's to say.
enum ProtobufCorpus {
    static func message(_ random: inout FuzzRandom, depth: Int = 0) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<Int.random(in: 0...(depth == 0 ? 8 : 4), using: &random) {
            appendField(&random, depth: depth, to: &bytes)
        }
        return bytes
    }

    static func appendField(_ random: inout FuzzRandom, depth: Int, to bytes: inout [UInt8]) {
        let number = random.chance(1, in: 8) ? random.edgy(in: 1...(1 << 29) - 1) : UInt64.random(in: 1...20, using: &random)
        switch Int.random(in: 0..<(depth < 3 ? 9 : 6), using: &random) {
        case 0, 1:
            appendVarint(number << 3, to: &bytes)
            let bits = Int.random(in: 0...64, using: &random)
            appendVarint(bits == 64 ? random.next() : random.next() & ((1 << UInt64(bits)) - 1), to: &bytes)
        case 2:
            appendVarint(number << 3 | 5, to: &bytes)
            bytes += random.bytes(4)
        case 3:
            appendVarint(number << 3 | 1, to: &bytes)
            bytes += random.bytes(8)
        case 4:
            appendLengthDelimited(number, string(&random), to: &bytes)
        case 5:
            appendLengthDelimited(number, random.bytes(Int.random(in: 0...12, using: &random)), to: &bytes)
        case 6, 7:
            appendLengthDelimited(number, message(&random, depth: depth + 1), to: &bytes)
        default:
            appendVarint(number << 3 | 3, to: &bytes)
            bytes += message(&random, depth: depth + 1)
            appendVarint(number << 3 | 4, to: &bytes)
        }
    }

    static func string(_ random: inout FuzzRandom) -> [UInt8] {
        let pieces = ["a", "hello", " ", "\"", "\\", "'", "\n", "\t", "\r", "#", "é", "日本", "🙂", "\u{7F}", "\u{1}", "0", "{", "}"]
        return Array((0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined().utf8)
    }

    static func appendLengthDelimited(_ number: UInt64, _ contents: [UInt8], to bytes: inout [UInt8]) {
        appendVarint(number << 3 | 2, to: &bytes)
        appendVarint(UInt64(contents.count), to: &bytes)
        bytes += contents
    }

    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
}
