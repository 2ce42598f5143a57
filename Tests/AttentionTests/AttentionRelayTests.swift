import Attention
import Foundation
import TestSupport
import Testing
import TimelineCore
import TimelineStore

/// The one way `tui` and `poll` hand notifications on: each channel gets every notification, the
/// terminal a notice of it and of the fleet title, the caller the counts and a failing command's message.
@Suite struct AttentionRelayTests {
    static func relay(_ path: String, terminal: AttentionRelay.TerminalOutput?, command: [String]?) throws -> AttentionRelay {
        AttentionRelay(
            monitor: try AttentionMonitor(databasePath: path, policy: NotifyPolicy(level: .errors), startedMicros: startedMicros),
            terminal: terminal, notifyCommand: command, desktop: nil)
    }

    @Test func aTerminalGetsTheSequenceTheTitleAndTheCounts() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("t.db")
        let store = try TimelineStore(path: path)
        let relay = try Self.relay(path, terminal: .init(setsTitle: true), command: nil)
        #expect(relay.startNotices == [.saveWindowTitle] && relay.exitNotices == [.restoreWindowTitle])
        try store.put(event("e1", task: "A", .error, second: 1, title: "deploy failed"))
        var notices: [TerminalNotice] = []
        var fleet: FleetCounts?
        var now = startedMicros + 5 * second
        // The monitor reads in the background: step until its findings come back (the burst window passes).
        let found = Eventually.until(timeout: 20) {
            now += AttentionRelay.fleetEveryMicros
            let findings = relay.step(nowMicros: now, openTaskID: nil)
            notices += findings.notices
            fleet = findings.fleet ?? fleet
            return notices.contains { if case .notification = $0 { true } else { false } } && fleet != nil
        }
        #expect(found)
        #expect(notices.contains { if case .notification(_, let body) = $0 { body == "deploy failed" } else { false } })
        #expect(notices.contains(.windowTitle(FleetLine.title(try #require(fleet)))))
        #expect(fleet?.errors == 1)
    }

    @Test func pollHasNoTerminalButRunsTheCommandAndReportsItsFailure() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("t.db")
        let store = try TimelineStore(path: path)
        let record = dir.file("stdin.json")
        let relay = try Self.relay(path, terminal: nil, command: ["sh", "-c", "cat > '\(record)'; exit 3"])
        #expect(relay.startNotices.isEmpty && relay.exitNotices.isEmpty)
        try store.put(event("e1", task: "A", .error, second: 1, title: "deploy failed"))
        let first = relay.stepNow(nowMicros: startedMicros + 5 * second, force: true)
        #expect(first.notices.isEmpty && first.fleet == nil)
        relay.waitUntilIdle(timeout: 20)
        #expect(try String(contentsOfFile: record, encoding: .utf8).contains("deploy failed"))
        let after = relay.stepNow(nowMicros: startedMicros + 6 * second)
        #expect(after.failure == "notify command exited with status 3")
    }
}

/// Waits for a condition (polling every 20 ms), at most `timeout` seconds; whether it held.
enum Eventually {
    static func until(timeout: TimeInterval, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return try condition()
    }
}
