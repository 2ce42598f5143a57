import Foundation
import TimelineCore
import Ingest
import SQSClient

/// The TUI's side of the background poller: how its target is resolved.
enum TUIPollerStatus {
    /// The poller's target from the queue options. An SQS error keeps its type (the supervisor retries a
    /// passing one); any other failure carries the words `FailureReport` gives it.
    static func resolve(_ options: QueueOptions, prepared: SQSConfiguration?) throws -> PollerTarget {
        do {
            return try options.pollerTarget(resolved: prepared)
        } catch let error as SQSError {
            throw error
        } catch {
            throw CommandFailure(FailureReport(error)?.message ?? "\(error)")
        }
    }
}
