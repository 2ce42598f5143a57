import ArgumentParser
import SQSClient
import TimelineConfig
import TimelineCore
import TimelineStore

/// A command failed for a reason of its own (its words and exit code); see `FailureReport`.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    var exitCode: Int32 = ExitStatus.failed
    init(_ message: String, exitCode: Int32 = ExitStatus.failed) {
        self.message = message
        self.exitCode = exitCode
    }
    var description: String { message }
}

/// The exit codes every command shares (the README's table). ArgumentParser's usage errors exit 64.
enum ExitStatus {
    /// The command could not do its job: AWS refused, the network failed, nothing matched, polling gave up.
    static let failed: Int32 = 1
    /// What it was given cannot be used: the config file, a setting, the database, a payload.
    static let unusable: Int32 = 2
    /// `ask`: no answer came in time.
    static let noAnswer: Int32 = 3
}

/// The one place where an error that ends a command becomes the line the user reads (`error: …` on
/// stderr) and the exit code. `TimelineCommand.main` calls it once, for every command.
struct FailureReport: Equatable {
    var message: String
    var exitCode: Int32

    /// nil for the ArgumentParser errors a command's `run()` may throw (`ExitCode` after the command spoke
    /// itself, `CleanExit`, `ValidationError`): ArgumentParser prints them and chooses their exit codes.
    /// Parse errors (usage, `--help`) never come here: `TimelineCommand.main` hands them to ArgumentParser.
    init?(_ error: any Error) {
        if error is ExitCode || error is CleanExit || error is ValidationError { return nil }
        switch error {
        case let failure as CommandFailure:
            self.init(message: failure.message, exitCode: failure.exitCode)
        case let invalid as ConfigFileError:
            self.init(message: "invalid config file \(invalid)", exitCode: ExitStatus.unusable)
        case let setting as SettingError:
            self.init(message: setting.description, exitCode: ExitStatus.unusable)
        case let configuration as ConfigurationError:
            self.init(message: configuration.message, exitCode: ExitStatus.unusable)
        case let store as StoreError:
            self.init(message: store.description, exitCode: ExitStatus.unusable)
        case let sqlite as SQLiteError:
            self.init(message: "the database cannot be used: \(sqlite.description)", exitCode: ExitStatus.unusable)
        case let credentials as CredentialsError:
            // Not 2 even for a broken profile: as when the same error comes through an SQS call.
            self.init(message: credentials.message, exitCode: ExitStatus.failed)
        case let sqs as SQSError:
            self.init(message: sqs.explanation(), exitCode: ExitStatus.failed)
        default:
            self.init(message: "\(error)", exitCode: ExitStatus.failed)
        }
    }

    init(message: String, exitCode: Int32) {
        self.message = DisplayText.sanitizeLines(message).joined(separator: "\n")
        self.exitCode = exitCode
    }

    /// What goes to stderr.
    var line: String { "error: \(message)" }
}

/// Runs `body`; what it throws goes on to `TimelineCommand.main`, which reports every failure the same way.
func reportingFailures(_ body: () throws -> Void) rethrows {
    try body()
}
