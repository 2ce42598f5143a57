import Foundation
import Ingest
import SQSClient
import TestSupport
import Testing
import TimelineStore

/// Sustained live traffic: every receive comes back full, for as long as the agents publish. The poller
/// must still store (and so show) what it took within a viewer's time budget, not only once it holds
/// `messagesPerCommit` messages.
@Suite struct PollerSustainedTrafficTests {
    @Test func fullReceivesWithoutEndAreStoredWithinTheGatherTime() throws {
        let (directory, path, factory) = try PollerScriptedTests.temporaryStore()
        defer { withExtendedLifetime(directory) {} }
        // 200 full receives (2,000 messages), then nothing; the clock moves 10 ms at each reading, so the
        // viewers' 50 ms gather time passes after a few receives, long before 500 messages are held.
        let receives = Locked(0)
        let transport = ScriptedTransport { call throws(TransportError) in
            switch call.action {
            case "ReceiveMessage":
                let n = receives.withValue { $0 += 1; return $0 }
                return n <= 200 ? ScriptedTransport.messages(PollerScriptedTests.events(10, prefix: "r\(n)-"))
                    : ScriptedTransport.ok("{}")
            case "DeleteMessageBatch":
                return ScriptedTransport.deleted(call)
            default:
                return ScriptedTransport.ok("{}")
            }
        }
        let reports = Locked<[BatchReport]>([])
        let poller = PollerScriptedTests.poller(transport, store: factory, clockStep: 0.01, onBatch: { outcome in
            if case .stored(let report) = outcome { reports.withValue { $0.append(report) } }
        })
        poller.start()
        #expect(PollerTestKit.eventually(timeout: 30) { reports.current.map(\.received).reduce(0, +) == 2_000 })
        #expect(poller.stop())
        let sizes = reports.current.map(\.received)
        #expect(sizes.allSatisfy { $0 <= 100 }, "commits held more than the gather time allows: \(sizes)")
        #expect(reports.current.allSatisfy { $0.stored == $0.received && $0.deleted == $0.received })
        #expect(try TimelineStore(path: path).stats().events == 2_000)
    }

    @Test func fullReceivesAddWorkersUpToTheBoundAndAQuietQueueGoesBackToLongPolls() throws {
        let (directory, path, factory) = try PollerScriptedTests.temporaryStore()
        defer { withExtendedLifetime(directory) {} }
        // 400 full receives (4,000 messages), each answering after 2 ms; then an empty queue, whose long polls
        // answer after 20 ms (a server holding the request until its wait ends, shortened).
        let fullReceives = 400
        let receives = Locked(0)
        let transport = ScriptedTransport { call throws(TransportError) in
            switch call.action {
            case "ReceiveMessage":
                let n = receives.withValue { $0 += 1; return $0 }
                if n <= fullReceives {
                    Thread.sleep(forTimeInterval: 0.002)
                    return ScriptedTransport.messages(PollerScriptedTests.events(10, prefix: "w\(n)-"))
                }
                if call.body["WaitTimeSeconds"] as? Int == 20 { Thread.sleep(forTimeInterval: 0.02) }
                return ScriptedTransport.ok("{}")
            case "DeleteMessageBatch":
                return ScriptedTransport.deleted(call)
            default:
                return ScriptedTransport.ok("{}")
            }
        }
        let box = Locked<Poller?>(nil)
        let peakWorkers = Locked(0)
        let stored = Locked(0)
        let poller = PollerScriptedTests.poller(transport, store: factory, concurrency: 2, clockStep: 0.01, onBatch: { outcome in
            guard case .stored(let report) = outcome else { return }
            stored.withValue { $0 += report.received }
            let workers = box.current?.status.receiveWorkers ?? 0
            peakWorkers.withValue { $0 = max($0, workers) }
        })
        box.withValue { $0 = poller }
        poller.start()
        #expect(poller.status.receiveWorkers == 2)
        #expect(PollerTestKit.eventually(timeout: 60) { stored.current == fullReceives * 10 }, "stored \(stored.current)")
        #expect(peakWorkers.current > 2, "full receives added no worker")
        #expect(peakWorkers.current <= PollerConfiguration.defaultMaxConcurrency, "workers: \(peakWorkers.current)")
        // Quiet again: back to the usual two workers, each in a long poll (no receive without a wait).
        #expect(PollerTestKit.eventually(timeout: 30) { poller.status.receiveWorkers == 2 }, "\(poller.status.receiveWorkers) workers")
        let quietFrom = transport.calls("ReceiveMessage").count
        #expect(PollerTestKit.eventually(timeout: 30) { transport.calls("ReceiveMessage").count >= quietFrom + 12 })
        let waits = transport.calls("ReceiveMessage").suffix(10).map { $0.body["WaitTimeSeconds"] as? Int ?? -1 }
        #expect(waits == Array(repeating: 20, count: 10), "waits: \(waits)")
        #expect(poller.stop())
        #expect(poller.status.receiveWorkers == 0)
        #expect(try TimelineStore(path: path).stats().events == fullReceives * 10)
        #expect(poller.status.deleted == fullReceives * 10)
    }
}
