import Foundation
import Testing
import TimelineCore
@testable import TimelineStore

@Suite("TimelineStore ingest")
struct IngestTests {
    @Test func newTaskIsInsertedAndNewerEventReplacesIt() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        #expect(try store.ingestEvents([makeEvent("a1", task: "A", second: 10, status: .inProgress)]) == [.inserted])
        #expect(try store.ingestEvents([makeEvent("a2", task: "A", second: 20, status: .success)]) == [.replaced])

        let row = try #require(try store.row(taskID: "A"))
        #expect(row.event.id == "a2")
        #expect(row.event.status == .success)
        #expect(row.eventCount == 2)
        #expect(try store.count(matching: TimelineQuery()) == 1)
        #expect(try store.history(taskID: "A", limit: 10).map(\.id) == ["a2", "a1"])
    }

    @Test func stepsUpdateAWorkingTaskButNeverAWaitingOrFinishedOne() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        func step(_ id: String, second: Int64) -> Event {
            var event = makeEvent(id, task: "A", second: second, status: .inProgress)
            event.isStep = true
            return event
        }
        #expect(try store.ingestEvents([step("s1", second: 1)]) == [.inserted])
        try store.ingestEvents([makeEvent("w", task: "A", second: 2, status: .inProgress)])
        #expect(try store.ingestEvents([step("s2", second: 3)]) == [.replaced])
        try store.ingestEvents([makeEvent("ask", task: "A", second: 4, status: .needsInput)])
        #expect(try store.ingestEvents([step("s3", second: 5)]) == [.keptOlder])
        #expect(try store.row(taskID: "A")?.event.status == .needsInput)
        // In one batch too: the step after the finish stays in the history only.
        #expect(try store.ingestEvents([makeEvent("done", task: "A", second: 6, status: .success), step("s4", second: 7)])
                == [.replaced, .keptOlder])
        let row = try #require(try store.row(taskID: "A"))
        #expect(row.event.id == "done")
        #expect(row.eventCount == 7)
        #expect(try store.history(taskID: "A", limit: 10).map(\.id) == ["s4", "done", "s3", "ask", "s2", "w", "s1"])
    }

    @Test func olderEventArrivingLateIsKeptInHistoryOnly() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        try store.ingestEvents([makeEvent("new", task: "A", second: 50, status: .success)])
        #expect(try store.ingestEvents([makeEvent("old", task: "A", second: 40, status: .inProgress)]) == [.keptOlder])

        let row = try #require(try store.row(taskID: "A"))
        #expect(row.event.id == "new")
        #expect(row.event.status == .success)
        #expect(row.eventCount == 2)
        #expect(try store.history(taskID: "A", limit: 10).map(\.id) == ["new", "old"])
        // The search index still describes the current row, not the late one.
        #expect(try store.count(matching: TimelineQuery(terms: ["event new"])) == 1)
        #expect(try store.count(matching: TimelineQuery(terms: ["event old"])) == 0)
    }

    @Test func equalTimestampsLaterArrivalWins() throws {
        let fixture = try StoreFixture()
        let outcomes = try fixture.store.ingestEvents([
            makeEvent("first", task: "A", second: 5), makeEvent("second", task: "A", second: 5),
        ])
        #expect(outcomes == [.inserted, .replaced])
        #expect(try fixture.store.row(taskID: "A")?.event.id == "second")
    }

    @Test func manyEventsOfOneTaskInOneBatchBehaveAsIfAppliedOneByOne() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        try store.ingestEvents([makeEvent("stored", task: "A", second: 4)])
        let outcomes = try store.ingestEvents([
            makeEvent("a3", task: "A", second: 3), makeEvent("a9", task: "A", second: 9, title: "nine"),
            makeEvent("b1", task: "B", second: 1), makeEvent("a9bis", task: "A", second: 9, title: "nine again"),
            makeEvent("a1", task: "A", second: 1), makeEvent("b0", task: "B", second: 0),
        ])
        #expect(outcomes == [.keptOlder, .replaced, .inserted, .replaced, .keptOlder, .keptOlder])
        #expect(try store.row(taskID: "A")?.event.id == "a9bis")
        #expect(try store.row(taskID: "A")?.eventCount == 5)
        #expect(try store.row(taskID: "B")?.event.id == "b1")
        #expect(try store.row(taskID: "B")?.eventCount == 2)
        #expect(try store.allRows().map(\.taskID) == ["A", "B"])
        try store.flushSearchIndex()
        #expect(try store.count(matching: TimelineQuery(terms: ["nine again"])) == 1)
        #expect(try store.count(matching: TimelineQuery(terms: ["event stored"])) == 0)
    }

    /// A bulk write's closing merges are bounded by the rows it indexed (one page a row, at least one
    /// step): a merge of most of the index is spread over the writes that follow.
    @Test func theClosingMergesAreBoundedByTheRowsIndexed() {
        #expect(TimelineStore.bulkMergeBudget(indexedRows: 0) == TimelineStore.bulkMergePagesPerStep)
        #expect(TimelineStore.bulkMergeBudget(indexedRows: 50_000) == 50_000 * TimelineStore.bulkMergePagesPerIndexedRow)
        #expect(TimelineStore.bulkMergeBudget(indexedRows: 50_000) < TimelineStore.bulkMergeBudget(indexedRows: 100_000))
    }

    @Test func sameBatchTwiceChangesNothing() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let batch = [makeEvent("1", task: "A", second: 1), makeEvent("2", task: "B", second: 2),
                     makeEvent("3", task: "A", second: 3)]
        #expect(try store.ingestEvents(batch) == [.inserted, .inserted, .replaced])
        let before = try store.allRows()
        let tokenBefore = try store.changeToken()
        #expect(try store.ingestEvents(batch) == [.duplicate, .duplicate, .duplicate])
        #expect(try store.allRows() == before)
        #expect(try store.stats().events == 3)
        #expect(try store.row(taskID: "A")?.eventCount == 2)
        #expect(try store.changeToken() == tokenBefore)
    }

    @Test func duplicateInsideOneBatch() throws {
        let fixture = try StoreFixture()
        let event = makeEvent("x", task: "A", second: 1)
        var changed = event
        changed.title = "same id, other text"
        #expect(try fixture.store.ingestEvents([event, changed]) == [.inserted, .duplicate])
        #expect(try fixture.store.row(taskID: "A")?.event == event)
        #expect(try fixture.store.stats().events == 1)
    }

    /// Ids are compared byte for byte, in a batch as in the store: "é" written as one code point and as "e"
    /// plus a combining accent are two ids (Swift's String equality would take them as one).
    @Test func idsThatAreOnlyCanonicallyEquivalentAreTwoEvents() throws {
        let fixture = try StoreFixture()
        let composed = makeEvent("caf\u{E9}", task: "A", second: 1)
        let decomposed = makeEvent("cafe\u{301}", task: "A", second: 2)
        #expect(composed.id == decomposed.id, "Swift takes them as equal")
        #expect(try fixture.store.ingestEvents([composed, decomposed, composed]) == [.inserted, .replaced, .duplicate])
        #expect(try fixture.store.ingestEvents([decomposed, composed]) == [.duplicate, .duplicate])
        #expect(try fixture.store.stats().events == 2)
    }

    /// A large batch looks its ids up at once, in key order (`BatchWriter.lookUpStoredInKeyOrder`): the
    /// same outcomes as one at a time, for ids stored before, repeated in the batch, or only canonically
    /// equivalent to a stored one.
    @Test func aLargeBatchFindsWhatWasStoredBeforeAsASmallOneDoes() throws {
        let fixture = try StoreFixture()
        let composed = makeEvent("caf\u{E9}", task: "A", second: 1)
        let decomposed = makeEvent("cafe\u{301}", task: "A", second: 2)
        let earlier = (0..<300).map { makeEvent("e\($0)", task: "T\($0 % 40)", second: Int64($0)) }
        #expect(try fixture.store.ingestEvents([composed] + earlier).allSatisfy { $0 != .duplicate })
        let fresh = (300..<(300 + BatchWriter.lookupsInKeyOrderFrom)).map {
            makeEvent("e\($0)", task: "T\($0 % 40)", second: Int64($0))
        }
        let batch = fresh.prefix(500) + earlier.prefix(100) + [decomposed, composed, fresh[0]] + fresh.dropFirst(500)
        #expect(batch.count >= BatchWriter.lookupsInKeyOrderFrom)
        let outcomes = try fixture.store.ingestEvents(Array(batch))
        #expect(outcomes.filter { $0 == .duplicate }.count == 102)  // the 100 earlier, composed, fresh[0] again
        #expect(outcomes[500..<600].allSatisfy { $0 == .duplicate })
        #expect(outcomes[600] != .duplicate && outcomes[601] == .duplicate && outcomes[602] == .duplicate)
        #expect(try fixture.store.stats().events == 1 + 300 + fresh.count + 1)
    }

    @Test func everyFieldRoundTrips() throws {
        let fixture = try StoreFixture()
        let event = makeEvent("e", task: "T", second: 7, status: .warning, title: "Déploiement 🚀",
                              body: "line 1\nline 2\u{0}nul", agent: "builder", category: "deploy", progress: 42.5)
        _ = try fixture.store.ingest([.event(event, messageID: "m-1")])
        let row = try #require(try fixture.store.row(taskID: "T"))
        #expect(row.event == event)
        #expect(row.seq > 0)
        #expect(row.receivedMicros > 0)
        #expect(try fixture.store.history(taskID: "T", limit: 1) == [event])
    }

    @Test func rejectedMessagesAreKeptWithBytesAndReasonOnce() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let invalidUTF8: [UInt8] = [0x7B, 0xFF, 0xFE, 0x00, 0x7D]
        let outcomes = try store.ingest([
            .rejected(rawBody: "not json", messageID: "m-1", reason: "body is not a JSON object"),
            .rejected(rawBytes: invalidUTF8, messageID: "m-2", reason: "body is not valid UTF-8"),
            .rejected(rawBody: "again", messageID: "m-1", reason: "redelivered"),
            .rejected(rawBody: "no id 1", messageID: nil, reason: "r"),
            .rejected(rawBody: "no id 2", messageID: nil, reason: "r"),
            .event(makeEvent("ok", task: "A", second: 1), messageID: "m-3"),
        ])
        #expect(outcomes == [.rejected, .rejected, .rejected, .rejected, .rejected, .inserted])
        let rejected = try store.rejected(limit: 10)
        #expect(rejected.map(\.messageID) == [nil, nil, "m-2", "m-1"])
        #expect(rejected.last?.rawBody == "not json")
        #expect(rejected.last?.reason == "body is not a JSON object")
        let utf8Row = try #require(rejected.first { $0.messageID == "m-2" })
        #expect(try store.rejectedRawBytes(seq: utf8Row.seq) == invalidUTF8)
        #expect(utf8Row.rawBody.contains("\u{FFFD}"))
        #expect(try store.rejected(limit: 10, olderThan: utf8Row.seq).map(\.messageID) == ["m-1"])
        #expect(try store.stats().rejected == 4)
    }

    @Test func failedBatchStoresNothing() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        try store.ingestEvents([makeEvent("a", task: "A", second: 1)])
        // A trigger installed by another connection makes the second insert of the batch fail midway.
        let other = try fixture.secondConnection()
        try other.db.execute("CREATE TRIGGER fail_b BEFORE INSERT ON events WHEN NEW.task_id = 'B' BEGIN SELECT RAISE(ABORT, 'boom'); END")
        #expect(throws: SQLiteError.self) {
            try store.ingestEvents([makeEvent("c", task: "C", second: 3), makeEvent("b", task: "B", second: 2)])
        }
        #expect(try store.row(taskID: "C") == nil)
        #expect(try store.stats().events == 1)
    }
}
