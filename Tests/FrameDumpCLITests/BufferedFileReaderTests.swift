import Foundation
import Testing
import TestSupport
@testable import FrameDumpCLI

/// `BufferedFileReader` (the pcapng secrets scan's reader): any mix of reads and skips gives the
/// bytes at the offsets a plain position would, across buffer refills and skips past the
/// buffer, and a read past the end gives `nil`.
@Suite struct BufferedFileReaderTests {
    @Test(arguments: propertySeeds)
    func readsAndSkipsFollowTheFile(seed: UInt64) throws {
        var random = FuzzRandom(seed: seed)
        let size = 3 << 20
        let file = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9) }
        let path = try CaptureBytes.temporaryFile(file, suffix: ".bin")
        defer { unlink(path) }
        let descriptor = open(path, O_RDONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        var reader = BufferedFileReader(fileDescriptor: descriptor)
        var position = 0
        while position < size {
            // Small reads and skips mostly, as block headers and bodies are; now and then one
            // larger than the whole buffer.
            let count = random.chance(1, in: 10) ? Int.random(in: 0...(1 << 21), using: &random) : Int.random(in: 0...3000, using: &random)
            if Bool.random(using: &random) {
                let bytes = reader.read(count)
                if position + count <= size {
                    #expect(bytes.map { Array($0) } == Array(file[position..<position + count]), "seed \(seed) at \(position)")
                    position += count
                } else {
                    #expect(bytes == nil, "seed \(seed): a read past the end at \(position)")
                    return
                }
            } else {
                let skipped = reader.skip(count)
                #expect(skipped)
                position += count
            }
        }
        let afterTheEnd = reader.read(1)
        #expect(afterTheEnd == nil)
    }
}
