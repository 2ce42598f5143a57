import SigV4
import SharedRules

/// The `MessageGroupId` and `MessageDeduplicationId` timeline sends to FIFO queues and topics:
/// group = the task id (one task's updates stay in order, tasks run in parallel), deduplication = the
/// event id (a resent event is dropped by SQS within its 5-minute window, and by the store anyway).
///
/// SQS allows 1–128 characters from `[!-~]` (printable ASCII). An id that fits is sent as it is; any
/// other is replaced by the hex SHA-256 of its UTF-8 bytes, still one stable key per id.
/// `agent-tool/fifo_keys.py` applies the same rule.
public enum FIFOKeys {
    /// True for a `.fifo` queue URL or topic ARN (`AWSNames.isFIFO`).
    public static func isFIFO(_ queueURLOrTopicARN: String) -> Bool { AWSNames.isFIFO(queueURLOrTopicARN) }

    /// `id` as SQS accepts it for a group or deduplication id.
    public static func key(_ id: String) -> String {
        let bytes = Array(id.utf8)
        if (1...128).contains(bytes.count), bytes.allSatisfy({ (0x21...0x7E).contains($0) }) { return id }
        return Digest.hex(Digest.sha256(bytes))
    }
}
