import Testing
@testable import FrameCodec
