import Foundation
import SQSClient
import TimelineCore

/// Delivers one reply to where it goes: SendMessage to the `reply_to` queue (FIFO: group = task id,
/// deduplication = reply id), or an HTTPS POST of the reply JSON to an action's webhook. Blocks: run it on
/// a background lane. Never throws: the outcome is a `ReplyRecord.Delivery`. A queue the
/// `ReplyQueuePolicy` refuses gets nothing: no client is made and nothing is signed.
public struct ReplySender: Sendable {
    /// Makes an SQS client for a checked target (its endpoint, and its region when it is an AWS host),
    /// signed with the viewer's credentials.
    public typealias ClientFactory = @Sendable (_ target: ReplyQueuePolicy.Target) throws -> SQSClient

    /// Webhooks get this long for the whole exchange.
    public static let webhookTimeout: TimeInterval = 10

    /// Which queues may get a signed reply.
    public let policy: ReplyQueuePolicy
    private let clientFor: ClientFactory
    private let webhookTransport: any HTTPTransport
    /// `webhook_allow_private`: webhooks may reach private networks (link-local and metadata never).
    private let allowPrivateWebhooks: Bool

    public init(policy: ReplyQueuePolicy, clientFor: @escaping ClientFactory,
                webhookTransport: any HTTPTransport = CurlTransport(), allowPrivateWebhooks: Bool = false) {
        self.policy = policy
        self.clientFor = clientFor
        self.webhookTransport = webhookTransport
        self.allowPrivateWebhooks = allowPrivateWebhooks
    }

    /// Sends `record.reply` to `record.destination`.
    public func deliver(_ record: ReplyRecord) -> ReplyRecord.Delivery {
        switch record.destination {
        case .queue(let url): sendToQueue(url, record.reply)
        case .webhook(let url): post(url, record.reply)
        }
    }

    private func sendToQueue(_ url: String, _ reply: Reply) -> ReplyRecord.Delivery {
        guard QueueURLShape.isQueueURL(url) else { return .failed(reason: "not an SQS queue URL") }
        let target: ReplyQueuePolicy.Target
        switch policy.target(for: url) {
        case .success(let allowed): target = allowed
        case .failure(let refusal): return .failed(reason: refusal.reason)
        }
        let fifo = AWSNames.isFIFO(url)
        do {
            let client = try clientFor(target)
            let id = try client.sendMessage(queueURL: url, body: reply.json, groupID: fifo ? FIFOKeys.key(reply.taskID) : nil,
                                            deduplicationID: fifo ? FIFOKeys.key(reply.id) : nil)
            return .sent(detail: "message \(id)")
        } catch let error as SQSError {
            return .failed(reason: error.description)
        } catch {
            return .failed(reason: "\(error)")
        }
    }

    private func post(_ text: String, _ reply: Reply) -> ReplyRecord.Delivery {
        // Checked again here: only what the validator allows is ever contacted.
        guard WebURL.isAllowedWebhook(text), let url = URL(string: text) else {
            return .failed(reason: "not an allowed webhook URL")
        }
        // Where it points, by name here and by the connected address in the transport (`peerPolicy`).
        if let refusal = WebURL.webhookHostRefusal(text, allowPrivate: allowPrivateWebhooks) {
            return .failed(reason: "refused webhook: \(refusal)")
        }
        let request = HTTPRequest(method: "POST", url: url, headers: [
            HTTPHeader("Content-Type", "application/json"),
            HTTPHeader("Idempotency-Key", reply.id),
        ], body: Array(reply.json.utf8), responseLimit: .webhook, peerPolicy: .webhook(allowPrivate: allowPrivateWebhooks))
        do {
            let response = try webhookTransport.send(request, timeout: Self.webhookTimeout, cancel: nil)
            if (200..<300).contains(response.status) { return .sent(detail: "HTTP \(response.status)") }
            if (300..<400).contains(response.status) { return .failed(reason: "HTTP \(response.status) (redirects are not followed)") }
            return .failed(reason: "HTTP \(response.status)")
        } catch {
            return .failed(reason: error.description)
        }
    }
}
