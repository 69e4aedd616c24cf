import Testing
@testable import FrameDumpCLI
