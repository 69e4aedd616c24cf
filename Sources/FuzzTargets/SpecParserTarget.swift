import FrameCodec
import FrameFuzzing

/// libFuzzer target: the `--format` spec parser.
///
/// Any text must either parse or fail with a column inside the text (or just past its end);
/// a layout that parses must be one the decoder handles: a small generated case over it (a
/// few frames, damage, odd chunking) must pass FrameFuzzing's checks.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSpecParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let format: FrameFormat
    do {
        format = try FrameFormat(nameOrSpec: text)
    } catch {
        guard (1...(text.utf8.count + 1)).contains(error.column) else {
            fatalError("error column \(error.column) outside 1...\(text.utf8.count + 1) for \(text.debugDescription)")
        }
        return 0
    }
    guard format.headerLength <= 4096 else { return 0 }
    // FNV-1a of the input, not `hashValue` (seeded anew in every process): a finding replays.
    let seed = UnsafeBufferPointer(start: data, count: size).reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    let failures = FuzzCase(seed: seed, format: format, byteBudget: 2048).check()
    if let failure = failures.first {
        fatalError("spec \(text.debugDescription), case seed \(seed): \(failure)")
    }
    return 0
}
