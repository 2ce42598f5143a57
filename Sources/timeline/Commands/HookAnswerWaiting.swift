import AgentHooks
import Foundation
import ReplyDelivery
import SQSClient
import TimelineCore

/// Where permission prompts get their answers: the host's reply queue, read by `ReplyWaiter` with the one
/// acceptance rule (`ReplyAcceptance`: this question, its task and agent, an offered action or a text,
/// each reply id once) and a required SQS `SenderId` allowlist (`TIMELINE_REPLY_SENDERS` /
/// `reply_senders`): an answer is a grant. Without an allowlist no waiter is made (nothing could be
/// accepted), and the prompt is only reported.
enum HookAnswerWaiting {
    /// `answeredElsewhere` is asked between receives: true once the agent moved on (its prompt was
    /// answered in its own terminal); `onAnsweredElsewhere` then ends the wait (and the process).
    static func waiter(environment: [String: String], replyQueueURL: String,
                       answeredElsewhere: @escaping @Sendable () -> Bool,
                       onAnsweredElsewhere: @escaping @Sendable () -> Never) -> (any PermissionAnswerWaiter)? {
        guard let allowlist = (try? ReplySenders.allowlist(environment: environment)) ?? nil else { return nil }
        return ReplyQueueAnswerWaiter(environment: environment, replyQueueURL: replyQueueURL, allowlist: allowlist,
                                      answeredElsewhere: answeredElsewhere, onAnsweredElsewhere: onAnsweredElsewhere)
    }
}

/// A `PermissionAnswerWaiter` over the reply queue.
struct ReplyQueueAnswerWaiter: PermissionAnswerWaiter {
    var environment: [String: String]
    var replyQueueURL: String
    var allowlist: SenderAllowlist
    var answeredElsewhere: @Sendable () -> Bool
    var onAnsweredElsewhere: @Sendable () -> Never
    /// How long one receive waits before the hook looks again whether the prompt was answered elsewhere.
    static let slice: TimeInterval = 2

    func answer(to question: PermissionQuestion, until deadline: Date) -> PermissionAnswer? {
        let asked = AskedQuestion(eventID: question.questionID, taskID: question.taskID, agentID: question.agentID,
                                  offeredActions: Set(question.actions), acceptsText: question.actions.contains("deny"))
        guard let configuration = try? SQSConfiguration.resolve(flags: .init(queueURL: replyQueueURL), environment: environment)
        else { return nil }
        let credentials = CredentialFileCache(
            chain: configuration.credentials,
            directory: HookSpool.stateDirectory(environment: environment).appendingPathComponent("credentials-cache"))
        let client = SQSClient(endpoint: configuration.endpoint.value, region: configuration.region.value, credentials: credentials)
        var waiter = ReplyWaiter(client: client, queueURL: replyQueueURL,
                                 acceptance: ReplyAcceptance(question: asked, allowedSenders: allowlist, requirement: .required))
        var found: Reply?
        while found == nil, deadline.timeIntervalSinceNow > 0 {
            if answeredElsewhere() { onAnsweredElsewhere() }
            do {
                found = try waiter.wait(seconds: min(Self.slice, deadline.timeIntervalSinceNow))
            } catch {
                Thread.sleep(forTimeInterval: min(1, max(0, deadline.timeIntervalSinceNow)))  // the network: try again
            }
        }
        guard let reply = found else { return nil }
        switch reply.answer {
        case .action(let id): return PermissionAnswer(action: id, text: nil, offered: question.actions)
        case .text(let text): return PermissionAnswer(action: nil, text: text, offered: question.actions)
        }
    }
}
