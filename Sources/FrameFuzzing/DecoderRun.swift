import FrameCodec

/// One run of the real ``FrameDecoder`` over a ``DecoderInput``, with what it reported.
///
/// Frames are checked against the input as they come (their slices point into the decoder's
/// buffer) and kept as offsets only, so a run holds no more memory than the decoder does. A
/// frame that holds only its header (``FrameDecoder/BodyRetention/headersOnly``) is checked
/// for the bytes it holds, and counted at its full length.
///
/// A throwing run's receiver throws after every third output it records; each call that threw
/// is followed by empty chunks until one returns, which must deliver what the throw held back.
struct DecoderRun {
    /// What a throwing run's receiver throws.
    struct Interruption: Error {}

    /// An output with its byte count, the shape the oracle compares.
    enum Output: Hashable {
        case frame(offset: UInt64, length: Int, crcOK: Bool?)
        case skip(offset: UInt64, byteCount: UInt64)
        case oversize(offset: UInt64, declaredLength: UInt64)
        case truncated(offset: UInt64, byteCount: UInt64)
        case gap(offset: UInt64, byteCount: UInt64)

        var offset: UInt64 {
            switch self {
            case .frame(let offset, _, _), .skip(let offset, _), .oversize(let offset, _),
                 .truncated(let offset, _), .gap(let offset, _):
                offset
            }
        }

        /// Stream bytes the output accounts for.
        var byteCount: UInt64 {
            switch self {
            case .frame(_, let length, _): UInt64(length)
            case .oversize: 1
            case .skip(_, let count), .truncated(_, let count), .gap(_, let count): count
            }
        }
    }

    private(set) var outputs: [Output] = []
    private(set) var failures: [FuzzFailure] = []
    /// Most bytes the decoder held at once.
    private(set) var peakBuffered = 0
    /// The decoder's ``FrameDecoder/bufferedByteCount`` and ``FrameDecoder/pendingByteCount``
    /// after each call, in order.
    private(set) var bufferedAfterEachCall: [(held: Int, pending: Int)] = []
    /// Frames that hold their header only.
    private(set) var framesWithoutBody = 0

    init(_ input: DecoderInput, bodyRetention: FrameDecoder.BodyRetention = .always, throwing: Bool = false) {
        let format = input.format
        let segments = input.segments
        var decoder = FrameDecoder(format: format, bodyRetention: bodyRetention)
        var fed = 0
        var streamOffset: UInt64 = 0
        var segmentIndex = 0
        // Between calls a decoder holds only what it cannot judge yet: part of a header, or
        // part of a frame no longer than the limit. (Within a call it may hold one chunk more;
        // "max frame length + chunk" is the looser bound the contract states.) A layout whose
        // header is longer than its max frame length needs a whole header to reject one.
        // A delimiter format holds up to the max frame length (its frames count no delimiter)
        // plus a delimiter's first bytes.
        let heldLimit = format.isDelimited
            ? format.maxFrameLength + (format.delimiters.map(\.count).max() ?? 1) - 1
            : max(format.headerLength, format.maxFrameLength) - 1

        func receive(_ output: FrameDecoderOutput) throws {
            switch output {
            case .frame(let frame):
                outputs.append(.frame(offset: frame.offset, length: frame.length, crcOK: frame.crcOK))
                check(frame)
            case .skip(let offset, let count): outputs.append(.skip(offset: offset, byteCount: count))
            case .oversize(let offset, let declared): outputs.append(.oversize(offset: offset, declaredLength: declared))
            case .truncated(let offset, let count): outputs.append(.truncated(offset: offset, byteCount: count))
            case .gap(let offset, let count): outputs.append(.gap(offset: offset, byteCount: count))
            }
            if throwing, outputs.count % 3 == 0 { throw Interruption() }
        }

        func check(_ frame: Frame) {
            if !(format.minimumHeaderLength...format.headerLength).contains(frame.headerLength) {
                fail(.frameBytes, "frame at \(frame.offset) has headerLength \(frame.headerLength), format's is \(format.minimumHeaderLength)...\(format.headerLength)")
            }
            // Frames arrive in order, so the segment holding this one is at or after the current.
            var index = segmentIndex
            while index < segments.count - 1, segments[index].offset + UInt64(segments[index].range.count) <= frame.offset {
                index += 1
            }
            if !frame.holdsBody {
                framesWithoutBody += 1
                if bodyRetention == .always { fail(.droppedBodies, "frame at \(frame.offset) holds no body, though bodies are always held") }
            } else if bodyRetention == .headersOnly, !format.isDelimited {
                fail(.droppedBodies, "frame at \(frame.offset) holds its body, though headers only are held")
            }
            let segment = segments[index]
            guard frame.offset >= segment.offset,
                  frame.offset - segment.offset + UInt64(frame.length) <= UInt64(segment.range.count)
            else {
                fail(.frameBytes, "frame at \(frame.offset), \(frame.length) bytes, is not within captured bytes")
                return
            }
            let start = segment.range.lowerBound + Int(frame.offset - segment.offset)
            if !frame.bytes.elementsEqual(input.bytes[start..<(start + frame.bytes.count)]) {
                fail(.frameBytes, "frame at \(frame.offset), \(frame.bytes.count) bytes, differs from the input bytes there")
            }
        }

        /// Makes one call; when it throws, feeds empty chunks until one returns.
        func call(_ feed: () throws -> Void) {
            do {
                try feed()
            } catch {
                var interrupted = true
                while interrupted {
                    interrupted = false
                    do { try decoder.process([UInt8](), receive) } catch { interrupted = true }
                }
            }
        }

        func fail(_ property: FuzzFailure.Property, _ detail: String) {
            if failures.count < 8 { failures.append(FuzzFailure(property, detail)) }
        }

        func checkState(after call: String, limit: Int) {
            peakBuffered = max(peakBuffered, decoder.bufferedByteCount)
            bufferedAfterEachCall.append((decoder.bufferedByteCount, decoder.pendingByteCount))
            if decoder.bufferedByteCount > limit {
                fail(.memory, "after \(call) at stream offset \(streamOffset): bufferedByteCount \(decoder.bufferedByteCount) > \(limit)")
            }
            if decoder.streamOffset != streamOffset {
                fail(.streamOffset, "after \(call): streamOffset \(decoder.streamOffset), expected \(streamOffset)")
            }
        }

        input.bytes.withUnsafeBytes { all in
            for piece in input.pieces {
                switch piece {
                case .chunk(let count):
                    let chunk = UnsafeRawBufferPointer(rebasing: all[fed..<(fed + count)])
                    // Odd-sized chunks go in as arrays, which the decoder frames in place; the
                    // rest through raw pointers, which it appends: both paths meet every input.
                    if count % 2 == 1 {
                        call { try decoder.process(Array(chunk), receive) }
                    } else {
                        call { try decoder.process(chunk, receive) }
                    }
                    fed += count
                    streamOffset &+= UInt64(count)
                    checkState(after: "a \(count)-byte chunk", limit: heldLimit)
                case .gap(let count):
                    call { try decoder.noteGap(byteCount: count, receive) }
                    streamOffset &+= count
                    segmentIndex += 1
                    checkState(after: "a \(count)-byte gap", limit: 0)
                }
            }
        }
        call { try decoder.finish(receive) }
        checkState(after: "finish", limit: 0)
    }
}
