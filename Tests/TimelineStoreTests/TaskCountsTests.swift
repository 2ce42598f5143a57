import Foundation
import Testing
import TimelineCore
@testable import TimelineStore
import TestSupport

/// `task_counts` stays equal to counting the timeline, whatever writes it.
@Suite("TimelineStore kept task counts")
struct TaskCountsTests {
    /// Rows per status counted over the timeline itself.
    private func counted(_ store: TimelineStore) throws -> [Status: Int] {
        var counts: [Status: Int] = [:]
        for status in Status.allCases {
            let n = Int(try store.db.scalarInt("SELECT count(*) FROM timeline WHERE status = ?", [.text(status.rawValue)]))
            if n > 0 { counts[status] = n }
        }
        return counts
    }

    @Test func keptCountsFollowIngestReplaceOlderEventsAndPrune() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        try store.ingestEvents([
            makeEvent("a1", task: "A", second: 1, status: .inProgress),
            makeEvent("b1", task: "B", second: 2, status: .error),
            makeEvent("c1", task: "C", second: 3, status: .needsInput),
        ])
        #expect(try store.keptTaskCounts() == [.inProgress: 1, .error: 1, .needsInput: 1])
        // A newer event moves a task to another status; an older one changes nothing; a batch may do both.
        try store.ingestEvents([
            makeEvent("a2", task: "A", second: 10, status: .success),
            makeEvent("b0", task: "B", second: 0, status: .success),
            makeEvent("c2", task: "C", second: 11, status: .inProgress),
            makeEvent("c3", task: "C", second: 12, status: .error),
            makeEvent("d1", task: "D", second: 13, status: .error),
        ])
        #expect(try store.keptTaskCounts() == counted(store))
        #expect(try store.keptTaskCounts() == [.success: 1, .error: 3])
        #expect(try store.count(matching: TimelineQuery()) == 4)
        #expect(try store.count(matching: TimelineQuery(statuses: [.error])) == 3)
        #expect(try store.count(matching: TimelineQuery(statuses: [.error]), upTo: 2) == 2)
        #expect(try store.statusCounts(matching: TimelineQuery()) == [.success: 1, .error: 3])
        #expect(try store.fleetCounts().errors == 3)
        // Prune removes whole tasks older than the cutoff (A at 10 s, B at 2 s).
        _ = try store.prune(olderThan: 1_800_000_000_000_000 + 10_500_000, keepRunning: false, reclaimSpace: false)
        #expect(try store.keptTaskCounts() == counted(store))
        #expect(try store.count(matching: TimelineQuery()) == 2)
    }

    @Test func migrationCountsAnExistingTimeline() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("v10.db")
        do {
            let store = try TimelineStore(path: path)
            try store.ingestEvents((0..<30).map { makeEvent("e\($0)", task: "T\($0 % 7)", second: Int64($0),
                                                           status: Status.allCases[$0 % Status.allCases.count]) })
            try store.db.restorePayloadColumnsLayout()
            try store.db.execute("DROP TABLE task_counts; PRAGMA user_version = 10")
        }
        let store = try TimelineStore(path: path)
        #expect(try store.db.userVersion() == Schema.latestVersion)
        #expect(try store.keptTaskCounts() == counted(store))
        #expect(try store.keptTaskCounts().values.reduce(0, +) == 7)
    }
}
