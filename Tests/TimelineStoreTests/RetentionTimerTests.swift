import Foundation
import Testing
import TestSupport
import TimelineCore
@testable import TimelineStore

/// The retention setting at work: a prune at most once a day, recorded in the database (so a restart does
/// not prune again), and every decision logged.
@Suite struct RetentionTimerTests {
    static let base: Int64 = 1_800_000_000_000_000
    static let day: Int64 = 86_400_000_000

    @Test func prunesOnceADayAndSaysWhenItIsNotDue() throws {
        let fixture = try StoreFixture()
        try fixture.store.ingestEvents([
            makeEvent("old", task: "A", second: 0, status: .success),
            makeEvent("new", task: "A", second: 3 * 86_400, status: .success),
            makeEvent("gone", task: "B", second: 0, status: .success),
        ])
        let lines = Locked<[String]>([])
        let timer = RetentionTimer(databasePath: fixture.path, keepSeconds: 86_400, log: { line in lines.withValue { $0.append(line) } })
        let now = Self.base + 3 * Self.day + 1
        let report = try #require(timer.pruneIfDue(nowMicros: now, sayWhenNotDue: true))
        #expect(report.eventsDeleted == 2 && report.tasksDeleted == 1)
        #expect(try fixture.store.setting(RetentionTimer.lastPruneKey) == String(now))
        #expect(lines.withValue { $0 }.last == "retention: deleted 2 events (1 whole tasks) and 0 rejected messages older than 1d")

        // Within a day (another process, or a restart): nothing, and at start it says so.
        let again = RetentionTimer(databasePath: fixture.path, keepSeconds: 86_400, log: { line in lines.withValue { $0.append(line) } })
        #expect(again.pruneIfDue(nowMicros: now + Self.day / 2, sayWhenNotDue: true) == nil)
        #expect(lines.withValue { $0 }.last?.hasSuffix("next prune within a day") == true)
        #expect(again.pruneIfDue(nowMicros: now + Self.day, sayWhenNotDue: false) != nil)
    }

    @Test func aFailedPruneIsLoggedAndRetriedLater() throws {
        let directory = try TemporaryDirectory()
        let lines = Locked<[String]>([])
        let timer = RetentionTimer(databasePath: directory.path + "/missing-dir/t.db", keepSeconds: 60,
                                   log: { line in lines.withValue { $0.append(line) } })
        #expect(timer.pruneIfDue(nowMicros: Self.base, sayWhenNotDue: true) == nil)
        #expect(lines.withValue { $0 }.first?.hasPrefix("retention: prune failed: ") == true)
        #expect(lines.withValue { $0 }.first?.hasSuffix("(will retry in an hour)") == true)
    }

    @Test func offMeansNoTimer() {
        #expect(RetentionTimer.start(databasePath: "/nonexistent", keepSeconds: nil, log: nil) == nil)
    }
}
