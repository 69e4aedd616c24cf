import PacketDecoding

/// `--process NAME|PID` (`decode`, `streams`): keep only one app's connections of a PKTAP
/// capture (`tcpdump -i pktap`, an iPhone's `rvi0`), which holds every process's traffic;
/// declared and parsed once for both commands.
struct ProcessOption {
    /// The process to keep; `nil` when the option is absent (every connection is kept).
    var selector: ProcessSelector?

    static let spec = OptionSpec.value(
        "process", valueName: "NAME|PID",
        help: "PKTAP captures (Apple): keep only the connections whose first packet\nnames this process (name or pid; the effective process counts too)."
    )

    /// The value `arguments` gives for ``spec``.
    ///
    /// - Throws: ``UsageError`` for an empty value.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let text = arguments.value("process") else { return }
        guard let selector = ProcessSelector(text) else { throw UsageError("--process needs a process name or pid") }
        self.selector = selector
    }
}
