import Foundation
import Testing
import TestSupport

/// `decode`'s progress line: shown on standard error when it is a terminal (script(1) gives the
/// command a pseudo-terminal) and erased at the end; never written anywhere else.
///
/// The line waits half a second before its first update, longer than decoding a test capture
/// takes, so both runs stall the decoder: its standard output is a pipe nobody reads for a
/// second. The reader stops with the capture partly read (the queue between the threads is
/// bounded), and resumes after the delay, when an update is due at once.
@Suite struct ProgressLineEndToEndTests {
    /// Frames in the capture, one per packet.
    static let frames = 6_000

    /// A classic pcap (LINKTYPE_RAW, µs): 10.0.0.1:40000 → 10.0.0.2:7000 sending `frames` fefd
    /// frames of 1,400 bytes (`fefd`, a 1,396-byte length, that many `A`s), one per segment;
    /// no handshake, no FIN. About 8.7 MB. With `lateConnection`, halfway through, one packet of
    /// 10.0.0.3:40001 → 10.0.0.2:7000, with FIN, that is one TLS record (a format detected then).
    static func capture(lateConnection: Bool = false) -> Data {
        var file = Data()
        func le32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { file.append(contentsOf: $0) } }
        func le16(_ value: Int) { withUnsafeBytes(of: UInt16(value).littleEndian) { file.append(contentsOf: $0) } }
        le32(0xA1B2_C3D4); le16(2); le16(4); le32(0); le32(0); le32(65_535); le32(101)
        let body = 1_396
        let frame: [UInt8] = [0xFE, 0xFD, UInt8(body >> 8), UInt8(body & 0xFF)] + [UInt8](repeating: 0x41, count: body)
        // One record at `index`'s time: 10.0.0.`host`:`port` → 10.0.0.2:7000, TCP flags `flags`.
        func packet(at index: Int, host: UInt8, port: UInt8, sequence: UInt32, flags: UInt8, payload: [UInt8]) {
            let total = 40 + payload.count
            le32(1_700_000_000 + index / 1_000); le32(index % 1_000 * 1_000); le32(total); le32(total)
            file.append(contentsOf: [0x45, 0, UInt8(total >> 8), UInt8(total & 0xFF), 0, 0, 0x40, 0, 64, 6, 0, 0,
                                     10, 0, 0, host, 10, 0, 0, 2, 0x9C, port, 0x1B, 0x58])
            file.append(contentsOf: [UInt8(sequence >> 24), UInt8(sequence >> 16 & 0xFF), UInt8(sequence >> 8 & 0xFF), UInt8(sequence & 0xFF),
                                     0, 0, 0, 0, 0x50, flags, 0xFF, 0xFF, 0, 0, 0, 0] + payload)
        }
        var sequence: UInt32 = 1_000
        for index in 0..<frames {
            if lateConnection, index == frames / 2 {
                packet(at: index, host: 3, port: 0x41, sequence: 0x1000, flags: 0x19, payload: [0x16, 0x03, 0x01, 0x00, 0x04, 1, 0, 0, 0])
            }
            packet(at: index, host: 1, port: 0x40, sequence: sequence, flags: 0x18, payload: frame)
            sequence &+= UInt32(frame.count)
        }
        return file
    }

    /// Runs `script` with bash, `$1` the framedump binary, `$2` the capture and `$3` a scratch
    /// file, under a pseudo-terminal or not; returns what it wrote on the terminal, or its
    /// standard output.
    private func run(_ script: String, underTerminal: Bool, lateConnection: Bool = false) throws -> String {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-progress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let capture = scratch.appendingPathComponent("large.pcap"), file = scratch.appendingPathComponent("run.sh")
        try Self.capture(lateConnection: lateConnection).write(to: capture)
        try script.write(to: file, atomically: true, encoding: .utf8)
        let arguments = [file.path, FrameDumpProcess.binary.path, capture.path, scratch.appendingPathComponent("stderr").path]
        guard underTerminal else { return try ExternalProgram.run("/bin/bash", arguments).stdout }
        // script(1) runs the command on a pseudo-terminal and copies what it shows to its standard output.
        let command = (["/bin/bash"] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try ExternalProgram.run("/usr/bin/script", ["-qec", command, "/dev/null"]).stdout
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) for a terminal"))
    func aTerminalSeesTheProgressErasedAtTheEnd() throws {
        let output = try run(#""$1" decode "$2" | (sleep 1; cat >/dev/null); echo "status ${PIPESTATUS[0]}""#, underTerminal: true)
        let update = /\rframedump: [0-9.]+ [kMG]?B of 8\.[0-9] MB \([0-9]+%\), [0-9.]+ MB\/s, ETA [0-9:-]+\u{1B}\[K/
        #expect(output.contains(update), "\(output.debugDescription)")
        // Erased at the end: nothing of it is left before what comes next on the terminal.
        #expect(output.hasSuffix("\r\u{1B}[Kstatus 0\r\n"), "\(output.debugDescription)")
        #expect(output.hasPrefix("framedump: detected format fefd from the first bytes of conn 1"), "\(output.debugDescription)")
    }

    /// A notice written while the line is shown (a format detected halfway, on the decoding
    /// thread, while the reading thread owns the line) erases it first, so it begins its own
    /// line instead of running on from the progress text.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) for a terminal"))
    func aNoticeWhileTheProgressIsShownBeginsItsOwnLine() throws {
        let output = try run(#""$1" decode "$2" | (sleep 1; cat >/dev/null); echo "status ${PIPESTATUS[0]}""#,
                             underTerminal: true, lateConnection: true)
        let notice = try #require(output.range(of: "framedump: detected format tls"), "\(output.debugDescription)")
        let before = output[..<notice.lowerBound]
        #expect(before.contains(/\rframedump: [0-9.]+ [kMG]?B of 8\.[0-9] MB/), "the progress was shown first: \(output.debugDescription)")
        #expect(before.hasSuffix("\r\u{1B}[K"), "\(output.debugDescription)")
        #expect(output.hasSuffix("\r\u{1B}[Kstatus 0\r\n"), "\(output.debugDescription)")
    }

    @Test func withoutATerminalStandardErrorHasNoProgress() throws {
        let output = try run(#""$1" decode "$2" 2>"$3" | (sleep 1; cat >/dev/null); echo "status ${PIPESTATUS[0]}"; cat "$3""#, underTerminal: false)
        #expect(output == """
            status 0
            framedump: detected format fefd from the first bytes of conn 1 c2s 10.0.0.1:40000 → 10.0.0.2:7000 (use --format to choose another)

            """)
    }
}
