@testable import AgentHooks
import Foundation
import Synchronization
import Testing
import TimelineCore

@Suite("Hook spool and publisher")
struct HookSpoolTests {
    func makeSpool() throws -> (HookSpool, URL) {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID())/timeline")
        return (HookSpool(stateDirectory: state), state.deletingLastPathComponent())
    }

    @Test func stateDirectoryFollowsXDG() {
        #expect(HookSpool.stateDirectory(environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/h"]).path == "/x/state/timeline")
        #expect(HookSpool.stateDirectory(environment: ["HOME": "/h"]).path == "/h/.local/state/timeline")
        #expect(HookSpool.stateDirectory(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"]).path == "/h/.local/state/timeline")
    }

    @Test func filesArePrivateAndKeptInOrder() throws {
        let (spool, root) = try makeSpool()
        defer { try? FileManager.default.removeItem(at: root) }
        try spool.add("second", micros: 2)
        try spool.add("first", micros: 1)
        let files = spool.pending()
        #expect(files.map { String(decoding: FileManager.default.contents(atPath: $0.path)!, as: UTF8.self) } == ["first", "second"])
        let fileMode = try FileManager.default.attributesOfItem(atPath: files[0].path)[.posixPermissions] as? NSNumber
        let directoryMode = try FileManager.default.attributesOfItem(atPath: spool.directory.path)[.posixPermissions] as? NSNumber
        #expect(fileMode?.intValue == 0o600 && directoryMode?.intValue == 0o700)
    }

    @Test func deliverySendsInOrderAndStopsAtTheFirstFailure() throws {
        let (spool, root) = try makeSpool()
        defer { try? FileManager.default.removeItem(at: root) }
        for (index, text) in ["a", "b", "c"].enumerated() { try spool.add(text, micros: Int64(index)) }
        let sent = Recorder()
        let failing = HookPublisher(spool: spool) {
            { payload in
                if payload == "b" { throw FixtureError(name: "refused") }
                sent.append(payload)
            }
        }
        let first = failing.deliver(budget: 5)
        #expect(first.sent == 1 && first.waiting == 2 && first.failure != nil && !first.timedOut)
        let working = HookPublisher(spool: spool) { { sent.append($0) } }
        let second = working.deliver(budget: 5)
        #expect(second.sent == 2 && second.waiting == 0 && second.failure == nil)
        #expect(sent.values == ["a", "b", "c"])
    }

    @Test func eventsAddedDuringARunAreSentByIt() throws {
        let (spool, root) = try makeSpool()
        defer { try? FileManager.default.removeItem(at: root) }
        try spool.add("first", micros: 1)
        let sent = Recorder()
        let publisher = HookPublisher(spool: spool) {
            { payload in
                // Another hook spools its event while this one sends.
                if payload == "first" { try spool.add("late", micros: 2) }
                sent.append(payload)
            }
        }
        let outcome = publisher.deliver(budget: 5)
        #expect(sent.values == ["first", "late"] && outcome.waiting == 0)
    }

    /// `spool.take(file)` when it took the event (nothing else keeps it: letting go of it unlocks).
    func taken(_ spool: HookSpool, _ file: URL) -> SpooledEvent? {
        if case .taken(let event) = spool.take(file) { return event }
        return nil
    }

    @Test func anEventIsSentByOneSenderWhileOthersGoOnWithTheRest() throws {
        let (spool, root) = try makeSpool()
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try spool.add("first", settings: "a1", micros: 1)
        try spool.add("second", settings: "a1", micros: 2)
        try spool.add("other queue", settings: "b2", micros: 3)
        // Another sender sends "first" (stuck on an endpoint that never answers, say).
        var held: SpooledEvent? = try #require(taken(spool, first))
        guard case .busy = spool.take(first) else { Issue.record("taken twice"); return }
        let sent = Recorder()
        let same = HookPublisher(spool: spool, settings: "a1") { { sent.append("a: " + $0) } }
        let other = HookPublisher(spool: spool, settings: "b2") { { sent.append("b: " + $0) } }
        let started = Date()
        let sameRun = same.deliver(budget: 5)
        let otherRun = other.deliver(budget: 5)
        #expect(Date().timeIntervalSince(started) < 2, "nobody waits for the stuck send")
        #expect(sameRun.sent == 1 && sameRun.busy == 1 && sameRun.waiting == 1 && sameRun.failure == nil)
        #expect(otherRun.sent == 1 && otherRun.busy == 0 && otherRun.waiting == 0)
        #expect(sent.values == ["a: second", "b: other queue"])
        #expect(held?.payload == "first")
        held = nil  // its send failed: the event is free again, and goes with the next run
        let retried = same.deliver(budget: 5)
        #expect(retried.sent == 1 && retried.busy == 0 && retried.waiting == 0 && sent.values.last == "a: first")
    }

    @Test func anEventLetGoWithoutBeingSentGoesWithTheNextRunAndASentOneNeverTwice() throws {
        let (spool, root) = try makeSpool()
        defer { try? FileManager.default.removeItem(at: root) }
        let failed = try spool.add("failed", micros: 1)
        let done = try spool.add("done", micros: 2)
        do {
            guard case .taken(let a) = spool.take(failed), case .taken(let b) = spool.take(done) else {
                Issue.record("not taken")
                return
            }
            b.sent()  // SQS took it; its lock goes only now, with `b`
            #expect(!FileManager.default.fileExists(atPath: done.path))
            withExtendedLifetime((a, b)) {}
        }
        guard case .gone = spool.take(done) else { Issue.record("a sent event taken again"); return }
        let sent = Recorder()
        let outcome = HookPublisher(spool: spool) { { sent.append($0) } }.deliver(budget: 5)
        #expect(outcome.sent == 1 && outcome.waiting == 0 && sent.values == ["failed"])
    }

    @Test func aBackgroundSenderLooksAgainAtAnEventAnotherWasSending() throws {
        let (spool, root) = try makeSpool()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = try spool.add("held", micros: 1)
        let heldBox = Mutex<SpooledEvent?>(try #require(taken(spool, file)))
        let sent = Recorder()
        let publisher = HookPublisher(spool: spool) { { sent.append($0) } }
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<HookPublisher.Outcome?>(nil)
        Thread {
            outcome.withLock { $0 = publisher.deliverAlone(budget: 20) }
            done.signal()
        }.start()
        usleep(300_000)  // the sender found it busy (its look again comes every 0.5 s)
        #expect(sent.values.isEmpty)
        heldBox.withLock { $0 = nil }  // the other sender let it go (its send failed, or it ended)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(sent.values == ["held"] && outcome.withLock { $0?.sent } == 1 && spool.count == 0)
    }

    @Test func oneBackgroundSenderRunsAtATime() throws {
        let (spool, root) = try makeSpool()
        defer { try? FileManager.default.removeItem(at: root) }
        try spool.add("a", micros: 1)
        try spool.add("b", micros: 2)
        let sent = Recorder()
        let publisher = HookPublisher(spool: spool) { { sent.append($0) } }
        let whileAnotherRuns = spool.withSenderLock(identity: "another") { publisher.deliverAlone(budget: 5) }
        #expect(whileAnotherRuns == .some(nil) && sent.values.isEmpty && spool.count == 2)
        let alone = publisher.deliverAlone(budget: 5)
        #expect(alone?.sent == 2 && alone?.waiting == 0 && sent.values == ["a", "b"])
    }

    @Test func eventsGoOnlyWithTheSettingsTheyWereSpooledWith() throws {
        let (spool, root) = try makeSpool()
        defer { try? FileManager.default.removeItem(at: root) }
        try spool.add("unmarked", micros: 1)  // spooled before events were marked: any sender takes it
        try spool.add("for a", settings: "a1", micros: 2)
        try spool.add("for b", settings: "b2", micros: 3)
        try spool.add("odd mark", settings: "../x", micros: 4)  // not a mark: kept out of the file name
        #expect(spool.pending().allSatisfy { !$0.lastPathComponent.contains("..") })
        let sent = Recorder()
        let a = HookPublisher(spool: spool, settings: "a1") { { sent.append("a: " + $0) } }
        let outcome = a.deliver(budget: 5)
        #expect(sent.values == ["a: unmarked", "a: for a", "a: odd mark"] && outcome.waiting == 0)
        #expect(spool.count == 1 && spool.count(for: "b2") == 1 && spool.count(for: "a1") == 0)
        let any = HookPublisher(spool: spool) { { sent.append("any: " + $0) } }
        _ = any.deliver(budget: 5)
        #expect(sent.values.last == "any: for b" && spool.count == 0)
    }

    @Test func theRunningSenderNamesItselfOnlyWhileItRuns() throws {
        let (spool, root) = try makeSpool()
        defer { try? FileManager.default.removeItem(at: root) }
        // A spool that is not there (removed with what it held) gets no sender, and is not made again.
        #expect(spool.withSenderLock(identity: "queue-a 1") { true } == nil)
        #expect(!FileManager.default.fileExists(atPath: spool.directory.path))
        try spool.add("event")
        #expect(spool.runningSender() == nil)
        let named = spool.withSenderLock(identity: "queue-a 1") { spool.runningSender() }
        #expect(named == .some(HookSpool.RunningSender(identity: "queue-a 1", pid: getpid())))
        #expect(spool.runningSender() == nil)
    }

    @Test func aLingeringSenderSendsWhatComesWhileItWaits() throws {
        let (spool, root) = try makeSpool()
        defer { try? FileManager.default.removeItem(at: root) }
        try spool.add("first", micros: 1)
        let sent = Recorder()
        let publisher = HookPublisher(spool: spool) { { sent.append($0) } }
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<HookPublisher.Outcome?>(nil)
        Thread {
            outcome.withLock { $0 = publisher.deliverAlone(budget: 30, idle: 2) }
            done.signal()
        }.start()
        #expect(waitUntil { sent.values == ["first"] })
        try spool.add("late", micros: 2)  // after the spool emptied: the watch wakes the sender
        #expect(waitUntil { sent.values == ["first", "late"] })
        #expect(done.wait(timeout: .now() + 10) == .success)  // it ends once nothing came for `idle`
        #expect(outcome.withLock { $0?.sent } == 2 && spool.count == 0 && spool.runningSender() == nil)
    }

    @Test func aWatchWakesForAnEventAndSaysWhenItsDirectoryGoes() throws {
        let (spool, root) = try makeSpool()
        defer { try? FileManager.default.removeItem(at: root) }
        try spool.add("first", micros: 1)
        let watch = try #require(SpoolWatch(spool: spool))
        #expect(watch.wait(timeout: 0.05) == .timedOut)
        try spool.add("second", micros: 2)
        #expect(watch.wait(timeout: 10) == .added)
        try FileManager.default.removeItem(at: spool.directory)
        #expect(watch.wait(timeout: 10) == .gone)
    }

    /// Polls `condition` until it holds, at most 10 s.
    func waitUntil(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            if Date() >= deadline { return false }
            usleep(5_000)
        }
        return true
    }

    /// A publisher whose every send fails with `error`, after noting the payload in `attempts`.
    func failing(_ spool: HookSpool, with error: any Error & Sendable, attempts: Recorder) -> HookPublisher {
        HookPublisher(spool: spool) {
            { payload in
                attempts.append(payload)
                throw error
            }
        }
    }

    @Test func withoutARetryPauseABackgroundSenderStopsAtAFailure() throws {
        let (spool, root) = try makeSpool()
        defer { try? FileManager.default.removeItem(at: root) }
        try spool.add("refused")
        let attempts = Recorder()
        let publisher = failing(spool, with: FixtureError(name: "connection refused"), attempts: attempts)
        let outcome = publisher.deliverAlone(budget: 5)
        #expect(outcome?.failure != nil && outcome?.waiting == 1 && attempts.values == ["refused"])
    }

    @Test func aBackgroundSenderTriesAgainAfterAPauseAndSendsOnceTheQueueTakesIt() throws {
        let (spool, root) = try makeSpool()
        defer { try? FileManager.default.removeItem(at: root) }
        try spool.add("first", micros: 1)
        let attempts = Recorder()
        let failures = Recorder()
        let made = Recorder()
        let publisher = HookPublisher(spool: spool) {
            made.append("sender")  // made again after each failure (credentials, queue URL resolved anew)
            return { payload in
                attempts.append(payload)
                if attempts.values.count <= 3 { throw PassingFailure("connection refused") }
            }
        }
        let started = Date()
        let outcome = publisher.deliverAlone(budget: 20, retry: .init(first: 0.1, longest: 0.2)) { run in
            if let failure = run.failure { failures.append(failure) }
        }
        // Pauses of 0.1, 0.2 and 0.2 s between the four tries, then the spool is empty (no idle wait).
        #expect(Date().timeIntervalSince(started) >= 0.5)
        #expect(outcome?.sent == 1 && outcome?.failure == nil && outcome?.waiting == 0)
        #expect(attempts.values == ["first", "first", "first", "first"] && failures.values.count == 3)
        #expect(made.values.count == 4 && spool.count == 0)
    }

    @Test func aFailureThatWillNotPassEndsTheRunWithoutAPause() throws {
        let (spool, root) = try makeSpool()
        defer { try? FileManager.default.removeItem(at: root) }
        try spool.add("denied")
        let attempts = Recorder()
        // The settings, not the network: no use trying again.
        let publisher = failing(spool, with: FixtureError(name: "access denied"), attempts: attempts)
        let outcome = publisher.deliverAlone(budget: 20, retry: .init(first: 5, longest: 5))
        #expect(outcome?.failure != nil && outcome?.failureMayPass == false && attempts.values == ["denied"])
        #expect(spool.count == 1)
    }

    @Test func aBackgroundSenderThatKeepsFailingEndsAtItsBudgetWithTheEventsKept() throws {
        let (spool, root) = try makeSpool()
        defer { try? FileManager.default.removeItem(at: root) }
        try spool.add("refused")
        let attempts = Recorder()
        let publisher = failing(spool, with: PassingFailure("connection refused"), attempts: attempts)
        let started = Date()
        let outcome = publisher.deliverAlone(budget: 1, retry: .init(first: 0.05, longest: 0.2))
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(outcome?.failure != nil && outcome?.failureMayPass == true && outcome?.waiting == 1)
        #expect(attempts.values.count >= 3)
        #expect(spool.count == 1 && spool.runningSender() == nil)
    }

    @Test func aPausingSenderEndsWhenItsSpoolIsRemoved() throws {
        let (spool, root) = try makeSpool()
        defer { try? FileManager.default.removeItem(at: root) }
        try spool.add("refused")
        let publisher = HookPublisher(spool: spool) { { _ in throw PassingFailure("connection refused") } }
        let failures = Recorder()
        let done = DispatchSemaphore(value: 0)
        Thread {
            _ = publisher.deliverAlone(budget: 60, retry: .init(first: 30, longest: 30)) { run in
                if let failure = run.failure { failures.append(failure) }
            }
            done.signal()
        }.start()
        #expect(waitUntil { failures.values.count == 1 })  // now in its 30 s pause
        try FileManager.default.removeItem(at: spool.directory)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(failures.values.count == 1)
    }

    @Test func whatTheSpoolCannotTakeIsSentDirectlyInOrderUntilAFailure() throws {
        let (spool, root) = try makeSpool()
        defer { try? FileManager.default.removeItem(at: root) }
        let sent = Recorder()
        let publisher = HookPublisher(spool: spool) {
            { payload in
                if payload == "c" { throw PassingFailure("connection refused") }
                sent.append(payload)
            }
        }
        let outcome = publisher.sendDirect(["a", "b", "c", "d"], budget: 5)
        #expect(sent.values == ["a", "b"] && outcome.sent == 2 && outcome.waiting == 2 && outcome.failure != nil)
        #expect(spool.count == 0, "nothing goes through the spool")
        let slow = HookPublisher(spool: spool) { { _ in sleep(30) } }
        let started = Date()
        #expect(slow.sendDirect(["stuck"], budget: 0.3).timedOut && Date().timeIntervalSince(started) < 1.5)
    }

    @Test func aBlackHoleCostsOnlyTheBudgetAndKeepsTheEvent() throws {
        let (spool, root) = try makeSpool()
        defer { try? FileManager.default.removeItem(at: root) }
        try spool.add("stuck")
        let publisher = HookPublisher(spool: spool) { { _ in sleep(30) } }
        let started = Date()
        let outcome = publisher.deliver(budget: 0.5)
        #expect(Date().timeIntervalSince(started) < 1.5)
        #expect(outcome.timedOut && outcome.waiting == 1)
    }
}

final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ value: String) { lock.withLock { items.append(value) } }
    var values: [String] { lock.withLock { items } }
}

@Suite("Waiting sessions")
struct WaitingSessionsTests {
    @Test func theFirstToolEventAfterAWaitIsAStateChange() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("waiting-\(UUID())")
        defer { try? FileManager.default.removeItem(at: state) }
        let waiting = WaitingSessions(stateDirectory: state)
        func step(_ title: String, session: String = "s1", status: Status = .inProgress) -> HookReport {
            HookReport(session: session, cwd: nil, title: title, status: status, isStep: true)
        }
        #expect(waiting.adjust(step("Bash: ls"), agent: .claude).isStep, "no wait: a step stays a step")
        let ask = HookReport(session: "s1", cwd: nil, title: "Waiting for you: Bash rm -rf build", status: .needsInput)
        #expect(waiting.adjust(ask, agent: .claude) == ask)
        #expect(waiting.adjust(step("Claude is waiting", status: .info), agent: .claude).isStep, "an idle reminder ends nothing")
        #expect(waiting.adjust(step("Bash: ls", session: "other"), agent: .claude).isStep, "another session's wait")
        #expect(!waiting.adjust(step("Finished Bash: rm -rf build"), agent: .claude).isStep, "answered in the terminal")
        #expect(waiting.adjust(step("Bash: make"), agent: .claude).isStep, "once only")
    }
}
