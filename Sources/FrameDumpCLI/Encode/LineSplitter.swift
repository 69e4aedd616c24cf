/// Cuts bytes that arrive in chunks (reads from a pipe, a file, a socket) into lines, for JSON
/// Lines input.
///
/// A line ends at `\n`; a `\r` before it is dropped, so CRLF files read the same. The last line
/// may lack its newline (``finish(_:)`` delivers it). Only the unfinished line is held, and it
/// is bounded by ``maxLineLength``, so memory does not grow with the input.
struct LineSplitter {
    /// The longest line accepted, in bytes: 64 MiB, room for a 16 MiB body (the default max
    /// frame length) written in hex with spaces, plus its header fields.
    static let maxLineLength = 64 << 20

    private var partial: [UInt8] = []
    /// The number of the line delivered last, from 1.
    private(set) var lineNumber = 0

    /// A line longer than ``maxLineLength``: its number.
    struct LineTooLong: Error, Equatable {
        var lineNumber: Int
    }

    /// Takes one chunk and calls `body` with each line it completes and the line's number.
    ///
    /// - Throws: ``LineTooLong``, or what `body` throws.
    mutating func append(_ chunk: UnsafeRawBufferPointer, _ body: (_ line: [UInt8], _ number: Int) throws -> Void) throws {
        var start = chunk.startIndex
        while let newline = chunk[start...].firstIndex(of: UInt8(ascii: "\n")) {
            partial.append(contentsOf: chunk[start..<newline])
            start = newline + 1
            try deliver(body)
        }
        partial.append(contentsOf: chunk[start...])
        guard partial.count <= Self.maxLineLength else { throw LineTooLong(lineNumber: lineNumber + 1) }
    }

    /// Delivers the last line if it had no newline.
    mutating func finish(_ body: (_ line: [UInt8], _ number: Int) throws -> Void) throws {
        if !partial.isEmpty { try deliver(body) }
    }

    private mutating func deliver(_ body: (_ line: [UInt8], _ number: Int) throws -> Void) throws {
        lineNumber += 1
        guard partial.count <= Self.maxLineLength else { throw LineTooLong(lineNumber: lineNumber) }
        if partial.last == UInt8(ascii: "\r") { partial.removeLast() }
        defer { partial.removeAll(keepingCapacity: partial.count <= 64 * 1024) }
        try body(partial, lineNumber)
    }
}
