/// The event ids one batch stored or found stored, so a second event with the same id in the batch is a
/// duplicate before the batch's keys join the id index (`EventIDIndex`, when the batch ends). Kept by id
/// key (`EventIDKey`): an integer hashes far cheaper than the id's text, and ids are then compared byte
/// for byte, as the store compares them (String's `==` would take canonically equivalent ids as one).
/// Different ids with one key (a 64-bit collision) are kept beside.
struct BatchIDs {
    private var byKey: [Int64: String] = [:]
    private var sharingAKey: [String] = []

    /// Room for `count` ids without growing.
    init(expected count: Int = 0) {
        byKey.reserveCapacity(count)
    }

    /// Adds `id` (whose key is `key`); false when the batch already had it.
    mutating func insert(_ id: String, key: Int64) -> Bool {
        guard let first = byKey[key] else {
            byKey[key] = id
            return true
        }
        if ByteScan.equal(first, id) || sharingAKey.contains(where: { ByteScan.equal($0, id) }) { return false }
        sharingAKey.append(id)
        return true
    }
}
