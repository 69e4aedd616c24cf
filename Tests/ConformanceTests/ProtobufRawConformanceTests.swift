import Foundation
import TestSupport
import Testing

/// `framedump decode --body protobuf` against `protoc --decode_raw` (Debian's protobuf-compiler)
/// on a seeded corpus of random messages (``ProtobufCorpus``) and of the same messages cut
/// short: the same fields, numbers, values and nesting guesses, and the same verdict on bodies
/// that are not a message. Our `# …` comments (zigzag, float readings, which guess) are text
/// format comments; they are dropped before comparing, and string literals are compared as the
/// bytes they stand for (protoc escapes UTF-8 in octal, we keep it).
@Suite(.requires(.protoc))
struct ProtobufRawConformanceTests {
    @Test(arguments: [UInt64(14), 0x5EED, UInt64.random(in: 0...UInt64.max)])
    func rawViewMatchesProtocDecodeRaw(_ seed: UInt64) throws {
        var random = FuzzRandom(seed: seed)
        var bodies: [[UInt8]] = []
        for index in 0..<40 {
            let message = ProtobufCorpus.message(&random)
            // Every fourth one cut short (often no longer a message), or with a stray byte.
            if index % 4 == 3, !message.isEmpty {
                bodies.append(Array(message.prefix(Int.random(in: 0..<message.count, using: &random))))
            } else if index % 8 == 5 {
                bodies.append(message + [UInt8.random(in: 0...255, using: &random)])
            } else {
                bodies.append(message)
            }
        }
        let ours = try Self.framedumpBodies(bodies)
        #expect(ours.count == bodies.count, "seed \(seed): \(ours.count) frames shown for \(bodies.count)")
        var agreed = 0
        for (index, body) in bodies.enumerated() where index < ours.count {
            let theirs = try Protoc.decodeRaw(body)
            let label = "seed \(seed) body \(index) (\(body.map { String(format: "%02x", $0) }.joined()))"
            if let expected = theirs {
                #expect(ProtocText.normalized(ours[index]) == ProtocText.normalized(expected), "\(label)")
                if ProtocText.normalized(ours[index]) == ProtocText.normalized(expected) { agreed += 1 }
            } else {
                #expect(ours[index].first?.hasPrefix("(not protobuf: ") == true, "\(label): protoc fails, we show \(ours[index])")
                if ours[index].first?.hasPrefix("(not protobuf: ") == true { agreed += 1 }
            }
        }
        print("protobuf raw conformance: seed \(seed): \(agreed)/\(bodies.count) bodies read as protoc reads them")
    }

    /// Each body as a u32 frame in one hex dump, decoded with `--body protobuf`: each frame's
    /// body lines, without the two-space indentation.
    static func framedumpBodies(_ bodies: [[UInt8]]) throws -> [[String]] {
        let hex = bodies.map { body in
            let length = UInt32(body.count)
            return (withUnsafeBytes(of: length.bigEndian) { Array($0) } + body).map { String(format: "%02x", $0) }.joined() + "\n"
        }.joined()
        let result = try FrameDumpProcess.run(["decode", "--format", "u32", "--body", "protobuf", "--color", "never", "-"], input: Data(hex.utf8))
        #expect(result.status == 0, "\(result)")
        var frames: [[String]] = []
        for line in result.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("frame  ") {
                frames.append([])
            } else if line.hasPrefix("  "), !frames.isEmpty {
                frames[frames.count - 1].append(String(line.dropFirst(2)))
            }
        }
        return frames
    }
}

/// Running protoc on one message.
enum Protoc {
    /// `protoc --decode_raw` of `message`: its output lines, or `nil` when protoc cannot parse it.
    static func decodeRaw(_ message: [UInt8]) throws -> [String]? {
        try run(["--decode_raw"], input: message)
    }

    /// `protoc ARGUMENTS < input`: the output lines, or `nil` for a non-zero exit.
    static func run(_ arguments: [String], input: [UInt8], directory: String? = nil) throws -> [String]? {
        let path = try CaptureBytes.temporaryFile(input, suffix: ".bin")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
        let change = directory.map { "cd '\($0)' && " } ?? ""
        let result = try ExternalProgram.run("sh", ["-c", "\(change)protoc \(quoted) < '\(path)'"])
        guard result.status == 0 else { return nil }
        return result.stdout.split(separator: "\n").map(String.init)
    }
}

/// Text format lines compared by meaning: trailing `  # …` comments dropped, and the string
/// literal of a line replaced by the hex of the bytes it stands for.
enum ProtocText {
    static func normalized(_ lines: [String]) -> [String] {
        lines.map(normalized)
    }

    /// Whether two outputs say the same, line by line: equal after ``normalized(_:)``, or
    /// `name: number` lines whose numbers are equal as doubles, or as floats (protoc prints a
    /// float with up to 9 digits, we print its shortest form; both round to the same float).
    static func same(_ ours: [String], _ theirs: [String]) -> Bool {
        let ours = normalized(ours), theirs = normalized(theirs)
        return ours.count == theirs.count && zip(ours, theirs).allSatisfy { mine, other in
            guard mine != other else { return true }
            let a = mine.split(separator: ":", maxSplits: 1), b = other.split(separator: ":", maxSplits: 1)
            guard a.count == 2, b.count == 2, a[0] == b[0],
                  let x = Double(a[1].trimmingCharacters(in: .whitespaces)),
                  let y = Double(b[1].trimmingCharacters(in: .whitespaces)) else { return false }
            return x == y || Float(x) == Float(y) || (x.isNaN && y.isNaN)
        }
    }

    static func normalized(_ line: String) -> String {
        var text = line
        if let comment = text.range(of: "  # ", options: .backwards), !text[comment.upperBound...].contains("\"") {
            text = String(text[..<comment.lowerBound])
        }
        guard let open = text.range(of: ": \""), text.hasSuffix("\"") else { return text }
        let literal = text[open.upperBound..<text.index(before: text.endIndex)]
        return text[..<open.lowerBound] + ": bytes " + unescape(literal).map { String(format: "%02x", $0) }.joined()
    }

    /// The bytes of a C-escaped literal's inside: `\n \r \t \" \' \\`, `\ooo` octal, and
    /// everything else as its UTF-8.
    static func unescape(_ literal: Substring) -> [UInt8] {
        var bytes: [UInt8] = []
        var input = Array(literal.utf8)[...]
        while let byte = input.popFirst() {
            guard byte == UInt8(ascii: "\\"), let next = input.popFirst() else {
                bytes.append(byte)
                continue
            }
            switch next {
            case UInt8(ascii: "n"): bytes.append(10)
            case UInt8(ascii: "r"): bytes.append(13)
            case UInt8(ascii: "t"): bytes.append(9)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = Int(next - UInt8(ascii: "0"))
                for _ in 0..<2 {
                    guard let digit = input.first, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(digit) else { break }
                    value = value * 8 + Int(digit - UInt8(ascii: "0"))
                    input.removeFirst()
                }
                bytes.append(UInt8(truncatingIfNeeded: value))
            default: bytes.append(next)
            }
        }
        return bytes
    }
}
