import Foundation
import TestSupport
import Testing

/// The Lua dissector `framedump dissector` writes, run in tshark, against `framedump decode
/// --json` on the same capture: per direction the same PDUs — count, stream offsets, frame
/// lengths, every integer field, the CRC verdict. On every fixture capture whose streams
/// tshark can reassemble (two PDUs in one segment: h12-coalesced; a capture starting
/// mid-stream: hb-midstream; IPv6, VLAN, SLL2, out-of-order, retransmissions), and on seeded
/// random specs encoded into captures with small MSSs (PDUs over many segments).
@Suite(.requires(.tshark))
struct DissectorConformanceTests {
    /// Captures whose bytes tshark's TCP layer cannot hand to any dissector in order: a hole in
    /// the sequence space (hb-gap), bytes the snaplen cut off (hb-snaplen) and bytes an IP
    /// length promises that the record does not hold (hb-ip-length-beyond-capture). Reassembly
    /// waits for the missing bytes forever, so every PDU after them is lost to tshark, while
    /// framedump reports a gap and decodes on (checked: 1 PDU against decode's 3, 1 against 2,
    /// and 1 against 3).
    static let unreassemblable: Set = ["hb-gap.pcap", "hb-snaplen.pcap", "hb-ip-length-beyond-capture.pcap"]

    static let captures = FixtureDirectory.files(in: CaptureFixture.directory, endingIn: ".pcap", ".pcapng")
        .filter { !unreassemblable.contains($0) }

    @Test(arguments: captures)
    func fixtureCapturesDissectAsDecodeReadsThem(_ file: String) throws {
        let path = FrameDumpProcess.packageRoot.appendingPathComponent("\(CaptureFixture.directory)/\(file)").path
        // The format decode detects and the servers' ports, from its summary lines.
        let summary = try FrameDumpProcess.run(["decode", "--json", "--summary", "--payload", "none", path])
        var format: String?
        var ports: [String] = []
        for line in summary.stdout.split(separator: "\n") where line.hasPrefix(#"{"type":"summary""#) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            format = format ?? ((object["c2s"] as? [String: Any])?["format"] as? String)
            if let server = object["server"] as? String, !ports.contains(Self.port(server)) { ports.append(Self.port(server)) }
        }
        let detected = try #require(format, "\(file): no format detected")
        try Self.compare(capture: path, format: detected, registration: ["--port", ports[0]], extraPorts: Array(ports.dropFirst()), label: file)
    }

    @Test(arguments: [UInt64(14), 0x5EED, 99, UInt64.random(in: 0...UInt64(Int32.max))])
    func randomSpecsDissectAsDecodeReadsThem(_ seed: UInt64) throws {
        var random = FuzzRandom(seed: seed)
        for round in 0..<4 {
            let spec = Self.randomSpec(&random)
            var lines: [String] = []
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let body = random.bytes(Int.random(in: 0...(random.chance(1, in: 4) ? 3000 : 40), using: &random))
                lines.append(#"{"fields":{"f0":\#(Int.random(in: 0...3, using: &random))},"body_hex":"\#(body.map { String(format: "%02x", $0) }.joined())"}"#)
            }
            let capture = CaptureBytes.temporaryPath(suffix: ".pcap")
            defer { try? FileManager.default.removeItem(atPath: capture) }
            let mss = random.chance(1, in: 2) ? Int.random(in: 1...12, using: &random) : Int.random(in: 100...1460, using: &random)
            let encoded = try FrameDumpProcess.run(["encode", "--format", spec, "--pcap", capture, "--mss", "\(mss)", "--port", "17123"],
                                                   input: Data((lines.joined(separator: "\n") + "\n").utf8))
            #expect(encoded.status == 0, "seed \(seed) round \(round) spec '\(spec)': \(encoded)")
            guard encoded.status == 0 else { continue }
            // Formats with a magic are found by the heuristic half the time, by the port otherwise
            // (a port no Wireshark dissector claims, as heuristics only run where none does).
            let registration = spec.contains("magic") && random.chance(1, in: 2) ? ["--heuristic"] : ["--port", "17123"]
            try Self.compare(capture: capture, format: spec, registration: registration,
                             label: "seed \(seed) round \(round) '\(spec)' mss \(mss) \(registration[0])")
        }
    }

    /// A spec with a value field `f0` (named values), maybe a magic, a length of 1-4 bytes in
    /// either order, maybe padding, maybe a CRC over the body or the frame, maybe counts=frame.
    static func randomSpec(_ random: inout FuzzRandom) -> String {
        var fields: [String] = []
        let order = { (random: inout FuzzRandom) in random.chance(1, in: 2) ? "le" : "" }
        if random.chance(2, in: 3) {
            let width = [1, 2, 4].randomElement(using: &random)!
            fields.append("magic:u\(width * 8)\(width > 1 ? order(&random) : "")=\(width == 1 ? "0xA5" : width == 2 ? "0xCAFE" : "0xFEEDC0DE")")
        }
        fields.append("f0:u\([8, 16, 24].randomElement(using: &random)!)\(order(&random)){0=zero,1=one,2=two}")
        if random.chance(1, in: 3) { fields.append("pad:bytes\(Int.random(in: 1...3, using: &random))") }
        let lengthWidth = [2, 3, 4].randomElement(using: &random)!
        let length = "len:u\(lengthWidth * 8)\(order(&random))"
        let crc = random.chance(1, in: 2)
            ? "crc:\(random.chance(1, in: 2) ? "crc32" : "crc32c")\(order(&random))\(random.chance(1, in: 2) ? "/frame" : "")" : nil
        if random.chance(1, in: 2) {
            fields.append(length)
            if let crc { fields.append(crc) }
        } else {
            if let crc { fields.append(crc) }
            fields.append(length)
        }
        if random.chance(1, in: 3) { fields.append("counts=frame") }
        return fields.joined(separator: " ")
    }

    /// One PDU as both tools see it: where it starts in its direction's stream, its length, its
    /// integer fields and the CRC verdict.
    struct PDU: Equatable, CustomStringConvertible {
        var offset: UInt64
        var length: UInt64
        var fields: [String]
        var crcOK: Bool?
        var description: String { "@\(offset)+\(length) \(fields.joined(separator: ","))\(crcOK.map { $0 ? " crc ok" : " crc BAD" } ?? "")" }
    }

    static func compare(capture: String, format: String, registration: [String], extraPorts: [String] = [], label: String) throws {
        let decoded = try FrameDumpProcess.run(["decode", "--json", "--payload", "none", "--format", format, capture])
        // Damaged captures end with a non-zero status (docs/cli.md, "Exit status"); a crash is a signal.
        #expect(decoded.status < 64, "\(label): \(decoded)")
        let parsed = try FrameFormatFields.integerFields(of: format)
        var ours: [String: [PDU]] = [:]
        for line in decoded.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard object["type"] as? String == "frame", let src = object["src"] as? String, let dst = object["dst"] as? String,
                  let fields = object["fields"] as? [String: Any] else { continue }
            let key = Self.port(src) + ">" + Self.port(dst)
            ours[key, default: []].append(PDU(
                offset: (object["offset"] as? NSNumber)?.uint64Value ?? 0,
                length: (object["frame_length"] as? NSNumber)?.uint64Value ?? 0,
                fields: parsed.map { "\(fields[$0] ?? "?")" },
                crcOK: object["crc_ok"] as? Bool
            ))
        }

        let dissector = try FrameDumpProcess.run(["dissector", "--format", format, "--name", "fd"] + registration)
        #expect(dissector.status == 0, "\(label): \(dissector)")
        let registrations = extraPorts.map { "DissectorTable.get(\"tcp.port\"):add(\($0), proto)\n" }.joined()
        let script = try CaptureBytes.temporaryFile(Array((dissector.stdout + registrations).utf8), suffix: ".lua")
        defer { try? FileManager.default.removeItem(atPath: script) }
        let hasCRC = dissector.stdout.contains("fd.crc_ok")
        // tshark refuses a field the dissector does not declare: crc_ok only with a checksum.
        let columns = ["tcp.srcport", "tcp.dstport", "fd.skipped", "fd.frame_length", hasCRC ? "fd.crc_ok" : "fd.skipped", "fd.trailing_skip"]
            + parsed.map { "fd.\($0)" }
        let tshark = try ExternalProgram.run("tshark", [
            "-X", "lua_script:\(script)", "-o", "tcp.reassemble_out_of_order:TRUE", "-r", capture, "-T", "fields",
            "-E", "occurrence=a", "-E", "aggregator=;",
        ] + columns.flatMap { ["-e", $0] })
        #expect(tshark.status == 0, "\(label): tshark failed")
        var theirs: [String: [PDU]] = [:]
        var positions: [String: UInt64] = [:]
        for line in tshark.stdout.split(separator: "\n") {
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map { $0.split(separator: ";").map(String.init) }
            guard cells.count == columns.count, let source = cells[0].first, let destination = cells[1].first else { continue }
            let key = "\(source)>\(destination)"
            var position = positions[key] ?? 0
            for index in cells[3].indices {
                position += UInt64(cells[2][safe: index] ?? "0") ?? 0
                let length = UInt64(cells[3][index]) ?? 0
                theirs[key, default: []].append(PDU(
                    offset: position, length: length,
                    fields: parsed.indices.map { Self.decimal(cells[6 + $0][safe: index] ?? "?") },
                    crcOK: hasCRC ? cells[4][safe: index].map { $0 == "1" || $0 == "True" } : nil
                ))
                position += length
            }
            position += cells[5].compactMap { UInt64($0) }.reduce(0, +)
            positions[key] = position
        }
        #expect(!ours.isEmpty, "\(label): no frames decoded")
        #expect(Set(ours.keys) == Set(theirs.keys.filter { !(theirs[$0]?.isEmpty ?? true) }), "\(label): directions \(ours.keys.sorted()) vs tshark's \(theirs.keys.sorted())")
        for (key, pdus) in ours {
            let other = theirs[key] ?? []
            #expect(pdus.count == other.count, "\(label) \(key): \(pdus.count) PDUs vs tshark's \(other.count)")
            for (index, (mine, theirs)) in zip(pdus, other).enumerated() where mine != theirs {
                Issue.record("\(label) \(key) PDU \(index): decode \(mine) vs tshark \(theirs)")
                break
            }
        }
        print("dissector conformance: \(label): \(ours.values.map(\.count).reduce(0, +)) PDUs in \(ours.count) directions")
    }

    /// tshark's text of an integer field (hex for base.HEX fields) in decimal.
    static func decimal(_ text: String) -> String {
        guard text.hasPrefix("0x"), let value = UInt64(text.dropFirst(2), radix: 16) else { return text }
        return String(value)
    }

    /// `"[::1]:7000"` or `"127.0.0.1:7000"` → `"7000"`.
    static func port(_ endpoint: String) -> String {
        String(endpoint.split(separator: ":").last ?? "")
    }
}

/// The integer fields of a format, by name, in header order: the `fields` keys of JSON Lines.
enum FrameFormatFields {
    static func integerFields(of format: String) throws -> [String] {
        let result = try FrameDumpProcess.run(["encode", "--format", format, "--output", "hex"], input: Data("{}\n".utf8))
        let decoded = try FrameDumpProcess.run(["decode", "--json", "--format", format, "-"], input: Data(result.stdout.utf8))
        guard let line = decoded.stdout.split(separator: "\n").first,
              let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let fields = object["fields"] as? [String: Any] else { return [] }
        // Key order of the line itself (JSONSerialization's dictionary has none).
        return fields.keys.sorted { line.range(of: "\"\($0)\":")!.lowerBound < line.range(of: "\"\($1)\":")!.lowerBound }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
