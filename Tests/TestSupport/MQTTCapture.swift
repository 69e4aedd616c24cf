import Foundation

/// Fixtures/mqtt/mqtt-qos.pcap (scripts/capture-mqtt: a mosquitto broker, one mosquitto_sub,
/// one mosquitto_pub per message, MQTT 3.1.1 and 5.0, QoS 0, 1 and 2) and the script's record of
/// what each client published or received (`mqtt-qos.summary.json`).
package enum MQTTCapture {
    package static let path = "Fixtures/mqtt/mqtt-qos.pcap"
    package static let goldenPath = "Fixtures/mqtt/mqtt-qos.expected.jsonl"

    /// One client connection of the summary, in SYN order.
    package struct Client {
        package var isPublisher: Bool
        package var isVersion5: Bool
        package var topic: String
        package var qos: Int
        package var payload: [UInt8]
        /// For the subscriber: the messages it printed, in order.
        package var received: [(topic: String, payload: [UInt8])]
    }

    /// The broker's port, and the clients.
    package static func summary() throws -> (port: Int, clients: [Client]) {
        let url = FrameDumpProcess.packageRoot.appendingPathComponent("Fixtures/mqtt/mqtt-qos.summary.json")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
        let clients = (object["connections"] as? [[String: Any]] ?? []).map { entry in
            Client(
                isPublisher: entry["client"] as? String == "mosquitto_pub",
                isVersion5: entry["version"] as? String == "5.0",
                topic: entry["topic"] as? String ?? entry["filter"] as? String ?? "",
                qos: entry["qos"] as? Int ?? -1,
                payload: Tshark.hexBytes(entry["payload_hex"] as? String ?? ""),
                received: (entry["received"] as? [[String: Any]] ?? []).map {
                    ($0["topic"] as? String ?? "", Tshark.hexBytes($0["payload_hex"] as? String ?? ""))
                }
            )
        }
        return (object["port"] as? Int ?? 0, clients)
    }
}
