import Foundation
import Testing
import TestSupport
import TimelineCore
@testable import TimelineStore

@Suite("Prune in batches")
struct PruneBatchesTests {
    static func micros(_ second: Int64) -> Int64 { PruneAndMarksTests.micros(second) }
    /// Small enough that every phase of a prune takes several transactions here.
    static var tiny: PruneBatching { PruneBatching(tasks: 3, tasksWithoutEvents: 3, eventSpan: 7, rejected: 2, pause: .zero) }

    /// 12 old tasks (4 events each, one of them running), 5 tasks with old and new events, marks on both
    /// kinds, 5 rejected messages (received now: before the cutoff, which lies in the future).
    static func fill(_ store: TimelineStore) throws {
        var events: [Event] = []
        for task in 0..<12 {
            for step in 0..<4 {
                events.append(makeEvent("old-\(task)-\(step)", task: "old-\(task)", second: 10 + Int64(step),
                                        status: task == 0 && step == 3 ? .inProgress : .info,
                                        title: "old task \(task) step \(step)"))
            }
        }
        for task in 0..<5 {
            for (step, second) in [10, 11, 500, 501].enumerated() {
                events.append(makeEvent("mixed-\(task)-\(step)", task: "mixed-\(task)", second: Int64(second),
                                        title: "mixed task \(task) step \(step)"))
            }
        }
        try store.ingestEvents(events)
        try store.ingest((0..<5).map { .rejected(rawBytes: Array("bad \($0)".utf8), messageID: "m\($0)", reason: "not JSON") })
        try store.setMark(taskID: "old-3", marked: true)
        try store.setMark(taskID: "mixed-1", marked: true)
    }

    /// What a prune leaves, as far as a reader can tell.
    struct Left: Equatable {
        var rows: [String]
        var counts: [Int]
        var histories: [[String]]
        var marks: [String]
        var rejected: Int
        var oldMatches: Int
        var mixedMatches: Int
    }

    static func left(_ store: TimelineStore) throws -> Left {
        let rows = try store.allRows()
        return Left(rows: rows.map(\.taskID), counts: rows.map(\.eventCount),
                    histories: try rows.map { try store.history(taskID: $0.taskID, limit: 100).map(\.id) },
                    marks: try store.markedTaskIDs(), rejected: try store.rejectedCount(),
                    oldMatches: try store.count(matching: TimelineQuery(terms: ["old task"])),
                    mixedMatches: try store.count(matching: TimelineQuery(terms: ["mixed task"])))
    }

    /// Tiny batches that delete (`copy` false) or copy the kept events (`copy` true) whatever the share pruned.
    static func tiny(copy: Bool) -> PruneBatching {
        var batching = tiny
        batching.copyAbove = copy ? 0 : 2
        batching.dropSpan = 5
        return batching
    }

    @Test(arguments: [false, true], [false, true])
    func batchesLeaveWhatOneBatchLeaves(keepRunning: Bool, copy: Bool) throws {
        let whole = try StoreFixture(), batched = try StoreFixture()
        try Self.fill(whole.store)
        try Self.fill(batched.store)
        var transactions = 0
        var tiny = Self.tiny(copy: copy)
        tiny.afterEachBatch = { transactions += 1 }
        let big = PruneBatching(tasks: 1_000_000, eventSpan: 1 << 40, rejected: 1_000_000, copyAbove: 2)
        let one = try whole.store.prune(olderThan: Self.micros(100), keepRunning: keepRunning, reclaimSpace: false,
                                        batching: big)
        let many = try batched.store.prune(olderThan: Self.micros(100), keepRunning: keepRunning, reclaimSpace: true,
                                           batching: tiny)
        #expect(transactions > 10)
        let counts: [Int] = [many.eventsDeleted, many.tasksDeleted, many.rejectedDeleted]
        #expect(counts == [one.eventsDeleted, one.tasksDeleted, one.rejectedDeleted])
        #expect(try Self.left(batched.store) == Self.left(whole.store))

        let left = try Self.left(batched.store)
        // Old tasks go whole (but the running one with keepRunning); mixed tasks keep their two new events.
        #expect(many.tasksDeleted == (keepRunning ? 11 : 12))
        #expect(many.eventsDeleted == (keepRunning ? 44 : 48) + 10)
        #expect(many.rejectedDeleted == 5 && left.rejected == 0)
        #expect(Set(left.rows) == Set((0..<5).map { "mixed-\($0)" } + (keepRunning ? ["old-0"] : [])))
        #expect(try batched.store.history(taskID: "mixed-2", limit: 10).map(\.id) == ["mixed-2-3", "mixed-2-2"])
        #expect(try batched.store.row(taskID: "mixed-2")?.eventCount == 2)
        #expect(left.marks == ["mixed-1"])
        #expect(left.oldMatches == (keepRunning ? 1 : 0) && left.mixedMatches == 5)
        #expect(try PruneByCopyTests.inconsistencies(batched.store) == [])
    }

    /// Between two batches another connection writes at once (no transaction of the prune is open), and a
    /// task that gets a newer event meanwhile is no longer pruned whole: it keeps that event.
    @Test(arguments: [false, true])
    func anotherWriterGetsThroughBetweenBatchesAndItsEventIsKept(copy: Bool) throws {
        let fixture = try StoreFixture()
        try Self.fill(fixture.store)
        let other = try fixture.secondConnection()
        var writes = 0
        var revived: String?
        var batching = Self.tiny(copy: copy)
        batching.afterEachBatch = {
            writes += 1
            if revived == nil, let task = try (0..<12).map({ "old-\($0)" }).first(where: { try other.row(taskID: $0) != nil }) {
                revived = task
                try other.ingestEvents([makeEvent("\(task)-new", task: task, second: 900, title: "old task revived")])
            }
            try other.ingestEvents([makeEvent("live-\(writes)", task: "live-\(writes)", second: 1_000)])
        }
        let report = try fixture.store.prune(olderThan: Self.micros(100), keepRunning: false, reclaimSpace: false,
                                             batching: batching)
        let task = try #require(revived)
        #expect(writes > 10)
        #expect(report.tasksDeleted == 11)
        #expect(try fixture.store.history(taskID: task, limit: 10).map(\.id) == ["\(task)-new"])
        #expect(try fixture.store.row(taskID: task)?.eventCount == 1)
        #expect(try fixture.store.count(matching: TimelineQuery(terms: ["old task revived"])) == 1)
        #expect(try (1...writes).allSatisfy { try fixture.store.row(taskID: "live-\($0)") != nil })
        #expect(try PruneByCopyTests.inconsistencies(fixture.store) == [])
    }
}

/// `timeline prune` and the retention timer run their thread as upkeep: a viewer beside a prune of a large
/// history kept waiting for a core while the prune took one at its own priority.
@Suite struct PruneUpkeepPriorityTests {
    @Test func upkeepLowersOnlyTheCallingThreadToTheBackgroundJobsPriority() throws {
        let before = PrunePriority.ofThisThread()
        let inThread = Locked<Int32?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            TimelineStore.runThisThreadAsUpkeep()
            inThread.withValue { $0 = PrunePriority.ofThisThread() }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(inThread.withValue { $0 } == min(19, before + BackgroundJob.niceIncrement))
        #expect(PrunePriority.ofThisThread() == before)
    }
}
