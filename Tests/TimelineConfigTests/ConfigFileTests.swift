import Foundation
import Testing
@testable import TimelineConfig
import TimelineCore

@Suite struct ConfigFileTests {
    static let example = """
        # the example in docs/configuration.md
        queue_url = "https://sqs.eu-west-1.amazonaws.com/123456789012/timeline"
        profile = "dev"
        region = "eu-west-1"
        endpoint_url = "http://127.0.0.1:4566"
        db = "~/.local/share/timeline/timeline.db"
        theme = "light"
        retention = "30d"

        [views.prod-errors]
        query = "status:error category:deploy"

        [views.quiet]
        query = "-agent:heartbeat"
        """

    @Test func readsTheDocumentedKeysAndViews() throws {
        let file = try ConfigFile.parse(Self.example, path: "/c.toml")
        #expect(file.string("queue_url") == "https://sqs.eu-west-1.amazonaws.com/123456789012/timeline")
        #expect(file.string("profile") == "dev")
        #expect(file.string("region") == "eu-west-1")
        #expect(file.string("endpoint_url") == "http://127.0.0.1:4566")
        #expect(file.string("db") == "~/.local/share/timeline/timeline.db")
        #expect(file.views.map(\.name) == ["prod-errors", "quiet"])
        #expect(file.view(named: "prod-errors") == "status:error category:deploy")
        let several = try ConfigFile.parse(#"queue_urls = ["http://a:1/q1", "http://a:1/q2"]"#, path: "/c.toml")
        #expect(several.values["queue_urls"] == ["http://a:1/q1", "http://a:1/q2"])
        let senders = try ConfigFile.parse(#"reply_senders = ["AIDAEXAMPLE", "AROAEXAMPLE:alice"]"#, path: "/c.toml")
        #expect(senders.values["reply_senders"] == ["AIDAEXAMPLE", "AROAEXAMPLE:alice"])
    }

    /// (file text, line, key, words in the problem, words in the fix)
    static let invalid: [(String, Int?, String?, String, String)] = [
        ("region = \"x\"\nregoin = \"eu-west-1\"\n", 2, "regoin", "unknown setting", "known settings: queue_url"),
        ("\n\nregion = 5\n", 3, "region", "value of type integer", "an AWS region"),
        ("theme = \"pink\"", 1, "theme", "is not one of dark, light, auto", "\"dark\", \"light\" or \"auto\""),
        ("retention = \"30 days\"", 1, "retention", "is not a duration", "30d"),
        ("endpoint_url = \"localhost:4566\"", 1, "endpoint_url", "not an http(s) URL", "http://127.0.0.1:4566"),
        ("queue_urls = [\"http://a/q\", 3]", 1, "queue_urls", "not a string", "list of http(s)"),
        ("queue_url = \"http://a/q\"\nqueue_urls = [\"http://a/q\"]", 2, "queue_urls", "together", "keep one"),
        ("region = \"eu\"\nprofile = \n", 2, nil, "not valid TOML", "key = \"value\""),
        ("[views.x]\nquery = \"since:soon\"\n", 2, "views.x.query", "since:soon is not a time", "correct the query"),
        ("[views.x]\nqeury = \"a\"\n", 2, "views.x.qeury", "unknown view setting", "only query"),
        ("[views.y]\n", 1, "views.y.query", "is missing", "add query ="),
        ("webhook_allow_private = \"yes\"", 1, "webhook_allow_private", "value of type string", "true or false"),
        ("reply_senders = [\"arn:aws:iam::123456789012:user/a\"]", 1, "reply_senders", "is not a SenderId", "SenderIds"),
    ]

    @Test func webhookAllowPrivateIsABooleanAndItsVariableTakesOne() throws {
        #expect(try ConfigFile.parse("webhook_allow_private = true", path: "/c.toml").string("webhook_allow_private") == "true")
        #expect(try ConfigFile.parse("webhook_allow_private = false", path: "/c.toml").string("webhook_allow_private") == "false")
        let resolver = SettingResolver(environment: ["TIMELINE_WEBHOOK_ALLOW_PRIVATE": "1"], file: try ConfigFile.parse("", path: "/c.toml"))
        #expect(try resolver.resolve("webhook_allow_private", flag: nil, flagName: "",
                                     environmentNames: ["TIMELINE_WEBHOOK_ALLOW_PRIVATE"]).value == "1")
        let wrong = SettingResolver(environment: ["TIMELINE_WEBHOOK_ALLOW_PRIVATE": "yes"], file: try ConfigFile.parse("", path: "/c.toml"))
        #expect(throws: SettingError.self) {
            try wrong.resolve("webhook_allow_private", flag: nil, flagName: "", environmentNames: ["TIMELINE_WEBHOOK_ALLOW_PRIVATE"])
        }
    }

    @Test(arguments: 0..<invalid.count)
    func invalidFilesNameLineKeyAndFix(_ index: Int) {
        let (text, line, key, problem, fix) = Self.invalid[index]
        do {
            _ = try ConfigFile.parse(text, path: "/home/me/.config/timeline/config.toml")
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.line == line, "\(text)")
            #expect(error.key == key, "\(text)")
            #expect(error.problem.contains(problem), "\(error.problem)")
            #expect(error.fix.contains(fix), "\(error.fix)")
            #expect(error.description.hasPrefix("/home/me/.config/timeline/config.toml\(line.map { ":\($0)" } ?? ""): "))
        }
    }

    @Test func missingFileIsEmptyAndPathsFollowXDG() throws {
        let file = try ConfigFile.load(path: "/nonexistent/timeline/config.toml")
        #expect(!file.exists && file.values.isEmpty)
        #expect(ConfigFile.defaultPath(environment: ["HOME": "/h"]) == "/h/.config/timeline/config.toml")
        #expect(ConfigFile.defaultPath(environment: ["HOME": "/h", "XDG_CONFIG_HOME": "/x"]) == "/x/timeline/config.toml")
        #expect(ConfigFile.defaultPath(environment: ["HOME": "/h", "XDG_CONFIG_HOME": "rel"]) == "/h/.config/timeline/config.toml")
        #expect(ConfigFile.defaultPath(environment: ["HOME": "/h", "TIMELINE_CONFIG": "/t.toml"]) == "/t.toml")
    }

    @Test func precedenceIsFlagThenEnvironmentThenFileThenDefault() throws {
        let file = try ConfigFile.parse("theme = \"light\"", path: "/c.toml")
        let both = SettingResolver(environment: ["TIMELINE_THEME": "dark"], file: file)
        #expect(try both.resolve("theme", flag: "auto", flagName: "--theme", environmentNames: ["TIMELINE_THEME"]) == Setting("auto", from: "--theme"))
        #expect(try both.resolve("theme", flag: nil, flagName: "--theme", environmentNames: ["TIMELINE_THEME"]) == Setting("dark", from: "TIMELINE_THEME"))
        let fileOnly = SettingResolver(environment: ["TIMELINE_THEME": ""], file: file)
        #expect(try fileOnly.resolve("theme", flag: nil, flagName: "--theme", environmentNames: ["TIMELINE_THEME"]).value == "light")
        let none = SettingResolver(environment: [:], file: ConfigFile(path: "/c.toml"))
        #expect(try none.resolve("theme", flag: nil, flagName: "--theme", fallback: "auto") == Setting("auto", from: "default"))
        #expect(try none.resolve("retention", flag: nil, flagName: "--retention") == Setting(nil, from: "not set"))
        let bad = SettingResolver(environment: ["TIMELINE_THEME": "pink"], file: file)
        #expect(throws: SettingError.self) { try bad.resolve("theme", flag: nil, flagName: "--theme", environmentNames: ["TIMELINE_THEME"]) }
    }
}

@Suite struct ThemeTests {
    @Test func autoFollowsCOLORFGBG() {
        #expect(Theme.choose("auto", colorFGBG: "0;15") == .light)
        #expect(Theme.choose("auto", colorFGBG: "0;default;7") == .light)
        #expect(Theme.choose("auto", colorFGBG: "15;0") == .dark)
        #expect(Theme.choose("auto", colorFGBG: "15;8") == .dark)
        #expect(Theme.choose("auto", colorFGBG: nil) == .dark)
        #expect(Theme.choose("auto", colorFGBG: "garbage") == .dark)
        #expect(Theme.choose("dark", colorFGBG: "0;15") == .dark)
        #expect(Theme.choose("light", colorFGBG: nil) == .light)
    }
}

@Suite struct ConfigWriterTests {
    @Test func savesNewViewsAndReplacesExistingOnesKeepingComments() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("timeline-config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("timeline/config.toml").path
        var file = try ConfigWriter.saveView(name: "errors", query: "status:error", path: path)
        #expect(file.view(named: "errors") == "status:error")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try ("# my settings\nregion = \"eu-west-1\"  # keep me\n\n" + String(contentsOfFile: path, encoding: .utf8))
            .write(toFile: path, atomically: true, encoding: .utf8)
        file = try ConfigWriter.saveView(name: "quiet", query: #"-agent:heartbeat -"dry run" path\x"#, path: path)
        file = try ConfigWriter.saveView(name: "errors", query: "status:error,warning", path: path)
        #expect(file.view(named: "errors") == "status:error,warning")
        #expect(file.view(named: "quiet") == #"-agent:heartbeat -"dry run" path\x"#)
        #expect(file.string("region") == "eu-west-1")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("# my settings\nregion = \"eu-west-1\"  # keep me\n"))
        #expect(text.components(separatedBy: "[views.errors]").count == 2)
        // A symlinked config file stays a symlink; its target is edited.
        let link = directory.appendingPathComponent("link.toml").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        _ = try ConfigWriter.saveView(name: "linked", query: "agent:x", path: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == path)
        #expect(try ConfigFile.load(path: path).view(named: "linked") == "agent:x")
        #expect(throws: ConfigFileError.self) { try ConfigWriter.saveView(name: "bad name", query: "x", path: path) }
        #expect(throws: ConfigFileError.self) { try ConfigWriter.saveView(name: "bad", query: "since:soon", path: path) }
    }
}

@Suite struct ReplySendersSettingTests {
    @Test func theEnvironmentWinsOverTheFileAndBlankIsUnset() throws {
        let file = try ConfigFile.parse(#"reply_senders = ["AIDAFROMFILE"]"#, path: "/c.toml")
        let name = ReplySendersSetting.environmentName
        #expect(try ReplySendersSetting.allowlist(environment: [name: "AIDAFROMENV"], file: file)?.entries == ["AIDAFROMENV"])
        #expect(try ReplySendersSetting.allowlist(environment: [name: " "], file: file)?.entries == ["AIDAFROMFILE"])
        #expect(try ReplySendersSetting.allowlist(environment: [:], file: file)?.entries == ["AIDAFROMFILE"])
        #expect(try ReplySendersSetting.allowlist(environment: [:], file: ConfigFile.parse("", path: "/c.toml")) == nil)
        #expect(throws: SenderAllowlist.Problem.self) {
            try ReplySendersSetting.allowlist(environment: [name: "AIDA1,,AIDA2"], file: file)
        }
    }
}
