import Attention
import Foundation
import StrictJSON
import Testing
import TestSupport
import TimelineCore

@Suite("Notification channels")
struct ChannelTests {
    @Test func theCommandGetsTheNotificationJSONOnStdinAndNoEventTextInArgv() throws {
        let dir = try TemporaryDirectory()
        let record = dir.file("out dir.json")
        let script = try dir.write("record.sh", "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$0.args\"\ncat > \"$1\"\n", executable: true)
        let argv = try CommandLineWords.split("'\(script)' '\(record)'")
        let failures = FailureLog()
        let channel = CommandChannel(argv: argv, onFailure: failures.add)
        let e = event("e1", task: "A", .error, title: "rm -rf / $(evil)")
        channel.deliver(Notification(kind: .transition, title: "timeline: agent-1 error", body: e.title,
                                     transitions: [transition(e)]))
        channel.waitUntilIdle()
        #expect(failures.all.isEmpty)
        let json = try #require(JSONReader.object(from: Array(Data(contentsOf: URL(fileURLWithPath: record)))),
                                "the command's stdin is one strict JSON object")
        #expect(json["kind"] as? String == "transition")
        #expect(json["body"] as? String == "rm -rf / $(evil)")
        let events = json["events"] as? [Any]
        let first = events?.first as? [String: Any]
        #expect(first?["id"] as? String == "e1")
        #expect(first?["status"] as? String == "error")
        let args = try String(contentsOfFile: script + ".args", encoding: .utf8)
        #expect(args == record + "\n")
    }

    @Test func aFailingCommandIsReported() throws {
        let failures = FailureLog()
        let channel = CommandChannel(argv: ["false"], onFailure: failures.add)
        channel.deliver(Notification(kind: .burst, title: "t", body: "b", transitions: []))
        channel.waitUntilIdle()
        #expect(failures.all == ["notify command exited with status 1"])
        let missing = CommandChannel(argv: ["no-such-command-here"], onFailure: failures.add)
        missing.deliver(Notification(kind: .burst, title: "t", body: "b", transitions: []))
        missing.waitUntilIdle()
        #expect(failures.all.last?.contains("not found") == true)
    }

    @Test func notifySendRunsOnlyInADesktopSessionWithSanitizedTextAfterDoubleDash() throws {
        let dir = try TemporaryDirectory()
        let log = dir.file("args")
        _ = try dir.write("notify-send", "#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(log)'\n", executable: true)
        #expect(DesktopChannel(environment: ["PATH": dir.path]) == nil, "no DISPLAY or WAYLAND_DISPLAY")
        #expect(DesktopChannel(environment: ["PATH": "/nonexistent", "DISPLAY": ":0"]) == nil, "no notify-send")
        let channel = try #require(DesktopChannel(environment: ["PATH": dir.path, "WAYLAND_DISPLAY": "wayland-0"]))
        channel.deliver(Notification(kind: .transition, title: "--help", body: "bad\u{1B}]0;x\u{07}\nnews",
                                     transitions: []))
        channel.waitUntilIdle()
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "--app-name=timeline\n--\n--help\nbad⏎news\n")
    }

    @Test func aHangingCommandThatNeverReadsStdinIsTerminated() throws {
        let failures = FailureLog()
        let channel = CommandChannel(argv: ["sleep", "30"], timeout: 0.5, onFailure: failures.add)
        let big = String(repeating: "x", count: 300_000)  // more than a pipe holds: the write must not block us
        channel.deliver(Notification(kind: .burst, title: "t", body: big, transitions: []))
        #expect(channel.waitUntilIdle(timeout: 20))
        #expect(failures.all == ["notify command failed: sleep still running after 0.5 s: terminated"])
    }
}

final class FailureLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ s: String) { lock.lock(); items.append(s); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
}
