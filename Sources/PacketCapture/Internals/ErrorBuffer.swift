import CPcap

/// The `char errbuf[PCAP_ERRBUF_SIZE]` that libpcap's open and lookup calls fill on failure.
struct ErrorBuffer {
    var storage = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE))

    /// The NUL-terminated message libpcap wrote (empty if none).
    var message: String {
        let end = storage.firstIndex(of: 0) ?? storage.endIndex
        return String(decoding: storage[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
