import Testing

@testable import FrameDumpCLI

@Suite struct CountedNounTests {
    @Test func oneIsSingularEveryOtherCountPlural() {
        #expect(counted(1, "frame") == "1 frame")
        #expect(counted(0, "frame") == "0 frames")
        #expect(counted(2, "connection") == "2 connections")
        #expect(counted(UInt64(1), "byte") == "1 byte")
        #expect(counted(3, "TCP segment") == "3 TCP segments")
    }

    @Test func anIrregularPluralIsGiven() {
        #expect(counted(2, "entry", "entries") == "2 entries")
        #expect(counted(1, "entry", "entries") == "1 entry")
    }
}
