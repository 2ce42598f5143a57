import Attention
import Foundation
import Synchronization
import Testing
import TestSupport
import TimelineCore
import TimelineStore

/// The monitor tells its caller when a background step found something, so the viewer's header changes
/// when the counts are read, not at the loop's next unrelated wake.
@Suite("Attention monitor wake")
struct MonitorWakeTests {
    @Test func aStepThatFindsNewCountsWakesTheCallerAndTheSameCountsDoNot() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("t.db")
        let store = try TimelineStore(path: path)
        let monitor = try AttentionMonitor(databasePath: path, policy: NotifyPolicy(level: .off),
                                           startedMicros: startedMicros)
        let wakes = Atomic(0)
        let woken = DispatchSemaphore(value: 0)
        monitor.setWake {
            wakes.add(1, ordering: .relaxed)
            woken.signal()
        }
        try store.put(event("1", task: "A", .error, second: 1))
        monitor.poll(nowMicros: startedMicros + second, openTaskID: nil, withFleet: true)
        #expect(woken.wait(timeout: .now() + 10) == .success, "the counts are ready: the caller is woken")
        #expect(monitor.take().fleet?.unreadErrors == 1)
        monitor.stepNow(nowMicros: startedMicros + 2 * second, openTaskID: nil, withFleet: true)
        #expect(wakes.load(ordering: .relaxed) == 1, "the same counts again are nothing new")
        try store.put(event("2", task: "B", .needsInput, second: 2))
        monitor.stepNow(nowMicros: startedMicros + 3 * second, openTaskID: nil, withFleet: true)
        #expect(wakes.load(ordering: .relaxed) == 2)
        #expect(monitor.take().fleet?.waiting == 1)
    }

    @Test func aNotificationWakesTheCaller() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("t.db")
        let store = try TimelineStore(path: path)
        let monitor = try AttentionMonitor(databasePath: path, policy: NotifyPolicy(level: .errors),
                                           startedMicros: startedMicros, burstWindowMicros: 0)
        let wakes = Atomic(0)
        monitor.setWake { wakes.add(1, ordering: .relaxed) }
        try store.put(event("1", task: "A", .error, second: 1))
        monitor.stepNow(nowMicros: startedMicros + 5 * second, openTaskID: nil, withFleet: false, force: true)
        #expect(wakes.load(ordering: .relaxed) == 1)
        #expect(monitor.take().notifications.count == 1)
    }
}
