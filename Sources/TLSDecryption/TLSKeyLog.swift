/// The secrets of an NSS key log (`SSLKEYLOGFILE`; RFC 9850), by client random.
///
/// ```
/// # comment
/// CLIENT_RANDOM <client random, 64 hex> <master secret, 96 hex>          (TLS 1.2)
/// CLIENT_HANDSHAKE_TRAFFIC_SECRET <client random> <secret>                (TLS 1.3)
/// SERVER_HANDSHAKE_TRAFFIC_SECRET …  CLIENT_TRAFFIC_SECRET_0 …  SERVER_TRAFFIC_SECRET_0 …
/// ```
///
/// Text is added as it comes (``add(_:)``), so a file that grows while a client runs can be
/// read on: an unfinished last line waits for the rest. `EXPORTER_SECRET`,
/// `CLIENT_EARLY_TRAFFIC_SECRET`, `EARLY_EXPORTER_SECRET`, `RSA` and OpenSSL's
/// `CLIENT_TRAFFIC_SECRET_N` / `SERVER_TRAFFIC_SECRET_N` (after a KeyUpdate) lines are valid and not
/// needed; any other line that is not of the form above is a ``Warning`` with its line number,
/// and the rest of the log is still used.
///
/// Memory is bounded by the secrets kept, whatever the text: a line longer than
/// ``maxLineLength`` (binary data, a file that is not a key log) is a warning, and the log stops
/// there (``overlongLine``), reading nothing after it.
public final class TLSKeyLog: TLSKeyProvider {
    /// The longest line read, in bytes without its line end. A valid key log line is under 300
    /// (a 31-byte label, 64 hex digits of client random, at most 96 of secret); the bound is
    /// far above that so a long comment or a wrong secret is still one warning of its own.
    public static let maxLineLength = 64 * 1024

    /// A line that was not used.
    public struct Warning: Sendable, Equatable, CustomStringConvertible {
        /// The line's number, from 1.
        public let line: Int
        /// What is wrong with it.
        public let message: String

        public var description: String { "line \(line): \(message)" }
    }

    private var secretsByRandom: [ClientRandom: TLSSecrets] = [:]
    private var partialLine: [UInt8] = []
    private var lineNumber = 0
    /// The number of the line that was over ``maxLineLength``, after which nothing is read;
    /// `nil` while every line fitted.
    public private(set) var overlongLine: Int?

    public init() {}

    /// How many client randoms have secrets.
    public var count: Int { secretsByRandom.count }

    public func secrets(for clientRandom: ClientRandom) -> TLSSecrets? { secretsByRandom[clientRandom] }

    /// Parses the next bytes of the log.
    ///
    /// - Parameters:
    ///   - text: The bytes after those added before (UTF-8; lines end in LF or CRLF).
    ///   - isComplete: Whether this is the end of the log: an unterminated last line is parsed
    ///     now rather than kept for more text.
    /// - Returns: The warnings for the lines these bytes completed; one for a line over
    ///   ``maxLineLength``, after which these bytes and any later are not read.
    @discardableResult
    public func add(_ text: some Collection<UInt8>, isComplete: Bool = false) -> [Warning] {
        var warnings: [Warning] = []
        guard overlongLine == nil else { return warnings }
        for byte in text {
            if byte == UInt8(ascii: "\n") {
                finishLine(into: &warnings)
            } else if partialLine.count < Self.maxLineLength + 1 {
                // One byte over the limit, allowing for a CR before the LF.
                partialLine.append(byte)
            } else {
                overlongLine = lineNumber + 1
                partialLine.removeAll()
                warnings.append(Warning(line: lineNumber + 1, message: "over \(Self.maxLineLength) bytes with no line end, so not a key log line, and nothing after it is read"))
                return warnings
            }
        }
        if isComplete, !partialLine.isEmpty { finishLine(into: &warnings) }
        return warnings
    }

    private func finishLine(into warnings: inout [Warning]) {
        lineNumber += 1
        defer { partialLine.removeAll(keepingCapacity: true) }
        if partialLine.last == UInt8(ascii: "\r") { partialLine.removeLast() }
        let fields = partialLine.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
        guard let first = fields.first, first.first != UInt8(ascii: "#") else { return }
        let label = String(decoding: first, as: UTF8.self)
        if Self.ignoredLabels.contains(label) { return }
        guard Self.usedLabels.contains(label) else {
            warnings.append(Warning(line: lineNumber, message: "unknown label \(Self.shown(label))"))
            return
        }
        guard fields.count == 3 else {
            warnings.append(Warning(line: lineNumber, message: "\(label): expected 3 fields (label, client random, secret), found \(fields.count)"))
            return
        }
        guard let randomBytes = Self.hex(fields[1]), let random = ClientRandom(randomBytes) else {
            warnings.append(Warning(line: lineNumber, message: "\(label): the client random is not 64 hex digits"))
            return
        }
        guard let secret = Self.hex(fields[2]), !secret.isEmpty else {
            warnings.append(Warning(line: lineNumber, message: "\(label): the secret is not hex digits"))
            return
        }
        if label == "CLIENT_RANDOM", secret.count != 48 {
            warnings.append(Warning(line: lineNumber, message: "CLIENT_RANDOM: the master secret is \(secret.count) bytes, expected 48"))
            return
        }
        // A TLS 1.3 traffic secret is Hash.length bytes (RFC 8446 §7.1): its suites hash with
        // SHA-256 or SHA-384.
        if label != "CLIENT_RANDOM", secret.count != 32, secret.count != 48 {
            warnings.append(Warning(line: lineNumber, message: "\(label): the secret is \(secret.count) bytes, expected 32 (SHA-256) or 48 (SHA-384)"))
            return
        }
        var secrets = secretsByRandom[random] ?? TLSSecrets()
        switch label {
        case "CLIENT_RANDOM": secrets.masterSecret = secret
        case "CLIENT_HANDSHAKE_TRAFFIC_SECRET": secrets.clientHandshakeTrafficSecret = secret
        case "SERVER_HANDSHAKE_TRAFFIC_SECRET": secrets.serverHandshakeTrafficSecret = secret
        case "CLIENT_TRAFFIC_SECRET_0": secrets.clientTrafficSecret0 = secret
        default: secrets.serverTrafficSecret0 = secret
        }
        secretsByRandom[random] = secrets
    }

    private static let usedLabels: Set<String> = [
        "CLIENT_RANDOM", "CLIENT_HANDSHAKE_TRAFFIC_SECRET", "SERVER_HANDSHAKE_TRAFFIC_SECRET",
        "CLIENT_TRAFFIC_SECRET_0", "SERVER_TRAFFIC_SECRET_0",
    ]
    private static let ignoredLabels: Set<String> = [
        "EXPORTER_SECRET", "CLIENT_EARLY_TRAFFIC_SECRET", "EARLY_EXPORTER_SECRET", "RSA",
        "CLIENT_TRAFFIC_SECRET_N", "SERVER_TRAFFIC_SECRET_N",
    ]

    /// At most 40 characters of a label, for a message.
    private static func shown(_ label: String) -> String {
        label.count > 40 ? "\"\(label.prefix(40))…\"" : "\"\(label)\""
    }

    /// The bytes of an even number of hex digits, or `nil`.
    private static func hex(_ digits: some Collection<UInt8>) -> [UInt8]? {
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var high: UInt8?
        for digit in digits {
            let value: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = digit - UInt8(ascii: "A") + 10
            default: return nil
            }
            if let h = high {
                bytes.append(h << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return bytes
    }
}
