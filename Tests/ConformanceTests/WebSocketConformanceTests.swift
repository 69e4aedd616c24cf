import Foundation
import TestSupport
import Testing

/// framedump's WebSocket frames against tshark's websocket dissector on every real WebSocket
/// capture: per direction, the same frames in the same order, by opcode, FIN, mask and payload
/// length (so the same messages: a message is its text/binary frame and continuations).
@Suite(.requires(.tshark))
struct WebSocketConformanceTests {
    @Test(arguments: WebSocketCapture.names)
    func framesMatchTsharksWebSocketDissector(_ name: String) throws {
        let summary = try WebSocketCapture.summary(name)
        // The server ran on a free port, not 80: tell tshark it is HTTP, whose Upgrade hands the
        // stream to its websocket dissector (over TLS: TLS on the port, with the key log, then HTTP
        // inside). Several frames in one segment are one layer each (--no-duplicate-keys makes them a list).
        let port = "tcp.port==\(summary.port)"
        let decodeAs = WebSocketCapture.keyLogPath(name).map { ["-o", "tls.keylog_file:\($0)", "-d", "\(port),tls", "-d", "tls.port==\(summary.port),http"] }
            ?? ["-d", "\(port),http"]
        let tshark = try ExternalProgram.run("tshark", [
            "-n", "-r", WebSocketCapture.path(name), "-o", "tcp.reassemble_out_of_order:TRUE",
        ] + decodeAs + ["-Y", "websocket", "-T", "json", "--no-duplicate-keys", "-j", "tcp websocket"]).stdout
        var theirs: [String: [[Int]]] = [:]
        let packets = try JSONSerialization.jsonObject(with: Data(tshark.utf8)) as? [[String: Any]] ?? []
        for packet in packets {
            let layers = (packet["_source"] as? [String: Any])?["layers"] as? [String: Any] ?? [:]
            let tcp = layers["tcp"] as? [String: Any] ?? [:]
            let direction = Int(tcp["tcp.dstport"] as? String ?? "") == summary.port ? "c2s" : "s2c"
            let frames = layers["websocket"] as? [[String: Any]] ?? (layers["websocket"] as? [String: Any]).map { [$0] } ?? []
            for frame in frames {
                func number(_ key: String) -> Int? { (frame["websocket.\(key)"] as? String).flatMap { Int($0) } }
                let length = number("payload_length_ext_64") ?? number("payload_length_ext_16") ?? number("payload_length") ?? -1
                let fin = (frame["websocket.fin"] as? String) == "1" || (frame["websocket.fin"] as? String) == "True" ? 1 : 0
                let mask = (frame["websocket.mask"] as? String) == "1" || (frame["websocket.mask"] as? String) == "True" ? 1 : 0
                theirs[direction, default: []].append([number("opcode") ?? -1, fin, mask, length])
            }
        }
        let result = try FrameDumpProcess.run(WebSocketCapture.decodeArguments(name, ["--json", "--payload", "none"]))
        let opcodes = ["continuation": 0, "text": 1, "binary": 2, "close": 8, "ping": 9, "pong": 10]
        var ours: [String: [[Int]]] = [:]
        for record in try JSONLines.parse(result.stdout) where record["type"] as? String == "ws_frame" {
            ours[record["dir"] as? String ?? "", default: []].append([
                opcodes[record["opcode"] as? String ?? ""] ?? -2, record["fin"] as? Bool == true ? 1 : 0,
                record["masked"] as? Bool == true ? 1 : 0, record["payload_length"] as? Int ?? -2,
            ])
        }
        #expect(result.status == 0)
        #expect(ours.keys.sorted() == ["c2s", "s2c"])
        #expect(ours == theirs, "\(name)")
        #expect(theirs.values.reduce(0) { $0 + $1.count } >= 10)
    }
}
