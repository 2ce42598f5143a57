import Attention
import Foundation
import StrictJSON
import Testing
import TestSupport
import TimelineCore

@Suite("Notification channels")
struct ChannelTests {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func osc9IsOneSequenceThenOneBell() {
        let bytes = InBandNotification.bytes(title: "timeline: ci error", body: "Build failed", sequence: .osc9, tmux: false)
        #expect(text(bytes) == "\u{1B}]9;timeline: ci error: Build failed\u{1B}\\\u{07}")
    }

    @Test func osc777CarriesTitleAndBodyAndASemicolonCannotMoveText() {
        let bytes = InBandNotification.bytes(title: "a;b", body: "c;d", sequence: .osc777, tmux: false)
        #expect(text(bytes) == "\u{1B}]777;notify;a,b;c;d\u{1B}\\\u{07}")
    }

    @Test func osc99SendsTitleThenBody() {
        let bytes = InBandNotification.bytes(title: "T", body: "B", sequence: .osc99, tmux: false)
        #expect(text(bytes) == "\u{1B}]99;i=timeline:d=0:p=title;T\u{1B}\\\u{1B}]99;i=timeline:d=1:p=body;B\u{1B}\\\u{07}")
    }

    @Test func tmuxWrapsThePassthroughWithEscapesDoubledAndTheBellOutside() {
        let bytes = InBandNotification.bytes(title: "T", body: "B", sequence: .osc9, tmux: true)
        #expect(text(bytes) == "\u{1B}Ptmux;\u{1B}\u{1B}]9;T: B\u{1B}\u{1B}\\\u{1B}\\\u{07}")
    }

    @Test func bellAloneAndNone() {
        #expect(InBandNotification.bytes(title: "T", body: "B", sequence: .bell, tmux: true) == [0x07])
        #expect(InBandNotification.bytes(title: "T", body: "B", sequence: .none, tmux: false).isEmpty)
    }

    @Test(arguments: InBandNotification.Sequence.allCases)
    func hostileTextCannotEndOrExtendTheSequence(_ sequence: InBandNotification.Sequence) {
        let hostile = "x\u{1B}\\\u{07}\u{1B}]2;owned\u{07}\u{9C}\u{9D}\u{1B}[31m\r\n\u{202E}y"
        let bytes = InBandNotification.bytes(title: hostile, body: hostile, sequence: sequence, tmux: true)
        #expect(bytes.filter { $0 == 0x07 }.count == (sequence == .none ? 0 : 1))
        // Our own ESCs only: each one starts a passthrough, a doubled ESC, or an ST; never text-supplied.
        let s = text(bytes)
        #expect(!s.contains("owned\u{07}"))
        #expect(!s.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0 == "\u{202E}" || $0 == "\r" || $0 == "\n" })
        if sequence == .osc9 {
            #expect(s == "\u{1B}Ptmux;\u{1B}\u{1B}]9;x⏎y: x⏎y\u{1B}\u{1B}\\\u{1B}\\\u{07}")
        }
    }

    @Test func longTextIsCut() {
        let bytes = InBandNotification.bytes(title: String(repeating: "t", count: 500), body: String(repeating: "b", count: 900),
                                             sequence: .osc777, tmux: false)
        #expect(text(bytes) == "\u{1B}]777;notify;" + String(repeating: "t", count: 79) + "…;"
            + String(repeating: "b", count: 239) + "…\u{1B}\\\u{07}")
    }

    @Test func detectsTheTerminal() {
        #expect(InBandNotification.Sequence.detect(["TERM": "xterm-kitty"]) == .osc99)
        #expect(InBandNotification.Sequence.detect(["VTE_VERSION": "7600", "TERM": "xterm-256color"]) == .osc777)
        #expect(InBandNotification.Sequence.detect(["TERM": "rxvt-unicode-256color"]) == .osc777)
        #expect(InBandNotification.Sequence.detect(["TERM": "xterm-256color"]) == .osc9)
    }

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
