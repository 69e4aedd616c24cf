import Testing
@testable import FrameDumpCLI

/// ``ProgressLine`` with a clock the test moves by hand and its writes collected.
@Suite struct ProgressLineTests {
    /// The injected clock and what the line wrote, shared with the line's closures.
    final class FakeTerminal {
        var now: UInt64 = 1_000_000_000
        var writes: [String] = []
        var offsetReads = 0

        func line(totalBytes: Int64) -> ProgressLine {
            ProgressLine(totalBytes: totalBytes, clock: { self.now }, write: { text, _ in self.writes.append(text) })
        }

        func advance(milliseconds: UInt64) { now += milliseconds * 1_000_000 }

        /// A byte count for `tick`, counting how often the line asked for one.
        func offset(_ bytes: Int64) -> Int64 {
            offsetReads += 1
            return bytes
        }
    }

    @Test func textShowsBytesPercentRateAndETA() {
        let text = ProgressLine.text(bytesRead: 12_300_000, totalBytes: 80_000_000, elapsedNanoseconds: 1_000_000_000)
        // 67.7 MB left at 12.3 MB/s: 5.5 s, shown rounded up.
        #expect(text == "framedump: 12.3 MB of 80.0 MB (15%), 12.3 MB/s, ETA 0:06")
        #expect(ProgressLine.text(bytesRead: 0, totalBytes: 2_000, elapsedNanoseconds: 500_000_000)
            == "framedump: 0 B of 2.0 kB (0%), 0.0 MB/s, ETA -:--")
        // More than the size (a file that grew) is shown as all of it.
        #expect(ProgressLine.text(bytesRead: 3_000, totalBytes: 2_000, elapsedNanoseconds: 1_000_000_000)
            == "framedump: 2.0 kB of 2.0 kB (100%), 0.0 MB/s, ETA 0:00")
    }

    @Test func sizesAreDecimal() {
        #expect(ProgressLine.size(999) == "999 B")
        #expect(ProgressLine.size(64_000) == "64.0 kB")
        #expect(ProgressLine.size(999_949) == "999.9 kB")
        #expect(ProgressLine.size(999_950) == "1.0 MB")
        #expect(ProgressLine.size(1_250_000) == "1.3 MB")
        #expect(ProgressLine.size(999_950_000) == "1.00 GB")
        #expect(ProgressLine.size(4_560_000_000) == "4.56 GB")
    }

    @Test func durationsRoundUpToWholeSeconds() {
        #expect(ProgressLine.duration(0.2) == "0:01")
        #expect(ProgressLine.duration(65) == "1:05")
        #expect(ProgressLine.duration(3_725) == "1:02:05")
        #expect(ProgressLine.duration(.infinity) == "-:--")
    }

    @Test func nothingIsShownBeforeTheDelayNorErasedAfterIt() {
        let terminal = FakeTerminal()
        let line = terminal.line(totalBytes: 1_000_000)
        terminal.advance(milliseconds: 499)
        line.tick(bytesRead: terminal.offset(10))
        line.finish()
        #expect(terminal.writes.isEmpty)
        // The offset is not even read while no update is due.
        #expect(terminal.offsetReads == 0)
    }

    @Test func updatesComeAtMostTenASecondAndTheLineIsErased() {
        let terminal = FakeTerminal()
        let line = terminal.line(totalBytes: 10_000_000)
        terminal.advance(milliseconds: 500)
        var bytes: Int64 = 0
        // Two seconds of a packet every millisecond, each moving the offset on.
        for _ in 0..<2_000 {
            bytes += 1_000
            line.tick(bytesRead: terminal.offset(bytes))
            terminal.advance(milliseconds: 1)
        }
        #expect(terminal.writes.count == 20)
        #expect(terminal.offsetReads == 20)
        #expect(terminal.writes.first == "\r" + ProgressLine.text(bytesRead: 1_000, totalBytes: 10_000_000, elapsedNanoseconds: 500_000_000) + "\u{1B}[K")
        #expect(terminal.writes.allSatisfy { $0.hasPrefix("\rframedump: ") && $0.hasSuffix("\u{1B}[K") })
        line.finish()
        #expect(terminal.writes.last == "\r\u{1B}[K")
        line.finish()
        #expect(terminal.writes.count == 21, "erased once")
    }

    @Test func anUnchangedTextIsNotWrittenAgain() {
        let terminal = FakeTerminal()
        let line = terminal.line(totalBytes: 1_000)
        terminal.advance(milliseconds: 600)
        line.tick(bytesRead: terminal.offset(1_000))
        // 100% with an ETA of 0:00 stays the same while the rate, 0.0 MB/s to one decimal, does too.
        terminal.advance(milliseconds: 200)
        line.tick(bytesRead: terminal.offset(1_000))
        #expect(terminal.writes.count == 1)
    }

    @Test func anOffsetTheReaderCannotTellSkipsTheUpdate() {
        let terminal = FakeTerminal()
        let line = terminal.line(totalBytes: 1_000)
        terminal.advance(milliseconds: 600)
        line.tick(bytesRead: nil)
        line.finish()
        #expect(terminal.writes.isEmpty)
    }
}
