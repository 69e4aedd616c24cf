/// CONTRACT STUB — replaced by the real implementation (issue 2).
extension FrameFormat {
    public static var fefd: FrameFormat { fatalError("stub") }
    public static var h12: FrameFormat { fatalError("stub") }
    public static var u16: FrameFormat { fatalError("stub") }
    public static var u32: FrameFormat { fatalError("stub") }
    public static var tls: FrameFormat { fatalError("stub") }
    /// All presets, in the order `framedump formats` lists them.
    public static var presets: [FrameFormat] { fatalError("stub") }
    /// A preset by name, or nil.
    public static func preset(named name: String) -> FrameFormat? { fatalError("stub") }
    /// Guesses the preset from a stream's first bytes; nil when none fits.
    public static func detect(_ prefix: some Collection<UInt8>) -> FrameFormat? { fatalError("stub") }
}
