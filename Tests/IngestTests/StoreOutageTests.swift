import Foundation
import Ingest
import SQSClient
import TestSupport
import Testing
import TimelineCore
import TimelineStore

/// A real full disk (a small tmpfs) under a real poller and a real queue (moto).
@Suite(.serialized) struct StoreOutageTests {
    @Test(.enabled(if: TmpfsMount.isAvailable, Comment(rawValue: TmpfsMount.unavailableReason)))
    func aFullDiskHoldsTheBatchesAndEveryEventIsStoredOnceSpaceReturns() throws {
        // A 2 s visibility timeout: without holding (and extending) the batches, each message would be
        // received again every 2 s while the disk is full, on its way to a dead-letter queue.
        let kit = try PollerTestKit(prefix: "full-disk", visibilityTimeout: 2)
        let disk = try TmpfsMount(sizeKiB: 2048)
        let dbPath = disk.directory.appendingPathComponent("timeline.db").path
        let reports = Locked<[BatchOutcome]>([])
        let poller = kit.poller(waitSeconds: 1, dbPath: dbPath, onBatch: { outcome in reports.withValue { $0.append(outcome) } })
        poller.start()
        defer { poller.stop() }
        // The disk fills while polling runs (each worker has opened its connection).
        #expect(PollerTestKit.eventually { poller.status.state == .receiving })
        let filler = disk.fill()
        let padding = String(repeating: "x", count: 1500)
        try kit.send((0..<30).map { n in
            let event = PollerTestKit.eventJSON(id: "f\(n)", task: "ft\(n % 9)", title: "event \(n)", second: n)
            return String(event.dropLast()) + #","body":"\#(padding)"}"#
        })

        var cause: StoreFailure?
        #expect(PollerTestKit.eventually(timeout: 30) {
            if case .backingOff(_, .store(let failure)) = poller.status.state { cause = failure }
            return cause != nil
        }, "status: \(poller.status.summary)")
        let failure = try #require(cause)
        #expect([.full, .sharedMemoryFull].contains(failure.problem), "\(failure)")
        #expect(failure.explanation.contains("full"), "\(failure.explanation)")
        // Several visibility timeouts pass with the disk full: nothing more is received meanwhile.
        Thread.sleep(forTimeInterval: 7)
        #expect(poller.status.received <= 20, "received \(poller.status.received) while the store was down")
        #expect(poller.status.stored == 0)

        try FileManager.default.removeItem(atPath: filler)
        // `>=`: on a loaded machine a message can outlive the 2 s visibility timeout after space returns and
        // come back once; it is then a duplicate (stored once, deleted again), which the checks below allow.
        let stored = PollerTestKit.eventually(timeout: 120) { poller.status.stored == 30 && poller.status.deleted >= 30 }
        #expect(stored, "status: \(poller.status.summary)")
        #expect(poller.stop())
        let store = try TimelineStore(path: dbPath)
        #expect(try store.stats().events == 30)
        #expect(try store.stats().rejected == 0)
        let status = poller.status
        #expect(status.received == status.stored + status.duplicates, "every receive is stored once or a duplicate")
        let receiveCounts = reports.current.compactMap { outcome -> Int? in
            if case .stored(let report) = outcome { return report.maxReceiveCount }
            return nil
        }
        #expect(!receiveCounts.isEmpty && receiveCounts.allSatisfy { $0 <= 2 }, "receive counts: \(receiveCounts)")
        #expect(reports.current.contains { if case .storeFailed = $0 { true } else { false } })
        #expect(try kit.queueDepth() == 0)
    }

    @Test(.enabled(if: TmpfsMount.isAvailable, Comment(rawValue: TmpfsMount.unavailableReason)))
    func openingOnAFullDiskExplainsWhatItMeans() throws {
        let disk = try TmpfsMount(sizeKiB: 256)
        disk.fill()
        let path = disk.directory.appendingPathComponent("timeline.db").path
        do {
            _ = try TimelineStore(path: path)
            Issue.record("created a database on a full disk")
        } catch let error as SQLiteError {
            #expect([.full, .sharedMemoryFull, .ioError, .cannotOpen].contains(error.problem), "\(error)")
            #expect(error.description.contains("Free space") || error.description.contains("directory"), "\(error)")
        }
    }
}
