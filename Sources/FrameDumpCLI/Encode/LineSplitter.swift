/// Cuts a byte stream that arrives in chunks into lines, for JSON Lines input.
///
/// A line ends at `\n` (a `\r` before it is dropped); a last line without a line break is
/// delivered by ``finish(_:)``. Lines are numbered from 1 for messages; blank lines are
/// counted but not delivered. A line is held whole until its end arrives, so memory is the
/// longest line plus one chunk.
struct LineSplitter {
    private var pending: [UInt8] = []
    /// The number of the last line delivered or skipped.
    private(set) var lineNumber = 0

    /// Appends `chunk` and calls `receive` with each line it completes and that line's number.
    mutating func process(_ chunk: UnsafeRawBufferPointer, _ receive: (ArraySlice<UInt8>, Int) throws -> Void) rethrows {
        var start = 0
        for index in 0..<chunk.count where chunk[index] == UInt8(ascii: "\n") {
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[start..<index]))
            start = index + 1
            try deliver(receive)
        }
        pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[start...]))
    }

    /// End of input: delivers the last line if it had no line break.
    mutating func finish(_ receive: (ArraySlice<UInt8>, Int) throws -> Void) rethrows {
        if !pending.isEmpty { try deliver(receive) }
    }

    private mutating func deliver(_ receive: (ArraySlice<UInt8>, Int) throws -> Void) rethrows {
        lineNumber += 1
        defer { pending.removeAll(keepingCapacity: true) }
        var line = pending[...]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return }
        try receive(line, lineNumber)
    }
}
