import TestSupport
import Testing
@testable import PacketDecoding

/// Apple PKTAP headers (xnu bsd/net/pktap.h), version 1 and 2: the inner link type and the
/// packet after the header's own length, the interface and process named, and bad headers.
@Suite struct PKTAPTests {
    let payload = Array("pktap".utf8)
    var ipv4: [UInt8] { PacketBuilder.ipv4(payload: PacketBuilder.tcp(payload: payload)) }

    private static func littleEndian32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    private static func field(_ text: String, _ size: Int) -> [UInt8] {
        Array(text.utf8) + [UInt8](repeating: 0, count: size - text.utf8.count)
    }

    /// `struct pktap_header`, 108 bytes plus `extra` (newer kernels' fields).
    static func version1(dlt: UInt32, interface: String = "en0", pid: Int32 = 412, name: String = "Safari",
                         effectivePID: Int32 = 412, effectiveName: String = "Safari", record: UInt32 = 1,
                         length: UInt32? = nil, extra: Int = 48) -> [UInt8] {
        var bytes = littleEndian32(length ?? UInt32(108 + extra)) + littleEndian32(record) + littleEndian32(dlt)
        bytes += field(interface, 24)
        bytes += littleEndian32(2) + littleEndian32(2) + littleEndian32(0) + littleEndian32(0)  // flags (out), family, pre, post
        bytes += littleEndian32(UInt32(bitPattern: pid)) + field(name, 17)
        bytes += [UInt8](repeating: 0, count: 11)  // pad, trace tag, svc, iftype, ifunit
        bytes += littleEndian32(UInt32(bitPattern: effectivePID)) + field(effectiveName, 17) + [0, 0, 0]
        return bytes + [UInt8](repeating: 0, count: extra)
    }

    /// `struct pktap_v2_hdr` and its strings.
    static func version2(dlt: UInt16, interface: String?, name: String?, effectiveName: String?, pid: Int32, effectivePID: Int32) -> [UInt8] {
        var strings: [UInt8] = []
        var offsets: [UInt8] = []
        for text in [interface, name, effectiveName] {
            guard let text else { offsets.append(0); continue }
            offsets.append(UInt8(40 + strings.count))
            strings += Array(text.utf8) + [0]
        }
        var bytes: [UInt8] = [UInt8(40 + strings.count), 0, 0] + offsets
        bytes += [UInt8(dlt & 0xFF), UInt8(dlt >> 8)] + [UInt8](repeating: 0, count: 6) + [6, 0]  // pre, post, iftype; ipproto
        bytes += littleEndian32(2) + littleEndian32(0) + littleEndian32(0)  // family, svc, flowid
        bytes += littleEndian32(UInt32(bitPattern: pid)) + littleEndian32(UInt32(bitPattern: effectivePID))
        bytes += littleEndian32(0x0008_0002)  // PTH_FLAG_V2_HDR | PTH_FLAG_DIR_OUT
        return bytes + strings
    }

    private func segment(_ linkType: LinkType, _ packet: [UInt8]) -> Decoded? {
        var parser = PacketParser(linkType: linkType)
        return parser.outcome(packet).segment
    }

    private func process(_ packet: [UInt8], linkType: LinkType = .pktap) -> PacketProcess? {
        packet.withUnsafeBytes { PacketParser(linkType: linkType).process(of: $0) }
    }

    @Test(arguments: [LinkType.pktap, LinkType(rawValue: 149)])
    func version1ToTheInnerLinkType(linkType: LinkType) {
        let ethernet = PacketBuilder.ethernet(etherType: 0x0800, payload: ipv4)
        #expect(segment(linkType, Self.version1(dlt: 1) + ethernet)?.payload == payload)
        #expect(segment(linkType, Self.version1(dlt: 12, extra: 0) + ipv4)?.payload == payload)  // Darwin's DLT_RAW
        #expect(segment(linkType, Self.version1(dlt: 0) + PacketBuilder.null(family: 2, payload: ipv4))?.payload == payload)
        #expect(process(Self.version1(dlt: 1) + ethernet, linkType: linkType)
                == PacketProcess(pid: 412, name: "Safari", effectivePID: 412, effectiveName: "Safari", interface: "en0"))
    }

    @Test func version1DelegatedSocket() {
        let packet = Self.version1(dlt: 12, interface: "pdp_ip0", pid: 98, name: "nsurlsessiond", effectivePID: 1207, effectiveName: "MyApp") + ipv4
        let named = process(packet)
        #expect(named == PacketProcess(pid: 98, name: "nsurlsessiond", effectivePID: 1207, effectiveName: "MyApp", interface: "pdp_ip0"))
        #expect(named?.isDelegated == true)
    }

    @Test func version2ToTheInnerLinkType() {
        let packet = Self.version2(dlt: 1, interface: "en0", name: "MobileMail", effectiveName: nil, pid: 530, effectivePID: 530)
            + PacketBuilder.ethernet(etherType: 0x0800, payload: ipv4)
        #expect(segment(.pktap, packet)?.payload == payload)
        #expect(process(packet) == PacketProcess(pid: 530, name: "MobileMail", effectivePID: 530, effectiveName: nil, interface: "en0"))
        let bare = Self.version2(dlt: 12, interface: nil, name: nil, effectiveName: nil, pid: -1, effectivePID: 0) + ipv4
        #expect(segment(.pktap, bare)?.payload == payload)
        #expect(process(bare) == nil, "pid -1 and no names: no process")
    }

    @Test func badHeaders() {
        var parser = PacketParser(linkType: .pktap)
        #expect(parser.outcome(Array(Self.version1(dlt: 1).prefix(100))) == .malformed(.truncatedHeader(.pktap), offset: 0))
        #expect(parser.outcome(Self.version1(dlt: 1, length: 0) + ipv4) == .malformed(.badPKTAPHeaderLength(0), offset: 0))
        #expect(parser.outcome(Self.version1(dlt: 12, length: 4000, extra: 0) + ipv4) == .malformed(.badPKTAPHeaderLength(4000), offset: 0))
        #expect(parser.outcome(Self.version1(dlt: 12, record: 0, extra: 0) + ipv4) == .unsupportedLayer(.pktapRecordType(0)))
        #expect(parser.outcome(Self.version1(dlt: 147, extra: 0) + ipv4) == .unsupportedLayer(.linkType(LinkType(rawValue: 147))))
        #expect(parser.outcome(Self.version1(dlt: 258, extra: 0) + Self.version1(dlt: 12, extra: 0) + ipv4) == .unsupportedLayer(.nestingTooDeep))
        // An error in the inner packet is at its byte in the whole packet: 156 + 14.
        #expect(parser.outcome(Self.version1(dlt: 1) + PacketBuilder.ethernet(etherType: 0x0800, pad: false, payload: [0x45, 0]))
                == .malformed(.truncatedHeader(.ipv4), offset: 170))
        #expect(process(Array(Self.version1(dlt: 1).prefix(100))) == nil)
    }

    @Test func otherLinkTypesNameNoProcess() {
        #expect(process(Self.version1(dlt: 12) + ipv4, linkType: .ethernet) == nil)
    }

    @Test func selectorsMatchOwningOrEffectiveProcess() {
        let delegated = PacketProcess(pid: 98, name: "nsurlsessiond", effectivePID: 1207, effectiveName: "MyApp")
        let long = PacketProcess(pid: 7, name: "com.apple.WebKit")  // cut at 16 bytes
        #expect(ProcessSelector("MyApp")!.matches(delegated))
        #expect(ProcessSelector("nsurlsessiond")!.matches(delegated))
        #expect(ProcessSelector("1207")!.matches(delegated))
        #expect(ProcessSelector("98")!.matches(delegated))
        #expect(!ProcessSelector("99")!.matches(delegated))
        #expect(!ProcessSelector("Safari")!.matches(delegated))
        #expect(!ProcessSelector("MyApp")!.matches(nil))
        #expect(ProcessSelector("com.apple.WebKit.Networking")!.matches(long))
        #expect(!ProcessSelector("com.apple.Web")!.matches(long))
        #expect(ProcessSelector("") == nil)
    }
}
