import Testing
@testable import PacketCapture
