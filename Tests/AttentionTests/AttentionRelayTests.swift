import Attention
import Foundation
import TestSupport
import Testing
import TimelineCore
import TimelineStore

/// The one way `tui` and `poll` hand notifications on: each channel gets every notification, the
/// terminal its sequence and the fleet title, the caller the counts and a failing command's message.
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
        let relay = try Self.relay(path, terminal: .init(sequence: .osc9, tmux: false, setsTitle: true), command: nil)
        #expect(relay.startBytes == TerminalTitle.push && relay.exitBytes == TerminalTitle.pop)
        try store.put(event("e1", task: "A", .error, second: 1, title: "deploy failed"))
        var bytes: [UInt8] = []
        var fleet: FleetCounts?
        var now = startedMicros + 5 * second
        // The monitor reads in the background: step until its findings come back (the burst window passes).
        let found = Eventually.until(timeout: 20) {
            now += AttentionRelay.fleetEveryMicros
            let findings = relay.step(nowMicros: now, openTaskID: nil)
            bytes += findings.terminalBytes
            fleet = findings.fleet ?? fleet
            return String(decoding: bytes, as: UTF8.self).contains("\u{1B}]9;") && fleet != nil
        }
        #expect(found)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("deploy failed"))
        #expect(bytes.containsSubsequence(TerminalTitle.set(FleetLine.title(try #require(fleet)))))
        #expect(fleet?.errors == 1)
    }

    @Test func pollHasNoTerminalButRunsTheCommandAndReportsItsFailure() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("t.db")
        let store = try TimelineStore(path: path)
        let record = dir.file("stdin.json")
        let relay = try Self.relay(path, terminal: nil, command: ["sh", "-c", "cat > '\(record)'; exit 3"])
        #expect(relay.startBytes.isEmpty && relay.exitBytes.isEmpty)
        try store.put(event("e1", task: "A", .error, second: 1, title: "deploy failed"))
        let first = relay.stepNow(nowMicros: startedMicros + 5 * second, force: true)
        #expect(first.terminalBytes.isEmpty && first.fleet == nil)
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

extension Array where Element == UInt8 {
    func containsSubsequence(_ part: [UInt8]) -> Bool {
        guard !part.isEmpty, part.count <= count else { return part.isEmpty }
        return (0...(count - part.count)).contains { Array(self[$0..<($0 + part.count)]) == part }
    }
}
