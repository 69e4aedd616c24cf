import TestSupport

/// TestSupport's formats under this target's own name, so every file here sees them without an
/// import of its own.
typealias TestFormats = TestSupport.TestFormats
