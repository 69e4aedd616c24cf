/// Up to 24 bytes of UTF-8 text held inline, with no heap storage: the names a PKTAP header
/// carries (`pth_comm` is at most 16 bytes, `pth_ifname` 24), kept so that the values carrying
/// them — `PacketProcess`, and the capture events that carry it — stay trivially copyable.
struct InlineText: Sendable, Hashable {
    static let capacity = 24
    private var words: (first: UInt64, second: UInt64, third: UInt64) = (0, 0, 0)
    private var count: UInt8 = 0

    /// The first `capacity` bytes of `bytes`; `nil` when it is empty.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return nil }
        let kept = min(bytes.count, Self.capacity)
        withUnsafeMutableBytes(of: &words) { storage in
            storage.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[bytes.startIndex..<bytes.startIndex + kept]))
        }
        count = UInt8(kept)
    }

    /// `text`'s first `capacity` UTF-8 bytes; `nil` for `nil` or empty text.
    init?(_ text: String?) {
        guard var text else { return nil }
        guard let made = text.withUTF8({ InlineText(UnsafeRawBufferPointer($0)) }) else { return nil }
        self = made
    }

    /// The text (invalid UTF-8 repaired with U+FFFD, as `String(decoding:as:)` does).
    var string: String {
        withUnsafeBytes(of: words) { String(decoding: $0.prefix(Int(count)), as: UTF8.self) }
    }

    static func == (lhs: InlineText, rhs: InlineText) -> Bool {
        lhs.count == rhs.count && lhs.words == rhs.words
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(words.first)
        hasher.combine(words.second)
        hasher.combine(words.third)
        hasher.combine(count)
    }
}
