import Foundation
import TestSupport
import Testing

/// `framedump decode --json --body msgpack` against Python's msgpack package: scripts/msgpack-
/// corpus encodes seeded random values in every format family (each value in one of the
/// encodings the spec allows, not only the shortest), reads them back with `msgpack.unpackb` —
/// the oracle — and compares framedump's `body.value` with that reading; damaged bodies must get
/// `error` (and `hex`) exactly where msgpack refuses them.
@Suite(.requires(.pythonMsgpack))
struct MessagePackConformanceTests {
    @Test(arguments: [UInt64(14), 0x5EED, UInt64.random(in: 0...UInt64(Int32.max))])
    func msgpackViewMatchesPythonMsgpack(_ seed: UInt64) throws {
        let script = FrameDumpProcess.packageRoot.appendingPathComponent("scripts/msgpack-corpus").path
        let corpus = try ExternalProgram.run("python3", [script, "generate", "\(seed)", "200"])
        #expect(corpus.status == 0, "seed \(seed): the generator failed")
        let entries = try corpus.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(entries.count == 200)
        let hex = try entries.map { entry in
            let body = try #require(entry["hex"] as? String)
            return String(format: "%08x", body.count / 2) + body + "\n"
        }.joined()
        let decoded = try FrameDumpProcess.run(["decode", "--json", "--format", "u32", "--body", "msgpack", "--payload", "none", "-"],
                                               input: Data(hex.utf8))
        #expect(decoded.status == 0, "\(decoded)")
        let corpusPath = try CaptureBytes.temporaryFile(Array(corpus.stdout.utf8), suffix: ".jsonl")
        let outputPath = try CaptureBytes.temporaryFile(Array(decoded.stdout.utf8), suffix: ".jsonl")
        defer {
            try? FileManager.default.removeItem(atPath: corpusPath)
            try? FileManager.default.removeItem(atPath: outputPath)
        }
        let check = try ExternalProgram.run("python3", [script, "check", corpusPath, outputPath])
        #expect(check.status == 0, "seed \(seed):\n\(check.stdout)")
        #expect(check.stdout.hasSuffix("200/200 bodies agree\n"), "seed \(seed):\n\(check.stdout)")
        print("MessagePack conformance: seed \(seed): \(check.stdout.split(separator: "\n").last ?? "")")
    }
}
