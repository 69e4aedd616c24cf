#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line progress report on standard error while a long input is read:
///
/// ```
/// framedump: 12.3 MB of 80.0 MB (15%), 45.6 MB/s, ETA 0:02
/// ```
///
/// Each update rewrites the line in place (`\r`, the text, then `ESC [K` to clear what a longer
/// previous text left); ``finish()`` erases it, so nothing of it stays in the terminal's
/// scrollback. Updates are rate-limited by a monotonic clock: nothing before ``delay`` has
/// passed (a short run shows no flicker), then at most one per ``interval`` (at most 10 a
/// second by default), and none when the text would not change.
///
/// Sizes are decimal (1 MB = 10⁶ bytes), the rate is MB/s over the whole run so far, and the
/// ETA (`m:ss`, `h:mm:ss` from an hour) assumes that rate holds for what is left.
///
/// Used from one thread at a time: the one reading the input (``CaptureSource/run``).
final class ProgressLine {
    /// Time from the start before the first update, in nanoseconds.
    let delay: UInt64
    /// Least time between two updates, in nanoseconds.
    let interval: UInt64
    /// The input's size in bytes (more than 0).
    let totalBytes: Int64
    private let clock: () -> UInt64
    private let write: (_ text: String, _ shown: Bool) -> Void
    private let start: UInt64
    /// When the line was last written, or `nil` while nothing is shown.
    private var lastUpdate: UInt64?
    private var lastText = ""

    /// - Parameters:
    ///   - totalBytes: The input's size in bytes; the percentage and the ETA are measured against it.
    ///   - delay: Nanoseconds from now before the first update (default 0.5 s).
    ///   - interval: Least nanoseconds between updates (default 0.1 s: 10 a second).
    ///   - clock: A monotonic clock in nanoseconds (tests pass their own).
    ///   - write: Where the control sequences and text go, with whether the line is shown after
    ///     them (tests collect them); standard error by default, whose other lines then erase it.
    init(totalBytes: Int64, delay: UInt64 = 500_000_000, interval: UInt64 = 100_000_000,
         clock: @escaping () -> UInt64 = ProgressLine.monotonicNanoseconds,
         write: @escaping (_ text: String, _ shown: Bool) -> Void = StandardError.writeProgress) {
        self.totalBytes = max(totalBytes, 1)
        self.delay = delay
        self.interval = interval
        self.clock = clock
        self.write = write
        start = clock()
    }

    /// The progress line for reading the file at `path`, or `nil` when none should be shown:
    /// standard error is not a terminal, the input is not a regular file named by its path
    /// (standard input, a pipe: no size to measure against, see ``InputKind/Opened/stream``), the
    /// file is empty or its size cannot be read, or `outputIsTerminal`.
    ///
    /// - Parameters:
    ///   - path: The input as given on the command line (`-`: standard input).
    ///   - opened: What identifying the input left open.
    ///   - outputIsTerminal: Whether what the command writes while reading goes to a terminal
    ///     (decode's frames on standard output): the line would land in the middle of that
    ///     output, and `\r` would erase a partly written line of it.
    static func forInput(path: String, opened: InputKind.Opened, outputIsTerminal: Bool) -> ProgressLine? {
        guard !outputIsTerminal, opened.stream == nil, path != "-", Terminal.isTerminal(2) else { return nil }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else { return nil }
        return ProgressLine(totalBytes: Int64(status.st_size))
    }

    /// Reports that `bytesRead` bytes of the input were read; rewrites the line when an update is
    /// due. Cheap when none is: one clock read.
    ///
    /// - Parameter bytesRead: Bytes from the input's start, evaluated only when an update is due;
    ///   `nil` (the reader cannot tell) skips the update.
    func tick(bytesRead: @autoclosure () -> Int64?) {
        let now = clock()
        let elapsed = now &- start
        guard elapsed >= delay else { return }
        if let lastUpdate, now &- lastUpdate < interval { return }
        guard let bytesRead = bytesRead() else { return }
        lastUpdate = now
        let text = Self.text(bytesRead: bytesRead, totalBytes: totalBytes, elapsedNanoseconds: elapsed)
        guard text != lastText else { return }
        lastText = text
        write("\r" + text + "\u{1B}[K", true)
    }

    /// Erases the line if one is shown (`\r` and clear to the end of the line), so that what
    /// follows on standard error starts on a clean line. Safe to call more than once.
    func finish() {
        guard lastUpdate != nil else { return }
        lastUpdate = nil
        lastText = ""
        write("\r\u{1B}[K", false)
    }

    /// The line's text (without control sequences).
    ///
    /// - Parameters:
    ///   - bytesRead: Bytes read so far.
    ///   - totalBytes: The input's size in bytes (more than 0).
    ///   - elapsedNanoseconds: Time since reading started.
    /// - Returns: `framedump: 12.3 MB of 80.0 MB (15%), 45.6 MB/s, ETA 0:02`; the ETA is `-:--`
    ///   while nothing was read.
    static func text(bytesRead: Int64, totalBytes: Int64, elapsedNanoseconds: UInt64) -> String {
        let read = min(max(bytesRead, 0), totalBytes)
        let percent = read * 100 / totalBytes
        let seconds = Double(elapsedNanoseconds) / 1e9
        let bytesPerSecond = seconds > 0 ? Double(read) / seconds : 0
        let eta = bytesPerSecond > 0 ? duration(Double(totalBytes - read) / bytesPerSecond) : "-:--"
        return "framedump: \(size(read)) of \(size(totalBytes)) (\(percent)%), \(decimal(bytesPerSecond / 1e6)) MB/s, ETA \(eta)"
    }

    /// `512 B`, `64.0 kB`, `12.3 MB`, `4.56 GB`: decimal units, three significant digits or so.
    /// The bounds sit where rounding would show `1000.0` of a unit: that is the next unit's `1.0`.
    static func size(_ bytes: Int64) -> String {
        switch bytes {
        case ..<1000: "\(bytes) B"
        case ..<999_950: "\(decimal(Double(bytes) / 1e3)) kB"
        case ..<999_950_000: "\(decimal(Double(bytes) / 1e6)) MB"
        default: "\(decimal(Double(bytes) / 1e9, digits: 2)) GB"
        }
    }

    /// `m:ss`, or `h:mm:ss` from an hour, of `seconds` rounded up (an ETA of 0.2 s reads `0:01`).
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds < 360_000 else { return "-:--" }
        let total = Int(seconds.rounded(.up))
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
    }

    /// `value` with `digits` decimals, rounded half up (`String(format:)` needs Foundation).
    private static func decimal(_ value: Double, digits: Int = 1) -> String {
        var scale = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((value * Double(scale)).rounded())
        var fraction = String(scaled % scale)
        while fraction.count < digits { fraction = "0" + fraction }
        return "\(scaled / scale).\(fraction)"
    }

    /// `CLOCK_MONOTONIC` in nanoseconds: unaffected by changes to the wall clock.
    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
