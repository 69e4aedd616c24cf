import Foundation

/// Fixtures/websocket/*.pcap (scripts/capture-websocket: Python's `websockets` client and server on
/// loopback) and the script's record of what each side sent (`NAME.summary.json`).
package enum WebSocketCapture {
    /// The captures: `ws-plain`, `ws-deflate` (permessage-deflate), `ws-h12` (h12 frames in binary
    /// messages), `wss-h12` (ws-h12 over TLS, with its key log).
    package static let names = ["ws-plain", "ws-deflate", "ws-h12", "wss-h12"]

    /// The key log of a capture over TLS (`wss-h12.keys`), or `nil` for one in the clear.
    package static func keyLogPath(_ name: String) -> String? { name.hasPrefix("wss") ? "Fixtures/websocket/\(name).keys" : nil }

    /// `decode`'s arguments for the capture: `--format websocket`, `--inner h12` for the h12
    /// ones, `--tls-keylog` for wss, then `extra`.
    package static func decodeArguments(_ name: String, _ extra: [String] = []) -> [String] {
        ["decode", "--format", "websocket"] + (name.hasSuffix("h12") ? ["--inner", "h12"] : [])
            + (keyLogPath(name).map { ["--tls-keylog", $0] } ?? []) + extra + [path(name)]
    }

    package static func path(_ name: String) -> String { "Fixtures/websocket/\(name).pcap" }
    package static func goldenPath(_ name: String) -> String { "Fixtures/websocket/\(name).expected.jsonl" }

    /// One thing a side sent, in order.
    package enum Sent {
        /// A data message: `text` or `binary`, its fragments' lengths, its payload's length, and
        /// its payload (hex in the summary) or, over 4 KiB, the payload's CRC-32.
        case message(opcode: String, fragments: [Int], length: Int, payload: [UInt8]?, crc32: UInt32?)
        case ping(payload: [UInt8])
        case close(code: Int, reason: String)
    }

    /// What the summary says of one capture.
    package struct Summary {
        package var port: Int
        package var deflate: Bool
        /// By direction: `c2s`, `s2c`.
        package var sent: [String: [Sent]]
        /// ws-h12 only: the h12 frames each direction's binary messages carry (cmd, body length).
        package var h12: [String: [(cmd: Int, length: Int)]]
    }

    package static func summary(_ name: String) throws -> Summary {
        let url = FrameDumpProcess.packageRoot.appendingPathComponent("Fixtures/websocket/\(name).summary.json")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
        var sent: [String: [Sent]] = [:]
        var h12: [String: [(cmd: Int, length: Int)]] = [:]
        for direction in ["c2s", "s2c"] {
            sent[direction] = (object[direction] as? [[String: Any]] ?? []).map { entry in
                switch entry["kind"] as? String {
                case "ping": return .ping(payload: Tshark.hexBytes(entry["payload_hex"] as? String ?? ""))
                case "close": return .close(code: entry["code"] as? Int ?? -1, reason: entry["reason"] as? String ?? "")
                default:
                    return .message(opcode: entry["opcode"] as? String ?? "", fragments: entry["fragments"] as? [Int] ?? [],
                                    length: entry["length"] as? Int ?? -1,
                                    payload: (entry["payload_hex"] as? String).map { Tshark.hexBytes($0) },
                                    crc32: (entry["payload_crc32"] as? Int).map { UInt32($0) })
                }
            }
            h12[direction] = (object["\(direction)_h12"] as? [[String: Any]] ?? []).map { ($0["cmd"] as? Int ?? -1, $0["length"] as? Int ?? -1) }
        }
        return Summary(port: object["port"] as? Int ?? 0, deflate: object["deflate"] as? Bool ?? false, sent: sent, h12: h12)
    }
}

extension WebSocketCapture {
    /// CRC-32 (IEEE, as zlib's `crc32` that the script recorded) of `bytes`, bitwise: the
    /// summary's check of a long payload, independent of framedump's own CRC code.
    package static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

extension WebSocketCapture {
    /// tshark's websocket dissector's frames of a capture, by direction (`c2s`: to `port`):
    /// `[opcode, fin, mask, payload length]` each, in order. The server's port is not 80, so
    /// tshark is told it is HTTP, whose Upgrade hands the stream to the websocket dissector
    /// (over TLS, with `keyLogPath`: TLS on the port, then HTTP inside).
    package static func tsharkFrames(_ path: String, port: Int, keyLogPath: String? = nil) throws -> [String: [[Int]]] {
        let tcpPort = "tcp.port==\(port)"
        let decodeAs = keyLogPath.map { ["-o", "tls.keylog_file:\($0)", "-d", "\(tcpPort),tls", "-d", "tls.port==\(port),http"] }
            ?? ["-d", "\(tcpPort),http"]
        // Several frames in one segment are one layer each (--no-duplicate-keys makes them a list).
        let tshark = try ExternalProgram.run("tshark", [
            "-n", "-r", path, "-o", "tcp.reassemble_out_of_order:TRUE",
        ] + decodeAs + ["-Y", "websocket", "-T", "json", "--no-duplicate-keys", "-j", "tcp websocket"]).stdout
        var frames: [String: [[Int]]] = [:]
        let packets = try JSONSerialization.jsonObject(with: Data(tshark.utf8)) as? [[String: Any]] ?? []
        for packet in packets {
            let layers = (packet["_source"] as? [String: Any])?["layers"] as? [String: Any] ?? [:]
            let tcp = layers["tcp"] as? [String: Any] ?? [:]
            let direction = Int(tcp["tcp.dstport"] as? String ?? "") == port ? "c2s" : "s2c"
            let layer = layers["websocket"] as? [[String: Any]] ?? (layers["websocket"] as? [String: Any]).map { [$0] } ?? []
            for frame in layer {
                func number(_ key: String) -> Int? { (frame["websocket.\(key)"] as? String).flatMap { Int($0) } }
                func flag(_ key: String) -> Int { ["1", "True"].contains(frame["websocket.\(key)"] as? String ?? "") ? 1 : 0 }
                let length = number("payload_length_ext_64") ?? number("payload_length_ext_16") ?? number("payload_length") ?? -1
                frames[direction, default: []].append([number("opcode") ?? -1, flag("fin"), flag("mask"), length])
            }
        }
        return frames
    }
}
