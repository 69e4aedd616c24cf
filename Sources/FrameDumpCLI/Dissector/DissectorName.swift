/// The protocol name of a generated dissector: its Wireshark `Proto` name and the prefix of
/// every display-filter field (`fd_h12.cmd`, `fd_h12.pdu.crc_ok`).
///
/// Wireshark refuses a Lua `Proto` whose name it already has, and a built-in one is already
/// there for most protocols framedump has presets for (`tls`, `mqtt`; `tshark -G protocols`
/// lists some 3,000). No built-in protocol name starts with `fd_`, so every dissector name
/// does: the default is `fd_` and the preset's name, or `fd_frames` for a spec, and a
/// `--name` without the prefix is refused rather than silently renamed.
enum DissectorName {
    /// The prefix every dissector name starts with.
    static let prefix = "fd_"

    /// The default name for a format: `fd_` and the preset's name, or `fd_frames`.
    ///
    /// - Parameter presetName: the preset the format came from, or `nil` for a spec.
    static func defaultName(presetName: String?) -> String {
        prefix + (presetName ?? "frames")
    }

    /// Checks a `--name`.
    ///
    /// - Parameter name: the name given.
    /// - Returns: why it cannot be a dissector name, or `nil` when it can: `fd_`, then lowercase
    ///   letters, digits or `_` (Wireshark wants protocol filter names in lowercase).
    static func problem(with name: String) -> String? {
        let allowed = name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
        guard name.hasPrefix(prefix) else {
            return "a dissector name starts with '\(prefix)' so it can never clash with a protocol built into Wireshark "
                + "(tls, mqtt and some 3,000 more: tshark -G protocols)\(allowed ? "; try --name \(prefix)\(name)" : "")"
        }
        guard name.count > prefix.count, allowed else {
            return "expected '\(prefix)' then lowercase letters, digits or '_' (Wireshark's protocol filter names are lowercase)"
        }
        return nil
    }
}
