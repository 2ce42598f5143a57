import Foundation
import SQSClient

/// Deletes stored messages with DeleteMessageBatch, retrying failed entries a few times.
/// A message that still cannot be deleted stays in the queue and is redelivered; idempotent ingest
/// absorbs it, so giving up is safe.
struct MessageDeleter {
    let client: SQSClient
    let queueURL: String
    var attempts = 4

    /// Returns how many messages were deleted and how many could not be.
    func delete(_ messages: [SQSMessage], shouldGiveUp: () -> Bool) -> (deleted: Int, failed: Int) {
        // Entry ids must be unique within a batch; one receipt handle per message.
        var pending = messages.enumerated().map { DeleteEntry(id: "m\($0.offset)", receiptHandle: $0.element.receiptHandle) }
        var deleted = 0
        var backoff = Backoff(base: 0.05, cap: 0.5)
        for attempt in 0..<attempts where !pending.isEmpty {
            if attempt > 0 {
                if shouldGiveUp() { break }
                Thread.sleep(forTimeInterval: backoff.nextDelay())
            }
            var next: [DeleteEntry] = []
            for chunk in stride(from: 0, to: pending.count, by: 10).map({ Array(pending[$0..<min($0 + 10, pending.count)]) }) {
                do {
                    let result = try client.deleteMessageBatch(queueURL: queueURL, entries: chunk)
                    deleted += result.successful.count
                    let failedIDs = Set(result.failed.filter { !$0.senderFault }.map(\.id))
                    // Sender faults (e.g. an expired receipt handle) will not succeed on retry.
                    next += chunk.filter { failedIDs.contains($0.id) }
                } catch {
                    if !error.isRetryable { return (deleted, messages.count - deleted) }
                    next += chunk
                }
            }
            pending = next
        }
        return (deleted, messages.count - deleted)
    }
}
