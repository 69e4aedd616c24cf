import PacketDecoding

extension CaptureReassembly {
    /// What a PKTAP capture adds to the events: each connection's process, sent before it opens,
    /// and — with a ``CaptureReassembly/processSelector`` — the withholding of every event of the
    /// connections of other processes.
    struct ProcessAttribution {
        let selector: ProcessSelector?
        /// Whether withheld connections stay known after they close (their latest counters come
        /// at the end); otherwise they are forgotten at their close, and memory is bounded by the
        /// open connections.
        let remembersClosed: Bool
        private var withheld = Set<Int>()
        /// Connections the selector left out.
        private(set) var notSelected = 0

        init(selector: ProcessSelector?, remembersClosed: Bool) {
            self.selector = selector
            self.remembersClosed = remembersClosed
        }

        /// Whether `connection`'s events are withheld.
        func withholds(_ connection: Int) -> Bool { !withheld.isEmpty && withheld.contains(connection) }

        /// Sends `event` on, after its connection's process when it opens one, unless the
        /// connection is withheld.
        ///
        /// - Parameters:
        ///   - process: The process of the packet that caused the event (only asked at an open).
        ///   - time: The capture time to send the events with.
        ///   - receive: Where the events go.
        mutating func deliver(_ event: ReassemblyEvent, process: () -> PacketProcess?, at time: Timestamp,
                              to receive: (CaptureEvent, Timestamp) throws -> Void) throws {
            if case .connectionOpened(let connection, _, _, _) = event {
                let named = process()
                if let selector, !selector.matches(named) {
                    withheld.insert(connection)
                    notSelected += 1
                    return
                }
                if let named { try receive(.connectionProcess(connection: connection, process: named), time) }
            } else if withholds(event.connection) {
                if case .connectionClosed = event, !remembersClosed { withheld.remove(event.connection) }
                return
            }
            try receive(.stream(event), time)
        }
    }
}
