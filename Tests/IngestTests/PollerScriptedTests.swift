import Foundation
import Ingest
import SQSClient
import TestSupport
import Testing
import TimelineCore
import TimelineStore

/// The poller's retry, give-up and store-failure logic against a scripted transport, with the backoff's
/// random source at 0 (no waiting) and a clock that jumps: runs in milliseconds, no server.
@Suite struct PollerScriptedTests {
    static let queueURL = "http://127.0.0.1:1/000000000000/q"

    /// A clock that moves `step` seconds each time it is read.
    static func jumpingClock(step: TimeInterval) -> @Sendable () -> Date {
        let now = Locked(Date())
        return { now.withValue { $0 = $0.addingTimeInterval(step); return $0 } }
    }

    static func poller(
        _ transport: ScriptedTransport, store: @escaping Poller.StoreFactory, concurrency: Int = 1,
        giveUpAfter: TimeInterval? = nil, storeGiveUpAfter: TimeInterval? = nil, clockStep: TimeInterval = 0,
        messagesPerCommit: Int = 500, maxConcurrency: Int? = nil, onBatch: (@Sendable (BatchOutcome) -> Void)? = nil
    ) -> Poller {
        Poller(
            client: SQSClient(
                endpoint: URL(string: "http://127.0.0.1:1")!, region: "us-east-1",
                credentials: StaticCredentialsProvider(TestClients.credentials), transport: transport),
            configuration: PollerConfiguration(
                queueURLs: [queueURL], concurrency: concurrency, waitSeconds: 20, messagesPerCommit: messagesPerCommit,
                giveUpAfter: giveUpAfter, storeGiveUpAfter: storeGiveUpAfter, maxConcurrency: maxConcurrency),
            makeStore: store, timing: PollerTiming(now: jumpingClock(step: clockStep), random: { 0 }),
            onBatch: onBatch)
    }

    /// A new store in its own directory; the directory lives as long as the returned value or factory.
    static func temporaryStore() throws -> (directory: TemporaryDirectory, path: String, factory: Poller.StoreFactory) {
        let directory = try TemporaryDirectory(prefix: "poller-scripted")
        let path = directory.file("timeline.db")
        _ = try TimelineStore(path: path)
        return (directory, path, { _ = directory; return try TimelineStore(path: path) })
    }

    static func events(_ count: Int, prefix: String) -> [String] {
        (0..<count).map { PollerTestKit.eventJSON(id: "\(prefix)\($0)", task: "\(prefix)t\($0)", title: "t", second: $0) }
    }

    @Test func connectingUntilARequestSucceedsAndAProbeAfterEveryFailure() throws {
        let calls = Locked(0)
        let transport = ScriptedTransport { call throws(TransportError) in
            guard call.action == "ReceiveMessage" else { return ScriptedTransport.ok("{}") }
            let n = calls.withValue { $0 += 1; return $0 }
            if n <= 3 { throw TransportError(kind: .connect, code: 7, message: "Connection refused") }
            return ScriptedTransport.ok("{}")
        }
        let poller = Self.poller(transport, store: try Self.temporaryStore().factory)
        #expect(poller.status.state == .connecting)
        poller.start()
        #expect(PollerTestKit.eventually(timeout: 10) { transport.calls("ReceiveMessage").count >= 6 })
        #expect(poller.stop())
        let waits = transport.calls("ReceiveMessage").map { $0.body["WaitTimeSeconds"] as? Int }
        // Every failed receive is followed by a short one (answers at once, so the state turns true at
        // once); long polls start only after a success.
        #expect(Array(waits.prefix(5)) == [0, 0, 0, 0, 20], "waits: \(waits)")
        #expect(poller.status.lastReceive != nil)
    }

    @Test func aFailingEndpointNeverShowsConnectedAndGivesUpAfterTheLimit() throws {
        let transport = ScriptedTransport { _ throws(TransportError) in
            throw TransportError(kind: .timeout, code: 28, message: "Operation timed out after 11000 milliseconds")
        }
        let poller = Self.poller(transport, store: try Self.temporaryStore().factory, giveUpAfter: 30, clockStep: 1)
        poller.start()
        #expect(poller.waitUntilStopped(deadline: Date().addingTimeInterval(10)))
        guard case .stopped(.gaveUp(let after, .request(let error))) = poller.status.state else {
            Issue.record("expected gave up, got \(poller.status.state)")
            return
        }
        #expect(after >= 30)
        #expect(error.transport?.kind == .timeout)
        #expect(poller.status.lastReceive == nil)
    }

    @Test func authFailuresStopWithATypedReason() throws {
        let cases: [(String, (StopReason) -> Bool)] = [
            ("AccessDeniedException", { if case .accessDenied = $0 { true } else { false } }),
            ("InvalidClientTokenId", { if case .credentialsRefused = $0 { true } else { false } }),
            ("QueueDoesNotExist", { if case .queueMissing(Self.queueURL, _) = $0 { true } else { false } }),
        ]
        for (code, matches) in cases {
            let transport = ScriptedTransport { _ throws(TransportError) in
                ScriptedTransport.error(status: 400, type: code, message: "no")
            }
            let poller = Self.poller(transport, store: try Self.temporaryStore().factory)
            poller.start()
            #expect(poller.waitUntilStopped(deadline: Date().addingTimeInterval(10)))
            let reason = try #require(poller.status.stopReason)
            #expect(matches(reason), "\(code): \(reason)")
        }
    }

    @Test func aStoreThatCannotCommitHoldsTheBatchAndStopsReceiving() throws {
        let (directory, path, _) = try Self.temporaryStore()
        defer { withExtendedLifetime(directory) {} }
        let bodies = Self.events(7, prefix: "h")
        let transport = ScriptedTransport { call throws(TransportError) in
            switch call.action {
            case "ReceiveMessage": return ScriptedTransport.messages(bodies)
            default: return ScriptedTransport.ok("{}")
            }
        }
        let outcomes = Locked<[BatchOutcome]>([])
        // A read-only connection: every commit fails with SQLITE_READONLY, as on a read-only file.
        let poller = Self.poller(
            transport, store: { try TimelineStore(path: path, readOnly: true) }, concurrency: 2,
            storeGiveUpAfter: 600, clockStep: 5, onBatch: { outcome in outcomes.withValue { $0.append(outcome) } })
        poller.start()
        #expect(poller.waitUntilStopped(deadline: Date().addingTimeInterval(10)))
        guard case .stopped(.storeFailed(let failure, let after)) = poller.status.state else {
            Issue.record("expected a store failure, got \(poller.status.state)")
            return
        }
        #expect(failure.problem == .readOnly)
        #expect(failure.explanation.contains("readonly database"), "\(failure.explanation)")
        #expect(after >= 600)
        // Two workers: at most one batch each was taken before the first failure stopped receiving.
        let receives = transport.calls("ReceiveMessage").count
        #expect(receives <= 2, "received \(receives) batches while the store was failing")
        #expect(transport.calls("DeleteMessageBatch").isEmpty)
        let visibility = transport.calls("ChangeMessageVisibilityBatch").map { $0.body["Entries"] as? [[String: Any]] ?? [] }
        #expect(visibility.count > 2, "held messages get their visibility extended on every retry")
        #expect(visibility.first?.first?["VisibilityTimeout"] as? Int ?? 0 >= 30)
        #expect(visibility.last?.first?["VisibilityTimeout"] as? Int == 0, "given up: handed back to the queue")
        #expect(outcomes.current.contains { if case .storeFailed(_, 7, let f) = $0 { f.problem == .readOnly } else { false } })
    }

    @Test func aBacklogIsStoredInCommitsOfUpToTheLimitAndLiveTrafficAtOnce() throws {
        let (directory, path, factory) = try Self.temporaryStore()
        defer { withExtendedLifetime(directory) {} }
        // One receive of 3 (live traffic), then 25 full ones (a backlog of 250), then nothing.
        let full = (0..<25).map { Self.events(10, prefix: "b\($0)-") }
        let receives = Locked(0)
        let transport = ScriptedTransport { call throws(TransportError) in
            switch call.action {
            case "ReceiveMessage":
                let n = receives.withValue { $0 += 1; return $0 }
                if n == 1 { return ScriptedTransport.messages(Self.events(3, prefix: "live-")) }
                return n <= 26 ? ScriptedTransport.messages(full[n - 2]) : ScriptedTransport.ok("{}")
            case "DeleteMessageBatch":
                return ScriptedTransport.deleted(call)
            default:
                return ScriptedTransport.ok("{}")
            }
        }
        let reports = Locked<[BatchReport]>([])
        // One worker throughout (no added workers), so the order of its receives is known.
        let poller = Self.poller(transport, store: factory, messagesPerCommit: 100, maxConcurrency: 1, onBatch: { outcome in
            if case .stored(let report) = outcome { reports.withValue { $0.append(report) } }
        })
        poller.start()
        #expect(PollerTestKit.eventually(timeout: 10) { reports.current.map(\.received).reduce(0, +) == 253 })
        #expect(poller.stop())
        // The receive that was not full is stored at once; full ones are gathered up to the limit (100 here) per
        // commit, and the empty receive after the backlog ends the last gathering at 50.
        #expect(reports.current.map(\.received) == [3, 100, 100, 50])
        #expect(reports.current.allSatisfy { $0.stored == $0.received && $0.deleted == $0.received })
        // The receives that gather do not wait; every message was deleted after its commit, 10 per call.
        let waits = transport.calls("ReceiveMessage").prefix(27).map { $0.body["WaitTimeSeconds"] as? Int ?? -1 }
        let gathering = Array(repeating: 0, count: 9)
        #expect(waits == [0, 20] + gathering + [20] + gathering + [20, 0, 0, 0, 0, 0], "waits: \(waits)")
        #expect(transport.calls("DeleteMessageBatch").count == 26)
        #expect(try TimelineStore(path: path).stats().events == 253)
    }
}
