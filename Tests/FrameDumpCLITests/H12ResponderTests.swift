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
        #expect(id(#"{"id":70e-1}"#) == 7)
        #expect(id(#"{"id":0.7E+1}"#) == 7)
        #expect(id(#"{"id":4.294967295e9}"#) == 4_294_967_295)
        #expect(id(#"{"id":0e999999999999}"#) == 0)
        #expect(id(#"{"id":-0}"#) == 0)
    }

    /// A body is one JSON document: whitespace around it does not hide the id (issue 11, item 15).
    @Test func whitespaceAroundTheDocumentIsAllowed() {
        #expect(id(#" {"id":8}"#) == 8)
        #expect(id("\r\n\t{\"id\":8} \n") == 8)
    }

    /// Only exact whole numbers are ids: a number that a `Double` rounds to one is not.
    @Test func onlyExactIntegersAreIDs() {
        for body in [#"{"id":6.9999999999999999999}"#, #"{"id":7.0000000000000000001}"#, #"{"id":4294967295.5}"#,
                     #"{"id":4.2949672951e9}"#, #"{"id":1e10}"#, #"{"id":5e-1}"#, #"{"id":1e-999999999999}"#] {
            #expect(id(body) == nil, "\(body)")
        }
    }

    @Test func messageIDIsNilWithoutAFittingIntegerID() {
        for body in [#"{"id":4294967296}"#, #"{"id":-1}"#, #"{"id":7.5}"#, #"{"id":"7"}"#, #"{"ID":7}"#, #"{"inner":{"id":7}}"#,
                     #"[{"id":7}]"#, #"{"id":7"#, #"{"id":7} trailing"#, "", "ping"] {
            #expect(id(body) == nil, "\(body)")
        }
    }

    @Test func commandMapAllowsSpacesAroundNumbers() throws {
        #expect(try H12Responder.CommandMap.parse(" 10 : 11,\t20:21 ") == H12Responder.CommandMap(ping: 10, pong: 11, msg: 20, ack: 21))
        #expect(throws: UsageError.self) { try H12Responder.CommandMap.parse("1:2") }
        #expect(throws: UsageError.self) { try H12Responder.CommandMap.parse("1:2,3: ") }
    }
}
