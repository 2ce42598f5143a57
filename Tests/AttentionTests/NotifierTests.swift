import Attention
import Testing
import TimelineCore

@Suite("Notifier decisions")
struct NotifierTests {
    @Test func defaultsFireOnErrorsAndNeedsInputAndAllAddsWarningAndSuccess() {
        let errors = NotifyPolicy(level: .errors)
        #expect(Status.allCases.filter(errors.notifies) == [.error, .needsInput])
        let all = NotifyPolicy(level: .all)
        #expect(Status.allCases.filter(all.notifies) == [.success, .warning, .error, .needsInput])
        #expect(Status.allCases.filter(NotifyPolicy(level: .off).notifies).isEmpty)
    }

    @Test func aTransitionFiresOncePerTaskAndTransition() {
        var tracker = TransitionTracker()
        tracker.seed("A", .init(status: .inProgress, key: RowKey(timestampMicros: 0, seq: 1)))
        #expect(tracker.apply(event("1", task: "A", .error, second: 1), seq: 2)?.previous == .inProgress)
        #expect(tracker.apply(event("2", task: "A", .error, second: 2), seq: 3) == nil, "same status again")
        // A late, older event does not change the task (newest wins), so it is no transition.
        #expect(tracker.apply(event("3", task: "A", .success, second: -5), seq: 4) == nil)
        #expect(tracker.apply(event("4", task: "A", .inProgress, second: 3), seq: 5)?.status == .inProgress)
        #expect(tracker.apply(event("5", task: "A", .error, second: 4), seq: 6)?.previous == .inProgress)
        // A new task's first event is a transition from nothing.
        #expect(tracker.apply(event("6", task: "B", .error, second: 1), seq: 7)?.previous == nil)
    }

    @Test func aLoneTransitionWaitsForItsWindowThenNamesTheTask() {
        var n = Notifier(policy: NotifyPolicy(level: .errors), startedMicros: startedMicros)
        let now = startedMicros + 10 * second
        n.observe(transition(event("1", task: "A", .error, title: "Build failed", agent: "ci")), nowMicros: now, openTaskID: nil)
        #expect(n.due(nowMicros: now + second).isEmpty)
        let out = n.due(nowMicros: now + 2 * second)
        #expect(out.map(\.title) == ["timeline: ci error"])
        #expect(out.map(\.body) == ["Build failed"])
        #expect(n.due(nowMicros: now + 9 * second).isEmpty, "delivered once")
    }

    @Test func aBurstWithinTheWindowIsOneNotification() {
        var n = Notifier(policy: NotifyPolicy(level: .all), startedMicros: startedMicros)
        let now = startedMicros + 10 * second
        for (i, task) in ["A", "B", "C"].enumerated() {
            n.observe(transition(event("\(i)", task: task, .error)), nowMicros: now + Int64(i) * 500_000, openTaskID: nil)
        }
        n.observe(transition(event("w", task: "D", .warning)), nowMicros: now + 1_500_000, openTaskID: nil)
        n.observe(transition(event("i", task: "E", .info)), nowMicros: now + 1_600_000, openTaskID: nil)
        let out = n.due(nowMicros: now + 2 * second)
        #expect(out.count == 1)
        #expect(out.first?.kind == .burst)
        #expect(out.first?.body == "3 errors, 1 warning")
        #expect(out.first?.transitions.count == 4)
    }

    @Test func nothingFiresForTheTaskWhoseDetailIsOpen() {
        var n = Notifier(policy: NotifyPolicy(level: .errors), startedMicros: startedMicros)
        let now = startedMicros + 10 * second
        n.observe(transition(event("1", task: "A", .error)), nowMicros: now, openTaskID: "A")
        #expect(n.due(nowMicros: now + 5 * second).isEmpty)
        n.observe(transition(event("2", task: "B", .error)), nowMicros: now, openTaskID: "A")
        #expect(n.due(nowMicros: now + 5 * second).map(\.body) == ["title of 2"])
    }

    @Test func theBacklogIsOneSummaryByTheStatusTasksEndedIn() {
        var n = Notifier(policy: NotifyPolicy(level: .errors), startedMicros: startedMicros)
        let now = startedMicros + 3 * second
        n.observe(transition(event("1", task: "A", .error, second: -60)), nowMicros: now, openTaskID: nil)
        n.observe(transition(event("2", task: "B", .error, second: -50)), nowMicros: now, openTaskID: nil)
        n.observe(transition(event("3", task: "C", .error, second: -40)), nowMicros: now, openTaskID: nil)
        // C recovered before we started looking: it does not count.
        n.observe(transition(event("4", task: "C", .success, second: -30), previous: .error), nowMicros: now, openTaskID: nil)
        n.observe(transition(event("5", task: "D", .error, second: -20)), nowMicros: now + second, openTaskID: nil)
        #expect(n.due(nowMicros: now + 2 * second).isEmpty, "still arriving")
        let out = n.due(nowMicros: now + 3 * second)
        #expect(out.map(\.body) == ["while you were away: 3 errors"])
        #expect(out.map(\.kind) == [.backlog])
    }

    @Test func aLiveTransitionSupersedesTheBacklogForItsTask() {
        var n = Notifier(policy: NotifyPolicy(level: .errors), startedMicros: startedMicros)
        let now = startedMicros + 3 * second
        n.observe(transition(event("1", task: "A", .error, second: -60)), nowMicros: now, openTaskID: nil)
        n.observe(transition(event("2", task: "B", .error, second: -50)), nowMicros: now, openTaskID: nil)
        n.observe(transition(event("3", task: "A", .success, second: 1), previous: .error), nowMicros: now, openTaskID: nil)
        #expect(n.due(nowMicros: now + 2 * second).map(\.body) == ["while you were away: 1 error"])
    }

    @Test func offNeverFires() {
        var n = Notifier(policy: NotifyPolicy(level: .off), startedMicros: startedMicros)
        n.observe(transition(event("1", task: "A", .error)), nowMicros: startedMicros, openTaskID: nil)
        n.observe(transition(event("2", task: "B", .error, second: -9)), nowMicros: startedMicros, openTaskID: nil)
        #expect(n.due(nowMicros: startedMicros + 60 * second, force: true).isEmpty)
    }

    @Test func phrasesCountStatuses() {
        #expect(NotificationText.counts([.error]) == "1 error")
        #expect(NotificationText.counts([.success, .error, .error, .warning, .success]) == "2 errors, 1 warning, 2 finished")
    }
}
