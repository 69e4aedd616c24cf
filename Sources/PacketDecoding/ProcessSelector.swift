/// Which process's connections to keep (`--process NAME|PID`): a PKTAP capture holds every
/// app's traffic.
///
/// A number selects by process ID, anything else by name; either matches the owning process or
/// the effective one (a delegated socket's app). PKTAP names are cut at 16 bytes, so a longer
/// name also matches a 16-byte name it starts with.
public struct ProcessSelector: Sendable, Hashable, CustomStringConvertible {
    /// What the user gave: a process ID or a name.
    public enum Criterion: Sendable, Hashable {
        case pid(Int32)
        case name(String)
    }

    /// The process ID or name to match.
    public let criterion: Criterion

    /// Parses `text`: decimal digits are a process ID, anything else a name.
    ///
    /// - Parameter text: `Safari`, `412` …; must not be empty.
    /// - Returns: `nil` when `text` is empty.
    public init?(_ text: String) {
        guard !text.isEmpty else { return nil }
        if let pid = Int32(text), pid >= 0 {
            criterion = .pid(pid)
        } else {
            criterion = .name(text)
        }
    }

    /// Whether `process` is the one selected; no process (not a PKTAP capture, or none named) never is.
    ///
    /// - Parameter process: The process a connection's first packet names.
    /// - Returns: `true` when its owning or effective process matches.
    public func matches(_ process: PacketProcess?) -> Bool {
        guard let process else { return false }
        switch criterion {
        case .pid(let pid):
            return process.pid == pid || process.effectivePID == pid
        case .name(let name):
            return [process.name, process.effectiveName].contains { candidate in
                guard let candidate else { return false }
                return candidate == name || (candidate.utf8.count == 16 && name.utf8.starts(with: candidate.utf8))
            }
        }
    }

    /// The selector as the user gave it.
    public var description: String {
        switch criterion {
        case .pid(let pid): "\(pid)"
        case .name(let name): name
        }
    }
}
