import ArgumentParser
import Foundation
import TimelineConfig
import TimelineCore

/// `--retention 30d|off`: how long `poll` and `tui` keep events (pruned once a day).
/// Default: $TIMELINE_RETENTION, else `retention` in the config file, else off.
struct RetentionOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Delete events older than this once a day while running, like `timeline prune --older-than` (e.g. 30d; off: keep everything; default: $TIMELINE_RETENTION, else `retention` in the config file, else off).",
        valueName: "age"))
    var retention: String?

    func validate() throws {
        if let retention, retention != "off", DurationText.seconds(retention) == nil {
            throw ValidationError("--retention takes \(DurationText.help), or off; not \"\(retention)\".")
        }
    }

    /// The `retention` setting and where it came from.
    func setting() throws -> Setting { try Self.setting(flag: retention) }

    /// The `retention` setting given `flag` (nil: no flag on this command).
    static func setting(flag: String?) throws -> Setting {
        try UserConfig.resolver().resolve("retention", flag: flag, flagName: "--retention",
                                          environmentNames: ["TIMELINE_RETENTION"])
    }

    /// Seconds to keep, nil when off. A malformed environment value is an error.
    func seconds() throws -> Int64? {
        let setting = try setting()
        guard let value = setting.value, value != "off" else { return nil }
        guard let seconds = DurationText.seconds(value), seconds > 0 else {
            throw CommandFailure("retention \"\(value)\" from \(setting.source) is not a duration: use \(DurationText.help), or off")
        }
        return seconds
    }
}
