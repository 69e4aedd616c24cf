import Foundation
import TestSupport
import Testing

/// `framedump capture --tls-keylog` while the client writes the key log: scripts/tls-traffic-generator
/// plays a TLS 1.3 conversation in a network namespace of this test's own (127.0.0.1 only),
/// logging its keys as it goes, and the capture decrypts and frames it live. The server's first
/// protected records can reach the capture before the client has logged their keys: the
/// capture reads the growing file again. The file need not exist when the capture starts (the
/// natural order: capture first, then the client creates its key log).
@Suite(.requires(.liveCapture))
struct TLSCaptureLiveEndToEndTests {
    @Test(arguments: [true, false])
    func capturesAndDecryptsWhileTheKeyLogGrows(keyLogExistsAtStart: Bool) throws {
        let network = try PrivateNetwork()
        // A port nothing else in the namespace uses: the system's choice, freed for the generator.
        let (probe, port) = try network.listen()
        probe.close()
        let keys = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-live-keys-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: keys) }
        if keyLogExistsAtStart { try Data().write(to: keys) }
        let capture = try network.run {
            try LiveProcess(["capture", "-i", "lo", "--json", "--payload", "none", "--tls-keylog", keys.path, "-c", "14", "tcp port \(port)"])
        }
        try capture.waitForStandardError(containing: "listening on lo")
        #expect(capture.stderr.contains("cannot be opened yet") == !keyLogExistsAtStart, "\(capture.stderr)")
        let generator = FrameDumpProcess.packageRoot.appendingPathComponent("scripts/tls-traffic-generator").path
        // The generator's standard error joins its output, so a failed run says why.
        let played = try network.run {
            try ExternalProgram.run("/bin/sh", ["-c", "exec python3 \"$@\" 2>&1", "sh",
                                                generator, "run", "tls13-aes128gcm", "--port", String(port), "--keylog", keys.path])
        }
        #expect(played.status == 0, "\(played.stdout)")
        // A capture still short of its 14 frames is interrupted, so that its closing line (frames,
        // packets, libpcap's drops) and what it wrote are in the failure.
        let status = try? capture.waitForExit()
        if status == nil { _ = try? capture.stop(SIGINT) }
        #expect(status == 0, "exit status \(status.map(String.init) ?? "none in 10 s"); standard error:\n\(capture.stderr)\nstandard output:\n\(capture.stdout)")
        let lines = try JSONLines.parse(capture.stdout)
        #expect(lines.filter { $0["type"] as? String == "frame" }.count == 14)
        #expect(lines.filter { $0["type"] as? String == "frame" }.allSatisfy { $0["crc_ok"] as? Bool == true })
        let session = lines.first { $0["type"] as? String == "tls" }
        #expect(session?["keys"] as? Bool == true)
        #expect(session?["cipher_suite"] as? String == "TLS_AES_128_GCM_SHA256")
        #expect(!lines.contains { ["tls_no_key", "tls_decrypt_error"].contains($0["type"] as? String) })
    }
}
