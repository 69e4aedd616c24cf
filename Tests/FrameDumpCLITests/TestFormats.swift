import TestSupport

/// TestSupport's formats under this target's own name, so every file here sees them without an
/// import of its own (DecodePipelineTests.swift, rewritten with the decoding engine, among them).
typealias TestFormats = TestSupport.TestFormats
