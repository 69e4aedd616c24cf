import Foundation
import TestSupport
import Testing

/// `framedump decode --proto-descriptors FILE --body FIELD=VALUE:proto:TYPE` against
/// `protoc --decode=TYPE`: scripts/proto-corpus writes a seeded random proto3 schema (every
/// scalar type, enums, nested messages, packed repeated fields, maps of every key type, oneofs,
/// optional fields), has protoc encode random text-format messages of its types and decode them
/// again — protoc's reading is the oracle. Each message goes in a frame whose `kind` field picks
/// its type, so one run checks the per-value body selection too.
@Suite(.requires(.protoc))
struct ProtoSchemaConformanceTests {
    @Test(arguments: [UInt64(14), 0x5EED, 7, UInt64.random(in: 0...UInt64(Int32.max))])
    func schemaViewMatchesProtocDecode(_ seed: UInt64) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-proto-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = FrameDumpProcess.packageRoot.appendingPathComponent("scripts/proto-corpus").path
        let corpus = try ExternalProgram.run("python3", [script, "\(seed)", directory])
        #expect(corpus.status == 0, "seed \(seed): the generator failed")
        let entries = try corpus.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(entries.count == 30)
        let types = Array(Set(entries.compactMap { $0["type"] as? String })).sorted()
        var hex = ""
        for entry in entries {
            let body = try #require(entry["hex"] as? String)
            let type = try #require(entry["type"] as? String)
            let kind = try #require(types.firstIndex(of: type))
            hex += String(format: "%02x%08x", kind, body.count / 2) + body + "\n"
        }
        let rules = types.enumerated().flatMap { ["--body", "kind=\($0.offset):proto:\($0.element)"] }
        let result = try FrameDumpProcess.run(
            ["decode", "--format", "kind:u8 len:u32", "--color", "never", "--proto-descriptors", "\(directory)/corpus.pb"] + rules + ["-"],
            input: Data(hex.utf8)
        )
        #expect(result.status == 0, "\(result)")
        let ours = Self.bodies(result.stdout)
        #expect(ours.count == entries.count)
        var agreed = 0
        for (index, entry) in entries.enumerated() where index < ours.count {
            let expected = try #require(entry["expected"] as? [String])
            let label = "seed \(seed) message \(index) \(entry["type"] ?? "") \(entry["hex"] ?? "")"
            #expect(ProtocText.same(ours[index], expected), "\(label)\nours:\n\(ours[index].joined(separator: "\n"))\nprotoc:\n\(expected.joined(separator: "\n"))")
            if ProtocText.same(ours[index], expected) { agreed += 1 }
        }
        print("protobuf schema conformance: seed \(seed): \(agreed)/\(entries.count) messages read as protoc reads them, \(types.count) types")
    }

    /// Each frame's body lines without the two-space indentation (an empty body has none).
    static func bodies(_ output: String) -> [[String]] {
        var frames: [[String]] = []
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("frame  ") {
                frames.append([])
            } else if line.hasPrefix("  "), !frames.isEmpty {
                frames[frames.count - 1].append(String(line.dropFirst(2)))
            }
        }
        return frames
    }
}
