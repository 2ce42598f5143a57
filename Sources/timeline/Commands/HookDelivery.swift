import AgentHooks
import Foundation
import ProcessLaunch
import SQSClient
import TimelineConfig
import TimelineCore

/// How hooks and `timeline hooks flush` reach the queue: `TIMELINE_QUEUE_URL` / the config file, as
/// `timeline publish`.
///
/// A reporting hook leaves the sending to the spool's background sender (`timeline hooks flush
/// --background`, detached, in `/`): it starts one when none runs, and returns at once. The sender loads
/// the network stack once, sends what hooks spool as they spool it, over one connection, and ends once
/// nothing came for `backgroundIdle` seconds (or after `backgroundLifetime`). When a send fails (the
/// network is down, the queue refuses), it tries again after a pause (`backgroundRetry`) instead of
/// ending, so the hooks meanwhile find it running and start no other, and what they spooled goes once
/// the queue takes it, with no further hook run. A hook whose settings differ from the running sender's
/// (`HookSenderIdentity`) sends its events itself, as does one that cannot start a sender.
/// Hooks run with `SenderEnvironment.current()`: relative paths made absolute, as the sender gets them.
enum HookDelivery {
    /// Seconds a background sender runs at most (then the next hook starts another, with fresh settings).
    static let backgroundLifetime: TimeInterval = 300
    /// Seconds a background sender waits for the next event before it ends.
    static let backgroundIdle: TimeInterval = 30
    /// How long a background sender pauses after a failed send: 1 s, then twice as long each time, at
    /// most 30 s (about ten tries in its lifetime while the queue cannot be reached).
    static let backgroundRetry = HookPublisher.RetryPause(first: 1, longest: 30)

    /// Whether the spool's events are taken care of without this run sending them: nothing waits, the
    /// running background sender has this run's settings, or one was started now.
    /// `settings`: this run's `identity`, which its events were spooled with.
    static func handOver(spool: HookSpool, environment: [String: String], settings: String) -> Bool {
        if spool.count(for: settings) == 0 { return true }
        if let running = spool.runningSender() { return running.identity == settings }
        return startBackgroundSender(environment: environment)
    }

    /// Sends what the spool holds for `settings` within `budget`; when time runs out first, hands what is
    /// left to a background sender, so a session's last events do not wait for its next hook run.
    static func deliver(spool: HookSpool, environment: [String: String], settings: String,
                        budget: TimeInterval) -> HookPublisher.Outcome {
        let outcome = publisher(spool: spool, environment: environment, settings: settings).deliver(budget: budget)
        if outcome.timedOut { startBackgroundSender(environment: environment) }
        return outcome
    }

    /// Sends a prompt's `payload` (its question, or how it ended) at once, ahead of what the spool holds:
    /// a question matters only while its hook waits, and ingest orders events by their own time. True
    /// when SQS has it. `keep`: what did not go is spooled for the background sender (a question is not:
    /// its hook does not wait for it, and how the prompt ended follows).
    static func sendAtOnce(_ payload: String, keep: Bool, spool: HookSpool, environment: [String: String],
                           settings: String, budget: TimeInterval) -> Bool {
        let outcome = sendDirect([payload], spool: spool, environment: environment, settings: settings, budget: budget)
        if outcome.sent == 1 { return true }
        if keep, (try? spool.add(payload, settings: settings)) != nil {
            _ = handOver(spool: spool, environment: environment, settings: settings)
        }
        return false
    }

    /// Sends `payloads` now, without the spool (what it could not take, or a prompt's), within `budget`.
    static func sendDirect(_ payloads: [String], spool: HookSpool, environment: [String: String], settings: String,
                           budget: TimeInterval) -> HookPublisher.Outcome {
        publisher(spool: spool, environment: environment, settings: settings).sendDirect(payloads, budget: budget)
    }

    /// Starts `timeline hooks flush --background` detached: a session of its own, no descriptor of ours
    /// (the agent waits for its hook's output to close), the hook's environment (the queue and credentials
    /// the hook was given; its paths absolute: `SenderEnvironment`), in `/`. Not waited for; false when
    /// it could not be started.
    @discardableResult
    static func startBackgroundSender(environment: [String: String]) -> Bool {
        let plan = ProcessLaunch.Plan(
            executable: HooksPaths.executable(),
            arguments: ["timeline", "hooks", "flush", "--background", "--timeout", "\(Int(backgroundLifetime))",
                        "--idle", "\(Int(backgroundIdle))"],
            environment: environment, stdin: .devNull, stdout: .devNull, stderr: .devNull, newSession: true,
            workingDirectory: "/")
        var pid: pid_t = 0
        return plan.spawn(&pid) == 0
    }

    /// This process's sending settings as `HookSenderIdentity` makes them: the environment and the files
    /// the queue, region and credentials are read from.
    static func identity(environment: [String: String]) -> String {
        let home = HooksPaths.home(environment)
        func awsFile(_ variable: String, _ name: String) -> String {
            environment[variable].flatMap { $0.isEmpty ? nil : $0 } ?? "\(home)/.aws/\(name)"
        }
        return HookSenderIdentity.make(environment: environment, files: [
            ConfigFile.defaultPath(environment: environment), awsFile("AWS_CONFIG_FILE", "config"),
            awsFile("AWS_SHARED_CREDENTIALS_FILE", "credentials"),
        ])
    }

    /// A publisher of the events spooled with `settings` (nil: of every event), with this environment's
    /// queue and credentials.
    static func publisher(spool: HookSpool, environment: [String: String], settings: String?) -> HookPublisher {
        let configuration = Result { try QueueOptions.configuration(flags: .init(), environment: environment) }
        return HookPublisher(spool: spool, settings: settings) {
            let configuration = try configuration.get()
            // Temporary credentials outlive the hook run in a 0600 file: each run does not call STS or SSO.
            let credentials = CredentialFileCache(
                chain: configuration.credentials,
                directory: HookSpool.stateDirectory(environment: environment).appendingPathComponent("credentials-cache"))
            let client = SQSClient(endpoint: configuration.endpoint.value, region: configuration.region.value,
                                   credentials: credentials)
            let queueURL: String
            do {
                queueURL = try configuration.queueURL(using: client).value
            } catch let error as SQSError {
                throw failure(error, text: "\(error)")
            }
            let fifo = FIFOKeys.isFIFO(queueURL)
            return { payload in
                guard case .success(let event) = EventParser.parse(payload) else { return }  // nothing to send
                do {
                    _ = try client.sendMessage(
                        queueURL: queueURL, body: payload, groupID: fifo ? FIFOKeys.key(event.taskID) : nil,
                        deduplicationID: fifo ? FIFOKeys.key(event.id) : nil)
                } catch let error as SQSError {
                    throw failure(error, text: SQSErrorHint.describe(error, queueURL: queueURL))
                }
            }
        }
    }

    /// An SQS failure as a hook's: one that may pass (the network, throttling, the service) is a
    /// `PassingFailure`, which a background sender tries again after a pause.
    private static func failure(_ error: SQSError, text: String) -> any Error {
        error.isRetryable ? PassingFailure(text) : CommandFailure(text)
    }
}

