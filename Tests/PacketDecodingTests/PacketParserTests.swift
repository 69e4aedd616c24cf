import TestSupport
import Testing
@testable import PacketDecoding

/// Whole-parser robustness: every prefix of valid packets, and random or mutated bytes.
@Suite struct PacketParserTests {
    static let payload = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)
    static let tcp = PacketBuilder.tcp(options: [2, 4, 5, 0xB4], payload: payload)
    static let ipv4 = PacketBuilder.ipv4(options: [1, 1, 1, 1], payload: tcp)
    static let ipv6 = PacketBuilder.ipv6(extensions: [.options(0), .authentication(), .options(60, units: 2)], upperLayer: tcp)

    /// One valid packet of every link type, several encapsulations each.
    static let samples: [(LinkType, [UInt8])] = [
        (.ethernet, PacketBuilder.ethernet(etherType: 0x0800, payload: ipv4)),
        (.ethernet, PacketBuilder.ethernet(etherType: 0x86DD, vlanTags: [0x88A8, 0x8100], payload: ipv6)),
        (.linuxSLL, PacketBuilder.sll(protocolType: 0x0800, payload: ipv4)),
        (.linuxSLL2, PacketBuilder.sll2(protocolType: 0x86DD, payload: ipv6)),
        (.null, PacketBuilder.null(family: 30, payload: ipv6)),
        (.null, PacketBuilder.null(family: 2, bigEndian: true, payload: ipv4)),
        (.loop, PacketBuilder.loop(family: 2, payload: ipv4)),
        (.raw, ipv6),
        (LinkType(rawValue: 12), ipv4),
        (.ipv4, ipv4),
        (.ipv6, ipv6),
    ]

    @Test(arguments: samples.indices)
    func everyPrefixIsATruncatedHeaderOrAShorterPayload(sample: Int) {
        let (linkType, packet) = Self.samples[sample]
        var parser = PacketParser(linkType: linkType)
        var sawTruncatedHeader = false
        for captured in 0...packet.count {
            switch parser.outcome(packet, captured: captured, wireLength: packet.count) {
            case .segment(let decoded):
                #expect(decoded.payload == Array(Self.payload.prefix(decoded.payload.count)), "captured \(captured)")
                #expect(decoded.payload.count + decoded.missing == Self.payload.count, "captured \(captured)")
            case .malformed(.truncatedHeader, _):
                sawTruncatedHeader = true
            case let other:
                Issue.record("captured \(captured) of \(packet.count): \(other)")
            }
        }
        #expect(sawTruncatedHeader)
        #expect(parser.outcome(packet).segment?.payload == Self.payload)
    }

    @Test func randomBytesNeverTrap() {
        var random = FuzzRandom(seed: 0x5EED)
        let linkTypes = [LinkType.null, .ethernet, .raw, .ipv4, .ipv6, .loop, .linuxSLL, .linuxSLL2, LinkType(rawValue: 14)]
        var parsers = linkTypes.map {
            PacketParser(linkType: $0, defragmentation: .init(maxBytesHeld: 256 * 1024, maxDatagramsInProgress: 16,
                                                              timeoutNanoseconds: 1_000))
        }
        var counts = [String: Int]()
        for index in 0..<100_000 {
            let which = Int(random.next() % UInt64(parsers.count))
            var packet = (0..<Int(random.next() % 160)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            // Plausible starts reach deeper: an IPv4 or IPv6 version nibble after the link header.
            let linkHeader = [4, 14, 0, 0, 0, 4, 16, 20, 0][which]
            if packet.count > linkHeader, random.next() % 2 == 0 { packet[linkHeader] = random.next() % 2 == 0 ? 0x45 : 0x60 }
            let wire = packet.count + Int(random.next() % 3 == 0 ? random.next() % 2000 : 0)
            let result = Self.check(&parsers[which], packet, wireLength: wire, at: Int64(index))
            counts[result, default: 0] += 1
        }
        #expect(counts["malformed", default: 0] > 0)
        #expect(counts["notTCP", default: 0] > 0)
    }

    @Test func mutatedPacketsNeverTrap() {
        var random = FuzzRandom(seed: 0xF00D)
        let fragments = [PacketBuilder.ipv4(moreFragments: true, payload: Array(Self.tcp.prefix(24))),
                         PacketBuilder.ipv4(fragmentOffset: 24, payload: Array(Self.tcp.dropFirst(24))),
                         PacketBuilder.ipv6(extensions: [.fragment(offset: 0, more: true)], upperLayer: Array(Self.tcp.prefix(32))),
                         PacketBuilder.ipv6(extensions: [.fragment(offset: 32, more: false)], upperLayer: Array(Self.tcp.dropFirst(32)))]
        let samples = Self.samples + fragments.map { (LinkType.raw, $0) }
        var parsers = samples.map {
            PacketParser(linkType: $0.0, defragmentation: .init(maxBytesHeld: 128 * 1024, maxDatagramsInProgress: 8,
                                                                timeoutNanoseconds: 5_000))
        }
        var segments = 0
        for index in 0..<50_000 {
            let which = Int(random.next() % UInt64(samples.count))
            var packet = samples[which].1
            for _ in 0...(random.next() % 4) {
                let position = Int(random.next() % UInt64(packet.count))
                packet[position] = UInt8(truncatingIfNeeded: random.next())
            }
            let captured = random.next() % 4 == 0 ? Int(random.next() % UInt64(packet.count + 1)) : packet.count
            if Self.check(&parsers[which], Array(packet.prefix(captured)), wireLength: packet.count, at: Int64(index)) == "segment" {
                segments += 1
            }
        }
        #expect(segments > 0)
        for index in parsers.indices { parsers[index].finish() }
    }

    /// Parses one packet and checks the invariants every result must keep; returns the result's name.
    static func check(_ parser: inout PacketParser, _ packet: [UInt8], wireLength: Int, at nanoseconds: Int64) -> String {
        packet.withUnsafeBytes { buffer in
            switch parser.parse(buffer, wireLength: wireLength, timestamp: Timestamp(nanoseconds: nanoseconds)) {
            case .segment(let segment):
                #expect(segment.missingPayloadLength >= 0)
                #expect(segment.payload.count + segment.missingPayloadLength <= 65_535)
                if let start = segment.payload.baseAddress, let base = buffer.baseAddress,
                   start >= base, start < base + buffer.count {
                    #expect(start + segment.payload.count <= base + buffer.count)
                }
                return "segment"
            case .fragmentHeld: return "fragmentHeld"
            case .notTCP: return "notTCP"
            case .malformed(_, let offset):
                #expect(offset >= 0)
                return "malformed"
            case .unsupportedLinkType: return "unsupported"
            case .unsupportedLayer: return "unsupportedLayer"
            }
        }
    }
}
