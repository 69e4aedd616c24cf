/// The tracked connections: a dictionary from ``ConnectionKey`` to a slot, the slots, and the
/// least-recently-active orders used for idle eviction and for making room.
///
/// Every operation is O(1) (amortized): lookup is one hash (none when the segment's connection
/// is the previous segment's), "seen a segment" moves the slot to
/// the back of an intrusive list, and the idle sweep only looks at the front of that list, so
/// a table of 100,000+ connections costs the same per packet as a table of ten. Freed slots are
/// reused, so the slot array never grows beyond the most connections tracked at once.
struct FlowTable {
    private var index: [ConnectionKey: Int32] = [:]
    /// Vacant slots keep their last connection (buffers released) until reused.
    private var slots: [TCPConnection] = []
    private var vacant: [Int32] = []
    /// Open connections, least recently active first.
    private(set) var recency = SlotList()
    /// Closed connections kept to recognize late segments and reused 4-tuples, least recently
    /// active first. They are the first to go when the table is full.
    private(set) var closedRecency = SlotList()
    /// Connections holding out-of-order bytes, in the order they started holding.
    private(set) var holders = SlotList()

    /// The key of the latest lookup that found a connection, and its slot: consecutive segments
    /// mostly belong to one connection (a sender's burst, the peer's ACKs of it), so most
    /// lookups compare one key instead of hashing. Cleared when that slot is freed.
    private var lastFound: (key: ConnectionKey, slot: Int32)?

    var count: Int { index.count }

    mutating func slot(for key: ConnectionKey) -> Int32? {
        if let lastFound, lastFound.key == key { return lastFound.slot }
        let slot = index[key]
        if let slot { lastFound = (key, slot) }
        return slot
    }

    subscript(slot: Int32) -> TCPConnection { slots[Int(slot)] }

    /// Adds a connection as the most recently active.
    mutating func insert(_ connection: TCPConnection) -> Int32 {
        let slot: Int32
        if let reused = vacant.popLast() {
            slot = reused
            slots[Int(slot)] = connection
        } else {
            slot = Int32(slots.count)
            slots.append(connection)
        }
        index[connection.key] = slot
        recency.moveToBack(slot)
        return slot
    }

    /// Forgets a connection and frees its slot.
    mutating func remove(_ slot: Int32) {
        if lastFound?.slot == slot { lastFound = nil }
        index[self[slot].key] = nil
        self[slot].releaseBuffers()
        vacant.append(slot)
        recency.remove(slot)
        closedRecency.remove(slot)
        holders.remove(slot)
    }

    /// Marks a connection as the most recently active.
    mutating func touch(_ slot: Int32) {
        if self[slot].isClosed { closedRecency.moveToBack(slot) } else { recency.moveToBack(slot) }
    }

    /// Moves a connection that just closed to the closed connections' order.
    mutating func noteClosed(_ slot: Int32) {
        recency.remove(slot)
        closedRecency.moveToBack(slot)
    }

    /// The connection to evict to make room: the least recently active closed one, else the
    /// least recently active open one.
    var evictionCandidate: Int32? { closedRecency.head ?? recency.head }

    /// Keeps `holders` in step with whether the connection holds out-of-order bytes.
    mutating func noteHeldCost(_ slot: Int32) {
        if self[slot].heldCost > 0 {
            if !holders.contains(slot) { holders.moveToBack(slot) }
        } else {
            holders.remove(slot)
        }
    }

    /// The slots in use, in connection-number order.
    var slotsByConnectionNumber: [Int32] {
        index.values.map { (number: slots[Int($0)].number, slot: $0) }.sorted { $0.number < $1.number }.map(\.slot)
    }
}
