import Foundation
import SQSClient

/// What `timeline setup --reply-queue` wires: a reply queue whose policy lets only the named principals send.
/// Reads first, then creates or corrects only what differs (a second run changes nothing); with `dryRun`
/// nothing is written. No redrive policy: other agents' replies on a shared queue are received and released
/// many times, and a low `maxReceiveCount` would move them to a dead-letter queue.
public struct ReplyQueuePlan {
    public let sqs: SQSClient
    public let queueName: String
    /// IAM user or role ARNs (already checked with `ReplyQueueAccessPolicy.principal`).
    public let senders: [String]
    public let dryRun: Bool
    public let report: (String) -> Void

    public init(sqs: SQSClient, queueName: String, senders: [String], dryRun: Bool, report: @escaping (String) -> Void) {
        self.sqs = sqs
        self.queueName = queueName
        self.senders = senders
        self.dryRun = dryRun
        self.report = report
    }

    /// The reply queue's URL (a placeholder on a dry run when it does not exist yet).
    public func run() throws(SQSError) -> String {
        let existing: String?
        do {
            existing = try sqs.getQueueURL(name: queueName)
        } catch {
            guard error.kind == .queueMissing else { throw error }
            existing = nil
        }
        guard let url = existing else {
            if dryRun {
                report("reply queue   \(queueName)  (would create: only \(senders.joined(separator: ", ")) may send)")
                return "https://sqs.\(sqs.region).amazonaws.com/ACCOUNT_ID/\(queueName)"
            }
            let url = try sqs.createQueue(name: queueName)
            try sqs.setQueueAttributes(queueURL: url, attributes: ["Policy": try policy(url)])
            report("reply queue   \(url)  (created: only \(senders.joined(separator: ", ")) may send)")
            return url
        }
        let current = try sqs.getQueueAttributes(queueURL: url, names: ["Policy", "QueueArn", "RedrivePolicy"])
        if current["RedrivePolicy"].map({ !$0.isEmpty }) == true {
            report("warning       \(url) has a redrive policy: others' replies may reach its dead-letter queue")
        }
        if let allowed = ReplyQueueAccessPolicy.senders(in: current["Policy"]), Set(allowed) == Set(senders) {
            report("reply queue   \(url)  (exists, unchanged)")
        } else if dryRun {
            report("reply queue   \(url)  (would update Policy: only \(senders.joined(separator: ", ")) may send)")
        } else {
            try sqs.setQueueAttributes(queueURL: url, attributes: ["Policy": try policy(url, arn: current["QueueArn"])])
            report("reply queue   \(url)  (updated Policy: only \(senders.joined(separator: ", ")) may send)")
        }
        return url
    }

    private func policy(_ url: String, arn known: String? = nil) throws(SQSError) -> String {
        var found = known
        if found == nil { found = try sqs.getQueueAttributes(queueURL: url, names: ["QueueArn"])["QueueArn"] }
        guard let arn = found else {
            throw SQSError(kind: .client, code: "MissingQueueArn", message: "GetQueueAttributes gave no QueueArn for \(url)")
        }
        return ReplyQueueAccessPolicy.document(queueARN: arn, senders: senders)
    }
}
