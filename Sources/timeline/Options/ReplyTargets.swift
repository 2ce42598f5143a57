import ArgumentParser
import Foundation
import ReplyDelivery
import SQSClient
import TimelineCore

/// Region, endpoint and profile for the reply queues the viewer sends to (its own credentials).
struct ReplyQueueOptions: ParsableArguments {
    @OptionGroup var aws: AWSOptions

    /// A sender whose SQS clients are configured like every other command's, one per reply queue.
    func sender(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ReplySender {
        try ReplyTargets.sender(policy: try policy(environment: environment), region: aws.region,
                                endpointURL: aws.endpointURL, profile: aws.profile, environment: environment)
    }

    /// Which reply queues may get the viewer's signature (its own queue from `TIMELINE_QUEUE_URL` names
    /// the region when nothing else does).
    func policy(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ReplyQueuePolicy {
        try ReplyTargets.policy(region: aws.region, endpointURL: aws.endpointURL, profile: aws.profile,
                                ownQueueURL: environment["TIMELINE_QUEUE_URL"], environment: environment)
    }
}

/// Building replies from an event and the sender that delivers them (shared by `reply` and the TUI).
enum ReplyTargets {
    /// The reply-queue rule for these settings: the endpoint the user configured (flag, then
    /// `AWS_ENDPOINT_URL_SQS`, `AWS_ENDPOINT_URL`, the profile's `endpoint_url`) and the viewer's region
    /// (flag, `AWS_REGION`, `AWS_DEFAULT_REGION`, its own queue URL's host, the profile), whose partition
    /// bounds the AWS hosts replies may be signed for.
    static func policy(region: String?, endpointURL: String?, profile: String?, ownQueueURL: String?,
                       environment: [String: String]) throws -> ReplyQueuePolicy {
        func nonEmpty(_ value: String?) -> String? {
            guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
            return value
        }
        let selected = CredentialChain.selectProfile(flag: nonEmpty(profile), environment: environment, fileProfile: nil,
                                                     fileSource: "config file")
        let files = SharedConfigFiles(environment: environment)
        let endpoint: URL?
        if let flag = nonEmpty(endpointURL) {
            endpoint = try ServiceEndpoints.validated(flag, source: "--endpoint-url")
        } else {
            endpoint = try ServiceEndpoints(environment: environment, files: files, profile: selected.name)
                .configuredEndpoint(for: .sqs)?.value
        }
        let viewerRegion = nonEmpty(region) ?? nonEmpty(environment["AWS_REGION"]) ?? nonEmpty(environment["AWS_DEFAULT_REGION"])
            ?? nonEmpty(ownQueueURL).flatMap(URL.init(string:)).flatMap(SQSConfiguration.regionFromQueueHost)
            ?? CredentialChain.profileRegion(files: files, profile: selected.name)?.region
        return ReplyQueuePolicy(viewerRegion: viewerRegion, configuredEndpoint: endpoint?.absoluteString)
    }

    /// Sends to the queues `policy` allows, each with a client for the checked endpoint: an AWS queue's
    /// requests are signed for its own region.
    static func sender(policy: ReplyQueuePolicy, region: String?, endpointURL: String?, profile: String?,
                       environment: [String: String]) throws -> ReplySender {
        let allowPrivate = try privateWebhooks().value
        return ReplySender(policy: policy, clientFor: { target in
            var configuration = try SQSConfiguration.resolve(
                flags: .init(region: target.region ?? region, queueURL: target.endpoint + "/", endpointURL: endpointURL,
                             profile: profile),
                environment: environment)
            guard let endpoint = URL(string: target.endpoint) else { throw ConfigurationError("not a URL: \(target.endpoint)") }
            configuration.endpoint = Provenanced(endpoint, from: "reply queue")
            return configuration.makeClient()
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
    /// `reply_to`. A failure with the reason when the event takes no such answer, or when `policy` refuses
    /// its queue (nothing is signed or sent).
    static func record(answering event: Event, with answer: Reply.Answer, from sender: String, policy: ReplyQueuePolicy,
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
        if case .queue(let url) = destination, case .failure(let refusal) = policy.target(for: url) {
            return .failure(CommandFailure("refused: \(refusal.reason)", exitCode: 2))
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
