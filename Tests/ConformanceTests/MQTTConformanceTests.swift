import TestSupport
import Testing

/// framedump's MQTT frames against tshark's mqtt dissector on the real capture: per TCP stream
/// and direction, the same control packet types and remaining lengths, in the same order.
@Suite(.requires(.tshark))
struct MQTTConformanceTests {
    @Test func packetsMatchTsharksMQTTDissector() throws {
        let (port, clients) = try MQTTCapture.summary()
        // The broker ran on a free port, not 1883: tell tshark the port is MQTT.
        let tshark = try ExternalProgram.run("tshark", [
            "-n", "-r", MQTTCapture.path, "-o", "tcp.reassemble_out_of_order:TRUE", "-d", "tcp.port==\(port),mqtt",
            "-Y", "mqtt", "-T", "fields", "-e", "tcp.stream", "-e", "tcp.dstport", "-e", "mqtt.msgtype", "-e", "mqtt.len",
        ]).stdout
        var theirs: [String: [[Int]]] = [:]
        for line in tshark.split(separator: "\n") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count == 4, let stream = Int(columns[0]), let dstPort = Int(columns[1]) else { continue }
            // One TCP segment may carry several packets: tshark joins their fields with ','.
            for (type, length) in zip(columns[2].split(separator: ","), columns[3].split(separator: ",")) {
                theirs["\(stream + 1) \(dstPort == port ? "c2s" : "s2c")", default: []].append([Int(type) ?? -1, Int(length) ?? -1])
            }
        }
        let result = try FrameDumpProcess.run(["decode", "--json", MQTTCapture.path])
        var ours: [String: [[Int]]] = [:]
        for record in try JSONLines.parse(result.stdout) where record["type"] as? String == "frame" {
            let fields = record["fields"] as? [String: Any] ?? [:]
            let key = "\(record["conn"] as? Int ?? 0) \(JSONLines.port(record["dst"]) == port ? "c2s" : "s2c")"
            ours[key, default: []].append([fields["type"] as? Int ?? -2, fields["len"] as? Int ?? -2])
        }
        #expect(ours.count == 2 * clients.count)
        #expect(ours == theirs)
        #expect(theirs.values.reduce(0) { $0 + $1.count } >= 40)
    }
}
