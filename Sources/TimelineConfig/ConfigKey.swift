import Foundation
import TimelineCore

/// One setting the config file may hold: its TOML key, what it accepts, and how to say so.
public struct ConfigKey: Sendable {
    public enum Kind: Sendable { case string, stringList, bool }

    public var name: String
    public var kind: Kind
    /// What a valid value looks like, for "fix:" hints.
    public var expects: String
    /// nil when `value` is acceptable, else what is wrong with it.
    var check: @Sendable (String) -> String?

    /// Every top-level key of `config.toml` (views live in `[views.NAME]` tables).
    public static let all: [ConfigKey] = [
        ConfigKey(name: "queue_url", kind: .string, expects: "an http(s) SQS queue URL, in quotes", check: httpURL),
        ConfigKey(name: "queue_urls", kind: .stringList, expects: "a list of http(s) SQS queue URLs, e.g. [\"https://…\", \"https://…\"]", check: httpURL),
        ConfigKey(name: "queue", kind: .string, expects: "a queue name (looked up with GetQueueUrl), in quotes", check: nonEmpty),
        ConfigKey(name: "profile", kind: .string, expects: "an AWS profile name, in quotes", check: nonEmpty),
        ConfigKey(name: "region", kind: .string, expects: "an AWS region such as \"eu-west-1\"", check: nonEmpty),
        ConfigKey(name: "endpoint_url", kind: .string, expects: "an http(s) URL such as \"http://127.0.0.1:4566\"", check: httpURL),
        ConfigKey(name: "db", kind: .string, expects: "a file path such as \"~/.local/share/timeline/timeline.db\"", check: nonEmpty),
        ConfigKey(name: "theme", kind: .string, expects: "\"dark\", \"light\" or \"auto\"", check: oneOf(["dark", "light", "auto"])),
        ConfigKey(name: "time", kind: .string, expects: "\"relative\" or \"absolute\"", check: oneOf(["relative", "absolute"])),
        ConfigKey(name: "from", kind: .string, expects: "who replies are from, such as \"alice@laptop\"", check: nonEmpty),
        ConfigKey(name: "reply_senders", kind: .stringList,
                  expects: "a list of SQS SenderIds allowed to answer, e.g. [\"AIDA…\", \"AROA…:session\"]",
                  check: { SenderAllowlist.entryProblem($0) == nil ? nil : "is not a SenderId" }),
        ConfigKey(name: "notify", kind: .string, expects: "\"off\", \"errors\" or \"all\"", check: oneOf(["off", "errors", "all"])),
        ConfigKey(name: "stale_after", kind: .string, expects: "a duration such as \"10m\" (s, m, h, d)", check: positiveDuration),
        ConfigKey(name: "timeout_after", kind: .string, expects: "a duration such as \"8h\" (s, m, h, d)", check: positiveDuration),
        ConfigKey(name: "retention", kind: .string, expects: "a duration such as \"30d\" (\(DurationText.help)), or \"off\"",
                  check: { $0 == "off" || DurationText.seconds($0).map { $0 > 0 } == true ? nil : "is not a duration" }),
        ConfigKey(name: "webhook_allow_private", kind: .bool,
                  expects: "true or false (env: 1 or 0): may webhooks reach 10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7",
                  check: oneOf(["true", "false", "1", "0"])),
        ConfigKey(name: "reply_queue_url", kind: .string, expects: "the http(s) SQS queue URL this host's answers come back on",
                  check: httpURL),
        ConfigKey(name: "mouse", kind: .bool,
                  expects: "true or false (env: 1 or 0): does the TUI take the mouse (wheel, click), or leave it to the terminal",
                  check: oneOf(["true", "false", "1", "0"])),
        ConfigKey(name: "hook_wait", kind: .string, expects: "a duration such as \"2m\" (s, m, h, d)", check: positiveDuration),
    ]

    /// The key named `name`, if the file format knows it.
    public static func named(_ name: String) -> ConfigKey? { all.first { $0.name == name } }

    private static func positiveDuration(_ value: String) -> String? {
        DurationText.seconds(value).map { $0 > 0 } == true ? nil : "is not a duration"
    }

    private static func nonEmpty(_ value: String) -> String? {
        value.trimmingCharacters(in: .whitespaces).isEmpty ? "is empty" : nil
    }

    private static func httpURL(_ value: String) -> String? {
        guard let url = URL(string: value), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host?.isEmpty == false
        else { return "is not an http(s) URL" }
        return nil
    }

    private static func oneOf(_ choices: [String]) -> @Sendable (String) -> String? {
        { choices.contains($0) ? nil : "is not one of \(choices.joined(separator: ", "))" }
    }
}
