import ArgumentParser
import Foundation
import ReplyDelivery
import SQSClient
import TimelineCore

/// Region, endpoint and profile for the reply queues the viewer sends to (its own credentials).
struct ReplyQueueOptions: ParsableArguments {
    @Option(help: ArgumentHelp("AWS region (default: the environment, the queue URL's host, the profile).", valueName: "region"))
    var region: String?

    @Option(name: .customLong("endpoint-url"), help: ArgumentHelp(
        "SQS endpoint, e.g. a local server (default: $AWS_ENDPOINT_URL_SQS, $AWS_ENDPOINT_URL, the queue URL).",
        valueName: "url"))
    var endpointURL: String?

    @Option(help: ArgumentHelp("AWS profile (default: $AWS_PROFILE, else default).", valueName: "name"))
    var profile: String?

    /// A sender whose SQS clients are configured like every other command's, one per reply queue.
    func sender(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ReplySender {
        try ReplyTargets.sender(region: region, endpointURL: endpointURL, profile: profile, environment: environment)
    }
}

/// Building replies from an event and the sender that delivers them (shared by `reply` and the TUI).
enum ReplyTargets {
    static func sender(region: String?, endpointURL: String?, profile: String?,
                       environment: [String: String]) throws -> ReplySender {
        let allowPrivate = try privateWebhooks().value
        return ReplySender(clientFor: { queueURL in
            do throws(ConfigurationError) {
                return try SQSConfiguration.resolve(
                    flags: .init(region: region, queueURL: queueURL, endpointURL: endpointURL, profile: profile),
                    environment: environment).makeClient()
            } catch {
                throw CommandFailure(error.message)
            }
        }, allowPrivateWebhooks: allowPrivate)
    }

    /// May webhooks reach private networks: `TIMELINE_WEBHOOK_ALLOW_PRIVATE` (1 or true), else
    /// `webhook_allow_private` in the config file, else no. Link-local and metadata hosts are refused anyway.
    static func privateWebhooks() throws -> (value: Bool, source: String) {
        let setting = try UserConfig.resolver().resolve(
            "webhook_allow_private", flag: nil, flagName: "", environmentNames: ["TIMELINE_WEBHOOK_ALLOW_PRIVATE"])
        guard let value = setting.value else { return (false, "default") }
        return (value == "true" || value == "1", setting.source)
    }

    /// The reply to `event` with `answer`, and where it goes: an action's webhook, else the event's
    /// `reply_to`. Nil with a reason when the event takes no such answer.
    static func record(answering event: Event, with answer: Reply.Answer, from sender: String,
                       nowMicros: Int64) -> Result<ReplyRecord, CommandFailure> {
        let interaction = event.interaction
        var label: String?
        var destination = interaction.replyTo.map(ReplyDestination.queue)
        switch answer {
        case .action(let id):
            guard let action = interaction.actions.first(where: { $0.id == id }) else {
                let known = interaction.actions.map(\.id).joined(separator: ", ")
                return .failure(CommandFailure(
                    known.isEmpty ? "the task's latest event offers no actions"
                                  : "no action \"\(DisplayText.escaped(id))\" on the task's latest event (it offers: \(known))",
                    exitCode: 2))
            }
            label = action.label
            if let url = action.url { destination = .webhook(url) }
        case .text(let text):
            if let problem = Reply.textProblem(text) { return .failure(CommandFailure(problem, exitCode: 2)) }
        }
        guard let destination else {
            return .failure(CommandFailure("the task's latest event names no reply_to queue: its agent takes no replies",
                                           exitCode: 2))
        }
        let reply = Reply(inReplyTo: event.id, taskID: event.taskID, agentID: event.agentID, answer: answer,
                          from: sender, timestampMicros: nowMicros)
        return .success(ReplyRecord(reply: reply, label: label, destination: destination, delivery: .sending,
                                    updatedMicros: nowMicros))
    }

    /// `sent "Deploy" to queue agent-replies (message …)` / `not sent: …`, sanitized for the terminal.
    static func outcomeLine(_ record: ReplyRecord) -> String {
        let what = DisplayText.sanitize(record.answerText)
        let to = DisplayText.sanitize(record.destination.confirmationText)
        switch record.delivery {
        case .sent(let detail): return "sent \"\(what)\" to \(to) (\(DisplayText.sanitize(detail)))"
        case .failed(let reason): return "not sent \"\(what)\" to \(to): \(DisplayText.sanitize(reason))"
        case .sending: return "sending \"\(what)\" to \(to)"
        }
    }
}
