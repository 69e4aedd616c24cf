extension String {
    /// The text with every C0 control, DEL and C1 control written as `\xHH`, for a line that
    /// shows text taken from a capture or a key log (an HTTP request line, a close reason, an
    /// SNI, a key log label).
    ///
    /// Such text is the sender's: an ESC or CSI in it would move the cursor, recolour or retitle
    /// the reader's terminal (the reason ``BodyPresentation`` shows such bodies in hex). A `\` is
    /// kept as it is; the rest of the text is unchanged.
    ///
    /// - Returns: The text, one line with no control characters.
    var terminalSafe: String {
        guard unicodeScalars.contains(where: Self.isControl) else { return self }
        var shown = ""
        for scalar in unicodeScalars {
            if Self.isControl(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                shown += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
