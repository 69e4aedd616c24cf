/// Something that produces ``StreamInput`` for the decode pipeline: a hex dump today, a capture
/// file or a live socket later.
protocol StreamSource {
    /// Delivers all of the input, in order, then returns.
    ///
    /// Every stream that received data gets an ``StreamInput/end(_:)`` before this returns.
    ///
    /// - Throws: ``CommandFailure`` when the input cannot be read or parsed (with the location,
    ///   e.g. `file:line:column:`), or whatever `deliver` throws.
    func run(_ deliver: (StreamInput) throws -> Void) throws
}
