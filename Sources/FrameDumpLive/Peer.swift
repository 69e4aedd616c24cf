/// What a ``Peer`` tells its owner. Every call happens on the event loop's thread, and the owner
/// may close the peer from inside any of them.
protocol PeerDelegate: AnyObject {
    /// A non-blocking connect finished successfully.
    func peerDidConnect(_ peer: Peer)
    /// `bytes` arrived; valid only during the call.
    func peer(_ peer: Peer, received bytes: UnsafeRawBufferPointer)
    /// The other end finished sending (FIN). The peer reads no more; it can still write.
    func peerReachedEnd(_ peer: Peer)
    /// The connection failed: refused, reset, broken pipe. The owner should close it.
    func peer(_ peer: Peer, failed error: SocketError)
    /// Outgoing bytes were written: the owner may resume reading the side that fills them.
    func peerWroteOutgoing(_ peer: Peer)
}

/// One connected (or connecting) socket in an ``EventLoop``: reads whatever arrives and hands it
/// to its delegate, writes its ``outgoing`` buffer as the socket takes it.
///
/// Interest follows state: read while open and not ``readPaused`` (backpressure), write while
/// connecting or while ``outgoing`` holds bytes. ``finishWriting()`` sends FIN once the
/// buffer has drained — how a half-close is passed on.
final class Peer: EventHandler {
    /// Reads per readiness event before the loop moves on to other sockets (level-triggered
    /// readiness calls back for the rest), so one busy connection cannot starve the others.
    static let readsPerEvent = 4

    let socket: Socket
    private unowned let loop: EventLoop
    weak var delegate: (any PeerDelegate)?
    /// Bytes waiting to be written.
    private(set) var outgoing = ConnectionBuffer()
    /// Connect still in progress.
    private(set) var isConnecting: Bool
    /// Whether the other end may still send (no FIN, no error seen).
    private(set) var isReadOpen = true
    /// Whether FIN was requested (sent once ``outgoing`` drains).
    private(set) var isWriteFinished = false
    /// Whether the socket was closed.
    private(set) var isClosed = false
    /// Bytes read so far: the offset of the next byte in the incoming stream.
    private(set) var bytesRead: UInt64 = 0
    /// Bytes written so far.
    private(set) var bytesWritten: UInt64 = 0
    /// Stop reading (the owner's buffer toward the other side is full); resume by clearing it.
    var readPaused = false {
        didSet { if readPaused != oldValue { updateInterest() } }
    }

    /// Registers `socket` with `loop`.
    ///
    /// - Parameters:
    ///   - connecting: whether a non-blocking connect is in progress.
    /// - Throws: ``SocketError`` from the loop's backend (`epoll_ctl`).
    init(socket: Socket, loop: EventLoop, connecting: Bool = false) throws(SocketError) {
        self.socket = socket
        self.loop = loop
        isConnecting = connecting
        try loop.register(socket.descriptor, interest, self)
    }

    private var interest: Interest {
        guard !isClosed else { return [] }
        if isConnecting { return .write }
        var interest: Interest = []
        if isReadOpen, !readPaused { interest.insert(.read) }
        if !outgoing.isEmpty { interest.insert(.write) }
        return interest
    }

    private func updateInterest() {
        guard !isClosed else { return }
        do {
            try loop.setInterest(socket.descriptor, interest)
        } catch {
            delegate?.peer(self, failed: error)
        }
    }

    /// Queues `bytes` and writes what the socket takes now.
    func send(_ bytes: UnsafeRawBufferPointer) {
        guard !isClosed, !isWriteFinished else { return }
        outgoing.append(bytes)
        if !isConnecting { flush() }
    }

    /// Queues `bytes` and writes what the socket takes now.
    func send(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { send($0) }
    }

    /// Sends FIN (`shutdown(SHUT_WR)`) once every queued byte is written.
    func finishWriting() {
        guard !isWriteFinished else { return }
        isWriteFinished = true
        if !isConnecting { flush() }
    }

    /// Closes the socket (FIN for anything not yet finished); queued bytes are dropped.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        loop.deregister(socket.descriptor)
        socket.close()
    }

    /// Closes the socket with a reset (RST), to pass a reset on.
    func abort() {
        guard !isClosed else { return }
        isClosed = true
        loop.deregister(socket.descriptor)
        socket.abort()
    }

    func handle(_ events: ReadyEvents) {
        if isConnecting {
            guard !events.isDisjoint(with: [.writable, .error, .hangup]) else { return }
            if let error = socket.pendingError() {
                delegate?.peer(self, failed: error)
                return
            }
            isConnecting = false
            delegate?.peerDidConnect(self)
            guard !isClosed else { return }
            flush()
            return
        }
        if events.contains(.writable) {
            flush()
            guard !isClosed else { return }
        }
        if isReadOpen, !readPaused, !events.isDisjoint(with: [.readable, .hangup, .error]) {
            readAvailable()
        } else if events.contains(.error), let error = socket.pendingError() {
            delegate?.peer(self, failed: error)
        }
    }

    private func readAvailable() {
        let buffer = loop.readBuffer
        for _ in 0..<Self.readsPerEvent {
            switch socket.read(into: buffer) {
            case .bytes(let count):
                bytesRead &+= UInt64(count)
                delegate?.peer(self, received: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                guard !isClosed, !readPaused else { return }
            case .end:
                isReadOpen = false
                updateInterest()
                delegate?.peerReachedEnd(self)
                return
            case .wouldBlock:
                return
            case .failed(let error):
                isReadOpen = false
                delegate?.peer(self, failed: error)
                return
            }
        }
    }

    /// Writes queued bytes; sends FIN when they are all out and it was requested.
    private func flush() {
        let before = outgoing.count
        let result = outgoing.write(to: socket)
        bytesWritten &+= UInt64(before - outgoing.count)
        if case .failed(let error) = result {
            delegate?.peer(self, failed: error)
            return
        }
        if outgoing.isEmpty, isWriteFinished { socket.shutdownWrite() }
        updateInterest()
        if outgoing.count < before { delegate?.peerWroteOutgoing(self) }
    }
}
