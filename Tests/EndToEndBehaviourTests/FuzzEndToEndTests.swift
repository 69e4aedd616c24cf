import Foundation
import TestSupport
import Testing

/// `framedump fuzz` as a user runs it: a short clean campaign, and its argument errors.
struct FuzzEndToEndTests {
    @Test func aShortCampaignPassesAndSaysSo() throws {
        let result = try FrameDumpProcess.run(["fuzz", "--format", "fefd", "--seed", "0x2a", "--iterations", "25"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("fuzz: 25 cases ("))
        #expect(result.stdout.contains("0 failures; seed 0x2a"))
        #expect(result.stderr.contains("framedump fuzz: seed 0x2a, fefd"))
    }

    @Test func aRandomLayoutCampaignPasses() throws {
        let result = try FrameDumpProcess.run(["fuzz", "--format", "random", "--seed", "7", "-n", "10"])
        #expect(result.status == 0, "\(result)")
    }

    /// The reassembly target: RSTs no receiver expects and overlapping copies under each policy
    /// (the checks themselves are ReassemblyFuzzCase's).
    @Test func aReassemblyCampaignPasses() throws {
        let result = try FrameDumpProcess.run(["fuzz", "--target", "reassembly", "--seed", "0x2a", "-n", "200"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("fuzz: 200 reassembly cases in "), "\(result.stdout)")
        #expect(result.stdout.contains("0 failures; seed 0x2a"))
        #expect(result.stderr.contains("framedump fuzz: seed 0x2a, TCP reassembly"))
    }

    /// The WebSocket target: valid conversations in random chunkings decode to what was written,
    /// damaged ones account for every byte (the checks themselves are WebSocketFuzzCase's).
    @Test func aWebSocketCampaignPasses() throws {
        let result = try FrameDumpProcess.run(["fuzz", "--target", "websocket", "--seed", "0x2a", "-n", "150"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("fuzz: 150 websocket cases ("), "\(result.stdout)")
        #expect(result.stdout.contains("0 failures; seed 0x2a"))
        #expect(result.stderr.contains("framedump fuzz: seed 0x2a, WebSocket layer"))
        let damaged = result.stdout.split(separator: "(").dropFirst().first.flatMap { Int($0.prefix { $0.isNumber }) } ?? -1
        #expect((30...120).contains(damaged), "\(result.stdout)")
    }

    @Test(arguments: [
        (["fuzz", "--target", "packets"], "invalid --target 'packets': expected decoder, reassembly or websocket"),
        (["fuzz", "--seed", "x12"], "--seed needs a non-negative integer"),
        (["fuzz", "--time", "5", "--iterations", "3"], "give --iterations or --time, not both"),
        (["fuzz", "--format", "len:u9"], "invalid --format at column"),
    ])
    func badArgumentsAreUsageErrors(arguments: [String], message: String) throws {
        let result = try FrameDumpProcess.run(arguments)
        #expect(result.status == 1)
        #expect(result.stderr.contains(message), "\(result)")
    }
}
