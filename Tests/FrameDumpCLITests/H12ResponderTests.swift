import Testing
@testable import FrameDumpCLI

@Suite struct H12ResponderTests {
    func id(_ body: String) -> UInt32? {
        H12Responder.messageID(Array(body.utf8)[...])
    }

    @Test func messageIDIsTheIntegerIDOfAJSONObjectBody() {
        #expect(id(#"{"id":7,"text":"hi"}"#) == 7)
        #expect(id(#"{"text":"hi", "id" : 4294967295}"#) == 4_294_967_295)
        #expect(id(#"{"id":7.0}"#) == 7)
        #expect(id(#"{"id":7e0}"#) == 7)
        #expect(id(#"{"id":1,"id":2}"#) == 2)
    }

    @Test func messageIDIsNilWithoutAFittingIntegerID() {
        for body in [#"{"id":4294967296}"#, #"{"id":-1}"#, #"{"id":7.5}"#, #"{"id":"7"}"#, #"{"ID":7}"#, #"{"inner":{"id":7}}"#,
                     #"[{"id":7}]"#, #" {"id":7}"#, #"{"id":7"#, #"{"id":7} trailing"#, "", "ping"] {
            #expect(id(body) == nil, "\(body)")
        }
    }

    @Test func commandMapAllowsSpacesAroundNumbers() throws {
        #expect(try H12Responder.CommandMap.parse(" 10 : 11,\t20:21 ") == H12Responder.CommandMap(ping: 10, pong: 11, msg: 20, ack: 21))
        #expect(throws: UsageError.self) { try H12Responder.CommandMap.parse("1:2") }
        #expect(throws: UsageError.self) { try H12Responder.CommandMap.parse("1:2,3: ") }
    }
}
