import PacketDecoding

/// Assembles packets byte by byte for tests: link-layer headers, IPv4 (with options, fragments),
/// IPv6 (with extension headers) and TCP. Lengths and next-header fields are filled in unless a
/// test overrides them to build a malformed packet; checksums are zero (libpcap, BPF and the
/// parser do not check them, as on a loopback capture with checksum offload).
///
/// The one packet builder of the tests. The libFuzzer packet-path target and the benchmark
/// write their own, since they cannot depend on a test-only module.
package enum PacketBuilder {
    package static let clientV4: UInt32 = 0x0A00_0001  // 10.0.0.1
    package static let serverV4: UInt32 = 0x0A00_0002  // 10.0.0.2
    package static let clientV6 = (UInt64(0x2001_0DB8_0000_0000), UInt64(1))  // 2001:db8::1
    package static let serverV6 = (UInt64(0x2001_0DB8_0000_0000), UInt64(2))  // 2001:db8::2
    package static let loopbackV4: UInt32 = 0x7F00_0001  // 127.0.0.1

    package static func append16(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
    }

    package static func append32(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    package static func append64(_ value: UInt64, to bytes: inout [UInt8]) {
        append32(UInt32(value >> 32), to: &bytes)
        append32(UInt32(value & 0xFFFF_FFFF), to: &bytes)
    }

    // MARK: TCP

    /// A TCP header (with `options`, padded to 4 bytes) followed by `payload`.
    package static func tcp(sourcePort: UInt16 = 40000, destinationPort: UInt16 = 7000, sequence: UInt32 = 1000,
                    acknowledgment: UInt32 = 2000, flags: TCPFlags = [.ack, .psh], window: UInt16 = 512,
                    options: [UInt8] = [], dataOffsetWords: Int? = nil, payload: [UInt8] = []) -> [UInt8] {
        var options = options
        while options.count % 4 != 0 { options.append(1) }  // NOP
        var bytes: [UInt8] = []
        append16(sourcePort, to: &bytes)
        append16(destinationPort, to: &bytes)
        append32(sequence, to: &bytes)
        append32(acknowledgment, to: &bytes)
        bytes.append(UInt8(dataOffsetWords ?? (5 + options.count / 4)) << 4)
        bytes.append(flags.rawValue)
        append16(window, to: &bytes)
        bytes += [0, 0, 0, 0]  // checksum, urgent pointer
        return bytes + options + payload
    }

    // MARK: IP

    /// An IPv4 header (with `options`, padded to 4 bytes) followed by `payload`.
    package static func ipv4(source: UInt32 = clientV4, destination: UInt32 = serverV4, protocolNumber: UInt8 = 6,
                     identification: UInt16 = 0x1234, moreFragments: Bool = false, fragmentOffset: Int = 0,
                     options: [UInt8] = [], headerLengthWords: Int? = nil, totalLength: Int? = nil,
                     payload: [UInt8]) -> [UInt8] {
        var options = options
        while options.count % 4 != 0 { options.append(0) }  // End of Option List
        let headerLength = 20 + options.count
        var bytes: [UInt8] = [0x40 | UInt8(headerLengthWords ?? headerLength / 4), 0]
        append16(UInt16(totalLength ?? (headerLength + payload.count)), to: &bytes)
        append16(identification, to: &bytes)
        append16((moreFragments ? 0x2000 : 0) | UInt16(fragmentOffset / 8), to: &bytes)
        bytes += [64, protocolNumber, 0, 0]
        append32(source, to: &bytes)
        append32(destination, to: &bytes)
        return bytes + options + payload
    }

    /// An IPv6 extension header: its type and its bytes after the Next Header byte.
    package struct Extension {
        package var type: UInt8
        package var body: [UInt8]

        package init(type: UInt8, body: [UInt8]) {
            self.type = type
            self.body = body
        }

        /// Hop-by-Hop (0), Routing (43), Destination Options (60) …: 8-byte units, padded with PadN.
        package static func options(_ type: UInt8, units: Int = 1) -> Extension {
            Extension(type: type, body: [UInt8(units - 1)] + [1, UInt8(units * 8 - 4)] + Array(repeating: 0, count: units * 8 - 4))
        }

        /// Authentication Header (51): length in 4-byte units minus 2 (RFC 4302).
        package static func authentication(words: Int = 6) -> Extension {
            Extension(type: 51, body: [UInt8(words - 2)] + Array(repeating: 0xAA, count: words * 4 - 2))
        }

        package static func fragment(offset: Int, more: Bool, identification: UInt32 = 0xCAFE) -> Extension {
            var body: [UInt8] = [0]
            PacketBuilder.append16(UInt16(offset) | (more ? 1 : 0), to: &body)
            PacketBuilder.append32(identification, to: &body)
            return Extension(type: 44, body: body)
        }
    }

    /// An IPv6 header, the extension headers chained in order, then `upperLayer` (protocol `nextHeader`).
    package static func ipv6(source: (UInt64, UInt64) = clientV6, destination: (UInt64, UInt64) = serverV6,
                     extensions: [Extension] = [], nextHeader: UInt8 = 6, payloadLength: Int? = nil,
                     upperLayer: [UInt8]) -> [UInt8] {
        var chain: [UInt8] = []
        for (index, header) in extensions.enumerated() {
            chain.append(index + 1 < extensions.count ? extensions[index + 1].type : nextHeader)
            chain += header.body
        }
        chain += upperLayer
        var bytes: [UInt8] = [0x60, 0, 0, 0]
        append16(UInt16(payloadLength ?? chain.count), to: &bytes)
        bytes += [extensions.first?.type ?? nextHeader, 64]
        append64(source.0, to: &bytes)
        append64(source.1, to: &bytes)
        append64(destination.0, to: &bytes)
        append64(destination.1, to: &bytes)
        return bytes + chain
    }

    // MARK: Link layers

    /// Ethernet II: addresses, then each VLAN tag (TPID, TCI), then `etherType`; padded to 60 bytes
    /// as a NIC would.
    package static func ethernet(etherType: UInt16, vlanTags: [UInt16] = [], pad: Bool = true, payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01]
        for (index, tpid) in vlanTags.enumerated() {
            append16(tpid, to: &bytes)
            append16(UInt16(100 + index), to: &bytes)
        }
        append16(etherType, to: &bytes)
        bytes += payload
        while pad && bytes.count < 60 { bytes.append(0) }
        return bytes
    }

    /// Linux cooked capture v1: packet type, ARPHRD_, address length, 8-byte address, protocol.
    package static func sll(protocolType: UInt16, payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0, 4, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0]
        append16(protocolType, to: &bytes)
        return bytes + payload
    }

    /// Linux cooked capture v2: protocol, reserved, interface index, ARPHRD_, packet type,
    /// address length, 8-byte address.
    package static func sll2(protocolType: UInt16, payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        append16(protocolType, to: &bytes)
        bytes += [0, 0, 0, 0, 0, 3, 0, 1, 4, 6, 2, 0, 0, 0, 0, 1, 0, 0]
        return bytes + payload
    }

    /// BSD loopback (DLT_NULL): the address family in either byte order.
    package static func null(family: UInt32, bigEndian: Bool = false, payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        append32(bigEndian ? family : family.byteSwapped, to: &bytes)
        return bytes + payload
    }

    /// OpenBSD loopback (DLT_LOOP): the address family, big-endian.
    package static func loop(family: UInt32, payload: [UInt8]) -> [UInt8] {
        null(family: family, bigEndian: true, payload: payload)
    }

    // MARK: Whole packets

    /// Ethernet II, IPv4 and TCP between two ports of 127.0.0.1, unpadded as a loopback capture
    /// holds it: the packets that capture files are filled with, for a BPF port filter to match.
    package static func loopbackTCP(sourcePort: UInt16, destinationPort: UInt16, payload: [UInt8]) -> [UInt8] {
        let segment = tcp(sourcePort: sourcePort, destinationPort: destinationPort, payload: payload)
        return ethernet(etherType: 0x0800, pad: false, payload: ipv4(source: loopbackV4, destination: loopbackV4, payload: segment))
    }
}
