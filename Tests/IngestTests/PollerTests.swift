import Foundation
import Ingest
import SQSClient
import TestSupport
import Testing
import TimelineCore
import TimelineStore

@Suite(.serialized) struct PollerTests {
    @Test func publishPollStoreDeleteLeavesTheQueueEmpty() throws {
        let kit = try PollerTestKit()
        try kit.send((0..<25).map { PollerTestKit.eventJSON(id: "e\($0)", task: "t\($0)", title: "Task \($0)", second: $0) })
        let poller = kit.poller()
        poller.start()
        // `>=`: on a loaded machine a message can outlive the 5 s visibility timeout and come back once;
        // it is then stored as a duplicate and deleted again, which is the invariant, not a failure.
        let stored = PollerTestKit.eventually { poller.status.stored == 25 && poller.status.deleted >= 25 }
        #expect(poller.stop())
        #expect(stored, "status: \(poller.status.summary)")
        let store = try kit.store()
        #expect(try store.count(matching: TimelineQuery()) == 25)
        #expect(try store.row(taskID: "t7")?.event.title == "Task 7")
        #expect(try kit.queueDepth() == 0)
        let status = poller.status
        #expect(status.stored == 25 && status.received == status.stored + status.duplicates)
    }

    @Test func malformedMessagesAreKeptWithTheirReasonAndLeaveTheQueue() throws {
        let kit = try PollerTestKit()
        try kit.send([
            "not json at all",
            #"{"id":"x1","agent_id":"a","title":"t","status":"info","timestamp":"2026-11-22T10:00:00Z"}"#,
            #"{"id":"x2","agent_id":"a","task_id":"k","title":"t","status":"done","timestamp":"2026-11-22T10:00:00Z"}"#,
            PollerTestKit.eventJSON(id: "ok", task: "good", title: "fine", second: 1),
        ])
        let poller = kit.poller()
        poller.start()
        // `>=`: a message that outlives the visibility timeout on a loaded machine is deleted twice.
        let done = PollerTestKit.eventually { poller.status.stored == 1 && poller.status.deleted >= 4 }
        #expect(poller.stop())
        #expect(done, "status: \(poller.status.summary)")
        let rejected = try kit.store().rejected(limit: 10)
        #expect(rejected.count == 3)
        let reasons = Set(rejected.map(\.reason))
        #expect(reasons.contains(#"missing required field "task_id""#))
        #expect(reasons.contains { $0.hasPrefix(#"status "done" is not one of"#) })
        #expect(rejected.contains { $0.rawBody == "not json at all" && $0.messageID != nil })
        #expect(try kit.queueDepth() == 0)
    }

    @Test func aThousandEventsWithUpsertsEndInTheRightTimeline() throws {
        let kit = try PollerTestKit()
        let poller = kit.poller(concurrency: 3)
        poller.start()
        // 1,000 events over 100 tasks, each task's events sent in a shuffled order (SQS reorders too).
        var bodies: [String] = []
        for task in 0..<100 {
            for step in 0..<10 {
                let status = step == 9 ? "success" : "in_progress"
                bodies.append(PollerTestKit.eventJSON(
                    id: "t\(task)-s\(step)", task: "task-\(task)", title: "task \(task) step \(step)",
                    status: status, second: step * 60 + task % 60))
            }
        }
        var generator = SplitMix64(seed: 42)
        bodies.shuffle(using: &generator)
        // Sent while polling, so the moto queue stays shallow.
        try kit.send(bodies)
        let done = PollerTestKit.eventually(timeout: 300) { poller.status.stored == 1000 }
        #expect(poller.stop())
        #expect(done, "status: \(poller.status.summary)")
        let store = try kit.store()
        #expect(try store.count(matching: TimelineQuery()) == 100)
        for task in [0, 17, 99] {
            let row = try #require(try store.row(taskID: "task-\(task)"))
            #expect(row.event.id == "t\(task)-s9")
            #expect(row.event.status == .success)
            #expect(row.eventCount == 10)
        }
        #expect(try store.stats().events == 1000)
    }

    @Test func throttlingAndServerErrorsCauseBackoffNotLoss() throws {
        let kit = try PollerTestKit()
        let proxy = try FaultProxy(upstream: kit.server.endpoint)
        try kit.send((0..<40).map { PollerTestKit.eventJSON(id: "f\($0)", task: "ft\($0)", title: "t", second: $0) })
        try proxy.arm(.throttle, count: 4)
        let backoffs = BackoffCounter()
        let poller = kit.poller(endpoint: proxy.endpoint, timing: backoffs.timing)
        poller.start()
        #expect(try PollerTestKit.eventually { try proxy.faultsServed() >= 4 })
        try proxy.arm(.serverError, count: 3)
        #expect(try PollerTestKit.eventually { try proxy.faultsServed() >= 7 })
        try proxy.arm(.htmlError, count: 2)
        #expect(try PollerTestKit.eventually { try proxy.faultsServed() >= 9 })
        try proxy.arm(.drop, count: 2)
        // `>=`: a dropped answer (or a loaded machine) can bring a message back once; it is deleted again.
        let done = PollerTestKit.eventually(timeout: 60) { poller.status.stored == 40 && poller.status.deleted >= 40 }
        #expect(poller.stop())
        #expect(done, "status: \(poller.status.summary)")
        #expect(try proxy.faultsServed() >= 11)
        #expect(backoffs.taken > 0)
        #expect(try kit.store().stats().events == 40)
        #expect(try kit.queueDepth() == 0)
    }

    @Test func pollingRecoversByItselfWhenTheEndpointComesBack() throws {
        let kit = try PollerTestKit()
        let proxy = try FaultProxy(upstream: kit.server.endpoint)
        let poller = kit.poller(endpoint: proxy.endpoint, waitSeconds: 1)
        poller.start()
        #expect(PollerTestKit.eventually { poller.status.state == .receiving })
        proxy.kill()
        try kit.send((0..<20).map { PollerTestKit.eventJSON(id: "r\($0)", task: "rt\($0)", title: "t", second: $0) })
        let backingOff = PollerTestKit.eventually {
            if case .backingOff = poller.status.state { return true }
            return false
        }
        #expect(backingOff, "status: \(poller.status.summary)")
        #expect(poller.status.stored == 0)
        try proxy.restart()
        let done = PollerTestKit.eventually(timeout: 30) { poller.status.stored == 20 && poller.status.deleted >= 20 }
        #expect(poller.stop())
        #expect(done, "status: \(poller.status.summary)")
        #expect(try kit.store().stats().events == 20)
    }

    @Test func stopAbandonsAnInFlightLongPollAtOnce() throws {
        let kit = try PollerTestKit()
        let proxy = try FaultProxy(upstream: kit.server.endpoint)
        let poller = kit.poller(endpoint: proxy.endpoint, waitSeconds: 20, concurrency: 2)
        poller.start()
        // Both workers are inside a 20 s long poll (held by the server, seen at the proxy); stop must not wait for it.
        #expect(try PollerTestKit.eventually { try proxy.receivesInFlight() == 2 })
        #expect(poller.stop(timeout: 5))
        #expect(poller.status.isStopped)
    }

    @Test func peekStoresButNeverDeletes() throws {
        let kit = try PollerTestKit()
        try kit.send((0..<5).map { PollerTestKit.eventJSON(id: "p\($0)", task: "pt\($0)", title: "t", second: $0) })
        let poller = kit.poller(peek: true)
        poller.start()
        let stored = PollerTestKit.eventually { poller.status.stored == 5 }
        #expect(poller.stop())
        #expect(stored)
        #expect(poller.status.deleted == 0)
        #expect(try kit.queueDepth() == 5)
    }

    @Test func aMissingQueueStopsWithAClearReason() throws {
        let kit = try PollerTestKit()
        let missing = kit.queueURL + "-does-not-exist"
        let poller = kit.poller(queueURL: missing)
        poller.start()
        #expect(poller.waitUntilStopped(deadline: Date().addingTimeInterval(20)))
        guard case .stopped(.queueMissing(let queueURL, let error)) = poller.status.state else {
            Issue.record("expected stopped on a missing queue, got \(poller.status.state)")
            return
        }
        #expect(queueURL == missing)
        #expect(error.kind == .queueMissing)
    }

    @Test func drainStopsByItselfOnceTheQueueIsEmpty() throws {
        let kit = try PollerTestKit()
        try kit.send((0..<30).map { PollerTestKit.eventJSON(id: "d\($0)", task: "dt\($0 % 7)", title: "t\($0)", second: $0) })
        let poller = kit.poller(waitSeconds: 1, stopWhenEmpty: true)
        poller.start()
        #expect(poller.waitUntilStopped(deadline: Date().addingTimeInterval(60)))
        #expect(poller.status.state == .stopped(.drained))
        // Concurrent receives (workers are added while receives come back full) may be handed the same
        // message twice, as SQS's at-least-once delivery allows: stored once, the copy counted a duplicate.
        #expect(poller.status.stored == 30)
        #expect(poller.status.deleted == 30 + poller.status.duplicates, "\(poller.status.summary)")
        #expect(try kit.store().count(matching: TimelineQuery()) == 7)
    }
}

/// Counts the poller's backoff delays: each draws its jitter from `timing.random`. (The status shows
/// `.backingOff` only while a delay lasts, often a few milliseconds, and the other worker's next receive
/// replaces it: sampling the status can miss every one on a loaded machine.)
final class BackoffCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var taken: Int { lock.withLock { count } }

    var timing: PollerTiming {
        PollerTiming(random: { [self] in
            lock.withLock { count += 1 }
            return Double.random(in: 0..<1)
        })
    }
}
