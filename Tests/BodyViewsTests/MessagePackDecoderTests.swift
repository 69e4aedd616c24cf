import Testing
@testable import BodyViews

@Suite struct MessagePackDecoderTests {
    func value(_ bytes: [UInt8]) throws -> MessagePackValue {
        try bytes.withUnsafeBytes { raw in try MessagePackDecoder.value(of: raw) }
    }

    func failure(_ bytes: [UInt8]) -> String? {
        do {
            _ = try value(bytes)
            return nil
        } catch {
            return (error as? BodyViewError)?.description
        }
    }

    /// Examples from the spec's text (https://github.com/msgpack/msgpack/blob/master/spec.md).
    /// Containers of 65,535 elements, the size that ran for minutes while every append copied
    /// the array under construction: built whole and in order.
    @Test func largeContainersAreBuiltWhole() throws {
        let array = try value([0xDC, 0xFF, 0xFF] + [UInt8](repeating: 0xC0, count: 65_535))
        guard case .array(let values) = array else { Issue.record("not an array: \(array)"); return }
        #expect(values.count == 65_535 && values.allSatisfy { $0 == .null })
        let map = try value([0xDE, 0x40, 0x00] + (0..<0x4000).flatMap { _ in [UInt8(0x01), 0xC3] })
        guard case .map(let pairs) = map else { Issue.record("not a map: \(map)"); return }
        #expect(pairs.count == 0x4000 && pairs.allSatisfy { $0.key == .unsigned(1) && $0.value == .bool(true) })
    }

    @Test func formatFamilies() throws {
        #expect(try value([0x7F]) == .unsigned(127))
        #expect(try value([0xE0]) == .negative(-32))
        #expect(try value([0xD0, 0x05]) == .unsigned(5), "a signed encoding of a non-negative value")
        #expect(try value([0xD3, 0x80, 0, 0, 0, 0, 0, 0, 0]) == .negative(.min))
        #expect(try value([0xCF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) == .unsigned(.max))
        #expect(try value([0xCA, 0x3F, 0xC0, 0, 0]) == .float32(1.5))
        #expect(try value([0xCB, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0]) == .float64(1))
        #expect(try value([0xA2, 0x68, 0x69]) == .string("hi"))
        #expect(try value([0xDA, 0x00, 0x01, 0x61]) == .string("a"))
        #expect(try value([0xC4, 0x02, 0x00, 0xFF]) == .binary([0, 255]))
        #expect(try value([0xD4, 0x05, 0xAA]) == .ext(type: 5, [0xAA]))
        #expect(try value([0xC7, 0x00, 0x7F]) == .ext(type: 127, []))
        #expect(try value([0x92, 0xC0, 0xC3]) == .array([.null, .bool(true)]))
        #expect(try value([0x81, 0x01, 0xC2]) == .map([(.unsigned(1), .bool(false))]))
    }

    @Test func timestampsInAllThreeForms() throws {
        #expect(try value([0xD6, 0xFF, 0x00, 0x00, 0x00, 0x01]) == .timestamp(seconds: 1, nanoseconds: 0))
        // 64-bit: nanoseconds in the upper 30 bits, seconds in the lower 34.
        let raw = UInt64(5) << 34 | 7
        #expect(try value([0xD7, 0xFF] + (0..<8).map { UInt8(truncatingIfNeeded: raw >> (56 - 8 * UInt64($0))) }) == .timestamp(seconds: 7, nanoseconds: 5))
        #expect(try value([0xC7, 0x0C, 0xFF, 0, 0, 0, 9] + Array(repeating: 0xFF, count: 8)) == .timestamp(seconds: -1, nanoseconds: 9))
        // Nanoseconds past 999,999,999 are not a timestamp: a plain ext of type -1.
        let bad: [UInt8] = [0xC7, 0x0C, 0xFF, 0x3B, 0x9A, 0xCA, 0x00] + Array(repeating: 0, count: 8)
        #expect(try value(bad) == .ext(type: -1, Array(bad.dropFirst(3))))
    }

    @Test(arguments: [
        ([], "truncated value at byte 0"),
        ([0xC1], "byte 0xc1 (never used in MessagePack) at byte 0"),
        ([0xA2, 0xC3, 0x28], "str that is not UTF-8 at byte 0"),
        ([0xC0, 0xC0], "1 bytes after the value at byte 1"),
        ([0xDD, 0xFF, 0xFF, 0xFF, 0xFF], "array of 4294967295 values in 0 bytes at byte 0"),
        ([0xDB, 0xFF, 0xFF, 0xFF, 0xFF], "str of 4294967295 bytes past the end (0 left) at byte 5"),
        ([0xCD, 0x01], "truncated uint at byte 1"),
    ] as [([UInt8], String)])
    func damagedBodiesSayWhereAndWhy(_ bytes: [UInt8], _ expected: String) {
        #expect(failure(bytes) == expected)
    }

    @Test func nestingIsBounded() {
        let bytes = Array(repeating: UInt8(0x91), count: 100_000) + [0xC0]
        #expect(failure(bytes) == "arrays and maps nested deeper than 512 at byte 512")
    }
}
