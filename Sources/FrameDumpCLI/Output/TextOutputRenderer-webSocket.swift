import PacketDecoding
import WebSocketFraming

extension TextOutputRenderer {
    /// A WebSocket layer's event as a block: a heading line, and for a frame (or an inflated
    /// message) its unmasked payload as a hex+ASCII dump unless bodies are off (`--payload none`
    /// or `--body none`, as for frames).
    ///
    /// ```
    /// conn 1 c2s 127.0.0.1:40000 → 127.0.0.1:8765  …Z  ws frame  offset 268  fin text masked 0x1a2b3c4d  payload 13 bytes (19 on the wire)
    ///   00000000  68 65 6c 6c 6f 2c 20 73  65 72 76 65 72           |hello, server|
    /// ```
    mutating func renderWebSocket(_ event: WebSocketEvent, label: StreamLabel, time: Timestamp, into buffer: inout [UInt8]) {
        let stream = "conn \(label.connection) \(label.direction) \(label.sourceText) → \(label.destinationText)"
        var dump: [UInt8] = []
        let dumpsPayload = showsBody && bodies.defaultView != .none
        let (name, what, isBad): (String, String, Bool)
        switch event {
        case .handshake(let handshake):
            // The heads' text is the peers': shown with its control characters escaped.
            let status = handshake.status.map { "\($0) \((handshake.reason ?? "").terminalSafe)" } ?? "no response"
            (name, what, isBad) = ("ws handshake", "\(handshake.requestLine?.terminalSafe ?? "no request") → \(status)"
                + (handshake.extensions.map { ", extensions \($0.terminalSafe)" } ?? "")
                + (handshake.subprotocol.map { ", subprotocol \($0.terminalSafe)" } ?? ""), handshake.status != 101)
        case .frame(let frame):
            let bits = [frame.fin ? "fin" : nil, frame.opcode.description, frame.rsv1 ? "rsv1" : nil, frame.rsv2 ? "rsv2" : nil,
                        frame.rsv3 ? "rsv3" : nil, frame.maskKey.map { "masked \(JSONLinesOutputRenderer.hex32($0))" }]
            let close = frame.closeCode.map { "  close \($0)" + (frame.closeReason.map { $0.isEmpty ? "" : " \"\($0.terminalSafe)\"" } ?? "") } ?? ""
            (name, what, isBad) = ("ws frame", "offset \(frame.offset)  \(bits.compactMap { $0 }.joined(separator: " "))  "
                + "payload \(frame.payloadLength) bytes (\(frame.wireLength) on the wire)\(close)", false)
            if dumpsPayload { HexASCIIDump.append(frame.payload[...], indent: "  ", to: &dump) }
        case .message(let message):
            let inflated = message.compressed ? ", \(message.wireLength) compressed" : ""
            let inner = message.innerOffset.map { "  inner offset \($0)" } ?? ""
            (name, what, isBad) = ("ws message", "offset \(message.offset)  \(message.opcode)  \(counted(message.frames, "frame"))  "
                + "\(message.length) bytes\(inflated)\(inner)", false)
            if dumpsPayload, message.compressed { HexASCIIDump.append(message.inflated[...], indent: "  ", to: &dump) }
        case .violation(let violation):
            (name, what, isBad) = ("ws error", "offset \(violation.offset)  \(Self.text(violation.kind))", true)
        case .unread(_, let offset, let length, let reason):
            (name, what, isBad) = ("ws unread", "\(length) bytes from offset \(offset) not read as frames (\(reason.rawValue))", true)
        }
        appendBlock(["\(stream)  \(Self.text(time))  \(style.apply(isBad ? .bad : .good, name))  \(what)"], to: &buffer)
        buffer.append(contentsOf: dump)
    }

    private static func text(_ kind: WebSocketViolation.Kind) -> String {
        switch kind {
        case .unmaskedClientFrame: "a client frame without a mask (RFC 6455 §5.1)"
        case .maskedServerFrame: "a server frame with a mask (RFC 6455 §5.1)"
        case .reservedBits(let bits): "reserved bits 0b\(String(bits, radix: 2)) (rsv1-3) set with no extension for them"
        case .unknownOpcode(let opcode): "reserved opcode 0x\(String(opcode, radix: 16))"
        case .fragmentedControlFrame: "a control frame without fin"
        case .controlPayloadTooLong(let length): "a control frame's payload of \(length) bytes (at most 125)"
        case .unexpectedContinuation: "a continuation frame with no message begun"
        case .messageNotFinished: "a new message before the last one's final frame"
        case .lengthTopBitSet: "a 64-bit length with its top bit set: the rest of the direction is not read"
        case .frameTooLong(let length): "a payload of \(length) bytes over the frame limit: skipped"
        case .messageTooLong(let dropped): "a message over the length limit once inflated: \(dropped) bytes dropped"
        case .inflateFailed(let message): "the compressed message did not inflate (\(message))"
        case .badClosePayload: "a close payload of 1 byte"
        case .notSwitching(let status): "the response is \(status), not 101 Switching Protocols: no frames follow"
        case .badHandshake(let what): "the handshake is not WebSocket's: \(what)"
        case .headTooLong(let limit): "an Upgrade head with no blank line within the \(limit)-byte limit: not read (--max-upgrade-head raises it)"
        }
    }
}
