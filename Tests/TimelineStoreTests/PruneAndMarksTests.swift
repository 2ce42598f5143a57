import Foundation
import Testing
import TimelineCore
@testable import TimelineStore

@Suite("Prune and marks")
struct PruneAndMarksTests {
    /// Seconds after `makeEvent`'s epoch, as the cutoff for `prune`.
    static func micros(_ second: Int64) -> Int64 { 1_800_000_000_000_000 + second * 1_000_000 }

    @Test(arguments: [false, true])
    func pruneKeepsEachTasksNewestEventAndTheIndexStaysRight(deferIndex: Bool) throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        _ = try store.ingest([
            makeEvent("a1", task: "A", second: 10, title: "alpha old"), makeEvent("a2", task: "A", second: 20, title: "alpha older too"),
            makeEvent("b1", task: "B", second: 10, title: "beta first"), makeEvent("b2", task: "B", second: 500, title: "beta newest"),
            makeEvent("c1", task: "C", second: 10, status: .inProgress, title: "gamma running"),
        ].map { .event($0, messageID: nil) }, deferSearchIndex: deferIndex)
        // The index lags for B when deferred: its entry still holds b1's text, which prune deletes.
        try store.setMark(taskID: "A", marked: true)
        try store.setMark(taskID: "B", marked: true)
        var report = try store.prune(olderThan: Self.micros(100), keepRunning: true, reclaimSpace: false)
        #expect(report.eventsDeleted == 3 && report.tasksDeleted == 1)
        #expect(try store.allRows().map(\.taskID) == ["B", "C"])
        #expect(try store.row(taskID: "B")?.eventCount == 1)
        #expect(try store.history(taskID: "B", limit: 10).map(\.id) == ["b2"])
        #expect(try store.markedTaskIDs() == ["B"])
        #expect(try store.count(matching: TimelineQuery(terms: ["alpha"])) == 0)
        #expect(try store.count(matching: TimelineQuery(terms: ["beta newest"])) == 1)
        #expect(try store.count(matching: TimelineQuery(terms: ["beta first"])) == 0)
        #expect(try store.count(matching: TimelineQuery(terms: ["gamma"])) == 1)
        // New events after a prune still upsert and index correctly.
        _ = try store.ingestEvents([makeEvent("a3", task: "A", second: 600, title: "alpha again")])
        #expect(try store.count(matching: TimelineQuery(terms: ["alpha again"])) == 1)
        report = try store.prune(olderThan: Self.micros(100), keepRunning: false, reclaimSpace: true)
        #expect(report.tasksDeleted == 1 && report.eventsDeleted == 1)
        #expect(try store.allRows().map(\.taskID) == ["A", "B"])
        #expect(try store.oldestEventMicros() == Self.micros(500))
    }

    @Test func marksAndSettingsAreKeptAcrossConnections() throws {
        let fixture = try StoreFixture()
        try fixture.store.setMark(taskID: "T-2", marked: true)
        try fixture.store.setMark(taskID: "T-1", marked: true)
        try fixture.store.setMark(taskID: "T-1", marked: true)
        try fixture.store.setSetting("tui.last_view", "errors")
        let other = try fixture.secondConnection(readOnly: true)
        #expect(try other.markedTaskIDs() == ["T-1", "T-2"])
        #expect(try other.setting("tui.last_view") == "errors")
        try fixture.store.setMark(taskID: "T-2", marked: false)
        try fixture.store.setSetting("tui.last_view", nil)
        #expect(try other.markedTaskIDs() == ["T-1"])
        #expect(try other.setting("tui.last_view") == nil)
    }
}
