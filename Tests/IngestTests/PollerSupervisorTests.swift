import Foundation
import Ingest
import SQSClient
import TestSupport
import Testing
import TimelineStore

/// The background poller of an interactive viewer: it resolves its target off the caller's thread,
/// retries a passing failure, stops on a lasting one until `restart()`, and stops at once when asked.
@Suite struct PollerSupervisorTests {
    static let queueURL = "http://127.0.0.1:1/000000000000/q"

    /// A client answering every receive with an empty batch (a healthy, idle queue).
    static func idleClient() -> (SQSClient, ScriptedTransport) {
        let transport = ScriptedTransport { _ throws(TransportError) in ScriptedTransport.ok("{}") }
        let client = SQSClient(endpoint: URL(string: "http://127.0.0.1:1")!, region: "us-east-1",
                               credentials: StaticCredentialsProvider(TestClients.credentials), transport: transport)
        return (client, transport)
    }

    static func supervisor(_ resolve: @escaping PollerSupervisor.Resolve) throws -> (PollerSupervisor, TemporaryDirectory) {
        let directory = try TemporaryDirectory(prefix: "supervisor")
        let supervisor = PollerSupervisor(
            resolve: resolve, configuration: PollerConfiguration(queueURLs: [], concurrency: 1, waitSeconds: 0),
            databasePath: directory.file("timeline.db"), timing: PollerTiming(random: { 0 }))
        return (supervisor, directory)
    }

    static func isPolling(_ status: PollerSupervisor.Status) -> Bool {
        if case .polling = status.state { return true }
        return false
    }

    @Test func aPassingFailureIsRetriedUntilTheTargetResolves() throws {
        let attempts = Locked(0)
        let (client, transport) = Self.idleClient()
        let (supervisor, directory) = try Self.supervisor { _ in
            let n = attempts.withValue { $0 += 1; return $0 }
            if n < 3 { throw SQSError(kind: .server, code: "HTTP 503", message: "busy", httpStatus: 503) }
            return PollerTarget(client: client, queueURLs: [Self.queueURL])
        }
        supervisor.start()
        #expect(PollerTestKit.eventually(timeout: 10) { Self.isPolling(supervisor.status) })
        #expect(attempts.withValue { $0 } == 3)
        #expect(PollerTestKit.eventually(timeout: 10) { !transport.calls("ReceiveMessage").isEmpty })
        #expect(supervisor.status.queueURL == Self.queueURL)
        supervisor.stop()
        _ = directory
    }

    @Test func aLastingFailureStopsUntilRestartAndRestartResolvesAgain() throws {
        let fixed = Locked(false)
        let firstLaunches = Locked<[Bool]>([])
        let (client, _) = Self.idleClient()
        let (supervisor, directory) = try Self.supervisor { first in
            firstLaunches.withValue { $0.append(first) }
            guard fixed.withValue({ $0 }) else {
                throw SQSError(kind: .queueMissing, code: "QueueDoesNotExist", message: "gone", httpStatus: 400)
            }
            return PollerTarget(client: client, queueURLs: [Self.queueURL])
        }
        supervisor.start()
        #expect(PollerTestKit.eventually(timeout: 10) { supervisor.status.isStopped })
        guard case .failedToStart(let reason) = supervisor.status.state else {
            Issue.record("expected a failed start, got \(supervisor.status.state)")
            return
        }
        #expect(reason.summary == "the queue does not exist")
        fixed.withValue { $0 = true }
        supervisor.restart()
        #expect(PollerTestKit.eventually(timeout: 10) { Self.isPolling(supervisor.status) })
        #expect(firstLaunches.withValue { $0 } == [true, false], "only the first launch may use prepared settings")
        supervisor.stop()
        _ = directory
    }

    @Test func anyOtherFailureStopsWithItsOwnWords() throws {
        let (supervisor, directory) = try Self.supervisor { _ in throw ConfigurationError("No queue given: pass --queue-url") }
        supervisor.start()
        #expect(PollerTestKit.eventually(timeout: 10) { supervisor.status.isStopped })
        #expect(supervisor.status.state == .failedToStart(.notStarted("No queue given: pass --queue-url")))
        _ = directory
    }

    @Test func restartDoesNothingWhilePolling() throws {
        let resolutions = Locked(0)
        let (client, _) = Self.idleClient()
        let (supervisor, directory) = try Self.supervisor { _ in
            resolutions.withValue { $0 += 1 }
            return PollerTarget(client: client, queueURLs: [Self.queueURL])
        }
        supervisor.start()
        #expect(PollerTestKit.eventually(timeout: 10) { Self.isPolling(supervisor.status) })
        supervisor.restart()
        supervisor.stop()
        #expect(resolutions.withValue { $0 } == 1)
        _ = directory
    }

    @Test func stopEndsTheWaitBeforeARetry() throws {
        let directory = try TemporaryDirectory(prefix: "supervisor")
        let attempts = Locked(0)
        // A real backoff (no zero jitter): the retry would wait up to an hour.
        let supervisor = PollerSupervisor(
            resolve: { _ in
                attempts.withValue { $0 += 1 }
                throw SQSError(kind: .server, code: "HTTP 503", message: "busy", httpStatus: 503)
            },
            configuration: PollerConfiguration(queueURLs: [], concurrency: 1), databasePath: directory.file("t.db"),
            timing: PollerTiming(random: { 0.999 }), backoff: Backoff(base: 3_600, cap: 3_600))
        supervisor.start()
        #expect(PollerTestKit.eventually(timeout: 10) {
            if case .retryingStart = supervisor.status.state { return true }
            return false
        })
        let started = Date()
        supervisor.stop()
        #expect(PollerTestKit.eventually(timeout: 10) {
            if case .retryingStart = supervisor.status.state { return false }
            return true
        })
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(attempts.withValue { $0 } == 1)
    }
}
