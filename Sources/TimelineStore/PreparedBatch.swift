import TimelineCore

/// A batch of `IngestItem`s made ready to store: each event's column values, payload template and id key
/// are computed here, pure work on any thread, so the transaction that stores the batch (`ingest`) only
/// writes. A bulk import prepares the next batch on one core while the store writes this one on the other.
public struct PreparedBatch: Sendable {
    /// One item, ready to store.
    enum Entry: Sendable {
        case event(PreparedEvent, messageID: String?)
        case rejected(rawBytes: [UInt8], messageID: String?, reason: String)
    }

    let entries: [Entry]
    /// Which of its id keys were stored when it was prepared, when that was looked up then
    /// (`TimelineStore.lookUpStoredKeys`).
    var storedKeys: StoredKeySnapshot?

    /// The items, in order (`ingest` answers one outcome per item, in this order).
    public init(_ items: [IngestItem]) {
        entries = items.map { item in
            switch item {
            case .event(let event, let messageID): .event(PreparedEvent(event), messageID: messageID)
            case .rejected(let bytes, let messageID, let reason): .rejected(rawBytes: bytes, messageID: messageID, reason: reason)
            }
        }
    }

    /// The events' id keys in ascending order (a key given twice is there twice).
    func sortedIDKeys() -> [Int64] {
        var keys: [Int64] = []
        keys.reserveCapacity(entries.count)
        for case .event(let prepared, _) in entries { keys.append(prepared.idKey) }
        keys.sort()
        return keys
    }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }
}

/// An event with what its `events` row holds: the column values, the payload template and the id key.
/// A class: the store passes each one around several times, and a copy of the struct retained each of its
/// strings (at 1,000,000 events, 7 % of a bulk batch's time went to those copies).
final class PreparedEvent: Sendable {
    let event: Event
    let values: PayloadValues
    let template: [UInt8]
    let idKey: Int64

    init(_ event: Event) {
        self.event = event
        values = PayloadValues(event)
        template = PayloadTemplate.template(of: event.rawJSON, values: values)
        idKey = EventIDKey.key(event.id)
    }
}
