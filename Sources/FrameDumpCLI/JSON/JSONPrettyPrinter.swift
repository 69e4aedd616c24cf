/// Re-indents a JSON document for people, or says it is not JSON.
///
/// Parses with ``JSONParser`` and writes the value back ``JSONValue/Layout/indented``: numbers
/// keep their exact text, strings their literal and objects their key order, unlike a round
/// trip through `JSONSerialization`:
///
/// ```
/// {"id":7,"to":["bob"],"ok":true}   →   {
///                                          "id": 7,
///                                          "to": [
///                                            "bob"
///                                          ],
///                                          "ok": true
///                                        }
/// ```
///
/// Nesting deeper than ``maxDepth`` is refused (the caller then shows the body another way), so
/// hostile input cannot exhaust the stack.
enum JSONPrettyPrinter {
    /// The deepest nesting of objects and arrays accepted.
    static let maxDepth = JSONValue.maxDepth

    /// The indented text (no trailing newline), or `nil` when `bytes` is not a single JSON object
    /// or array (surrounding whitespace allowed).
    static func format(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        guard let value = try? JSONParser.parse(bytes) else { return nil }
        switch value {
        case .object, .array:
            var output: [UInt8] = []
            value.append(to: &output, layout: .indented)
            return output
        case .string, .number, .bool, .null:
            return nil
        }
    }
}
