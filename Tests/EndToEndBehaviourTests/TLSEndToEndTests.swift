import Foundation
import TestSupport
import Testing

/// `--tls-keylog` as a user meets it: a damaged key log, a key log for other connections, the
/// option where it does not apply, and a capture decoded without it.
@Suite struct TLSEndToEndTests {
    static let fixture = CaptureFixture(file: "tls13-aes128gcm.pcap", in: CaptureFixture.tlsDirectory)

    /// A malformed line is a warning naming the file and its line number; the other lines are
    /// used, so the capture still decrypts.
    @Test func aMalformedKeyLogLineIsAWarningAndTheRestIsUsed() throws {
        let keys = try String(contentsOf: FrameDumpProcess.packageRoot.appendingPathComponent(Self.fixture.keyLogPath), encoding: .utf8)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-keys-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        try ("CLIENT_RANDOM nothex\n" + keys).write(to: file, atomically: true, encoding: .utf8)
        let result = try FrameDumpProcess.run(["decode", "--json", "--payload", "none", "--tls-keylog", file.path, Self.fixture.path])
        #expect(result.stderr.contains("\(file.path): line 1: CLIENT_RANDOM: expected 3 fields"), "\(result.stderr)")
        #expect(result.status == 0)
        #expect(result.stdout == (try String(contentsOf: FrameDumpProcess.packageRoot.appendingPathComponent(Self.fixture.expectedPath("jsonl")), encoding: .utf8)))
    }

    /// A key log behind many lines that are not one (a file given by mistake, a log with garbage
    /// in front): the first 20 are warnings, the rest one count, and the keys are still used.
    @Test func manyUnusedLinesAreCountedAfterTheFirstWarnings() throws {
        let keys = try String(contentsOf: FrameDumpProcess.packageRoot.appendingPathComponent(Self.fixture.keyLogPath), encoding: .utf8)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-keys-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        try ((0..<100).map { "BOGUS_\($0) x y\n" }.joined() + keys).write(to: file, atomically: true, encoding: .utf8)
        let result = try FrameDumpProcess.run(["decode", "--json", "--payload", "none", "--tls-keylog", file.path, Self.fixture.path])
        #expect(result.status == 0)
        let lines = result.stderr.split(separator: "\n").filter { $0.contains(file.path) }
        #expect(lines.count == 21, "\(result.stderr)")
        #expect(lines.last == "framedump: \(file.path): 80 more lines not used (100 in all; the first 20 are shown)")
        #expect(try JSONLines.parse(result.stdout).filter { $0["type"] as? String == "frame" }.count == 14)
    }

    /// Keys of other connections: the connection is reported, its bytes counted, exit 2.
    @Test func keysOfOtherConnectionsAreReportedNotGuessed() throws {
        let other = CaptureFixture(file: "tls12-aes128gcm.pcap", in: CaptureFixture.tlsDirectory)
        let result = try FrameDumpProcess.run(["decode", "--json", "--tls-keylog", other.keyLogPath, Self.fixture.path])
        #expect(result.status == 2)
        let lines = try JSONLines.parse(result.stdout)
        #expect(!lines.contains { $0["type"] as? String == "frame" })
        #expect(lines.first { $0["type"] as? String == "tls" }?["keys"] as? Bool == false)
        #expect(lines.filter { $0["type"] as? String == "tls_no_key" }.map { $0["dir"] as? String } == ["s2c", "c2s"])
    }

    /// A "key log" that is not text (here /dev/zero, endless and without a line end) is read a
    /// step at a time and given up at its first line over the bound: the run ends, as without
    /// keys, instead of growing until it is killed.
    @Test func aKeyLogWithNoLineEndIsGivenUpAtTheBound() throws {
        let result = try FrameDumpProcess.run(["decode", "--json", "--payload", "none", "--tls-keylog", "/dev/zero", Self.fixture.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/dev/zero: line 1: over 65536 bytes with no line end"), "\(result.stderr)")
        #expect(try JSONLines.parse(result.stdout).contains { $0["type"] as? String == "tls_no_key" })
    }

    @Test func aMissingKeyLogFileIsAnError() throws {
        let result = try FrameDumpProcess.run(["decode", "--tls-keylog", "/nonexistent/keys.txt", Self.fixture.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot open the TLS key log /nonexistent/keys.txt"), "\(result.stderr)")
    }

    @Test func theOptionAppliesOnlyToCaptures() throws {
        let result = try FrameDumpProcess.run(["decode", "--tls-keylog", Self.fixture.keyLogPath, "-"], input: Data("55 aa".utf8))
        #expect(result.status == 1)
        #expect(result.stderr.contains("--tls-keylog applies only to a capture"), "\(result.stderr)")
    }

    /// Without keys the records are framed as TLS records, as before the layer existed.
    @Test func withoutTheOptionTLSRecordsAreFramedAsBefore() throws {
        let result = try FrameDumpProcess.run(["decode", "--json", "--payload", "none", Self.fixture.path])
        #expect(result.stderr.contains("detected format tls"), "\(result.stderr)")
        let lines = try JSONLines.parse(result.stdout)
        #expect(!lines.contains { ($0["type"] as? String)?.hasPrefix("tls") == true })
        #expect(lines.filter { $0["type"] as? String == "frame" }.count > 14)
    }

    /// Plaintext connections in the same run pass through the layer unchanged.
    @Test func plaintextCapturesDecodeTheSameWithTheOption() throws {
        let plain = CaptureFixture(file: "h12-conversation.pcap")
        let result = try FrameDumpProcess.run(["decode", "--json", "--tls-keylog", Self.fixture.keyLogPath, plain.path])
        let expected = try String(contentsOf: FrameDumpProcess.packageRoot.appendingPathComponent(plain.expectedPath("jsonl")), encoding: .utf8)
        #expect(result.status == 0)
        #expect(result.stdout == expected)
    }
}

/// libcrypto is loaded when TLS is to be decrypted, not at start-up (`LibCrypto`): the dynamic
/// loader's own trace (`LD_DEBUG=files`, glibc) names every library it loads.
@Suite struct LibCryptoLoadingEndToEndTests {
    static func loadsLibcrypto(_ trace: String) -> Bool {
        trace.split(separator: "\n").contains { $0.contains("file=libcrypto.") }
    }

    @Test func aDecodeWithoutKeysNeverLoadsLibcrypto() throws {
        let result = try FrameDumpProcess.run(["decode", "--json", "--payload", "none", TLSEndToEndTests.fixture.path],
                                              environment: ["LD_DEBUG": "files"])
        #expect(result.status == 0)
        // The trace is there (the loader ran with it), and libcrypto is not in it.
        #expect(result.stderr.contains("file=libc.so"), "\(result.stderr.prefix(2000))")
        #expect(!Self.loadsLibcrypto(result.stderr))
    }

    @Test func aDecodeWithAKeyLogLoadsLibcryptoAndDecrypts() throws {
        let fixture = TLSEndToEndTests.fixture
        let result = try FrameDumpProcess.run(["decode", "--json", "--payload", "none", "--tls-keylog", fixture.keyLogPath, fixture.path],
                                              environment: ["LD_DEBUG": "files"])
        #expect(result.status == 0)
        #expect(Self.loadsLibcrypto(result.stderr), "\(result.stderr.prefix(2000))")
        #expect(result.stdout == (try String(contentsOf: FrameDumpProcess.packageRoot.appendingPathComponent(fixture.expectedPath("jsonl")), encoding: .utf8)))
    }
}

/// Every command that needs libcrypto, when it cannot be loaded: the dynamic loader is given a
/// `libcrypto.so.3` that is no library (an empty file first on `LD_LIBRARY_PATH`, which
/// `dlopen` tries before the system's), as a system without OpenSSL 3 or a broken install has.
/// Each stops with exit 2 and a message naming the library and the loader's error — never a
/// crash, never output made without it.
@Suite struct LibCryptoMissingEndToEndTests {
    static func withBrokenLibcrypto(_ body: ([String: String]) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-nolibcrypto-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data().write(to: directory.appendingPathComponent("libcrypto.so.3"))
        try body(["LD_LIBRARY_PATH": directory.path])
    }

    static func expectFailureNamingLibcrypto(_ result: FrameDumpProcess.Result, needs purpose: String) {
        #expect(result.status == 2, "\(result.stderr.prefix(2000))")
        #expect(result.stderr.contains("framedump: \(purpose) needs OpenSSL's libcrypto (libcrypto.so.3): "), "\(result.stderr.prefix(2000))")
        #expect(result.stderr.contains("libcrypto.so.3: file too short"), "\(result.stderr.prefix(2000))")
        #expect(!result.stderr.contains("Fatal error"), "\(result.stderr.prefix(2000))")
    }

    @Test func decodeWithAKeyLog() throws {
        let fixture = TLSEndToEndTests.fixture
        try Self.withBrokenLibcrypto { environment in
            let result = try FrameDumpProcess.run(["decode", "--json", "--tls-keylog", fixture.keyLogPath, fixture.path], environment: environment)
            Self.expectFailureNamingLibcrypto(result, needs: "TLS decryption")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func encodeAWebSocketConversation() throws {
        try Self.withBrokenLibcrypto { environment in
            let result = try FrameDumpProcess.run(["encode", "-F", "websocket", "-o", "hex", "-"],
                                                  input: Data(#"{"direction":"c2s","opcode":"text","payload_text":"hi"}"#.utf8 + [0x0A]),
                                                  environment: environment)
            Self.expectFailureNamingLibcrypto(result, needs: "the WebSocket handshake's Sec-WebSocket-Accept (SHA-1)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func fuzzTheWebSocketLayer() throws {
        try Self.withBrokenLibcrypto { environment in
            let result = try FrameDumpProcess.run(["fuzz", "--target", "websocket", "--iterations", "1"], environment: environment)
            Self.expectFailureNamingLibcrypto(result, needs: "the WebSocket handshake's Sec-WebSocket-Accept (SHA-1)")
        }
    }
}
