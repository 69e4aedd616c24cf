import PacketDecoding
import WebSocketFraming

extension JSONLinesOutputRenderer {
    /// `ws_handshake`, `ws_frame`, `ws_message`, `ws_error` and `ws_unread` lines (docs/cli.md,
    /// "WebSocket"); payloads as `payload_hex` unless `--payload none`.
    func renderWebSocket(_ event: WebSocketEvent, label: StreamLabel, time: Timestamp, into buffer: inout [UInt8]) {
        func open(_ type: String) {
            buffer.append(contentsOf: "{\"type\":\"\(type)\"".utf8)
            JSONLinesWriter.appendStreamKeys(label: label, time: time, to: &buffer)
        }
        func number(_ key: String, _ value: UInt64?) {
            buffer.append(contentsOf: ",\"\(key)\":".utf8)
            if let value { ByteFormatting.appendDecimal(value, to: &buffer) } else { buffer.append(contentsOf: "null".utf8) }
        }
        func string(_ key: String, _ value: String?) {
            buffer.append(contentsOf: ",\"\(key)\":".utf8)
            if let value { JSONString.append(value, to: &buffer) } else { buffer.append(contentsOf: "null".utf8) }
        }
        func flag(_ key: String, _ value: Bool) {
            buffer.append(contentsOf: ",\"\(key)\":\(value)".utf8)
        }
        func payload(_ bytes: [UInt8]) {
            guard includesPayload else { return }
            buffer.append(contentsOf: ",\"payload_hex\":\"".utf8)
            ByteFormatting.appendHex(bytes[...], to: &buffer)
            buffer.append(UInt8(ascii: "\""))
        }
        switch event {
        case .handshake(let handshake):
            open("ws_handshake")
            string("request", handshake.requestLine)
            number("status", handshake.status.map { UInt64(max(0, $0)) })
            string("reason", handshake.reason)
            string("extensions", handshake.extensions)
            string("subprotocol", handshake.subprotocol)
            flag("deflate", handshake.deflate)
            number("request_length", UInt64(handshake.requestLength))
            number("response_length", UInt64(handshake.responseLength))
        case .frame(let frame):
            open("ws_frame")
            number("offset", frame.offset)
            number("length", frame.wireLength)
            flag("fin", frame.fin)
            string("opcode", frame.opcode.description)
            flag("rsv1", frame.rsv1)
            flag("rsv2", frame.rsv2)
            flag("rsv3", frame.rsv3)
            flag("masked", frame.maskKey != nil)
            string("mask_key", frame.maskKey.map(Self.hex32))
            number("payload_length", frame.payloadLength)
            if frame.opcode == .close {
                number("close_code", frame.closeCode.map(UInt64.init))
                string("close_reason", frame.closeReason)
            }
            payload(frame.payload)
        case .message(let message):
            open("ws_message")
            number("offset", message.offset)
            string("opcode", message.opcode.description)
            number("frames", UInt64(message.frames))
            number("wire_length", message.wireLength)
            number("length", message.length)
            flag("compressed", message.compressed)
            number("inner_offset", message.innerOffset)
            if message.compressed { payload(message.inflated) }
        case .violation(let violation):
            open("ws_error")
            number("offset", violation.offset)
            string("reason", violation.kind.description)
            switch violation.kind {
            case .reservedBits(let bits): number("bits", UInt64(bits))
            case .unknownOpcode(let opcode): number("opcode", UInt64(opcode))
            case .controlPayloadTooLong(let length), .frameTooLong(let length): number("payload_length", length)
            case .messageTooLong(let dropped): number("dropped", dropped)
            case .inflateFailed(let message), .badHandshake(let message): string("detail", message)
            case .notSwitching(let status): number("status", UInt64(max(0, status)))
            case .headTooLong(let limit):
                number("limit", UInt64(limit))
                string("detail", "no blank line within \(limit) bytes; --max-upgrade-head raises the limit")
            case .unmaskedClientFrame, .maskedServerFrame, .fragmentedControlFrame, .unexpectedContinuation,
                 .messageNotFinished, .lengthTopBitSet, .badClosePayload:
                break
            }
        case .unread(_, let offset, let length, let reason):
            open("ws_unread")
            number("offset", offset)
            number("length", length)
            string("reason", reason.rawValue)
        }
        buffer.append(contentsOf: "}\n".utf8)
    }

    /// `0x1a2b3c4d`: a masking key, as sent.
    static func hex32(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
