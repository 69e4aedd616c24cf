extension UnsafeRawBufferPointer {
    /// Whether every byte of `other` lies within these bytes (an empty `other` lies within
    /// anything).
    func encloses(_ other: UnsafeRawBufferPointer) -> Bool {
        guard let otherBase = other.baseAddress, !other.isEmpty else { return true }
        guard let base = baseAddress else { return false }
        return otherBase >= base && otherBase + other.count <= base + count
    }
}
