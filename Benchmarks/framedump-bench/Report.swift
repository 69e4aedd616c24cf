/// A target ratio between two rows measured in the same run, e.g. ours ÷ zlib ≥ 1.0.
struct RatioResult: Sendable {
    var name: String
    /// Ratio of the medians.
    var value: Double
    /// Ratio of the fastest repetitions: on a loaded machine, the repetitions no other process
    /// interrupted, so the closest to the unloaded ratio.
    var fastest: Double
    /// The value the brief asks for (a minimum), or `nil` for a ratio that is only reported.
    var target: Double?

    var met: Bool? { target.map { value >= $0 } }

    /// `numerator` throughput ÷ `denominator` throughput (so above 1 means faster).
    init(_ name: String, _ numerator: BenchmarkResult, over denominator: BenchmarkResult, target: Double?) {
        self.name = name
        // Throughput ratio = inverse time ratio, per byte so rows of different sizes compare.
        func perByte(_ result: BenchmarkResult, _ nanoseconds: Double) -> Double {
            nanoseconds / Double(max(result.bytes, 1))
        }
        value = perByte(denominator, denominator.nanoseconds.median) / perByte(numerator, numerator.nanoseconds.median)
        fastest = perByte(denominator, denominator.nanoseconds.min) / perByte(numerator, numerator.nanoseconds.min)
        self.target = target
    }
}

/// Collects rows, ratios and notes; prints the human table as rows arrive and the JSON at the end.
struct BenchmarkReport {
    private(set) var results: [BenchmarkResult] = []
    private(set) var ratios: [RatioResult] = []
    /// Rows that could not be measured because their result was wrong; any makes the exit status 1.
    private(set) var failures: [String] = []
    var machine: String
    var quick: Bool

    mutating func add(group: String, _ rows: [BenchmarkResult]) {
        guard !rows.isEmpty else { return }
        print("\n## \(group)")
        print(pad("row", 44) + pad("median", 12, right: true) + pad("min…max", 22, right: true)
              + pad("throughput", 14, right: true) + pad("rate", 24, right: true))
        for row in rows {
            var line = pad(row.name, 44)
            line += pad(formatDuration(row.nanoseconds.median), 12, right: true)
            line += pad(formatDuration(row.nanoseconds.min) + "…" + formatDuration(row.nanoseconds.max), 22, right: true)
            line += pad(row.bytesPerSecond.map { formatBytesRate($0.median) } ?? "", 14, right: true)
            line += pad(row.itemsPerSecond.map { formatCount($0.median) + " " + row.itemUnit + "/s" } ?? "", 24, right: true)
            print(line)
            for (name, value) in row.extras {
                print("    \(name): \(format(value, decimals: 1))")
            }
        }
        results += rows
    }

    mutating func add(_ ratio: RatioResult) {
        let verdict = switch ratio.met {
        case true?: "  target ≥\(format(ratio.target!, decimals: 2)) met"
        case false?: "  target ≥\(format(ratio.target!, decimals: 2)) NOT MET"
        case nil: ""
        }
        print("  ratio \(ratio.name): \(format(ratio.value, decimals: 2))× (fastest repetitions: \(format(ratio.fastest, decimals: 2))×)\(verdict)")
        ratios.append(ratio)
    }

    mutating func fail(_ text: String) {
        print("  FAILED: \(text)")
        failures.append(text)
    }

    /// One JSON object on one line: machine, every row's figures, ratios and failures.
    func json() -> String {
        var rows: [String] = []
        for row in results {
            var fields = [
                "\"name\":\(jsonString(row.name))",
                "\"median_ns\":\(format(row.nanoseconds.median, decimals: 1))",
                "\"min_ns\":\(format(row.nanoseconds.min, decimals: 1))",
                "\"max_ns\":\(format(row.nanoseconds.max, decimals: 1))",
                "\"bytes\":\(row.bytes)",
                "\"items\":\(row.items)",
                "\"item_unit\":\(jsonString(row.itemUnit))",
            ]
            if let rate = row.bytesPerSecond { fields.append("\"bytes_per_s\":\(format(rate.median, decimals: 0))") }
            if let rate = row.itemsPerSecond { fields.append("\"items_per_s\":\(format(rate.median, decimals: 0))") }
            for (name, value) in row.extras { fields.append("\(jsonString(name)):\(format(value, decimals: 1))") }
            rows.append("{" + fields.joined(separator: ",") + "}")
        }
        let ratioObjects = ratios.map { ratio in
            var fields = [
                "\"name\":\(jsonString(ratio.name))",
                "\"value\":\(format(ratio.value, decimals: 3))",
                "\"fastest\":\(format(ratio.fastest, decimals: 3))",
            ]
            if let target = ratio.target, let met = ratio.met {
                fields.append("\"target\":\(format(target, decimals: 2))")
                fields.append("\"met\":\(met)")
            }
            return "{" + fields.joined(separator: ",") + "}"
        }
        return "{\"machine\":\(jsonString(machine)),\"quick\":\(quick),\"rows\":[\(rows.joined(separator: ","))],"
            + "\"ratios\":[\(ratioObjects.joined(separator: ","))],\"failures\":[\(failures.map(jsonString).joined(separator: ","))]}"
    }
}

// MARK: - Formatting (no Foundation in the benchmark, so it links and starts like the tool)

/// `value` with exactly `decimals` digits after the point, rounded half away from zero.
func format(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "null" : (value > 0 ? "1e308" : "-1e308") }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e18 else { return String(value) }
    let whole = UInt64(scaled)
    let sign = value < 0 && whole != 0 ? "-" : ""
    let unit = UInt64(scale)
    guard decimals > 0 else { return sign + String(whole) }
    var fraction = String(whole % unit)
    fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
    return sign + String(whole / unit) + "." + fraction
}

func formatDuration(_ nanoseconds: Double) -> String {
    switch nanoseconds {
    case ..<1_000: format(nanoseconds, decimals: 1) + " ns"
    case ..<1_000_000: format(nanoseconds / 1e3, decimals: 2) + " µs"
    case ..<1_000_000_000: format(nanoseconds / 1e6, decimals: 2) + " ms"
    default: format(nanoseconds / 1e9, decimals: 2) + " s"
    }
}

/// Bytes per second in binary units.
func formatBytesRate(_ bytesPerSecond: Double) -> String {
    formatBytes(bytesPerSecond) + "/s"
}

func formatBytes(_ bytes: Double) -> String {
    switch bytes {
    case ..<1024: format(bytes, decimals: 0) + " B"
    case ..<(1024 * 1024): format(bytes / 1024, decimals: 1) + " KiB"
    case ..<(1024 * 1024 * 1024): format(bytes / (1024 * 1024), decimals: 1) + " MiB"
    default: format(bytes / (1024 * 1024 * 1024), decimals: 2) + " GiB"
    }
}

func formatCount(_ count: Double) -> String {
    switch count {
    case ..<1e3: format(count, decimals: 0)
    case ..<1e6: format(count / 1e3, decimals: 1) + " k"
    case ..<1e9: format(count / 1e6, decimals: 1) + " M"
    default: format(count / 1e9, decimals: 2) + " G"
    }
}

private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - text.count))
    return right ? fill + text : text + fill
}

private func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
