import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard input or output handed over in non-blocking mode (`O_NONBLOCK`, set by a parent
/// such as a Node.js or Python program on the pipe it shares): "no data yet" and "pipe full"
/// (`EAGAIN`) are waited through, not taken for read or write errors.
@Suite struct NonBlockingDescriptorsEndToEndTests {
    private static func setNonBlocking(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    private static func fixture(_ path: String) throws -> Data {
        try Data(contentsOf: FrameDumpProcess.packageRoot.appendingPathComponent(path))
    }

    /// A capture (read through libpcap's stream) and a hex dump (read whole) arrive on a
    /// non-blocking pipe in two writes 300 ms apart; the output is the fixture's golden output.
    @Test(arguments: [("Fixtures/captures/h12-conversation.pcap", "Fixtures/captures/h12-conversation.expected.jsonl"),
                      ("Fixtures/hex/fefd-nsdata.hex", "Fixtures/hex/fefd-nsdata.expected.jsonl")])
    func aNonBlockingInputThatPausesIsReadToItsEnd(_ input: String, _ golden: String) throws {
        let bytes = try Self.fixture(input)
        let process = Process()
        process.executableURL = FrameDumpProcess.binary
        process.arguments = ["decode", "--json", "-"]
        process.currentDirectoryURL = FrameDumpProcess.packageRoot
        let stdin = Pipe(), stdout = Pipe()
        Self.setNonBlocking(stdin.fileHandleForReading.fileDescriptor)
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        // A framedump that stopped early makes the second write fail (EPIPE), not kill the tests.
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        // The first write stops inside the capture's third record (and inside the dump's text).
        try stdin.fileHandleForWriting.write(contentsOf: bytes.prefix(200))
        Thread.sleep(forTimeInterval: 0.3)
        try stdin.fileHandleForWriting.write(contentsOf: bytes.dropFirst(200))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(output == (try Self.fixture(golden)))
    }

    /// 642 KB of output into a non-blocking pipe that is read only after 300 ms: ten times what
    /// the pipe holds, every byte written.
    @Test func aNonBlockingOutputThatFillsIsWrittenWhole() throws {
        let process = Process()
        process.executableURL = FrameDumpProcess.binary
        process.arguments = ["decode", "--json", "Fixtures/captures/h12-large.pcap"]
        process.currentDirectoryURL = FrameDumpProcess.packageRoot
        let stdout = Pipe()
        Self.setNonBlocking(stdout.fileHandleForWriting.fileDescriptor)
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 0.3)
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(output == (try Self.fixture("Fixtures/captures/h12-large.expected.jsonl")))
    }
}
