import Foundation
import Testing
import TimelineCore
import TimelineStore
import TestSupport

/// Runs the built `timeline` binary as a subprocess.
///
/// The binary is looked up next to the test bundle (`swift test` builds every product of the package into
/// the same directory), then in `.build/debug` of this checkout. The tests do not build it themselves: a
/// missing binary is reported as a failure telling to run `swift build --product timeline`.
struct TimelineBinary {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func locate() -> String? {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("timeline").path
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/timeline").path
        return [beside, checkout].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    let path: String
    let directory: TemporaryDirectory

    init() throws {
        path = try #require(Self.locate(), "timeline binary not found: run `swift build --product timeline` first")
        directory = try TemporaryDirectory()
    }

    /// Runs `timeline arguments…` with `stdin` bytes, an environment without NO_COLOR/TIMELINE_DB leaking in.
    func run(_ arguments: [String], stdin: [UInt8]? = nil, environment extra: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "TIMELINE_DB")
        environment["HOME"] = directory.path
        environment.removeValue(forKey: "XDG_DATA_HOME")
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let out = directory.file("stdout-\(UUID().uuidString)"), err = directory.file("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        if let stdin {
            let input = directory.file("stdin-\(UUID().uuidString)")
            _ = FileManager.default.createFile(atPath: input, contents: Data(stdin))
            process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: input))
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: try String(contentsOfFile: out, encoding: .utf8),
                      stderr: try String(contentsOfFile: err, encoding: .utf8))
    }
}

/// A JSON-lines file mixing valid events (an upsert, a late older event, a duplicate) with bad lines.
enum MixedFile {
    static let validEvents: [(id: String, line: String)] = [
        ("e1", #"{"id":"e1","agent_id":"builder","task_id":"T1","title":"Build started","status":"in_progress","timestamp":"2026-11-22T03:00:00Z","progress":10,"category":"ci","extra":{"kept":1}}"#),
        ("e2", #"{"id":"e2","agent_id":"builder","task_id":"T1","title":"Build done","status":"success","timestamp":"2026-11-22T03:05:00Z"}"#),
        ("e3", #"{"id":"e3","agent_id":"reviewer","task_id":"T2","title":"Review \u001b[31mhostile\u202e","body":"line1\nline2","status":"warning","timestamp":"2026-11-22T05:03:00+02:00"}"#),
        ("e0", #"{"id":"e0","agent_id":"builder","task_id":"T1","title":"Queued","status":"info","timestamp":"2026-11-22T02:00:00Z"}"#),
        ("e4", #"{"id":"e4","agent_id":"deployer","task_id":"T3","title":"Deploy to staging","status":"error","timestamp":"2026-11-22T03:02:00.5Z","category":"deploy"}"#),
    ]
    /// Bad lines (bytes) and a fragment of the reason the parser gives.
    static let badLines: [(bytes: [UInt8], reason: String)] = [
        (Array("not json at all".utf8), "JSON"),
        (Array(#"{"id":"x1","agent_id":"a","task_id":"t","title":"t","status":"done","timestamp":"2026-11-22T03:00:00Z"}"#.utf8), "status"),
        (Array(#"{"id":"x2","agent_id":"a","title":"t","status":"info","timestamp":"2026-11-22T03:00:00Z"}"#.utf8), "task_id"),
        ([0xFF, 0xFE] + Array(#"{"id":"x3"}"#.utf8), "UTF-8"),
        (Array(#"{"id":"x4","agent_id":"a","task_id":"t","title":"t","status":"info","timestamp":"yesterday"}"#.utf8), "timestamp"),
    ]

    /// The file: valid and bad lines interleaved, a blank line, and e2 repeated (a duplicate).
    static var bytes: [UInt8] {
        var lines: [[UInt8]] = []
        for index in 0..<max(validEvents.count, badLines.count) {
            if index < validEvents.count { lines.append(Array(validEvents[index].line.utf8)) }
            if index < badLines.count { lines.append(badLines[index].bytes) }
            if index == 1 { lines.append([]) }
        }
        lines.append(Array(validEvents[1].line.utf8))
        return Array(lines.joined(separator: [0x0A])) + [0x0A]
    }
}

@Suite("timeline import / list / history / rejected (the binary)")
struct CLITests {
    @Test func importKeepsEveryValidEventAndEveryBadLineWithItsReason() throws {
        let binary = try TimelineBinary()
        let db = binary.directory.file("cli.db")
        let file = binary.directory.file("mixed.jsonl")
        #expect(FileManager.default.createFile(atPath: file, contents: Data(MixedFile.bytes)))

        let result = try binary.run(["import", file, "--db", db])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("3 inserted, 1 replaced, 1 kept older, 1 duplicates, 5 rejected, 1 blank skipped"),
                "\(result.stdout)")
        // Each bad line is named on stderr with its line number (lines 2, 4, 7, 9, 11 of the file).
        for number in [2, 4, 7, 9, 11] {
            #expect(result.stderr.contains("line \(number): rejected: "), "\(result.stderr)")
        }
        #expect(!result.stderr.contains("\u{1B}"))

        let store = try TimelineStore(path: db, readOnly: true)
        let stats = try store.stats()
        #expect(stats.events == MixedFile.validEvents.count)
        #expect(stats.tasks == 3)
        for (id, line) in MixedFile.validEvents {
            let task = try EventParser.parse(line).get().taskID
            let stored = try #require(try store.history(taskID: task, limit: 10).first { $0.id == id })
            #expect(stored.rawJSON == line)
        }
        #expect(try store.row(taskID: "T1")?.event.id == "e2")
        #expect(try store.row(taskID: "T1")?.eventCount == 3)

        let rejected = try store.rejected(limit: 100).reversed()
        #expect(rejected.count == MixedFile.badLines.count)
        for (message, expected) in zip(rejected, MixedFile.badLines) {
            #expect(try store.rejectedRawBytes(seq: message.seq) == expected.bytes)
            #expect(message.reason.contains(expected.reason), "\(message.reason)")
            #expect(message.messageID == nil)
        }

        // The same file again changes nothing.
        let again = try binary.run(["import", "--db", db, "--quiet", file])
        #expect(again.status == 0)
        #expect(again.stdout.contains("0 inserted, 0 replaced, 0 kept older, 6 duplicates, 5 rejected"), "\(again.stdout)")
        #expect(again.stderr.isEmpty)
        #expect(try store.stats().events == MixedFile.validEvents.count)
    }

    @Test func importFromStandardInputIntoTheDefaultPathCreatesPrivateFiles() throws {
        let binary = try TimelineBinary()
        let xdg = binary.directory.file("xdg")
        let line = MixedFile.validEvents[0].line + "\n"
        let result = try binary.run(["import", "-"], stdin: Array(line.utf8), environment: ["XDG_DATA_HOME": xdg])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 inserted"))
        let path = xdg + "/timeline/timeline.db"
        func mode(_ path: String) throws -> Int? {
            (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
        }
        #expect(try mode(path) == 0o600)
        #expect(try mode(xdg + "/timeline") == 0o700)
        #expect(try mode(xdg) == 0o700)

        // TIMELINE_DB wins over XDG_DATA_HOME; --db wins over both.
        let other = binary.directory.file("other.db")
        _ = try binary.run(["import", "-"], stdin: Array(line.utf8), environment: ["XDG_DATA_HOME": xdg, "TIMELINE_DB": other])
        #expect(FileManager.default.fileExists(atPath: other))
        let listed = try binary.run(["list", "--json"], environment: ["TIMELINE_DB": other])
        #expect(listed.stdout.contains("\"id\":\"e1\""))
    }

    @Test func importFailsOnUnreadableInput() throws {
        let binary = try TimelineBinary()
        let db = binary.directory.file("x.db")
        let missing = try binary.run(["import", binary.directory.file("missing.jsonl"), "--db", db])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("No such file"))
        let directory = try binary.run(["import", binary.directory.path, "--db", db])
        #expect(directory.status != 0)
        #expect(directory.stderr.contains("read error"), "\(directory.stderr)")
    }

    @Test func listCountsMatchesOnlyUpToItsCap() throws {
        let binary = try TimelineBinary()
        let db = binary.directory.file("many.db")
        let lines = (0..<1_002).map { n in
            #"{"id":"e\#(n)","agent_id":"a","task_id":"T\#(n)","title":"deploy \#(n)","status":"info","timestamp":"2026-01-01T00:00:00Z"}"#
        }
        _ = try binary.run(["import", "-", "--db", db, "--quiet"], stdin: Array((lines.joined(separator: "\n") + "\n").utf8))
        let all = try binary.run(["list", "--db", db, "--limit", "5"])
        #expect(all.stderr.contains("5 of 1002 tasks shown"), "\(all.stderr)")
        let searched = try binary.run(["list", "--db", db, "--limit", "5", "deploy"])
        #expect(searched.stderr.contains("5 of more than 1000 tasks shown"), "\(searched.stderr)")
        let few = try binary.run(["list", "--db", db, "--limit", "5", "deploy 99"])
        #expect(few.stderr.contains("5 of 19 tasks shown"), "\(few.stderr)")
    }

    @Test func listHistoryAndRejectedShowSanitizedText() throws {
        let binary = try TimelineBinary()
        let db = binary.directory.file("cli.db")
        _ = try binary.run(["import", "-", "--db", db, "--quiet"], stdin: MixedFile.bytes)

        let table = try binary.run(["list", "--db", db])
        #expect(table.status == 0)
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.count == 4)  // header + 3 tasks, newest first
        #expect(lines[1].contains("Build done") && lines[1].contains("success") && lines[1].contains("(3 events)"))
        #expect(lines[2].contains("Review") && lines[2].contains("hostile"))
        #expect(lines[3].contains("Deploy to staging") && lines[3].contains("#deploy"))
        #expect(!table.stdout.contains("\u{1B}") && !table.stdout.contains("\u{202E}"))  // no colours to a pipe, no raw controls

        let json = try binary.run(["list", "--db", db, "--json"])
        let objects = try json.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["task_id"] as? String } == ["T1", "T2", "T3"])
        #expect(objects.map { $0["event_count"] as? Int } == [3, 1, 1])
        #expect(objects[1]["title"] as? String == "Review \u{1B}[31mhostile\u{202E}")  // JSON keeps the exact text…
        #expect(!json.stdout.contains("\u{1B}") && !json.stdout.contains("\u{202E}"))      // …escaped

        let filtered = try binary.run(["list", "--db", db, "--json", "--status", "error,warning", "--search", "STAG"])
        #expect(filtered.stdout.split(separator: "\n").count == 1)
        #expect(filtered.stdout.contains("\"task_id\":\"T3\""))
        let byAgent = try binary.run(["list", "--db", db, "--json", "--agent", "REVIEW"])
        #expect(byAgent.stdout.split(separator: "\n").count == 1)
        let limited = try binary.run(["list", "--db", db, "--limit", "1"])
        #expect(limited.stdout.split(separator: "\n").count == 2)
        #expect(limited.stderr.contains("1 of 3 tasks"))
        let bad = try binary.run(["list", "--db", db, "--status", "done"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("Unknown status"))

        let history = try binary.run(["history", "T1", "--db", db])
        #expect(history.status == 0)
        let titles = history.stdout.split(separator: "\n").dropFirst().map { String($0) }
        #expect(titles.count == 3)
        #expect(titles[0].contains("Build done") && titles[1].contains("Build started") && titles[2].contains("Queued"))
        let historyJSON = try binary.run(["history", "T1", "--db", db, "--json"])
        #expect(historyJSON.stdout.split(separator: "\n").count == 3)
        #expect(try binary.run(["history", "nope", "--db", db]).status != 0)

        let rejected = try binary.run(["rejected", "--db", db])
        #expect(rejected.status == 0)
        #expect(rejected.stdout.contains(#"\xFF\xFE{"id":"x3"}"#))
        #expect(rejected.stdout.contains("reason: message is not valid JSON"))
        #expect(rejected.stdout.components(separatedBy: "  reason: ").count - 1 == MixedFile.badLines.count)
        let rejectedJSON = try binary.run(["rejected", "--db", db, "--json", "--limit", "2"])
        #expect(rejectedJSON.stdout.split(separator: "\n").count == 2)
        #expect(rejectedJSON.stdout.contains("raw_body_base64"))  // the newest is the invalid UTF-8 line
    }

    @Test func readingCommandsOnAMissingDatabaseSaySo() throws {
        let binary = try TimelineBinary()
        let result = try binary.run(["list", "--db", binary.directory.file("none.db")])
        #expect(result.status == 0)
        #expect(result.stderr.contains("No database"))
        #expect(!FileManager.default.fileExists(atPath: binary.directory.file("none.db")))
    }

    /// One rule for `--concurrency` in every polling command (`tui` used to accept any value), checked
    /// before anything is opened: exit 64 with the same message; drain keeps its own default of 4.
    @Test(arguments: ["tui", "poll", "drain"])
    func concurrencyOutOfRangeIsRefusedByEveryPollingCommand(_ command: String) throws {
        let binary = try TimelineBinary()
        let db = binary.directory.file("never.db")
        for value in ["0", "33"] {
            let result = try binary.run([command, "--concurrency", value, "--db", db, "--queue-url", "http://127.0.0.1:9/q"])
            #expect(result.status == 64, "\(command) --concurrency \(value): \(result.stderr)")
            #expect(result.stderr.contains("--concurrency must be 1 to 32"), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: db))
        let help = try binary.run([command, "--help"])
        #expect(help.stdout.contains("(default: \(command == "drain" ? 4 : 2))"), "\(help.stdout)")
    }
}
