import FrameDumpLive

extension HostPort {
    /// Parses `text`.
    ///
    /// - Parameters:
    ///   - text: the argument.
    ///   - what: the argument's name for messages (`LISTEN`, `UPSTREAM`).
    ///   - requiresHost: whether a bare port is refused (`connect`, a proxy's upstream).
    /// - Throws: ``UsageError`` saying which part is wrong and what was expected.
    static func parse(_ text: String, what: String, requiresHost: Bool) throws(UsageError) -> HostPort {
        let host: Substring?
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw UsageError("\(what) '\(text)': expected ']' after the IPv6 address")
            }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else {
                throw UsageError("\(what) '\(text)': expected ':PORT' after ']'")
            }
            portText = rest.dropFirst()
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            if host?.contains(":") == true {
                throw UsageError("\(what) '\(text)': put an IPv6 address in brackets, e.g. [::1]:9000")
            }
        } else {
            host = nil
            portText = Substring(text)
        }
        if host == nil, requiresHost {
            throw UsageError("\(what) '\(text)': expected HOST:PORT, e.g. 127.0.0.1:9000")
        }
        if let host, host.isEmpty {
            throw UsageError("\(what) '\(text)': expected a host before ':'")
        }
        guard !portText.isEmpty, portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber),
              let port = UInt16(portText) else {
            throw UsageError("\(what) '\(text)': expected a port number 0-65535, found '\(portText)'")
        }
        if requiresHost, port == 0 {
            throw UsageError("\(what) '\(text)': port 0 cannot be connected to")
        }
        return HostPort(host: host.map(String.init), port: port)
    }
}
