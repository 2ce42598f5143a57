import Attention
import Foundation
import TestSupport
import Testing
import TimelineCore

/// A notify command starts with default signal dispositions, whatever timeline ignores (`poll` and `tui`
/// ignore SIGTERM and SIGINT to handle them on a queue): terminating it needs no SIGKILL.
@Suite(.serialized) struct CommandChannelSignalTests {
    @Test func theCommandDoesNotInheritAnIgnoredSIGTERM() throws {
        let dir = try TemporaryDirectory()
        let record = dir.file("signals")
        let previous = signal(SIGTERM, SIG_IGN)
        defer { signal(SIGTERM, previous) }
        let failures = Locked<[String]>([])
        let channel = CommandChannel(argv: ["sh", "-c", "grep -E '^Sig(Ign|Blk):' /proc/self/status > '\(record)'"],
                                     onFailure: { message in failures.withValue { $0.append(message) } })
        channel.deliver(Notification(kind: .burst, title: "t", body: "b", transitions: []))
        #expect(channel.waitUntilIdle(timeout: 20))
        #expect(failures.withValue { $0 }.isEmpty)
        var masks: [String: UInt64] = [:]
        for line in try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: ":")
            masks[String(parts[0])] = UInt64(parts[1].trimmingCharacters(in: .whitespaces), radix: 16)
        }
        let term: UInt64 = 1 << (UInt64(SIGTERM) - 1)
        #expect(masks["SigIgn"].map { $0 & term == 0 } == true, "SIGTERM ignored in the command: \(masks)")
        #expect(masks["SigBlk"].map { $0 & term == 0 } == true, "SIGTERM blocked in the command: \(masks)")
    }

    @Test func aCommandPastItsTimeIsTerminatedWithItsGroup() throws {
        let dir = try TemporaryDirectory()
        let pidFile = dir.file("grandchild")
        let failures = Locked<[String]>([])
        // The shell starts a grandchild and waits: both must go when the time is up.
        let channel = CommandChannel(argv: ["sh", "-c", "sleep 60 & echo $! > '\(pidFile)'; wait"], timeout: 0.5,
                                     onFailure: { message in failures.withValue { $0.append(message) } })
        channel.deliver(Notification(kind: .burst, title: "t", body: "b", transitions: []))
        #expect(channel.waitUntilIdle(timeout: 20))
        #expect(failures.withValue { $0 } == ["notify command failed: sh still running after 0.5 s: terminated"])
        let grandchild = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        // Gone, or a zombie its init has not reaped yet: either way no longer running.
        let state = (try? String(contentsOfFile: "/proc/\(grandchild)/stat", encoding: .utf8))?.split(separator: " ").dropFirst(2).first
        #expect(state == nil || state == "Z", "the grandchild still runs: \(state.map(String.init) ?? "")")
    }
}
