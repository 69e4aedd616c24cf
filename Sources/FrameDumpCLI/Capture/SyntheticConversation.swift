import PacketCapture
import PacketDecoding

/// A made-up TCP connection from 127.0.0.1 to 127.0.0.1, written packet by packet to a pcap
/// file: what `framedump encode --pcap FILE` produces, for Wireshark and `framedump decode`.
///
/// ```
///  client 127.0.0.1:50000                         server 127.0.0.1:PORT
///   SYN seq=ISN_c, MSS option        ──>
///                                    <──   SYN-ACK seq=ISN_s ack=ISN_c+1, MSS option
///   ACK                              ──>
///   data (≤ MSS bytes, PSH on a frame's last segment)  ──>
///                                    <──   ACK of that data
///   …one data segment and one ACK per MSS-sized piece of every frame…
///                                    <──   server data (encode --format websocket), likewise
///   ACK of that data                 ──>
///   FIN-ACK                          ──>
///                                    <──   FIN-ACK
///   ACK                              ──>
/// ```
///
/// Every frame starts a new segment and is cut at the MSS, as a client that writes one frame per
/// `send(2)` would look. Packets are Ethernet II (zero MAC addresses, as on Linux loopback) or
/// raw IPv4 (LINKTYPE_RAW); IPv4 headers have DF set, TTL 64, increasing identification and a
/// correct header checksum (RFC 791 §3.1); TCP headers a correct checksum over the RFC 9293
/// §3.1 pseudo-header, window 65535. The ISNs are fixed (``clientISN``, ``serverISN``) and the
/// first packet is stamped ``startTime``, each next one 1 ms later, so the same frames always
/// give the same file.
final class SyntheticConversation {
    /// The client's initial sequence number.
    static let clientISN: UInt32 = 1_000_000
    /// The server's initial sequence number.
    static let serverISN: UInt32 = 2_000_000
    /// The client's port.
    static let clientPort: UInt16 = 50_000
    /// The server port used unless one is given: Wireshark registers no dissector on 7777
    /// (it does on 7000, Gryphon, and 9000), so it shows the conversation as plain TCP.
    static let defaultServerPort: UInt16 = 7777
    /// The first packet's time: 2023-11-14T22:13:20Z, in nanoseconds since the Unix epoch.
    static let startTime = Timestamp(nanoseconds: 1_700_000_000_000_000_000)
    /// The time between two packets, in nanoseconds (1 ms).
    static let packetInterval: Int64 = 1_000_000
    /// The largest MSS that still fits a segment in one IPv4 packet (65535 − 20 − 20 bytes).
    static let maxMSS = 65_495

    private let writer: PcapWriter
    private let serverPort: UInt16
    private let mss: Int
    private var clientNext = SyntheticConversation.clientISN
    private var serverNext = SyntheticConversation.serverISN
    private var identification: UInt16 = 1
    private var time = SyntheticConversation.startTime
    private var packet: [UInt8] = []
    /// Data segments written so far.
    private(set) var dataSegments = 0
    /// Packets written so far.
    private(set) var packets = 0

    /// Creates the file and writes the three-way handshake.
    ///
    /// - Parameters:
    ///   - path: the pcap file to create, or `-` for standard output.
    ///   - linkType: `.ethernet` or `.raw`.
    ///   - serverPort: the server's TCP port.
    ///   - mss: the most payload bytes per segment, 1…``maxMSS``; announced in both SYNs.
    /// - Throws: `CaptureError` when the file cannot be created.
    init(path: String, linkType: LinkType, serverPort: UInt16, mss: Int) throws {
        precondition(linkType == .ethernet || linkType == .raw, "Ethernet or raw IPv4 only")
        precondition((1...Self.maxMSS).contains(mss), "MSS out of range")
        writer = try PcapWriter(path: path, linkType: linkType)
        self.serverPort = serverPort
        self.mss = mss
        try write(fromClient: true, flags: .syn, announcesMSS: true)
        clientNext &+= 1
        try write(fromClient: false, flags: [.syn, .ack], announcesMSS: true)
        serverNext &+= 1
        try write(fromClient: true, flags: .ack)
    }

    /// Sends `bytes` from the client (or, `fromClient: false`, the server): one data segment per
    /// MSS-sized piece, each acknowledged by the other side; the last piece carries PSH. Nothing
    /// is written for no bytes.
    func send(_ bytes: [UInt8], fromClient: Bool = true) throws {
        var start = 0
        while start < bytes.count {
            let end = min(start + mss, bytes.count)
            try write(fromClient: fromClient, flags: end == bytes.count ? [.ack, .psh] : .ack, payload: bytes[start..<end])
            if fromClient { clientNext &+= UInt32(truncatingIfNeeded: end - start) } else { serverNext &+= UInt32(truncatingIfNeeded: end - start) }
            dataSegments += 1
            try write(fromClient: !fromClient, flags: .ack)
            start = end
        }
    }

    /// Writes the closing FIN exchange and closes the file.
    ///
    /// - Throws: `CaptureError` when writing or closing fails.
    func finish() throws {
        try write(fromClient: true, flags: [.fin, .ack])
        clientNext &+= 1
        try write(fromClient: false, flags: [.fin, .ack])
        serverNext &+= 1
        try write(fromClient: true, flags: .ack)
        try writer.close()
    }

    /// TCP header flags (RFC 9293 §3.1).
    private struct Flags: OptionSet {
        let rawValue: UInt8
        static let fin = Flags(rawValue: 0x01)
        static let syn = Flags(rawValue: 0x02)
        static let psh = Flags(rawValue: 0x08)
        static let ack = Flags(rawValue: 0x10)
    }

    /// Builds one packet in `packet` and writes it, 1 ms after the previous one.
    private func write(fromClient: Bool, flags: Flags, announcesMSS: Bool = false, payload: ArraySlice<UInt8> = []) throws {
        let tcpHeaderLength = announcesMSS ? 24 : 20
        let tcpLength = tcpHeaderLength + payload.count
        let loopback: [UInt8] = [127, 0, 0, 1]
        packet.removeAll(keepingCapacity: true)
        if writer.linkType == .ethernet {
            // Destination and source MAC all zero, as Linux loopback shows; EtherType IPv4.
            packet.append(contentsOf: repeatElement(0, count: 12))
            packet.append(contentsOf: [0x08, 0x00])
        }
        let ip = packet.count
        packet.append(contentsOf: [0x45, 0x00])
        appendBigEndian(UInt16(20 + tcpLength))
        appendBigEndian(identification)
        identification &+= 1
        packet.append(contentsOf: [0x40, 0x00, 64, 6, 0, 0]) // DF, TTL 64, TCP, checksum later
        packet.append(contentsOf: loopback)
        packet.append(contentsOf: loopback)
        storeBigEndian(Self.internetChecksum(packet[ip..<ip + 20]), at: ip + 10)

        let tcp = packet.count
        appendBigEndian(fromClient ? Self.clientPort : serverPort)
        appendBigEndian(fromClient ? serverPort : Self.clientPort)
        appendBigEndian(fromClient ? clientNext : serverNext)
        appendBigEndian(flags.contains(.ack) ? (fromClient ? serverNext : clientNext) : 0)
        packet.append(UInt8(tcpHeaderLength / 4) << 4)
        packet.append(flags.rawValue)
        appendBigEndian(UInt16(65_535))
        packet.append(contentsOf: [0, 0, 0, 0]) // checksum later, urgent pointer
        if announcesMSS {
            packet.append(contentsOf: [2, 4])
            appendBigEndian(UInt16(mss))
        }
        packet.append(contentsOf: payload)
        // The pseudo-header (RFC 9293 §3.1): source, destination, zero, protocol, TCP length.
        var pseudo = loopback + loopback
        pseudo.append(contentsOf: [0, 6, UInt8(tcpLength >> 8), UInt8(tcpLength & 0xFF)])
        storeBigEndian(Self.internetChecksum(packet[tcp...], prefix: pseudo), at: tcp + 16)

        try packet.withUnsafeBytes { bytes in
            try writer.write(CapturedPacket(timestamp: time, bytes: bytes))
        }
        time.nanoseconds += Self.packetInterval
        packets += 1
    }

    private func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.bigEndian) { packet.append(contentsOf: $0) }
    }

    private func storeBigEndian(_ value: UInt16, at offset: Int) {
        packet[offset] = UInt8(value >> 8)
        packet[offset + 1] = UInt8(value & 0xFF)
    }

    /// The Internet checksum (RFC 1071): the ones' complement of the ones' complement sum of
    /// 16-bit big-endian words, an odd last byte padded with zero; `prefix` is summed first.
    static func internetChecksum(_ bytes: ArraySlice<UInt8>, prefix: [UInt8] = []) -> UInt16 {
        var sum: UInt64 = 0
        func add(_ words: some Collection<UInt8>) {
            var high = true
            for byte in words {
                sum += high ? UInt64(byte) << 8 : UInt64(byte)
                high.toggle()
            }
        }
        add(prefix) // even length, so the word boundaries carry on
        add(bytes)
        while sum >> 16 != 0 { sum = (sum & 0xFFFF) + (sum >> 16) }
        return ~UInt16(sum)
    }
}
