extension UnsafeRawBufferPointer {
    /// Where two equally long byte ranges differ: from the first byte that differs to the last,
    /// as indices into either; `nil` when they are equal.
    func differences(from other: UnsafeRawBufferPointer) -> Range<Int>? {
        let length = Swift.min(count, other.count)
        guard let first = (0..<length).first(where: { self[$0] != other[$0] }) else { return nil }
        let last = (first..<length).last(where: { self[$0] != other[$0] })!
        return first..<(last + 1)
    }
}
