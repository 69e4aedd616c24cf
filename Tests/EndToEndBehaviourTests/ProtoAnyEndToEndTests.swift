import FrameCodec
import Foundation
import TestSupport
import Testing

/// `google.protobuf.Any` in the schema view's JSON Lines when the packed type can and cannot be
/// read: the mapping's `@type` form for a type in the descriptor set, and the explicit
/// `@value` fallback (plus `@error` when the bytes do not decode) for the cases the mapping
/// has no form for. The descriptor set is protoc's, of a schema written here (with its own copy
/// of any.proto's two fields, so no Google .proto files are needed); the bodies are built here
/// byte by byte, and the expected JSON follows from what was built.
@Suite(.requires(.protoc))
struct ProtoAnyEndToEndTests {
    /// `Holder { google.protobuf.Any a = 1; }` with `a` packing `typeName` and `packed`.
    static func holder(typeName: String, packed: [UInt8]) -> [UInt8] {
        let url = Array("type.googleapis.com/\(typeName)".utf8)
        let any = [0x0A, UInt8(url.count)] + url + [0x12, UInt8(packed.count)] + packed
        return [0x0A, UInt8(any.count)] + any
    }

    @Test func anyIsShownWithItsTypeOrAnExplicitFallback() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-any-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: "\(directory)/google/protobuf", withIntermediateDirectories: true)
        try """
        syntax = "proto3";
        package google.protobuf;
        message Any { string type_url = 1; bytes value = 2; }
        """.write(toFile: "\(directory)/google/protobuf/any.proto", atomically: true, encoding: .utf8)
        try """
        syntax = "proto3";
        package t;
        import "google/protobuf/any.proto";
        message Holder { google.protobuf.Any a = 1; }
        message Inner { int32 x = 1; string s = 2; }
        """.write(toFile: "\(directory)/t.proto", atomically: true, encoding: .utf8)
        let protoc = try ExternalProgram.run("protoc", ["-I\(directory)", "--descriptor_set_out=\(directory)/t.pb", "--include_imports", "\(directory)/t.proto"])
        #expect(protoc.status == 0)

        let cases: [([UInt8], String)] = [
            (Self.holder(typeName: "t.Inner", packed: [0x08, 0x05, 0x12, 0x02, 0x68, 0x69]), #"{"a":{"@type":"type.googleapis.com/t.Inner","x":5,"s":"hi"}}"#),
            (Self.holder(typeName: "t.Inner", packed: []), #"{"a":{"@type":"type.googleapis.com/t.Inner"}}"#),
            (Self.holder(typeName: "nowhere.X", packed: [0x08, 0x01]), #"{"a":{"@type":"type.googleapis.com/nowhere.X","@value":"CAE="}}"#),
            (Self.holder(typeName: "t.Inner", packed: [0x12, 0x02, 0xFF, 0xFE]), #"{"a":{"@type":"type.googleapis.com/t.Inner","@value":"EgL//g==","@error":"string field 's' that is not UTF-8 at byte 1"}}"#),
        ]
        let encoder = FrameEncoder(format: .u16)
        let input = try cases.map { body, _ in try encoder.encode(fields: [:], body: body).map { String(format: "%02x", $0) }.joined() + "\n" }.joined()
        let result = try FrameDumpProcess.run(
            ["decode", "--format", "u16", "--json", "--payload", "none", "--proto-descriptors", "\(directory)/t.pb", "--body", "proto:t.Holder", "-"],
            input: Data(input.utf8)
        )
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == cases.count)
        for (line, (_, expected)) in zip(lines, cases) {
            #expect(line.hasSuffix(#""body":{"view":"proto","type":"t.Holder","value":"# + expected + "}}"), "\(line)")
        }
    }
}
