/// An intrusive doubly linked list of flow-table slot indices, for O(1) "move to the back"
/// and "take the oldest" — the least-recently-active order behind idle eviction.
///
/// Links live in arrays indexed by slot, so membership changes allocate nothing once the
/// arrays have grown to the table's size.
struct SlotList {
    private static let none: Int32 = -1
    /// `previous[slot] == absent` marks a slot that is not in the list.
    private static let absent: Int32 = -2
    private var previous: [Int32] = []
    private var following: [Int32] = []
    private(set) var first: Int32 = SlotList.none
    private var last: Int32 = SlotList.none

    /// The oldest slot, or `nil` when empty.
    var head: Int32? { first == SlotList.none ? nil : first }

    func contains(_ slot: Int32) -> Bool {
        Int(slot) < previous.count && previous[Int(slot)] != SlotList.absent
    }

    /// Appends `slot` at the back (newest), moving it there if already listed.
    mutating func moveToBack(_ slot: Int32) {
        if contains(slot) {
            if slot == last { return }
            remove(slot)
        }
        while previous.count <= Int(slot) {
            previous.append(SlotList.absent)
            following.append(SlotList.none)
        }
        previous[Int(slot)] = last
        following[Int(slot)] = SlotList.none
        if last == SlotList.none { first = slot } else { following[Int(last)] = slot }
        last = slot
    }

    /// Unlinks `slot`; does nothing if it is not listed.
    mutating func remove(_ slot: Int32) {
        guard contains(slot) else { return }
        let before = previous[Int(slot)], after = following[Int(slot)]
        if before == SlotList.none { first = after } else { following[Int(before)] = after }
        if after == SlotList.none { last = before } else { previous[Int(after)] = before }
        previous[Int(slot)] = SlotList.absent
        following[Int(slot)] = SlotList.none
    }
}
