import ArgumentParser
import Attention
import Foundation
import TimelineCore

extension NotifyLevel: ExpressibleByArgument {}

/// Notification flags shared by `timeline tui` and `timeline poll`.
struct NotifyOptions: ParsableArguments {
    @Option(name: .customLong("notify"), help: ArgumentHelp(
        "Which task transitions notify: off, errors (error, needs_input), all (+ warning, success) (default: $TIMELINE_NOTIFY, else `notify` in the config file, else errors).",
        valueName: "level"))
    var notifyFlag: NotifyLevel?

    /// `--notify` > `$TIMELINE_NOTIFY` > `notify` in the config file > errors.
    var notify: NotifyLevel {
        let setting = try? UserConfig.resolver().resolve(
            "notify", flag: notifyFlag?.rawValue, flagName: "--notify", environmentNames: ["TIMELINE_NOTIFY"], fallback: "errors")
        return setting?.value.flatMap(NotifyLevel.init(rawValue:)) ?? .errors
    }

    @Option(name: .customLong("notify-command"), help: ArgumentHelp(
        "Run CMD for each notification, the notification JSON on its stdin (split into words like credential_process, never run by a shell).",
        valueName: "CMD"))
    var notifyCommand: String?

    func validate() throws {
        if let notifyCommand {
            do { _ = try Self.argv(notifyCommand) } catch {
                throw ValidationError("--notify-command: \(error)")
            }
        }
    }

    var policy: NotifyPolicy { NotifyPolicy(level: notify) }

    /// The notify command's words, when `--notify-command` is given and notifications are on.
    var commandWords: [String]? {
        guard notify != .off, let notifyCommand else { return nil }
        return try? Self.argv(notifyCommand)
    }

    /// The command's words; an error when it cannot be split or is blank.
    static func argv(_ command: String) throws -> [String] {
        let words = try CommandLineWords.split(command)
        guard !words.isEmpty else { throw CommandLineWords.SplitError(description: "the command is empty") }
        return words
    }

    static var nowMicros: Int64 { Int64(Date().timeIntervalSince1970 * 1_000_000) }
}
