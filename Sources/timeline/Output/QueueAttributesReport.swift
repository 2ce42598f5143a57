import Foundation
import StrictJSON
import SQSClient
import TimelineCore
import TimelineStore

/// `timeline doctor`'s explanation of what the queue itself says: its attributes in words, the depth of its
/// dead-letter queue, and stored events that were received 3 times or more. Informational lines; problems
/// worth a look start with ⚠ (they do not fail doctor: the setup works, something needs attention).
struct QueueAttributesReport {
    struct Line: Equatable {
        var name: String
        var text: String
    }

    /// The queue's attributes explained, one line each.
    static func explain(_ a: [String: String], deadLetterDepth: (String) -> String?) -> [Line] {
        var lines: [Line] = []
        if let retention = a["MessageRetentionPeriod"].flatMap(Int.init) {
            let note = retention < 86_400 ? " ⚠ short: events sent while no viewer runs for longer are lost" : ""
            lines.append(Line(name: "retention", text: "\(DurationText.prose(seconds: Int64(retention))): how long events wait while no viewer runs"
                + (retention == 345_600 ? " (the SQS default; `timeline setup` uses 14 days, the most SQS allows)" : "") + note))
        }
        if let visibility = a["VisibilityTimeout"].flatMap(Int.init) {
            lines.append(Line(name: "visibility", text: "\(DurationText.prose(seconds: Int64(visibility))): a received message stays hidden this long; "
                + "one not deleted (viewer stopped mid-batch) comes back after it"))
        }
        if let size = a["MaximumMessageSize"].flatMap(Int.init) {
            let note = size < EventLimits.messageBytes
                ? " ⚠ larger events are refused by SQS when sent; timeline accepts up to 1 MiB: "
                  + "aws sqs set-queue-attributes --attributes MaximumMessageSize=1048576"
                : " (the most SQS carries)"
            lines.append(Line(name: "max size", text: "\(bytes(size)) per message\(note)"))
        }
        if let delay = a["DelaySeconds"].flatMap(Int.init), delay > 0 {
            lines.append(Line(name: "delay", text: "\(DurationText.prose(seconds: Int64(delay))): every message is delivered this late"))
        }
        lines.append(deadLetterLine(a, deadLetterDepth: deadLetterDepth))
        if a["FifoQueue"] == "true" {
            let dedup = a["ContentBasedDeduplication"] == "true" ? "content-based deduplication on" : "deduplication by event id"
            lines.append(Line(name: "type", text: "FIFO (\(dedup)): one task's events arrive in order (group = task id)"))
        } else {
            lines.append(Line(name: "type", text: "standard: events may arrive out of order or twice; "
                + "timeline orders by timestamp and ignores duplicates"))
        }
        lines.append(encryptionLine(a))
        return lines
    }

    private static func deadLetterLine(_ a: [String: String], deadLetterDepth: (String) -> String?) -> Line {
        guard let text = a["RedrivePolicy"], let policy = JSONReader.object(from: Array(text.utf8)),
              let target = policy["deadLetterTargetArn"] as? String
        else {
            return Line(name: "dead letters", text: "none: a message that keeps failing is retried until retention ends "
                + "(`timeline setup` adds a dead-letter queue)")
        }
        let receives = policy["maxReceiveCount"].map { "\($0)" } ?? "?"
        let name = AWSNames.resourceName(ofARN: target)
        var line = "after \(receives) receives to \(name)"
        switch deadLetterDepth(target) {
        case nil: line += " (its depth could not be read)"
        case "0"?: line += ", which is empty"
        case let depth?: line += " ⚠ \(depth) message\(depth == "1" ? "" : "s") waiting there: events that failed \(receives) times"
        }
        return Line(name: "dead letters", text: line)
    }

    private static func encryptionLine(_ a: [String: String]) -> Line {
        if let key = a["KmsMasterKeyId"], !key.isEmpty {
            return Line(name: "encryption", text: "SSE-KMS with \(key): agents need kms:GenerateDataKey, viewers kms:Decrypt on it")
        }
        if a["SqsManagedSseEnabled"] == "true" {
            return Line(name: "encryption", text: "SSE-SQS (keys managed by SQS; nothing to grant)")
        }
        return Line(name: "encryption", text: "none at rest")
    }

    /// The dead-letter queue's visible messages, looked up by its ARN (nil when it cannot be read).
    static func depth(ofQueueARN arn: String, client: SQSClient) -> String? {
        let parts = arn.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 6 else { return nil }
        guard let url = try? client.getQueueURL(name: parts[5], ownerAccountID: parts[4]) else { return nil }
        return (try? client.getQueueAttributes(queueURL: url, names: ["ApproximateNumberOfMessages"]))?["ApproximateNumberOfMessages"]
    }

    /// Stored events received 3 times or more (nil when there are none).
    static func redeliveredLine(_ store: TimelineStore) -> Line? {
        guard let found = try? store.eventsReceivedManyTimes(), found.count > 0 else { return nil }
        let examples = found.newest.map { "\(DisplayText.sanitize($0.taskID)) (\($0.receiveCount)×)" }.joined(separator: ", ")
        return Line(name: "redelivered", text: "⚠ \(found.count) stored event\(found.count == 1 ? " was" : "s were") received "
            + "\(QueueDelivery.flaggedReceiveCount)+ times: storing or deleting failed before; newest: \(examples)")
    }

    /// `256 KiB`, `1 MiB`.
    static func bytes(_ n: Int) -> String {
        n % 1_048_576 == 0 ? "\(n / 1_048_576) MiB" : n % 1_024 == 0 ? "\(n / 1_024) KiB" : "\(n) bytes"
    }
}
