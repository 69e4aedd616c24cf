import PacketDecoding
import Testing

@Suite("SequenceNumber")
struct SequenceNumberTests {
    @Test("serial number order across the 2^32 wrap (RFC 1982 §3.2)")
    func order() {
        let nearEnd = SequenceNumber(0xFFFF_FFF0)
        let afterWrap = SequenceNumber(0x10)
        #expect(nearEnd.precedes(afterWrap))
        #expect(!afterWrap.precedes(nearEnd))
        #expect(nearEnd.distance(to: afterWrap) == 0x20)
        #expect(afterWrap.distance(to: nearEnd) == -0x20)
        #expect(nearEnd.advanced(by: 0x20) == afterWrap)
        #expect(!nearEnd.precedes(nearEnd))
    }

    @Test("numbers 2^31 apart: resolved as behind, never as ahead")
    func halfwayIsBehind() {
        let zero = SequenceNumber(0)
        #expect(zero.distance(to: SequenceNumber(0x8000_0000)) == -0x8000_0000)
        #expect(SequenceNumber(0x8000_0000).distance(to: zero) == -0x8000_0000)
        #expect(zero.distance(to: SequenceNumber(0x7FFF_FFFF)) == 0x7FFF_FFFF)
    }
}
