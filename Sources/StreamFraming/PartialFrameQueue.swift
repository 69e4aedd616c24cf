/// The streams whose frame decoders hold an unfinished frame, the one waiting longest first:
/// the order in which ``FramingConfiguration/maxBufferedBytes`` gives partial frames up.
///
/// A stream joins at the back when its decoder starts holding bytes, goes back to the back
/// each time it completes a frame while still holding (its current partial frame is new), and
/// leaves when it holds nothing. The links live in ``FramedStream``, so each of these is O(1)
/// and allocates nothing: the engine never scans its connections to find the oldest.
struct PartialFrameQueue<Context> {
    /// The stream whose partial frame has waited longest, if any.
    private(set) var first: FramedStream<Context>?
    private var last: FramedStream<Context>?

    /// Puts `stream` at the back, taking it out of its place first if it was queued.
    mutating func moveToBack(_ stream: FramedStream<Context>) {
        if stream.isQueued {
            guard last !== stream else { return }
            remove(stream)
        }
        stream.isQueued = true
        stream.olderPartial = last
        last?.newerPartial = stream
        last = stream
        if first == nil { first = stream }
    }

    /// Takes `stream` out of the queue; nothing happens if it is not in it.
    mutating func remove(_ stream: FramedStream<Context>) {
        guard stream.isQueued else { return }
        if let older = stream.olderPartial { older.newerPartial = stream.newerPartial } else { first = stream.newerPartial }
        if let newer = stream.newerPartial { newer.olderPartial = stream.olderPartial } else { last = stream.olderPartial }
        stream.olderPartial = nil
        stream.newerPartial = nil
        stream.isQueued = false
    }
}
