import ArgumentParser
import Foundation
import SQSClient
import TimelineConfig
import TimelineCore
import TimelineStore

/// `timeline doctor`: where each setting came from, whether the queue answers, clock skew, the database.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the configuration, credentials, queue, clock and database; say how to fix what fails.",
        discussion: "Credentials are shown masked. Exit code 1 when a check fails."
    )

    @OptionGroup var queue: QueueOptions
    @OptionGroup var store: StoreOptions

    func run() throws {
        var failures = 0
        func line(_ ok: Bool?, _ name: String, _ text: String) {
            let mark = ok == nil ? " " : (ok! ? "✓" : "✗")
            if ok == false { failures += 1 }
            // Multi-line texts (a message and its fix) keep their lines, indented under the first.
            let lines = DisplayText.sanitizeLines(text)
            print("\(mark) \(name.padding(toLength: 14, withPad: " ", startingAt: 0)) \(lines.first ?? "")")
            for more in lines.dropFirst() { print(String(repeating: " ", count: 17) + more) }
        }
        checkConfigFile(line)
        checkDatabase(line)
        checkHistory(line)
        let configuration: SQSConfiguration
        do {
            configuration = try queue.configuration()
        } catch {
            line(false, "config", "\(error)")
            throw ExitCode(1)
        }
        line(nil, "region", "\(configuration.region.value)  (from \(configuration.region.source))")
        line(nil, "endpoint", "\(configuration.endpoint.value.absoluteString)  (from \(configuration.endpoint.source))")
        line(nil, "profile", "\(configuration.profile.value)  (from \(configuration.profile.source))")
        // What the AWS checks below need; the first that is missing names why they were skipped.
        var skipReason: String?
        if let conflict = configuration.regionConflict {
            line(false, "region", conflict)
            skipReason = "skipped: the region does not match the queue's (see region above)"
        }
        do {
            let credentials = try configuration.credentials.credentials()
            let token = credentials.sessionToken == nil ? "" : ", with session token"
            line(true, "credentials", "\(credentials.maskedAccessKeyID)  (from \(credentials.source)\(token))")
            let caller = CredentialsReport.caller(of: credentials, configuration: configuration)
            line(nil, "identity", caller.identity)
            line(nil, "sender id", caller.senderID)
            line(nil, "expires", CredentialsReport.expiry(of: credentials))
        } catch {
            line(false, "credentials", error.message)
            skipReason = skipReason ?? "skipped: no credentials to sign with (see credentials above)"
        }
        let client = configuration.makeClient()
        if case .url(let url) = configuration.queue.value {
            line(nil, "queue", "\(MaskedURL.text(url))  (from \(configuration.queue.source))")
        }
        if let skipReason {
            line(nil, "queue answers", skipReason)
            line(nil, "clock", skipReason)
        } else {
            checkQueue(configuration, client, line)
            checkClock(client, line)
        }
        if let path = try? store.resolvedPath(), FileManager.default.fileExists(atPath: path), let opened = try? TimelineStore(path: path, readOnly: true),
           let item = QueueAttributesReport.redeliveredLine(opened) {
            line(nil, item.name, item.text)
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// Whether the queue answers, and what its attributes say.
    private func checkQueue(_ configuration: SQSConfiguration, _ client: SQSClient, _ line: (Bool?, String, String) -> Void) {
        do {
            let url = try configuration.queueURL(using: client)
            if case .name = configuration.queue.value { line(nil, "queue", "\(MaskedURL.text(url.value))  (from \(url.source))") }
            let a = try client.getQueueAttributes(queueURL: url.value, names: [
                "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed",
            ])
            line(true, "queue answers", "\(a["ApproximateNumberOfMessages"] ?? "?") waiting, "
                + "\(a["ApproximateNumberOfMessagesNotVisible"] ?? "?") in flight, "
                + "\(a["ApproximateNumberOfMessagesDelayed"] ?? "?") delayed")
            explainQueue(client: client, queueURL: url.value, line)
        } catch {
            line(false, "queue answers", error.explanation())
        }
    }

    /// The endpoint's clock against ours: SigV4 signatures are refused beyond 5 minutes of skew.
    private func checkClock(_ client: SQSClient, _ line: (Bool?, String, String) -> Void) {
        do {
            let offset = try client.serverClockOffset()
            line(abs(offset) < 240, "clock", String(format: "%+.1f s from the endpoint's clock", offset)
                + (abs(offset) < 240 ? "" : " — fix the system clock (signatures fail beyond 5 minutes)"))
        } catch {
            line(false, "clock", "could not compare: \(error.explanation())")
        }
    }

    /// What the queue's own attributes say (retention, visibility, size, dead letters, FIFO, encryption).
    private func explainQueue(client: SQSClient, queueURL: String, _ line: (Bool?, String, String) -> Void) {
        do {
            let attributes = try client.getQueueAttributes(queueURL: queueURL)
            let lines = QueueAttributesReport.explain(attributes) { QueueAttributesReport.depth(ofQueueARN: $0, client: client) }
            for item in lines { line(nil, item.name, DisplayText.sanitize(item.text)) }
        } catch {
            line(nil, "attributes", "could not be read: \(error.explanation())")
        }
    }

    private func checkDatabase(_ line: (Bool?, String, String) -> Void) {
        guard let path = try? store.resolvedPath() else { return }
        guard FileManager.default.fileExists(atPath: path) else {
            line(nil, "database", "\(path)  (not created yet; `timeline poll` or `timeline tui` creates it)")
            return
        }
        do {
            let stats = try TimelineStore(path: path, readOnly: true).stats()
            line(true, "database", "\(path)  \(stats.fileBytes / 1024) KiB, \(stats.events) events, "
                + "\(stats.tasks) tasks, \(stats.rejected) rejected")
        } catch {
            line(false, "database", "\(path): \(error)")
        }
    }

    /// The config file: where, and whether it is valid.
    private func checkConfigFile(_ line: (Bool?, String, String) -> Void) {
        do {
            let file = try UserConfig.file()
            line(file.exists ? true : nil, "config file", file.exists
                ? "\(file.path)  (\(file.values.count) settings, \(file.views.count) views; `timeline config` shows each)"
                : "\(file.path)  (none; optional)")
        } catch {
            line(false, "config file", "\(error)")
        }
    }

    /// The stored history: oldest event and the retention that prunes it.
    private func checkHistory(_ line: (Bool?, String, String) -> Void) {
        guard let path = try? store.resolvedPath(), FileManager.default.fileExists(atPath: path),
              let timeline = try? TimelineStore(path: path, readOnly: true)
        else { return }
        let retention = (try? RetentionOption.setting(flag: nil)) ?? Setting(nil, from: "not set")
        let kept = retention.value.map { "retention \($0) (from \(retention.source))" } ?? "no retention: kept forever (set `retention` or run `timeline prune`)"
        do {
            guard let oldest = try timeline.oldestEventMicros() else {
                line(nil, "history", "no events yet; \(kept)")
                return
            }
            let age = TimeFormat.relative(fromMicros: oldest, nowMicros: TimeFormat.nowMicros())
            line(nil, "history", "oldest event \(TimeFormat.absolute(micros: oldest, utc: true)) UTC (\(age) ago); \(kept)")
        } catch {
            line(false, "history", "\(error)")
        }
    }
}
