import TLSDecryption

/// `--tls-keylog FILE` and the key logs of a pcapng's Decryption Secrets Blocks, as one
/// ``TLSKeyProvider``: the secrets of every line read, looked up by client random.
///
/// With ``followsGrowth`` (`capture`: the client appends to the file while it runs), a client
/// random that is not found yet makes it read what was appended since, then look again; a file
/// that does not exist yet (the capture starts before the client) is opened when it appears.
/// Malformed lines are warnings on standard error with their line numbers; the rest is used.
final class KeyLogFile: TLSKeyProvider {
    private let log = TLSKeyLog()
    private let path: String?
    private var fileDescriptor: Int32 = -1
    private let followsGrowth: Bool
    /// The buffer each read fills, made at the first.
    private var step: [UInt8] = []
    /// Lines not used so far, each source's; the first ``shownWarnings`` of them are written,
    /// the rest counted in one line when a read ends (``sayHidden(_:)``).
    private var warningCounts: [String: Int] = [:]
    private var saidHidden: [String: Int] = [:]
    /// Warnings written per source: a file that is not a key log (a capture given by mistake)
    /// would otherwise write a line of standard error for each of its lines.
    static let shownWarnings = 20

    /// Reads the key log at `path`.
    ///
    /// - Parameters:
    ///   - path: The file; `nil` for keys only from ``add(embedded:source:)``.
    ///   - followsGrowth: Keep the file open and read on when a client random is missing.
    /// - Throws: ``CommandFailure`` (exit 2) when the file cannot be opened (unless it follows
    ///   growth: then a warning, and it is opened when a key is looked for) or read.
    init(path: String?, followsGrowth: Bool = false) throws(CommandFailure) {
        self.path = path
        self.followsGrowth = followsGrowth
        guard let path else { return }
        switch FileDescriptorIO.openForReading(path) {
        case .success(let opened): fileDescriptor = opened
        case .failure(let error):
            guard followsGrowth else {
                throw CommandFailure(message: "framedump: cannot open the TLS key log \(path): \(error.text)", status: .badInput)
            }
            StandardError.writeLine("framedump: the TLS key log \(path) cannot be opened yet (\(error.text)); it is opened when a connection needs keys")
            return
        }
        try readMore(isComplete: !followsGrowth)
        if !followsGrowth {
            FileDescriptorIO.close(fileDescriptor)
            fileDescriptor = -1
        }
    }

    deinit {
        if fileDescriptor >= 0 { FileDescriptorIO.close(fileDescriptor) }
    }

    /// Adds a key log held in the capture itself (a pcapng Decryption Secrets Block).
    func add(embedded text: [UInt8], source: String) {
        report(log.add(text, isComplete: true), source: source)
        sayHidden(source)
    }

    /// How many client randoms have secrets.
    var count: Int { log.count }

    var mayLearnMore: Bool { followsGrowth && path != nil }

    /// The secrets read so far; first, when the file follows growth, what was appended since the
    /// last read (the layer asks only for a secret it lacks: a random found with its handshake
    /// secrets may have gained its traffic secrets by now).
    func secrets(for clientRandom: ClientRandom) -> TLSSecrets? {
        if followsGrowth, let path {
            if fileDescriptor < 0, case .success(let opened) = FileDescriptorIO.openForReading(path) { fileDescriptor = opened }
            if fileDescriptor >= 0 { try? readMore(isComplete: false) }
        }
        return log.secrets(for: clientRandom)
    }

    /// Reads the file to its end (for now, when it grows) a step at a time, so memory holds the
    /// secrets and one line, not the file; stops at a line over ``TLSKeyLog/maxLineLength``
    /// (a device such as /dev/zero ends there too).
    private func readMore(isComplete: Bool) throws(CommandFailure) {
        if step.isEmpty { step = [UInt8](repeating: 0, count: 64 * 1024) }
        reading: while log.overlongLine == nil {
            let result = step.withUnsafeMutableBytes { FileDescriptorIO.readSome(fileDescriptor, into: $0) }
            switch result {
            case .success(let count):
                report(log.add(step.prefix(count), isComplete: isComplete && count == 0), source: path!)
                if count == 0 { break reading }
            case .failure(let error):
                throw CommandFailure(message: "framedump: cannot read the TLS key log \(path!): \(error.text)", status: .badInput)
            }
        }
        sayHidden(path!)
    }

    private func report(_ warnings: [TLSKeyLog.Warning], source: String) {
        guard !warnings.isEmpty else { return }
        let before = warningCounts[source, default: 0]
        warningCounts[source] = before + warnings.count
        for warning in warnings.prefix(max(Self.shownWarnings - before, 0)) {
            StandardError.writeLine("framedump: \(source): \(String(describing: warning).terminalSafe); the line is not used")
        }
    }

    /// Says how many of `source`'s unused lines were not shown since it last said so.
    private func sayHidden(_ source: String) {
        let hidden = max(warningCounts[source, default: 0] - Self.shownWarnings, 0)
        guard hidden > saidHidden[source, default: 0] else { return }
        saidHidden[source] = hidden
        StandardError.writeLine("framedump: \(source): \(hidden) more lines not used (\(warningCounts[source]!) in all; the first \(Self.shownWarnings) are shown)")
    }
}
