import TLSDecryption

/// Where a command gets TLS keys: `--tls-keylog FILE`, and the Decryption Secrets Blocks of a
/// pcapng capture file (used without the option).
enum TLSKeySource {
    /// The option `decode`, `streams` and `capture` take.
    static let option = OptionSpec.value(
        "tls-keylog", valueName: "FILE",
        help: "Decrypt TLS with this key log (SSLKEYLOGFILE format) and frame\nthe plaintext; see docs/tls.md.")

    /// The keys for decoding the capture at `path`: the option's file and the file's own
    /// secrets blocks.
    ///
    /// - Parameters:
    ///   - arguments: The command line (`--tls-keylog`).
    ///   - path: The capture file, or `nil` (standard input, a live capture: no blocks read).
    ///   - followsGrowth: The key file may grow while the capture runs (`capture`).
    /// - Returns: `nil` when there are no keys at all: TLS is then not decrypted and the
    ///   command behaves as without the option.
    /// - Throws: ``CommandFailure`` (exit 2) when the key log cannot be read, or when there are
    ///   keys but OpenSSL's libcrypto, loaded only now, cannot be (nothing could be decrypted).
    static func keys(_ arguments: ParsedArguments, capture path: String?, followsGrowth: Bool = false) throws(CommandFailure) -> KeyLogFile? {
        let option = arguments.value("tls-keylog")
        let embedded = path.map(embeddedKeyLogs) ?? []
        guard option != nil || !embedded.isEmpty else { return nil }
        try LibCrypto.require(for: "TLS decryption")
        let keys = try KeyLogFile(path: option, followsGrowth: followsGrowth)
        for log in embedded { keys.add(embedded: log, source: "\(path!) (Decryption Secrets Block)") }
        return keys
    }

    /// The key logs in the pcapng file at `path` (none for a pcap, a pipe, or an unreadable file).
    private static func embeddedKeyLogs(_ path: String) -> [[UInt8]] {
        // A pipe (`-`, `<(…)`, a FIFO) is read once, by the capture reader: never scanned first.
        guard path != "-", FileDescriptorIO.isRegularFile(atPath: path),
              case .success(let fileDescriptor) = FileDescriptorIO.openForReading(path) else { return [] }
        defer { FileDescriptorIO.close(fileDescriptor) }
        var reader = BufferedFileReader(fileDescriptor: fileDescriptor)
        return PcapngSecrets.tlsKeyLogs(read: { reader.read($0) }, skip: { reader.skip($0) })
    }
}
