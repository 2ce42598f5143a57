import ArgumentParser
import Foundation
import SQSClient
import TimelineConfig

/// `timeline config`: every effective setting and where it came from; `timeline config path`: the file.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show every effective setting and where it came from (flag, environment, config file, default).",
        discussion: """
            Precedence everywhere: flag > environment > config file > default. Credentials are shown masked. \
            The config file is $TIMELINE_CONFIG, else $XDG_CONFIG_HOME/timeline/config.toml, else \
            ~/.config/timeline/config.toml (see `timeline config path`).
            """,
        subcommands: [ShowConfig.self, ConfigPath.self],
        defaultSubcommand: ShowConfig.self)
}

/// `timeline config path`.
struct ConfigPath: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "path", abstract: "Print the config file's path.")

    func run() {
        print(ConfigFile.defaultPath(environment: ProcessInfo.processInfo.environment))
    }
}

/// `timeline config [show]`.
struct ShowConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show every effective setting and where it came from.")

    @OptionGroup var queue: QueueOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var theme: ThemeOption
    @OptionGroup var retention: RetentionOption

    func run() throws {
        let file = try UserConfig.file()
        func line(_ name: String, _ value: String, _ source: String) {
            print("\(name.padding(toLength: 13, withPad: " ", startingAt: 0)) \(value)  (from \(source))")
        }
        print("config file   \(file.path)  (\(file.exists ? "read" : "none: every setting below comes from elsewhere"))")
        do {
            let c = try queue.configuration()
            let urls = [QueueText.describe(c.queue.value)] + (try queue.extraQueueURLs(after: c)).map(MaskedURL.text)
            line("queue", urls.joined(separator: ", "), c.queue.source)
            line("region", c.region.value, c.region.source)
            line("endpoint_url", MaskedURL.text(c.endpoint.value.absoluteString), c.endpoint.source)
            line("profile", c.profile.value, c.profile.source)
            do {
                let credentials = try c.credentials.credentials()
                print("credentials   \(credentials.maskedAccessKeyID)  (from \(credentials.source))")
            } catch {
                print("credentials   none found: \(String(describing: error).split(separator: "\n").first ?? "")")
            }
        } catch let error as ConfigurationError {
            print("queue         not configured: \(error.message.split(separator: "\n").first ?? "")")
        }
        let db = try store.setting()
        line("db", db.value ?? "", db.source)
        let themeSetting = try theme.setting()
        line("theme", "\(themeSetting.value ?? "auto") → \(try theme.chosen().rawValue)", themeSetting.source)
        let from = try ReplyIdentity.setting(flag: nil)
        line("from", from.value, from.source)
        let time = try TUICommand.timeSetting(flag: nil)
        line("time", time.value ?? "relative", time.source)
        let keep = try retention.setting()
        line("retention", keep.value ?? "off", keep.source)
        let privateWebhooks = try ReplyTargets.privateWebhooks()
        line("webhooks", "webhook_allow_private = \(privateWebhooks.value)", privateWebhooks.source)
        if file.views.isEmpty {
            print("views         none (add [views.NAME] tables to the config file)")
        } else {
            for view in file.views {
                line("view", "\(view.name) = \(view.query)", "config file \(file.path)")
            }
        }
    }
}
