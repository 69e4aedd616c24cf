import FrameCodec
import PacketDecoding
import Testing
@testable import FrameDumpCLI

@Suite struct CaptureLimitsTests {
    private func limits(_ arguments: [String]) throws -> CaptureLimits {
        let parsed = try ArgumentParser.parse(arguments, for: DecodeCommand.spec)
        return try CaptureLimits(reassembly: ReassemblyOptions(parsed), framing: FramingOptions(parsed))
    }

    @Test func defaultsAreTheDocumentedOnes() throws {
        let defaults = try limits([])
        #expect(defaults.reassembly == .default)
        #expect(defaults.frameBounds.maxFrameLength == nil)
        #expect(defaults.frameBounds.maxBufferedBytes == 64 << 20)
        #expect(defaults.framing(format: .h12).applied(to: .h12) == .h12)
    }

    @Test func optionsSetEveryLimit() throws {
        let set = try limits(["--max-ooo-bytes", "64K", "--max-ooo-total", "2M", "--max-connections", "10",
                              "--idle-timeout", "300", "--max-frame-length", "1G", "--max-buffered", "1M"])
        #expect(set.reassembly.maxOutOfOrderBytesPerDirection == 64 << 10)
        #expect(set.reassembly.maxOutOfOrderBytesTotal == 2 << 20)
        #expect(set.reassembly.maxConnections == 10)
        #expect(set.reassembly.idleTimeoutNanoseconds == 300_000_000_000)
        #expect(set.frameBounds.maxFrameLength == 1 << 30)
        #expect(set.framing(format: nil).applied(to: .h12).maxFrameLength == 1 << 30)
        #expect(set.frameBounds.maxBufferedBytes == 1 << 20)
        #expect(try limits(["--idle-timeout", String(Int.max)]).reassembly.idleTimeoutNanoseconds == .max)
    }

    @Test func byteCountsTakeBinarySuffixes() throws {
        #expect(try ByteCountOption.parse("65536", option: "x") == 65536)
        #expect(try ByteCountOption.parse("3G", option: "x") == 3 << 30)
        for bad in ["", "K", "0", "-1K", "1.5M", "1k", "9999999999999G"] {
            #expect(throws: UsageError.self, "\(bad)") { try ByteCountOption.parse(bad, option: "x") }
        }
    }
}
