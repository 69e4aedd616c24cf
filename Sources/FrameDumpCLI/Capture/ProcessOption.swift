import PacketDecoding

/// `--process NAME|PID` (`decode`, `streams`): keep only one app's connections of a PKTAP
/// capture (`tcpdump -i pktap`, an iPhone's `rvi0`), which holds every process's traffic.
enum ProcessOption {
    static let spec = OptionSpec.value(
        "process", valueName: "NAME|PID",
        help: "PKTAP captures (Apple): keep only the connections whose first packet\nnames this process (name or pid; the effective process counts too)."
    )

    /// The selector `--process` gives, or `nil` when the option is absent.
    ///
    /// - Throws: ``UsageError`` for an empty value.
    static func selector(_ arguments: ParsedArguments) throws -> ProcessSelector? {
        guard let text = arguments.value("process") else { return nil }
        guard let selector = ProcessSelector(text) else { throw UsageError("--process needs a process name or pid") }
        return selector
    }
}
