import Foundation
import StrictJSON
import SharedRules

/// What `timeline setup` wires for SNS fan-out, and how it finds out what already exists: the topic,
/// this viewer's queue and its dead-letter queue, the raw-delivery subscription, and the queue policy
/// that lets the topic send. Each step first reads, then creates or corrects only what differs, so a
/// second run changes nothing. With `dryRun` nothing is written: each step says what it would do.
public struct FanOutPlan {
    public let sns: SNSClient
    public let sqs: SQSClient
    public let topicName: String
    public let queueName: String
    public let dryRun: Bool
    /// Called with one line per step (`exists`, `created`, `updated`, `would create`, ...).
    public let report: (String) -> Void

    public init(sns: SNSClient, sqs: SQSClient, topicName: String, queueName: String, dryRun: Bool,
                report: @escaping (String) -> Void) {
        self.sns = sns
        self.sqs = sqs
        self.topicName = topicName
        self.queueName = queueName
        self.dryRun = dryRun
        self.report = report
    }

    /// 14 days: the longest SQS keeps a message (events wait this long for a viewer that is away).
    public static let retentionSeconds = "1209600"
    /// Deliveries before a message that keeps failing moves to the dead-letter queue.
    public static let maxReceiveCount = 5

    /// The ARNs and URLs the setup ends with (placeholders on a dry run when something does not exist yet).
    public struct Result: Equatable {
        public var topicARN: String
        public var queueURL: String
        public var queueARN: String
        public var deadLetterQueueARN: String
    }

    public var isFIFO: Bool { AWSNames.isFIFO(topicName) }
    public var deadLetterName: String {
        isFIFO ? String(queueName.dropLast(".fifo".count)) + "-dlq.fifo" : queueName + "-dlq"
    }

    public func run() throws(SQSError) -> Result {
        let topicARN = try ensureTopic()
        let (_, dlqARN) = try ensureQueue(deadLetterName, attributes: baseQueueAttributes)
        var attributes = baseQueueAttributes
        attributes["RedrivePolicy"] = #"{"deadLetterTargetArn":"\#(dlqARN)","maxReceiveCount":"\#(Self.maxReceiveCount)"}"#
        let (queueURL, queueARN) = try ensureQueue(queueName, attributes: attributes, policyFor: topicARN)
        try ensureSubscription(topicARN: topicARN, queueARN: queueARN)
        return Result(topicARN: topicARN, queueURL: queueURL, queueARN: queueARN, deadLetterQueueARN: dlqARN)
    }

    private var baseQueueAttributes: [String: String] {
        var attributes = ["MessageRetentionPeriod": Self.retentionSeconds]
        if isFIFO { attributes["FifoQueue"] = "true" }
        return attributes
    }

    // MARK: - Steps

    private func ensureTopic() throws(SQSError) -> String {
        if let existing = try sns.listTopics().first(where: { AWSNames.resourceName(ofARN: $0) == topicName }) {
            report("topic         \(existing)  (exists)")
            return existing
        }
        if dryRun {
            report("topic         \(topicName)  (would create)")
            return "arn:aws:sns:\(sns.region):ACCOUNT_ID:\(topicName)"
        }
        let arn = try sns.createTopic(name: topicName, attributes: isFIFO ? ["FifoTopic": "true"] : [:])
        report("topic         \(arn)  (created)")
        return arn
    }

    /// The queue's URL and ARN; creates it, or sets the attributes that differ from `attributes`.
    private func ensureQueue(_ name: String, attributes wanted: [String: String], policyFor topicARN: String? = nil) throws(SQSError) -> (String, String) {
        let label = (topicARN == nil ? "dead letters" : "queue").padding(toLength: 13, withPad: " ", startingAt: 0)
        guard let url = try existingQueueURL(name) else {
            if dryRun {
                report("\(label) \(name)  (would create: 14-day retention\(topicARN == nil ? "" : ", dead-letter queue after \(Self.maxReceiveCount) receives, policy letting the topic send"))")
                return ("https://sqs.\(sqs.region).amazonaws.com/ACCOUNT_ID/\(name)", "arn:aws:sqs:\(sqs.region):ACCOUNT_ID:\(name)")
            }
            let url = try sqs.createQueue(name: name, attributes: wanted)
            let arn = try queueARN(url)
            if let topicARN { try sqs.setQueueAttributes(queueURL: url, attributes: ["Policy": Self.policy(queueARN: arn, topicARN: topicARN)]) }
            report("\(label) \(url)  (created)")
            return (url, arn)
        }
        let current = try sqs.getQueueAttributes(queueURL: url)
        let arn = current["QueueArn"] ?? ""
        var changes = wanted.filter { key, value in !Self.sameAttribute(key, current[key], value) }
        changes["FifoQueue"] = nil  // fixed at creation
        if let topicARN, !Self.policyAllows(current["Policy"], topicARN: topicARN, queueARN: arn) {
            changes["Policy"] = Self.policy(queueARN: arn, topicARN: topicARN)
        }
        if changes.isEmpty {
            report("\(label) \(url)  (exists, unchanged)")
        } else if dryRun {
            report("\(label) \(url)  (would update \(changes.keys.sorted().joined(separator: ", ")))")
        } else {
            try sqs.setQueueAttributes(queueURL: url, attributes: changes)
            report("\(label) \(url)  (updated \(changes.keys.sorted().joined(separator: ", ")))")
        }
        return (url, arn)
    }

    private func ensureSubscription(topicARN: String, queueARN: String) throws(SQSError) {
        let existing = dryRun && topicARN.contains("ACCOUNT_ID") ? nil
            : try sns.listSubscriptions(topicARN: topicARN).first { $0.protocolName == "sqs" && $0.endpoint == queueARN }
        guard let subscription = existing else {
            if dryRun {
                report("subscription  \(queueName) ← \(topicName)  (would create, raw delivery)")
                return
            }
            let arn = try sns.subscribe(topicARN: topicARN, protocolName: "sqs", endpoint: queueARN,
                                        attributes: ["RawMessageDelivery": "true"])
            report("subscription  \(arn)  (created, raw delivery)")
            return
        }
        let raw = try sns.subscriptionAttributes(arn: subscription.arn)["RawMessageDelivery"]?.lowercased() == "true"
        if raw {
            report("subscription  \(subscription.arn)  (exists, raw delivery)")
        } else if dryRun {
            report("subscription  \(subscription.arn)  (would turn raw delivery on)")
        } else {
            try sns.setSubscriptionAttribute(arn: subscription.arn, name: "RawMessageDelivery", value: "true")
            report("subscription  \(subscription.arn)  (updated: raw delivery on)")
        }
    }

    /// The queue's URL, nil when there is no such queue.
    private func existingQueueURL(_ name: String) throws(SQSError) -> String? {
        do {
            return try sqs.getQueueURL(name: name)
        } catch {
            if error.kind == .queueMissing { return nil }
            throw error
        }
    }

    private func queueARN(_ url: String) throws(SQSError) -> String {
        guard let arn = try sqs.getQueueAttributes(queueURL: url, names: ["QueueArn"])["QueueArn"] else {
            throw SQSError(kind: .client, code: "MissingQueueArn", message: "GetQueueAttributes gave no QueueArn for \(url)")
        }
        return arn
    }

    // MARK: - Rules

    /// The queue policy letting only this topic send to the queue.
    public static func policy(queueARN: String, topicARN: String) -> String {
        #"{"Version":"2012-10-17","Statement":[{"Sid":"timeline-topic-sends","Effect":"Allow","Principal":{"Service":"sns.amazonaws.com"},"Action":"sqs:SendMessage","Resource":"\#(queueARN)","Condition":{"ArnEquals":{"aws:SourceArn":"\#(topicARN)"}}}]}"#
    }

    /// Whether an existing policy already lets the topic send (a statement naming the topic and SendMessage).
    public static func policyAllows(_ policy: String?, topicARN: String, queueARN: String) -> Bool {
        guard let policy, let document = JSONReader.object(from: Array(policy.utf8)) else { return false }
        let statements = document["Statement"] as? [[String: Any]] ?? (document["Statement"] as? [String: Any]).map { [$0] } ?? []
        return statements.contains { statement in
            let actions = (statement["Action"] as? [String]) ?? (statement["Action"] as? String).map { [$0] } ?? []
            let text = String(describing: statement["Condition"] ?? "")
            return statement["Effect"] as? String == "Allow"
                && actions.contains { $0 == "sqs:SendMessage" || $0 == "sqs:*" }
                && text.contains(topicARN)
        }
    }

    /// Attribute values compared as SQS returns them (JSON documents by content, not by spacing).
    public static func sameAttribute(_ key: String, _ current: String?, _ wanted: String) -> Bool {
        guard let current else { return false }
        if key == "RedrivePolicy",
           let a = JSONReader.object(from: Array(current.utf8)), let b = JSONReader.object(from: Array(wanted.utf8)) {
            return "\(a["deadLetterTargetArn"] ?? "")" == "\(b["deadLetterTargetArn"] ?? "")"
                && "\(a["maxReceiveCount"] ?? "")" == "\(b["maxReceiveCount"] ?? "")"
        }
        return current == wanted
    }
}
