import PacketDecoding

/// Writes each direction's reassembled bytes to its own file, as tcpflow does: what
/// `streams --write-dir DIR` leaves behind.
///
/// A file holds only the bytes the capture has, in stream order and back to back: a gap's bytes
/// are *not* written (no filler), so a file is shorter than its stream by the gaps the listing
/// names, and a byte at stream offset `o` sits at file offset `o` minus the gap bytes before it.
/// A direction with no data gets no file.
///
/// Names say the connection, the direction and the endpoints (`ip.port`; IPv6 in RFC 5952 text):
///
///     DIR/conn0001-c2s-127.0.0.1.40000-127.0.0.1.9000.bin
///     DIR/conn0001-s2c-127.0.0.1.9000-127.0.0.1.40000.bin
///
/// Files are written with `write(2)` as the data arrives, never held in memory. At most
/// ``maxOpenFiles`` descriptors stay open (the oldest opened is closed first and reopened to
/// append if its connection writes again), so 100,000 connections do not exhaust descriptors.
final class StreamFileWriter {
    /// Descriptors kept open at once.
    static var maxOpenFiles: Int { 256 }

    /// The directory files are written in.
    let directory: String
    private var openFiles: [FileKey: Int32] = [:]
    /// Keys in ``openFiles`` (and some closed since), in the order they were opened (oldest first).
    private var openOrder: [FileKey] = []
    private var openOrderStart = 0
    /// File names by key, for the listing; a key is present once its file was created.
    private(set) var names: [FileKey: String] = [:]

    struct FileKey: Hashable {
        var connection: Int
        var direction: StreamDirection
    }

    /// Uses `directory`, creating it (one level, mode 0755) if it does not exist.
    ///
    /// - Throws: ``CommandFailure`` (exit 2) with the system's reason when it cannot be created.
    init(directory: String) throws(CommandFailure) {
        self.directory = directory
        if let error = FileDescriptorIO.makeDirectory(directory) {
            throw CommandFailure(message: "framedump streams: cannot create \(directory): \(error.text)",
                                 status: .badInput)
        }
    }

    deinit {
        for fileDescriptor in openFiles.values { FileDescriptorIO.close(fileDescriptor) }
    }

    /// The file name (without the directory) for a direction of a connection.
    static func name(connection: Int, direction: StreamDirection, source: Endpoint, destination: Endpoint) -> String {
        let number = String(connection)
        let padded = String(repeating: "0", count: max(0, 4 - number.count)) + number
        return "conn\(padded)-\(direction)-\(source.address).\(source.port)-\(destination.address).\(destination.port).bin"
    }

    /// Appends `bytes` to the file of `label`'s direction, creating it on the first call.
    ///
    /// - Throws: ``CommandFailure`` (exit 2) when the file cannot be opened or written.
    func write(_ bytes: UnsafeRawBufferPointer, for label: StreamLabel) throws(CommandFailure) {
        let key = FileKey(connection: label.connection, direction: label.direction)
        let fileDescriptor = try descriptor(for: key, label: label)
        let code = FileDescriptorIO.writeAll(fileDescriptor, bytes)
        if code != 0 { throw failure("cannot write", key, code) }
    }

    /// Closes the files of a connection that ended (they are complete).
    func finish(connection: Int) {
        for direction in StreamDirection.allCases {
            let key = FileKey(connection: connection, direction: direction)
            if let fileDescriptor = openFiles.removeValue(forKey: key) { FileDescriptorIO.close(fileDescriptor) }
        }
    }

    private func descriptor(for key: FileKey, label: StreamLabel) throws(CommandFailure) -> Int32 {
        if let fileDescriptor = openFiles[key] { return fileDescriptor }
        let creating = names[key] == nil
        let name = names[key] ?? Self.name(connection: label.connection, direction: label.direction,
                                           source: label.source, destination: label.destination)
        let fileDescriptor: Int32
        switch FileDescriptorIO.openForWriting(directory + "/" + name, truncating: creating) {
        case .success(let opened):
            fileDescriptor = opened
        case .failure(let error):
            names[key] = name
            throw failure("cannot open", key, error.code)
        }
        names[key] = name
        makeRoom()
        openFiles[key] = fileDescriptor
        openOrder.append(key)
        return fileDescriptor
    }

    /// Closes the oldest descriptors beyond ``maxOpenFiles``. Entries of files closed since
    /// (their connection ended) are dropped from the order list once they are most of it.
    private func makeRoom() {
        if openOrder.count - openOrderStart > 4 * Self.maxOpenFiles {
            openOrder = openOrder[openOrderStart...].filter { openFiles[$0] != nil }
            openOrderStart = 0
        }
        while openFiles.count >= Self.maxOpenFiles, openOrderStart < openOrder.count {
            let oldest = openOrder[openOrderStart]
            openOrderStart += 1
            if let fileDescriptor = openFiles.removeValue(forKey: oldest) { FileDescriptorIO.close(fileDescriptor) }
        }
    }

    private func failure(_ what: String, _ key: FileKey, _ code: Int32) -> CommandFailure {
        CommandFailure(message: "framedump streams: \(what) \(directory)/\(names[key] ?? ""): \(SystemError(code: code).text)",
                       status: .badInput)
    }
}
