import Foundation
import Testing
import TestSupport

/// Every command reports the same bad input the same way: one `error: …` line (the prefix) on stderr
/// and the same exit code (2: what it was given cannot be used).
@Suite struct FailurePathTests {
    /// Commands that read the config file and the database, with the arguments each needs to get there.
    static let storeCommands: [[String]] = [
        ["list"], ["history", "T1"], ["rejected"], ["status"], ["export", "--format", "jsonl"], ["prune", "--older-than", "30d"],
        ["mark", "T1"], ["reply", "T1", "--text", "yes"], ["import", "-"], ["poll"], ["drain"],
    ]
    /// Commands that read the queue settings, with what each needs before it looks at them.
    static let queueCommands: [[String]] = [
        ["poll"], ["drain"], ["publish", "--title", "t", "--status", "info", "--agent-id", "a"],
        ["ask", "--title", "t?", "--agent-id", "a", "--reply-queue-url", "http://127.0.0.1:1/000000000000/r"],
    ]

    static func check(_ result: TimelineBinary.Result, _ command: [String], says fragment: String) {
        let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(result.status == 2, "\(command): exit \(result.status), stderr: \(result.stderr)")
        #expect(first.hasPrefix("error: "), "\(command): \(result.stderr)")
        #expect(result.stderr.contains(fragment), "\(command): \(result.stderr)")
        #expect(!result.stderr.contains("Error: "), "\(command): \(result.stderr)")
    }

    @Test func aBadConfigFileIsTheSameErrorEverywhere() throws {
        let binary = try TimelineBinary()
        let config = binary.directory.file("config")
        try FileManager.default.createDirectory(atPath: config + "/timeline", withIntermediateDirectories: true)
        try "regoin = \"eu-west-1\"\n".write(toFile: config + "/timeline/config.toml", atomically: true, encoding: .utf8)
        for command in Self.storeCommands + Self.queueCommands + [["config"]] {
            let result = try binary.run(command, stdin: [],
                                        environment: ["XDG_CONFIG_HOME": config, "TIMELINE_DB": binary.directory.file("t.db")])
            Self.check(result, command, says: "invalid config file \(config)/timeline/config.toml:1: key \"regoin\"")
        }
    }

    @Test func anUnreadableDatabaseIsTheSameErrorEverywhere() throws {
        let binary = try TimelineBinary()
        let db = binary.directory.file("garbage.db")
        try Data(repeating: 0x5A, count: 8_192).write(to: URL(fileURLWithPath: db))
        for command in Self.storeCommands {
            let result = try binary.run(command, stdin: [], environment: [
                "TIMELINE_DB": db, "XDG_CONFIG_HOME": binary.directory.file("no-config"),
                "TIMELINE_QUEUE_URL": "http://127.0.0.1:1/000000000000/q",
            ])
            Self.check(result, command, says: "the database cannot be used: ")
        }
    }

    /// A database that does not exist yet holds nothing: every reading command says so in the same plain
    /// note (no `error: `), prints nothing, exits 0 and creates no file; `status` prints its `no data yet`.
    @Test func aMissingDatabaseIsTheSameNoteEverywhere() throws {
        let binary = try TimelineBinary()
        let db = binary.directory.file("never stored.db")
        let environment = ["TIMELINE_DB": db, "XDG_CONFIG_HOME": binary.directory.file("no-config")]
        let note = "No database at \(db) yet: nothing stored. Feed it with `timeline import FILE` or `timeline poll`.\n"
        for command in [["list"], ["history", "T1"], ["rejected"], ["export", "--format", "jsonl"], ["mark"]] {
            let result = try binary.run(command, stdin: [], environment: environment)
            #expect(result.status == 0, "\(command): exit \(result.status), stderr: \(result.stderr)")
            #expect(result.stderr == note, "\(command): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(command): \(result.stdout)")
        }
        let status = try binary.run(["status"], stdin: [], environment: environment)
        #expect(status.status == 0 && status.stdout == "no data yet\n", "\(status.stdout)\(status.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db))
    }

    @Test func aBadQueueURLIsTheSameErrorEverywhere() throws {
        let binary = try TimelineBinary()
        for command in Self.queueCommands {
            let result = try binary.run(command + ["--queue-url", "not a queue url"], stdin: [], environment: [
                "TIMELINE_DB": binary.directory.file("t.db"), "XDG_CONFIG_HOME": binary.directory.file("no-config"),
                "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_REGION": "us-east-1",
            ])
            Self.check(result, command, says: "not a queue url")
        }
    }

    /// Parse errors are ArgumentParser's (its words and usage, exit 64); what a command's `run()` throws is
    /// one `error: …` line with FailureReport's exit code.
    @Test func usageErrorsAndRunErrorsTravelApart() throws {
        let binary = try TimelineBinary()
        let environment = ["TIMELINE_DB": binary.directory.file("t.db"), "XDG_CONFIG_HOME": binary.directory.file("no-config")]
        let usage = try binary.run(["prune", "--older-than", "1d", "--no-such-option"], stdin: [], environment: environment)
        #expect(usage.status == 64, "\(usage.stderr)")
        #expect(usage.stderr.hasPrefix("Error: Unknown option '--no-such-option'"), "\(usage.stderr)")
        #expect(usage.stderr.contains("Usage: timeline prune"), "\(usage.stderr)")
        #expect(!usage.stderr.contains("error: "), "\(usage.stderr)")

        // `hook` is parsed as its own root: its own usage.
        let hook = try binary.run(["hook"], stdin: [], environment: environment)
        #expect(hook.status == 64, "\(hook.stderr)")
        #expect(hook.stderr.hasPrefix("Error: Missing expected argument '<agent>'"), "\(hook.stderr)")
        #expect(hook.stderr.contains("USAGE: timeline hook <agent>"), "\(hook.stderr)")

        // Help is ArgumentParser's own command: its text on stdout, exit 0, however it is asked for.
        for arguments in [["list", "--help"], ["help", "list"], ["hook", "--help"]] {
            let help = try binary.run(arguments, stdin: [], environment: environment)
            #expect(help.status == 0, "\(arguments): \(help)")
            #expect(help.stdout.contains("USAGE: timeline \(arguments.contains("hook") ? "hook" : "list")"), "\(arguments): \(help)")
            #expect(help.stderr.isEmpty, "\(arguments): \(help)")
        }

        // A run error: the chain finds no credentials for the named profile.
        let home = binary.directory.file("empty-home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let run = try binary.run(["publish", "--title", "t", "--status", "info", "--agent-id", "a",
                                  "--queue-url", "http://127.0.0.1:1/000000000000/q"], stdin: [], environment: environment.merging([
            "HOME": home, "AWS_PROFILE": "typo", "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_ROLE_ARN": "",
            "AWS_CONFIG_FILE": home + "/config", "AWS_SHARED_CREDENTIALS_FILE": home + "/credentials",
            "AWS_EC2_METADATA_DISABLED": "true", "AWS_REGION": "us-east-1",
        ]) { $1 })
        let lines = run.stderr.split(separator: "\n")
        #expect(run.status == 1, "\(run.stderr)")
        #expect(lines.first?.hasPrefix("error: ") == true, "\(run.stderr)")
        #expect(run.stderr.contains("No AWS credentials found for profile \"typo\" (from AWS_PROFILE)"), "\(run.stderr)")
        #expect(!run.stderr.contains("Error: ") && !run.stderr.contains("Usage:"), "\(run.stderr)")

        // A run error with its own exit code: `ask` gets no answer in time (SQS takes the question and never
        // answers), one `error: ` line and 3.
        let sqs = try LoopbackHTTPServer { request in
            let action = request.header("X-Amz-Target") ?? ""
            return .respond(status: 200, headers: [("Content-Type", "application/x-amz-json-1.0")],
                            body: action.hasSuffix(".SendMessage") ? #"{"MessageId":"m-1"}"# : "{}")
        }
        defer { sqs.stop() }
        let endpoint = "http://127.0.0.1:\(sqs.port)"
        let ask = try binary.run(["ask", "--title", "Deploy?", "--agent-id", "a", "--timeout", "1",
                                  "--queue-url", endpoint + "/000000000000/q", "--endpoint-url", endpoint,
                                  "--reply-queue-url", endpoint + "/000000000000/r"], stdin: [], environment: environment.merging([
            "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_REGION": "us-east-1",
        ]) { $1 })
        #expect(ask.status == 3, "\(ask)")
        #expect(ask.stderr == "error: no answer in 1s\n", "\(ask)")
        #expect(ask.stdout.isEmpty, "\(ask)")
    }
}
