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
}
