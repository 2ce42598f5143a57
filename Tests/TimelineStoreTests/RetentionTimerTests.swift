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

    /// The timer's prunes are upkeep: its thread yields the cores to the viewer's threads (a lower priority
    /// than the thread that started it; the nice value is per thread on Linux).
    @Test func theTimersThreadRunsAtUpkeepPriority() throws {
        let fixture = try StoreFixture()
        let started = PrunePriority.ofThisThread()
        let seen = Locked<[Int32]>([])
        let log: @Sendable (String) -> Void = { _ in seen.withValue { $0.append(PrunePriority.ofThisThread()) } }
        let timerStarted = RetentionTimer.start(databasePath: fixture.path, keepSeconds: 86_400, log: log)
        let timer = try #require(timerStarted)
        let deadline = Date().addingTimeInterval(30)
        while seen.withValue({ $0.isEmpty }) && Date() < deadline { usleep(1_000) }
        timer.stop()
        #expect(seen.withValue { $0 }.first == min(19, started + BackgroundJob.niceIncrement))
        #expect(PrunePriority.ofThisThread() == started, "the caller's own thread keeps its priority")
    }

    @Test func offMeansNoTimer() {
        #expect(RetentionTimer.start(databasePath: "/nonexistent", keepSeconds: nil, log: nil) == nil)
    }
}

/// The calling thread's nice value (Linux: per thread).
enum PrunePriority {
    static func ofThisThread() -> Int32 {
        getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    }
}
