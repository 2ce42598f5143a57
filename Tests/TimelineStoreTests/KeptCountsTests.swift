import Foundation
import Testing
import TimelineCore
@testable import TimelineStore
import TestSupport

extension TimelineStore {
    /// The kept tables (`task_counts`, `timeline_values`, `unread_errors`) and the same counted from
    /// scratch over the timeline (their `countSQL`), as lines of text: every write path keeps them equal,
    /// no row of zero included.
    func keptCountsAndRecount() throws -> (kept: [String], counted: [String]) {
        func lines(_ sql: String, columns: Int32) throws -> [String] {
            let statement = try db.prepare(sql)
            var out: [String] = []
            while try statement.step() == .row {
                out.append((0..<columns).map { statement.string($0) }.joined(separator: "|"))
            }
            return out
        }
        return try locked {
            let kept = try lines("SELECT status, tasks FROM task_counts ORDER BY 1", columns: 2)
                + lines("SELECT kind, value, tasks FROM timeline_values ORDER BY 1, 2", columns: 3)
                + lines("SELECT 'unread', tasks FROM unread_errors", columns: 2)
            let counted = try lines(TaskCounts.countSQL + " ORDER BY 1", columns: 2)
                + lines("SELECT * FROM (\(TimelineValues.countSQL)) ORDER BY 1, 2", columns: 3)
                + lines("SELECT 'unread', (\(UnreadErrors.countSQL))", columns: 2)
            return (kept, counted)
        }
    }
}

/// Every write path keeps the kept counts (`KeptCounts`) equal to counting them from scratch.
@Suite("TimelineStore kept counts")
struct KeptCountsTests {
    private func expectExact(_ store: TimelineStore, after step: String,
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (kept, counted) = try store.keptCountsAndRecount()
        #expect(kept == counted, "after \(step)", sourceLocation: sourceLocation)
    }

    private func unread(_ store: TimelineStore) throws -> Int { try store.fleetCounts().unreadErrors }

    /// A history: tasks of every status, read marks, the `U` watermark, an agent and a category held by one
    /// task only.
    private func history(_ store: TimelineStore) throws {
        try store.ingestEvents([
            makeEvent("a1", task: "A", second: 1, status: .error, agent: "agent-1", category: "deploy"),
            makeEvent("b1", task: "B", second: 2, status: .error, agent: "agent-2"),
            makeEvent("e1", task: "E", second: 3, status: .error, agent: "agent-2", category: "email"),
        ])
        try store.markAllRead()
        try store.ingestEvents([
            makeEvent("b2", task: "B", second: 4, status: .error, agent: "agent-2"),
            makeEvent("c1", task: "C", second: 5, status: .inProgress, agent: "agent-9", category: "solo"),
            makeEvent("d1", task: "D", second: 6, status: .success, agent: "agent-1", category: "deploy"),
            makeEvent("f1", task: "F", second: 7, status: .info, agent: "agent-3"),
            makeEvent("h1", task: "H", second: 8, status: .warning, agent: "agent-3", category: "email"),
        ])
        try store.markRead(taskID: "B", seq: try #require(try store.row(taskID: "B")).seq)
    }

    /// A batch that changes every kind of count: new tasks (one with no category), a new status for an
    /// unread and a read error, an error read through the watermark turning newer, the last task of an
    /// agent and a category moving away, an older event only, a task passing through several statuses,
    /// and many new tasks.
    private func batch() -> [Event] {
        var events = [
            makeEvent("a2", task: "A", second: 20, status: .success, agent: "agent-2"),
            makeEvent("b3", task: "B", second: 21, status: .error, agent: "agent-2", category: "deploy"),
            makeEvent("e2", task: "E", second: 22, status: .error, agent: "agent-2", category: "email"),
            makeEvent("c2", task: "C", second: 23, status: .error, agent: "agent-1", category: "deploy"),
            makeEvent("d0", task: "D", second: 0, status: .error, agent: "agent-1", category: "deploy"),
            makeEvent("f2", task: "F", second: 24, status: .inProgress, agent: "agent-3"),
            makeEvent("f3", task: "F", second: 25, status: .error, agent: "agent-3"),
            makeEvent("f4", task: "F", second: 26, status: .needsInput, agent: "agent-3"),
            makeEvent("h2", task: "H", second: 27, status: .success, agent: "agent-3"),
            makeEvent("g1", task: "G", second: 28, status: .error, agent: "agent-new"),
            makeEvent("g2", task: "G", second: 29, status: .inProgress, agent: "agent-new", category: "fresh"),
            makeEvent("n1", task: "N", second: 30, status: .error, agent: "agent-7", category: "fresh"),
        ]
        for index in 0..<70 {
            let status = Status.allCases[index % Status.allCases.count]
            events.append(makeEvent("bulk\(index)", task: "bulk-\(index)", second: 40 + Int64(index), status: status,
                                    agent: "agent-\(index % 5)", category: index % 3 == 0 ? nil : "cat-\(index % 4)"))
        }
        return events
    }

    @Test func aBatchChangingEveryKindOfCountEndsAtTheRecountWhateverItsSize() throws {
        let whole = try StoreFixture()
        let oneByOne = try StoreFixture()
        try history(whole.store)
        try history(oneByOne.store)
        try expectExact(whole.store, after: "the history")

        let outcomes = try whole.store.ingestEvents(batch())
        #expect(try batch().flatMap { try oneByOne.store.ingestEvents([$0]) } == outcomes)
        try expectExact(whole.store, after: "one batch")
        try expectExact(oneByOne.store, after: "batches of one")
        #expect(try whole.store.keptCountsAndRecount().kept == oneByOne.store.keptCountsAndRecount().kept)
        // agent-9 and "solo" lost their only task, success and warning tasks remain; the unread errors are
        // what the rule counts (B, E, C, N and the new error tasks; A is no error now, D's older error
        // changes nothing).
        let kept = try whole.store.keptCountsAndRecount().kept
        #expect(!kept.contains { $0.hasPrefix("agent|agent-9|") || $0.hasPrefix("category|solo|") })
        #expect(try unread(whole.store) > 4)
    }

    /// A backup record of an event whose payload names its category (the fixtures' `makeEvent` payload
    /// does not, and a restore parses the payload).
    private func backedUp(_ id: String, task: String, second: Int64, status: Status, agent: String,
                          category: String?) -> BackupRecord {
        let categoryField = category.map { #","category":"\#($0)""# } ?? ""
        let raw = #"{"id":"\#(id)","agent_id":"\#(agent)","task_id":"\#(task)","title":"restored \#(id)","#
            + #""status":"\#(status.rawValue)"\#(categoryField),"timestamp":"2027-01-15T08:00:00Z"}"#
        return .event(StoredEvent(rawJSON: raw, orderingMicros: PruneByCopyTests.micros(second), messageID: nil,
                                  receivedMicros: PruneByCopyTests.micros(second), delivery: nil))
    }

    @Test func everyWritePathKeepsTheCountsEqualToTheRecount() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        try expectExact(store, after: "opening")

        try store.ingestEvents([
            makeEvent("a1", task: "A", second: 1, status: .error, agent: "agent-1", category: "deploy"),
            makeEvent("b1", task: "B", second: 2, status: .error, agent: "agent-2"),
            makeEvent("c1", task: "C", second: 3, status: .inProgress, agent: "agent-2", category: "email"),
            makeEvent("d1", task: "D", second: 4, status: .info, agent: "agent-3"),
            makeEvent("o1", task: "O", second: 5, status: .warning, agent: "agent-old", category: "old"),
        ])
        try expectExact(store, after: "a small batch")
        #expect(try unread(store) == 2)

        #expect(try store.ingestEvents([
            makeEvent("a1", task: "A", second: 1, status: .error, agent: "agent-1", category: "deploy"),
            makeEvent("b0", task: "B", second: 0, status: .success, agent: "agent-9", category: "older"),
        ]) == [.duplicate, .keptOlder])
        try expectExact(store, after: "a duplicate and an older event")

        // Status, agent and category each change, the category to and from none.
        try store.ingestEvents([
            makeEvent("a2", task: "A", second: 10, status: .success, agent: "agent-2"),
            makeEvent("b2", task: "B", second: 11, status: .warning, agent: "agent-1", category: "fresh"),
            makeEvent("d2", task: "D", second: 12, status: .error, agent: "agent-3"),
        ])
        try expectExact(store, after: "changes to and from no category")
        #expect(try unread(store) == 1)

        // An error read, a mark older than the winner (still unread), a newer error on the read task.
        try store.markRead(taskID: "D", seq: try #require(try store.row(taskID: "D")).seq)
        try expectExact(store, after: "marking an error read")
        #expect(try unread(store) == 0)
        try store.ingestEvents([makeEvent("c2", task: "C", second: 13, status: .error, agent: "agent-2", category: "email")])
        try store.markRead(taskID: "C", seq: try #require(try store.row(taskID: "C")).seq - 1)
        try store.markRead(taskID: "no-such-task", seq: 1)
        try expectExact(store, after: "a mark older than the error")
        #expect(try unread(store) == 1)
        try store.ingestEvents([makeEvent("d3", task: "D", second: 14, status: .error, agent: "agent-4")])
        try expectExact(store, after: "a newer error on a read task")
        #expect(try unread(store) == 2)

        try store.ingestEvents((0..<100).map {
            makeEvent("bulk\($0)", task: $0 % 10 == 0 ? ["A", "B", "C", "D"][$0 / 10 % 4] : "bulk-\($0)",
                      second: 20 + Int64($0), status: Status.allCases[$0 % Status.allCases.count],
                      agent: "agent-\($0 % 7)", category: $0 % 3 == 0 ? nil : "cat-\($0 % 4)")
        })
        try expectExact(store, after: "a large batch")

        try store.markAllRead()
        try expectExact(store, after: "U")
        #expect(try unread(store) == 0)
        try store.ingestEvents([
            makeEvent("u1", task: "U1", second: 200, status: .error, agent: "agent-u"),
            makeEvent("u2", task: "bulk-1", second: 201, status: .error, agent: "agent-u", category: "after-u"),
        ])
        try expectExact(store, after: "errors after U")
        #expect(try unread(store) == 2)

        // A restore: a new error task read by its read mark, a newer error of a stored task, an older event.
        try store.restore([
            backedUp("r1", task: "R", second: 300, status: .error, agent: "agent-r", category: "restored"),
            backedUp("r2", task: "bulk-2", second: 301, status: .error, agent: "agent-r", category: nil),
            backedUp("r0", task: "U1", second: 150, status: .success, agent: "agent-r", category: "older"),
            .read(eventID: "r1"),
            .read(eventID: "u1"),
        ])
        try expectExact(store, after: "a restore")
        #expect(try unread(store) == 2)  // bulk-1 and bulk-2

        // Prune in place: O, A..D's early tasks and the first bulk tasks go whole (running ones stay).
        _ = try store.prune(olderThan: PruneByCopyTests.micros(40), keepRunning: true, reclaimSpace: false,
                            batching: PruneBatchesTests.tiny(copy: false))
        try expectExact(store, after: "a prune in place")
        #expect(try store.row(taskID: "O") == nil)

        // Prune by copy: most of what is left goes, read and unread errors among it.
        _ = try store.prune(olderThan: PruneByCopyTests.micros(200), keepRunning: false, reclaimSpace: false,
                            batching: PruneBatchesTests.tiny(copy: true))
        try expectExact(store, after: "a prune by copy")
        #expect(try store.count(matching: TimelineQuery()) == 4)  // U1, bulk-1, R, bulk-2
        #expect(try unread(store) == 2)
    }

    /// A file written by the last release of counting triggers (`Fixtures/version13.db`, made by
    /// `Fixtures/make-version13.sh`) migrates to version 14: no trigger left, and the counts are the recount
    /// (the rows of zero the triggers left are gone).
    @Test func aVersion13FileLosesItsTriggersAndKeepsExactCounts() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        let directory = try TemporaryDirectory()
        let path = directory.file("timeline.db")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("version13.db"), to: URL(fileURLWithPath: path))
        let triggers = "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"
        do {
            let before = try Database(path: path, mode: .readOnly)
            #expect(try before.userVersion() == 13)
            #expect(try before.scalarInt(triggers) == Int64(Schema.countTriggersBeforeVersion14.count))
            #expect(try before.scalarInt("SELECT count(*) FROM task_counts WHERE tasks = 0") > 0)
        }
        let store = try TimelineStore(path: path)
        #expect(try store.db.userVersion() == Schema.latestVersion)
        #expect(try store.db.scalarInt(triggers) == 0)
        try expectExact(store, after: "the migration")
        let fleet = try store.fleetCounts()
        let states: [Int] = [fleet.running, fleet.errors, fleet.unreadErrors, fleet.waiting]
        #expect(states == [0, 2, 2, 0])
        // And the writes that follow keep them.
        try store.markRead(taskID: "T6", seq: try #require(try store.row(taskID: "T6")).seq)
        try store.ingestEvents([makeEvent("x1", task: "T2", second: 1_000, status: .success, agent: "tester@host-1")])
        try expectExact(store, after: "writes after the migration")
        #expect(try unread(store) == 0)
    }

    /// A file whose version was set back migrates again, to the same exact counts and no triggers.
    @Test func aFileSetBackToVersion10MigratesAgainToExactCounts() throws {
        let fixture = try StoreFixture()
        try history(fixture.store)
        try fixture.store.ingestEvents(batch())
        try fixture.store.db.restorePayloadColumnsLayout()
        try fixture.store.db.execute("UPDATE task_counts SET tasks = tasks + 5; DELETE FROM unread_errors; PRAGMA user_version = 10")
        let store = try fixture.secondConnection()
        #expect(try store.db.userVersion() == Schema.latestVersion)
        #expect(try store.db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'") == 0)
        try expectExact(store, after: "migrating again")
        #expect(try unread(store) > 4)
    }
}
