import Foundation
import Testing
import TimelineCore
@testable import TimelineStore
import TestSupport

/// A batch's ids looked up ahead of its transaction, on another connection (`StoredKeySnapshot`): the
/// transaction brings the answer up to date, so the outcomes are those of a lookup in the transaction.
@Suite struct StoredKeySnapshotTests {
    /// A batch large enough to take the lookup: `fresh` new ids, then `repeated`.
    private static func batch(fresh: Range<Int>, repeated: [Event]) -> [Event] {
        fresh.map { makeEvent("new-\($0)", task: "N\($0 % 30)", second: Int64(1_000 + $0)) } + repeated
    }

    private static func prepared(_ events: [Event], lookedUpIn store: TimelineStore) throws -> PreparedBatch {
        var batch = PreparedBatch(events.map { .event($0, messageID: nil) })
        try store.lookUpStoredKeys(of: &batch)
        return batch
    }

    /// Ids stored before the lookup and ids stored between the lookup and the batch's transaction (by
    /// another writer) are both duplicates; the rest are stored.
    @Test func idsStoredBeforeTheLookupOrSinceAreDuplicates() throws {
        let fixture = try StoreFixture()
        let before = (0..<50).map { makeEvent("old-\($0)", task: "O\($0 % 7)", second: Int64($0)) }
        let since = (0..<40).map { makeEvent("since-\($0)", task: "S\($0 % 5)", second: Int64(100 + $0)) }
        _ = try fixture.store.ingestEvents(before)
        let events = Self.batch(fresh: 0..<BatchWriter.lookupsInKeyOrderFrom, repeated: before + since)
        let batch = try Self.prepared(events, lookedUpIn: fixture.secondConnection(readOnly: true))
        let snapshot = try #require(batch.storedKeys)
        #expect(snapshot.keys == Set(before.map { EventIDKey.key($0.id) }))
        _ = try fixture.store.ingestEvents(since)
        let outcomes = try fixture.store.ingest(batch)
        #expect(outcomes.prefix(BatchWriter.lookupsInKeyOrderFrom).allSatisfy { $0 != .duplicate })
        #expect(outcomes.suffix(before.count + since.count).allSatisfy { $0 == .duplicate })
        #expect(try fixture.store.stats().events == before.count + since.count + BatchWriter.lookupsInKeyOrderFrom)
    }

    /// When the last event of the lookup is gone, a new event can take its seq, and reading the events
    /// after it would miss that one: the batch then looks its ids up itself, and finds it.
    @Test func aLookupWhoseLastEventIsGoneIsNotUsed() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let before = (0..<10).map { makeEvent("old-\($0)", task: "O", second: Int64($0)) }
        _ = try store.ingestEvents(before)
        let takesTheSeq = makeEvent("takes-the-seq", task: "Q", second: 50)
        let events = Self.batch(fresh: 0..<BatchWriter.lookupsInKeyOrderFrom, repeated: [takesTheSeq])
        let batch = try Self.prepared(events, lookedUpIn: fixture.secondConnection(readOnly: true))
        let lastSeq = try #require(batch.storedKeys?.lastSeq)
        try Self.deleteEvent(seq: lastSeq, in: store)
        #expect(try store.ingestEvents([takesTheSeq]) == [.inserted])
        #expect(try store.locked { try store.db.scalarInt("SELECT max(seq) FROM events") } == lastSeq, "the seq is taken again")
        #expect(try store.locked { try batch.storedKeys?.currentKeys(in: store.db) } == nil)
        #expect(try store.ingest(batch).last == .duplicate)
    }

    /// A key found by the lookup whose event is gone by the transaction (a prune) does not make the
    /// event a duplicate: every key found only marks an id to compare.
    @Test func anIdWhoseEventWasDeletedSinceTheLookupIsStoredAgain() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let pruned = makeEvent("pruned", task: "P", second: 1)
        _ = try store.ingestEvents([pruned, makeEvent("last", task: "L", second: 2)])
        let events = Self.batch(fresh: 0..<BatchWriter.lookupsInKeyOrderFrom, repeated: [pruned])
        let batch = try Self.prepared(events, lookedUpIn: fixture.secondConnection(readOnly: true))
        #expect(batch.storedKeys?.keys == [EventIDKey.key(pruned.id)])
        try Self.deleteEvent(seq: 1, in: store)
        #expect(try store.ingest(batch).last != .duplicate)
        #expect(try store.history(taskID: "P", limit: 5).map(\.id) == ["pruned"])
    }

    /// A batch too small for the lookup in key order takes no snapshot.
    @Test func aSmallBatchTakesNoLookup() throws {
        let fixture = try StoreFixture()
        let batch = try Self.prepared([makeEvent("e", task: "T", second: 1)], lookedUpIn: fixture.store)
        #expect(batch.storedKeys == nil)
    }

    /// Deletes one event and its id index entries, as a prune does.
    private static func deleteEvent(seq: Int64, in store: TimelineStore) throws {
        try store.locked {
            for statement in EventIDIndex.removeSQL(eventsWhere: "seq = \(seq)") { try store.db.execute(statement) }
            try store.db.execute("DELETE FROM events WHERE seq = \(seq)")
        }
    }
}
