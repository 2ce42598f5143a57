import Attention
import Foundation
import Testing
import TestSupport
import TimelineCore
import TimelineStore

@Suite("Attention monitor and read state (real SQLite file)")
struct MonitorAndReadStateTests {
    @Test func onlyEventsArrivingAfterTheStartNotifyWithTheirTaskPriorState() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("t.db")
        let store = try TimelineStore(path: path)
        try store.put(event("old", task: "A", .error, second: -100), event("b0", task: "B", .inProgress, second: -90))
        let monitor = try AttentionMonitor(databasePath: path, policy: NotifyPolicy(level: .errors),
                                           startedMicros: startedMicros)
        // A was already in error before the monitor started: another error is no transition. B fails: one.
        try store.put(event("a1", task: "A", .error, second: 1), event("b1", task: "B", .error, second: 2))
        let now = startedMicros + 5 * second
        monitor.stepNow(nowMicros: now, openTaskID: nil, withFleet: true)
        monitor.stepNow(nowMicros: now + 2 * second, openTaskID: nil, withFleet: false)
        let taken = monitor.take()
        #expect(taken.failure == nil)
        #expect(taken.notifications.map(\.transitions.first?.taskID) == ["B"])
        #expect(taken.fleet?.errors == 2)
        #expect(monitor.take().notifications.isEmpty, "taken once")
    }

    @Test func fleetCountsAndUnreadSurviveReopening() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("t.db")
        do {
            let store = try TimelineStore(path: path)
            // Existing history at migration time is read (read_all_seq seeded) — here the file is new.
            try store.put(event("1", task: "A", .error), event("2", task: "B", .error), event("3", task: "C", .inProgress),
                          event("4", task: "D", .inProgress), event("5", task: "E", .success))
            var c = try store.fleetCounts()
            #expect(c.running == 2 && c.errors == 2 && c.unreadErrors == 2 && c.waiting == 0)
            #expect(c.needsAttention)
            let a = try #require(try store.row(taskID: "A"))
            #expect(a.unread)
            try store.markRead(taskID: "A", seq: a.seq)
            c = try store.fleetCounts()
            #expect(c.unreadErrors == 1)
        }
        let reopened = try TimelineStore(path: path, readOnly: true)
        #expect(try reopened.row(taskID: "A")?.unread == false)
        #expect(try reopened.row(taskID: "B")?.unread == true)
        #expect(try reopened.fleetCounts().unreadErrors == 1)
    }

    @Test func theViewersConnectionWritesReadMarksWithTheReadersSmallCache() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("t.db")
        let writer = try TimelineStore(path: path)
        try writer.put(event("1", task: "A", .error))
        let viewer = try TimelineStore.viewer(path: path)
        let readOnly = try TimelineStore(path: path, readOnly: true)
        #expect(try viewer.pageCacheSetting() == readOnly.pageCacheSetting())
        #expect(try viewer.pageCacheSetting() > writer.pageCacheSetting(), "a smaller cache (negative KiB)")
        // The TUI's lanes mark tasks read through their connection: a read-only one could not.
        let a = try #require(try viewer.row(taskID: "A"))
        #expect(throws: (any Error).self) { try readOnly.markRead(taskID: "A", seq: a.seq) }
        try viewer.markRead(taskID: "A", seq: a.seq)
        #expect(try TimelineStore(path: path, readOnly: true).row(taskID: "A")?.unread == false)
    }

    @Test func aNewerEventMakesAReadTaskUnreadAgainAndUMarksAll() throws {
        let dir = try TemporaryDirectory()
        let store = try TimelineStore(path: dir.file("t.db"))
        try store.put(event("1", task: "A", .inProgress, second: 1))
        let first = try #require(try store.row(taskID: "A"))
        try store.markRead(taskID: "A", seq: first.seq)
        #expect(try store.row(taskID: "A")?.unread == false)
        // A late, older event does not win: still read.
        try store.put(event("0", task: "A", .info, second: 0))
        #expect(try store.row(taskID: "A")?.unread == false)
        try store.put(event("2", task: "A", .error, second: 2))
        #expect(try store.row(taskID: "A")?.unread == true)
        // Marking an older event read leaves the newer one unread.
        try store.markRead(taskID: "A", seq: first.seq)
        #expect(try store.row(taskID: "A")?.unread == true)
        try store.put(event("3", task: "B", .error, second: 3))
        try store.markAllRead()
        #expect(try store.fleetCounts().unreadErrors == 0)
        #expect(try store.rows(matching: TimelineQuery(), olderThan: nil, limit: 10).allSatisfy { !$0.unread })
        #expect(try store.fleetCounts().errors == 2)
    }

    @Test func fleetLineFormats() {
        var c = FleetCounts()
        #expect(FleetLine.title(c) == "timeline · idle")
        #expect(FleetLine.plain(c) == "ok")
        c.waiting = 2; c.errors = 1; c.unreadErrors = 1; c.running = 5
        #expect(FleetLine.title(c) == "timeline · 2 need you · 1 error · 5 running")
        #expect(FleetLine.tmux(c) == "#[fg=magenta,bold]2 need you#[default] · #[fg=red,bold]1 error#[default] · #[fg=cyan]5 running#[default]")
        #expect(FleetLine.json(c) == #"{"waiting":2,"errors":1,"unread_errors":1,"running":5,"needs_attention":true}"#)
        c.errors = 3
        #expect(FleetLine.plain(c) == "2 need you · 3 errors (1 unread) · 5 running")
    }
}

@Suite("Running task facts from the store")
struct RunningRowStoreTests {
    @Test func rowsCarryTheFirstEventTimeAndRecentProgressOfRunningTasks() throws {
        let dir = try TemporaryDirectory()
        let store = try TimelineStore(path: dir.file("t.db"))
        func progressEvent(_ id: String, task: String, _ status: Status, second: Int64, progress: Double?) -> Event {
            var e = event(id, task: task, status, second: second)
            e.progress = progress
            return e
        }
        try store.put(progressEvent("1", task: "R", .inProgress, second: 10, progress: 10),
                      progressEvent("2", task: "R", .inProgress, second: 20, progress: nil),
                      progressEvent("3", task: "R", .inProgress, second: 30, progress: 30),
                      progressEvent("4", task: "R", .inProgress, second: 40, progress: 50),
                      progressEvent("0", task: "R", .info, second: 5, progress: nil),
                      progressEvent("5", task: "D", .inProgress, second: 1, progress: 90),
                      progressEvent("6", task: "D", .success, second: 50, progress: 100))
        let r = try #require(try store.row(taskID: "R"))
        #expect(r.firstMicros == startedMicros + 5 * second)
        #expect(r.recentProgress.map(\.progress) == [50, 30, 10])
        #expect(ProgressETA.remainingMicros(r.recentProgress, nowMicros: startedMicros + 40 * second) == 37_500_000)
        let d = try #require(try store.rows(matching: TimelineQuery(), olderThan: nil, limit: 5).first { $0.taskID == "D" })
        #expect(d.firstMicros == startedMicros + second)
        #expect(d.recentProgress.isEmpty, "only running tasks need their progress history")
    }

    /// The connection keeps a running row's points between reads (`ProgressPointsCache`); whatever changes
    /// the task's events shows in the next read: a newer report, an older one that arrives late (the row's
    /// winner stays), and a prune of its oldest reports.
    @Test func recentProgressFollowsEveryChangeOfTheTasksEvents() throws {
        let dir = try TemporaryDirectory()
        let store = try TimelineStore(path: dir.file("t.db"))
        func report(_ id: String, second: Int64, progress: Double) -> Event {
            var e = event(id, task: "R", .inProgress, second: second)
            e.progress = progress
            return e
        }
        func points() throws -> [Double] {
            let window = try store.rows(matching: TimelineQuery(), olderThan: nil, limit: 10)
            return try #require(window.first { $0.taskID == "R" }).recentProgress.map(\.progress)
        }
        try store.put(report("1", second: 10, progress: 10), report("2", second: 30, progress: 30))
        #expect(try points() == [30, 10])
        #expect(try points() == [30, 10], "a read with nothing changed gives the same points")
        try store.put(report("3", second: 40, progress: 40))
        #expect(try points() == [40, 30, 10])
        try store.put(report("4", second: 20, progress: 20))
        #expect(try store.row(taskID: "R")?.seq == 3, "the late report is kept older")
        #expect(try points() == [40, 30, 20, 10])
        _ = try store.prune(olderThan: startedMicros + 25 * second, keepRunning: false, reclaimSpace: false)
        #expect(try points() == [40, 30])
    }
}
