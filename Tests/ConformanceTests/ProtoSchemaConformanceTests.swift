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
        let corpus = try Corpus(seed: seed, json: false)
        defer { corpus.remove() }
        let entries = corpus.entries
        let result = try corpus.decode([])
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
        print("protobuf schema conformance: seed \(seed): \(agreed)/\(entries.count) messages read as protoc reads them, \(corpus.types.count) types")
    }

    /// The schema view's JSON Lines `body.value` against Python protobuf's
    /// `json_format.MessageToDict` of the same bytes (the proto3 JSON mapping's reference, run
    /// with its defaults: `json_name` keys, fields without presence left out at their default),
    /// compared as parsed JSON values: 64-bit integers as strings, bytes in base64, enums by
    /// name and unknown enum numbers as integers, NaN and infinities as strings, maps, oneofs,
    /// repeated and packed fields, nested messages — and the well-known types the corpus mixes
    /// in with `--json` (Timestamp, Duration, wrappers, Struct/Value/ListValue, FieldMask,
    /// Empty, Any packing a corpus message or a Timestamp).
    @Test(.requires(.pythonProtobuf), arguments: [UInt64(14), 0x5EED, 7, 21, 99, UInt64.random(in: 0...UInt64(Int32.max))])
    func schemaViewJSONMatchesPythonProtobuf(_ seed: UInt64) throws {
        let corpus = try Corpus(seed: seed, json: true)
        defer { corpus.remove() }
        let result = try corpus.decode(["--json", "--payload", "none"])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == corpus.entries.count)
        var agreed = 0
        for (index, (line, entry)) in zip(lines, corpus.entries).enumerated() {
            let frame = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let body = try #require(frame["body"] as? [String: Any], "seed \(seed) message \(index): \(line)")
            let ours = body["value"] as? NSDictionary
            let reference = try #require(entry["json"] as? NSDictionary)
            let label = "seed \(seed) message \(index) \(entry["type"] ?? "") \(entry["hex"] ?? "")"
            #expect(ours == reference, "\(label)\nours:   \(body)\npython: \(reference)")
            if ours == reference { agreed += 1 }
        }
        print("protobuf JSON conformance: seed \(seed): \(agreed)/\(corpus.entries.count) messages mapped as Python protobuf maps them")
    }

    /// One run of scripts/proto-corpus: its schema's descriptor set in a temporary directory and
    /// its messages, each to go in a `kind:u8 len:u32` frame whose `kind` picks its type.
    struct Corpus {
        let directory: String
        let entries: [[String: Any]]
        let types: [String]

        init(seed: UInt64, json: Bool) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-proto-\(UUID().uuidString)").path
            let script = FrameDumpProcess.packageRoot.appendingPathComponent("scripts/proto-corpus").path
            let corpus = try ExternalProgram.run("python3", [script] + (json ? ["--json"] : []) + ["\(seed)", directory])
            #expect(corpus.status == 0, "seed \(seed): the generator failed")
            entries = try corpus.stdout.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
            #expect(entries.count == 30)
            types = Array(Set(entries.compactMap { $0["type"] as? String })).sorted()
        }

        /// `framedump decode` of every message with `options`, each type picked by a
        /// `--body kind=N:proto:TYPE` rule.
        func decode(_ options: [String]) throws -> FrameDumpProcess.Result {
            var hex = ""
            for entry in entries {
                let body = try #require(entry["hex"] as? String)
                let type = try #require(entry["type"] as? String)
                let kind = try #require(types.firstIndex(of: type))
                hex += String(format: "%02x%08x", kind, body.count / 2) + body + "\n"
            }
            let rules = types.enumerated().flatMap { ["--body", "kind=\($0.offset):proto:\($0.element)"] }
            return try FrameDumpProcess.run(
                ["decode", "--format", "kind:u8 len:u32", "--color", "never", "--proto-descriptors", "\(directory)/corpus.pb"] + options + rules + ["-"],
                input: Data(hex.utf8)
            )
        }

        func remove() {
            try? FileManager.default.removeItem(atPath: directory)
        }
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
