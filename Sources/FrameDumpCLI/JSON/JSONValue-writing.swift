extension JSONValue {
    /// How ``append(to:layout:)`` lays out a value. Either way, strings are written as their
    /// literals and numbers as their text, exactly as they were read.
    enum Layout {
        /// No whitespace; object members sorted by key, in Unicode code point order (the order
        /// of duplicate keys kept): the same value always gives the same bytes.
        case compactSorted
        /// No whitespace; members in their order (a JSON body embedded in JSON Lines' `body`).
        case compact
        /// One member or element a line, indented two spaces a level; members in their order.
        case indented
    }

    /// Appends this value as JSON text.
    ///
    /// ```
    /// {"to": ["bob"], "id": 7}   →   compactSorted: {"id":7,"to":["bob"]}
    ///                                compact:       {"to":["bob"],"id":7}
    ///                                indented:      {
    ///                                                 "to": [
    ///                                                   "bob"
    ///                                                 ],
    ///                                                 "id": 7
    ///                                               }
    /// ```
    ///
    /// - Parameters:
    ///   - buffer: where the text goes (no trailing newline).
    ///   - layout: whitespace and member order.
    func append(to buffer: inout [UInt8], layout: Layout) {
        append(to: &buffer, layout: layout, depth: 0)
    }

    private func append(to buffer: inout [UInt8], layout: Layout, depth: Int) {
        switch self {
        case .object(var members):
            if layout == .compactSorted {
                // Swift's sort is stable: duplicate keys keep their order.
                members.sort { $0.key.value.utf8.lexicographicallyPrecedes($1.key.value.utf8) }
            }
            Self.appendContainer(members, opening: "{", closing: "}", to: &buffer, layout: layout, depth: depth) { member, buffer in
                buffer.append(contentsOf: member.key.literal)
                buffer.append(contentsOf: layout == .indented ? ": ".utf8 : ":".utf8)
                member.value.append(to: &buffer, layout: layout, depth: depth + 1)
            }
        case .array(let elements):
            Self.appendContainer(elements, opening: "[", closing: "]", to: &buffer, layout: layout, depth: depth) { element, buffer in
                element.append(to: &buffer, layout: layout, depth: depth + 1)
            }
        case .string(let text):
            buffer.append(contentsOf: text.literal)
        case .number(let text):
            buffer.append(contentsOf: text.utf8)
        case .bool(let value):
            buffer.append(contentsOf: value ? "true".utf8 : "false".utf8)
        case .null:
            buffer.append(contentsOf: "null".utf8)
        }
    }

    /// An object's members or an array's elements between brackets, comma-separated; an empty
    /// one as `{}` or `[]` in either layout.
    private static func appendContainer<Element>(
        _ elements: [Element], opening: Unicode.Scalar, closing: Unicode.Scalar,
        to buffer: inout [UInt8], layout: Layout, depth: Int,
        _ appendElement: (Element, inout [UInt8]) -> Void
    ) {
        buffer.append(UInt8(ascii: opening))
        for (index, element) in elements.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            if layout == .indented { newline(depth: depth + 1, to: &buffer) }
            appendElement(element, &buffer)
        }
        if layout == .indented, !elements.isEmpty { newline(depth: depth, to: &buffer) }
        buffer.append(UInt8(ascii: closing))
    }

    private static func newline(depth: Int, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\n"))
        buffer.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
    }
}
