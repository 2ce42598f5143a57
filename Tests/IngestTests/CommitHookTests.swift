import Foundation
import Ingest
import SQSClient
import TestSupport
import Testing
import TimelineCore
import TimelineStore

/// When the Poller's `onCommit` hook fires: after a batch is committed to the store (another connection
/// reads it) and before its messages are deleted from SQS (the queue still holds them). Real moto, real file.
@Suite(.serialized) struct CommitHookTests {
    enum Step: Equatable {
        /// What the hook saw: events another connection reads, and messages still in the queue.
        case hook(storedEvents: Int, inQueue: Int)
        case batch(received: Int, stored: Int, deleted: Int)
    }

    @Test func onCommitFiresAfterTheCommitAndBeforeTheDeletes() throws {
        // A long visibility timeout: no message comes back as a duplicate while the test looks.
        let kit = try PollerTestKit(prefix: "commit-hook", visibilityTimeout: 60)
        let total = 23
        try kit.send((0..<total).map { PollerTestKit.eventJSON(id: "c\($0)", task: "t\($0)", title: "Task \($0)", second: $0) })
        let steps = Locked<[Step]>([])
        let (dbPath, client, queueURL) = (kit.dbPath, kit.client, kit.queueURL)
        // One worker throughout (none added while receives come back full): each hook is followed by its batch.
        let poller = kit.poller(
            waitSeconds: 1, concurrency: 1, maxConcurrency: 1, stopWhenEmpty: true,
            onBatch: { outcome in
                guard case .stored(let report) = outcome else { return }
                steps.withValue { $0.append(.batch(received: report.received, stored: report.stored, deleted: report.deleted)) }
            },
            onCommit: {
                let stored = (try? TimelineStore(path: dbPath).count(matching: TimelineQuery())) ?? -1
                let inQueue = (try? PollerTestKit.queueDepth(client, queueURL)) ?? -1
                steps.withValue { $0.append(.hook(storedEvents: stored, inQueue: inQueue)) }
            })
        poller.start()
        #expect(poller.waitUntilStopped(deadline: Date().addingTimeInterval(60)), "status: \(poller.status.summary)")
        let log = steps.current
        try #require(log.count >= 4 && log.count % 2 == 0, "at least two batches, each a hook then a report: \(log)")

        var storedSoFar = 0
        var deletedSoFar = 0
        for pair in stride(from: 0, to: log.count, by: 2) {
            guard case .hook(let storedEvents, let inQueue) = log[pair],
                  case .batch(let received, let stored, let deleted) = log[pair + 1] else {
                Issue.record("not a hook followed by its batch at \(pair): \(log)"); return
            }
            storedSoFar += stored
            // Committed: another connection already reads this batch's events.
            #expect(storedEvents == storedSoFar, "\(log)")
            // Not deleted yet: the queue still holds every message not deleted by an earlier batch, this one's included.
            #expect(inQueue == total - deletedSoFar, "\(log)")
            #expect(inQueue >= received && received > 0, "\(log)")
            // Then deleted, before the batch is reported.
            #expect(deleted == received, "\(log)")
            deletedSoFar += deleted
        }
        #expect(storedSoFar == total && deletedSoFar == total)
        #expect(try kit.queueDepth() == 0)
    }
}
