import Testing
@testable import PacketDecoding
