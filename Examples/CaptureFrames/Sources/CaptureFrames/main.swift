// Prints every frame and decoder event of a capture's TCP streams: CaptureFrames CAPTURE.pcap [FORMAT]
import Foundation
import FrameCodec
import PacketCapture
import StreamFraming

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("CaptureFrames: \(message)\n".utf8))
    exit(1)
}

func show(_ event: FramingEvent<Void>) {
    guard case .output(let output, let stream) = event else { return }  // frames and decoder events only
    let label = "conn \(stream.key.connection) \(stream.key.direction)"
    switch output {
    case .frame(let frame):
        print("\(label) offset \(frame.offset) body \(frame.body.count) crc \(frame.crcOK.map { $0 ? "ok" : "MISMATCH" } ?? "none")")
    case .skip(let offset, let length): print("\(label) skip offset \(offset) length \(length)")
    case .gap(let offset, let length): print("\(label) gap offset \(offset) length \(length)")
    case .truncated(let offset, let length): print("\(label) truncated offset \(offset) length \(length)")
    case .oversize(let offset, let declared): print("\(label) oversize offset \(offset) declared \(declared)")
    }
}

let arguments = CommandLine.arguments.dropFirst()
guard let path = arguments.first, arguments.count <= 2 else { fail("usage: CaptureFrames CAPTURE.pcap [FORMAT]") }
do {
    // A preset name (h12, fefd, …) or a spec; without one, each stream's format is detected.
    let format = try arguments.dropFirst().first.map { try FrameFormat(nameOrSpec: $0) }
    var engine = FramingEngine<Void>(configuration: FramingConfiguration(format: format))
    let statistics = try CaptureReassembly(source: try PcapReader(path: path)).run { event, time in
        guard case .stream(let reassembly) = event else { return }  // TCP bytes, gaps, closes
        try engine.consume(reassembly, at: time, contexts: { _, _, _ in ((), ()) }, show)
    }
    try engine.finish(show)
    if let error = statistics.readError { throw error }  // a damaged file: its frames up to the damage, then this
} catch let error as FormatDetectionError {
    fail("no preset fits the first bytes of conn \(error.stream.connection) \(error.stream.direction): name a format")
} catch {
    fail("\(error)")
}
