import Foundation
import TestSupport
import Testing

/// `framedump decode` on a real MQTT capture: the output against its golden, and the golden
/// against what scripts/capture-mqtt published and received (its summary), so regenerating the
/// golden cannot make a wrong one pass.
@Suite struct MQTTCaptureGoldenTests {
    @Test func jsonLinesMatchTheGolden() throws {
        let result = try FrameDumpProcess.run(["decode", "--json", MQTTCapture.path])
        try GoldenFile.check(result.stdout, against: MQTTCapture.goldenPath)
        #expect(result.status == 0)
        #expect(result.stderr.contains("framedump: detected format mqtt"), "\(result.stderr)")
    }

    /// Per client connection: CONNECT first, DISCONNECT last; a publisher's PUBLISH carries its
    /// topic, QoS flags and payload with the exact remaining length MQTT 3.1.1 §3.3 / 5.0 §3.3
    /// give (topic, packet id for QoS > 0, a zero property length in 5.0, payload), followed by
    /// the QoS handshake (PUBACK; PUBREC, PUBREL, PUBCOMP); the subscriber gets every message,
    /// in order, forwarded at QoS min(published, 2) in 3.1.1 form. Nothing but frames.
    @Test func goldenAgreesWithWhatWasPublished() throws {
        let (port, clients) = try MQTTCapture.summary()
        let text = try String(contentsOf: FrameDumpProcess.packageRoot.appendingPathComponent(MQTTCapture.goldenPath), encoding: .utf8)
        let lines = try JSONLines.parse(text)
        #expect(lines.allSatisfy { $0["type"] as? String == "frame" })
        #expect(Set(lines.compactMap { $0["conn"] as? Int }) == Set(1...clients.count))
        for (index, client) in clients.enumerated() {
            let mine = lines.filter { $0["conn"] as? Int == index + 1 }
            let toBroker = mine.filter { JSONLines.port($0["dst"]) == port }
            let fromBroker = mine.filter { JSONLines.port($0["src"]) == port }
            #expect(toBroker.count + fromBroker.count == mine.count)
            func types(_ records: [[String: Any]]) -> [Int] { records.map { Self.field($0, "type") } }
            #expect(types(toBroker).first == 1 && types(toBroker).last == 14, "conn \(index + 1): CONNECT … DISCONNECT")
            #expect(types(fromBroker).first == 2, "conn \(index + 1): CONNACK first")
            if client.isPublisher {
                let publishes = toBroker.filter { Self.field($0, "type") == 3 }
                #expect(publishes.count == 1)
                guard let publish = publishes.first else { continue }
                #expect(Self.field(publish, "flags") == client.qos << 1)
                let expectedLength = 2 + client.topic.utf8.count + (client.qos > 0 ? 2 : 0) + (client.isVersion5 ? 1 : 0) + client.payload.count
                #expect(Self.field(publish, "len") == expectedLength, "conn \(index + 1)")
                let payload = Tshark.hexBytes(publish["payload_hex"] as? String ?? "")
                #expect(payload.starts(with: [0, UInt8(client.topic.utf8.count)] + Array(client.topic.utf8)))
                #expect(payload.suffix(client.payload.count).elementsEqual(client.payload))
                let handshake = [0: [Int](), 1: [4], 2: [5, 7]][client.qos] ?? []
                #expect(types(fromBroker).filter { $0 != 2 } == handshake, "conn \(index + 1) QoS \(client.qos)")
                #expect(types(toBroker).filter { $0 == 6 }.count == (client.qos == 2 ? 1 : 0))
            } else {
                let forwarded = fromBroker.filter { Self.field($0, "type") == 3 }
                #expect(forwarded.count == client.received.count)
                let published = clients.filter(\.isPublisher)
                for (record, (message, source)) in zip(forwarded, zip(client.received, published)) {
                    let qos = min(source.qos, client.qos)
                    #expect(Self.field(record, "flags") & 0x06 == qos << 1)
                    #expect(Self.field(record, "len") == 2 + message.topic.utf8.count + (qos > 0 ? 2 : 0) + message.payload.count)
                    let payload = Tshark.hexBytes(record["payload_hex"] as? String ?? "")
                    #expect(payload.suffix(message.payload.count).elementsEqual(message.payload))
                }
            }
        }
    }

    private static func field(_ record: [String: Any], _ name: String) -> Int {
        (record["fields"] as? [String: Any])?[name] as? Int ?? -1
    }
}
