/// Built-in frame layouts, and guessing one from a stream's first bytes.
///
/// Presets are plain ``FrameFormat`` values: every one of them can also be written as a text
/// spec (docs/formats.md lists the equivalent spec beside each diagram).
extension FrameFormat {
    /// A 2-byte magic `0xFEFD` and a 2-byte body length, both big-endian.
    ///
    /// ```
    /// +-------+-------+----------------+
    /// | magic |  len  |      body      |
    /// | FE FD | 00 F9 | 249 bytes JSON |
    /// +-------+-------+----------------+
    /// ```
    ///
    /// Spec: `magic:u16=0xFEFD len:u16`. Max frame length 16 MiB (the u16 length caps frames
    /// at 4 + 65 535 bytes anyway).
    public static var fefd: FrameFormat {
        makePreset(name: "fefd", fields: [
            HeaderField(name: "magic", width: 2, expected: 0xFEFD...0xFEFD),
            HeaderField(name: "len", width: 2, role: .length),
        ])
    }

    /// A 12-byte header: magic `0x55AA`, version, command, u32 body length, CRC-32 of the body.
    ///
    /// ```
    /// +-------+-----+-----+-------------+-------------+------+
    /// | magic | ver | cmd |     len     |     crc     | body |
    /// | 55 AA | 1 B | 1 B | u32 BE body | CRC-32 body |      |
    /// +-------+-----+-----+-------------+-------------+------+
    /// ```
    ///
    /// All integers big-endian; the CRC is CRC-32/ISO-HDLC (zlib's) over the body only. The
    /// commands are named as scripts/traffic-generator's protocol uses them: 1 ping, 2 pong
    /// (same body), 3 msg (a JSON message), 4 ack (the msg's id).
    /// Spec: `magic:u16=0x55AA ver:u8 cmd:u8{1=ping,2=pong,3=msg,4=ack} len:u32 crc:crc32`.
    public static var h12: FrameFormat {
        makePreset(name: "h12", fields: [
            HeaderField(name: "magic", width: 2, expected: 0x55AA...0x55AA),
            HeaderField(name: "ver", width: 1),
            HeaderField(name: "cmd", width: 1, valueNames: [
                ValueName(value: 1, name: "ping"), ValueName(value: 2, name: "pong"),
                ValueName(value: 3, name: "msg"), ValueName(value: 4, name: "ack"),
            ]),
            HeaderField(name: "len", width: 4, role: .length),
            HeaderField(name: "crc", width: 4, role: .checksum(.crc32, .body)),
        ])
    }

    /// A 2-byte big-endian body length and nothing else: DNS over TCP (RFC 1035 §4.2.2).
    ///
    /// Spec: `len:u16`.
    public static var u16: FrameFormat {
        makePreset(name: "u16", fields: [HeaderField(name: "len", width: 2, role: .length)])
    }

    /// A 4-byte big-endian body length and nothing else (tokio-util's `LengthDelimitedCodec`
    /// default layout).
    ///
    /// Spec: `len:u32`.
    public static var u32: FrameFormat {
        makePreset(name: "u32", fields: [HeaderField(name: "len", width: 4, role: .length)])
    }

    /// The TLS record layer header (RFC 8446 §5.1, RFC 5246 §6.2).
    ///
    /// ```
    /// +------+---------+-----+----------+
    /// | type | version | len | fragment |
    /// | u8   | u16 BE  | u16 |          |
    /// +------+---------+-----+----------+
    /// ```
    ///
    /// `type` must be a content type 20...24 (change_cipher_spec, alert, handshake,
    /// application_data, heartbeat) and `version` 0x0300...0x0304 (SSL 3.0 to TLS 1.3; TLS 1.3
    /// records carry 0x0303, a first ClientHello may carry 0x0301).
    ///
    /// The max frame length is 5 + 2^14 + 2048 = 18 437 bytes: the TLS 1.2 ciphertext limit
    /// (RFC 5246 §6.2.3), which also covers TLS 1.3's 2^14 + 256 (RFC 8446 §5.2). A longer
    /// record is not TLS, and is reported as oversize.
    ///
    /// Spec: `type:u8=20..24 version:u16=0x0300..0x0304 len:u16 max=18437`.
    public static var tls: FrameFormat {
        makePreset(
            name: "tls",
            fields: [
                HeaderField(name: "type", width: 1, expected: 20...24),
                HeaderField(name: "version", width: 2, expected: 0x0300...0x0304),
                HeaderField(name: "len", width: 2, role: .length),
            ],
            maxFrameLength: tlsMaxRecordLength
        )
    }

    /// 5-byte header + 2^14 plaintext + 2048 bytes of TLS 1.2 expansion (RFC 5246 §6.2.3).
    static let tlsMaxRecordLength = 5 + (1 << 14) + 2048

    /// A varint body length and nothing else: protobuf's delimited streams
    /// (`writeDelimitedTo` / `parseDelimitedFrom`, Go's `protodelim`) and Netty's
    /// `ProtobufVarint32FrameDecoder` / `ProtobufVarint32LengthFieldPrepender`.
    ///
    /// ```
    /// +--------------+-----------+
    /// |     len      |   body    |
    /// | varint, 1–5 B| len bytes |
    /// +--------------+-----------+
    /// ```
    ///
    /// The length is an unsigned LEB128 varint of at most 5 bytes (a `uint32`, as protobuf
    /// writes it; Netty rejects a sixth byte as a malformed varint). A varint still unfinished
    /// after 5 bytes is oversize. Spec: `len:varint5`.
    public static var varint: FrameFormat {
        makePreset(name: "varint", fields: [HeaderField(name: "len", width: 5, role: .length, encoding: .varint)])
    }

    /// Text lines ending in `\n` or `\r\n` (Netty's `LineBasedFrameDecoder`, and its
    /// `DelimiterBasedFrameDecoder` with `Delimiters.lineDelimiter()`): the payload is the line
    /// without its line ending.
    ///
    /// ```
    /// | f i r s t \r \n | s e c o n d \n |
    ///   frame (7 B)       frame (7 B)
    ///   payload "first"   payload "second"
    /// ```
    ///
    /// A line longer than 64 KiB (without its line ending) is one `skip` event through its
    /// line ending. Spec: `delim=\n,\r\n max=64K`.
    public static var lines: FrameFormat {
        do {
            return try FrameFormat(name: "lines", delimiters: [[0x0A], [0x0D, 0x0A]], maxFrameLength: 64 << 10)
        } catch {
            fatalError("preset lines is malformed: \(error)")
        }
    }

    /// MQTT 3.1.1 and 5.0 control packets: the fixed header's packet type and flags, then the
    /// Remaining Length (MQTT 3.1.1 §2.2, 5.0 §2.1).
    ///
    /// ```
    /// +------+-------+------------------+------------------------------------+
    /// | type | flags | remaining length | variable header + payload          |
    /// | 4 b  | 4 b   | varint, 1–4 B    | remaining length bytes             |
    /// +------+-------+------------------+------------------------------------+
    /// ```
    ///
    /// `type` is the control packet type, 1 (CONNECT) to 15 (AUTH, MQTT 5.0); 0 is reserved,
    /// so a header with type 0 is skipped. `flags` are the type's flags (PUBLISH: DUP, QoS,
    /// RETAIN). The Remaining Length is a Variable Byte Integer of at most 4 bytes (at most
    /// 268 435 455); a fifth continuation byte is malformed, reported as oversize. The max frame
    /// length is the protocol's: 1 + 4 + 268 435 455 bytes.
    /// Spec: `type:b4=1..15 flags:b4 len:varint4 max=268435460`.
    public static var mqtt: FrameFormat {
        makePreset(
            name: "mqtt",
            fields: [
                HeaderField(name: "type", width: 0, expected: 1...15, encoding: .bits(4)),
                HeaderField(name: "flags", width: 0, encoding: .bits(4)),
                HeaderField(name: "len", width: 4, role: .length, encoding: .varint),
            ],
            maxFrameLength: mqttMaxPacketLength
        )
    }

    /// 1 fixed-header byte + a 4-byte Remaining Length + its largest value, 268 435 455
    /// (MQTT 3.1.1 §2.2.3, 5.0 §1.5.5).
    static let mqttMaxPacketLength = 1 + 4 + 268_435_455

    /// All presets, in the order `framedump formats` lists them.
    public static var presets: [FrameFormat] { [fefd, h12, u16, u32, tls, varint, lines, mqtt] }

    /// The preset called `name` (`"fefd"`, `"h12"`, `"u16"`, `"u32"`, `"tls"`, `"varint"`,
    /// `"lines"`, `"mqtt"`).
    ///
    /// - Parameter name: A preset name; matched exactly (lowercase).
    /// - Returns: The preset, or `nil` when no preset has that name.
    public static func preset(named name: String) -> FrameFormat? {
        presets.first { $0.name == name }
    }

    /// Guesses the preset from a stream's first bytes.
    ///
    /// A preset fits when every header field with an expected value (a magic, TLS's content
    /// type and version) is present in `prefix` and holds an allowed value, and — when the
    /// prefix holds the whole header — the length field declares a frame no longer than the
    /// preset's max frame length. Presets are tried in ``presets`` order, so `fefd` and `h12`
    /// (2-byte magics) win over `tls` (a 3-byte pattern).
    ///
    /// `u16` and `u32` are never guessed: any bytes parse as a bare length, so a guess would
    /// always "succeed" and usually be wrong; nor are `varint` and `lines`. `mqtt` is guessed
    /// last, and only from a CONNECT packet (type 1, protocol name `MQTT` or `MQIsdp`): 8 bytes
    /// are enough for `MQTT` with a 1-byte Remaining Length, 10 for `MQIsdp`.
    ///
    /// - Parameter prefix: The first bytes of one direction's stream; 2 bytes are enough for
    ///   `fefd` and `h12`, 3 for `tls`, 8 to 12 for `mqtt`.
    /// - Returns: The preset, or `nil` when none fits (or the prefix is too short to tell).
    public static func detect(_ prefix: some Collection<UInt8>) -> FrameFormat? {
        let bytes = Array(prefix.prefix(detectionProbeLength))
        if let preset = [fefd, h12, tls].first(where: { $0.fitsStreamStart(bytes) }) { return preset }
        return startsWithMQTTConnect(bytes) ? .mqtt : nil
    }

    /// Whether `bytes` start with an MQTT CONNECT packet's fixed header and protocol name:
    /// `10`, a Remaining Length varint (1–4 bytes), then the length-prefixed name `MQTT`
    /// (3.1.1 and 5.0, §3.1.2.1) or `MQIsdp` (3.1). Any other first packet is not guessed:
    /// MQTT's fixed header alone fits most bytes.
    private static func startsWithMQTTConnect(_ bytes: [UInt8]) -> Bool {
        guard bytes.first == 0x10 else { return false }
        let scan = bytes.withUnsafeBytes { FrameLayout.readVarint($0.baseAddress! + 1, available: $0.count - 1, maxBytes: 4) }
        guard case .value(let remaining, let count) = scan else { return false }
        let name = 1 + count
        for protocolName in ["MQTT", "MQIsdp"] {
            let expected = [0, UInt8(protocolName.utf8.count)] + Array(protocolName.utf8)
            if remaining >= UInt64(expected.count), bytes.count >= name + expected.count,
               Array(bytes[name..<name + expected.count]) == expected {
                return true
            }
        }
        return false
    }

    /// The presets ``detect(_:)`` may return, in the order it tries them (`mqtt`, last, only
    /// from a CONNECT packet).
    public static var detectablePresets: [FrameFormat] { [fefd, h12, tls, mqtt] }

    /// Bytes ``detect(_:)`` reads at most: the longest header among the guessable presets
    /// (h12's 12 bytes). A caller holding a stream's first bytes to detect its format needs no more.
    public static let detectionProbeLength = 12

    private static func makePreset(
        name: String,
        fields: [HeaderField],
        maxFrameLength: Int = FrameFormat.defaultMaxFrameLength
    ) -> FrameFormat {
        do {
            return try FrameFormat(name: name, fields: fields, maxFrameLength: maxFrameLength)
        } catch {
            // The preset tables above are constants; a throw here is a bug in this file.
            fatalError("preset \(name) is malformed: \(error)")
        }
    }

    /// Whether `bytes`, the start of a stream, looks like a header of this format.
    private func fitsStreamStart(_ bytes: [UInt8]) -> Bool {
        var checkedAny = false
        for (index, field) in fields.enumerated() {
            guard let expected = field.expected, field.role != .opaque else { continue }
            guard offset(ofField: index) + field.width <= bytes.count,
                  expected.contains(value(ofField: index, in: bytes[...])) else { return false }
            checkedAny = true
        }
        guard checkedAny else { return false }
        guard bytes.count >= headerLength else { return true }
        return FrameLayout(self).frameLength(declared: value(ofField: lengthFieldIndex, in: bytes[...])) != nil
    }
}
