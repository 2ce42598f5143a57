import Foundation
import Ingest
import SQSClient
import TestSupport
import TimelineCore
import TimelineStore

/// A queue on the shared moto server, a temp database, and helpers to publish events and await the poller.
final class PollerTestKit {
    let server: MotoServer
    let client: SQSClient
    let queueURL: String
    let directory: TemporaryDirectory
    let dbPath: String

    init(prefix: String = "poller", visibilityTimeout: Int = 5) throws {
        server = try MotoServer.shared
        client = TestClients.client(endpoint: server.endpoint)
        // A short visibility timeout: a receive abandoned mid-flight (endpoint killed) hides its messages
        // only briefly before they are redelivered.
        queueURL = try client.createQueue(
            name: "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())", attributes: ["VisibilityTimeout": "\(visibilityTimeout)"])
        directory = try TemporaryDirectory(prefix: prefix)
        dbPath = directory.file("timeline.db")
    }

    /// A poller on this queue and database, through `endpoint` (e.g. a fault proxy) when given.
    func poller(
        endpoint: URL? = nil, waitSeconds: Int = 2, concurrency: Int = 2, maxConcurrency: Int? = nil, peek: Bool = false,
        stopWhenEmpty: Bool = false, queueURL: String? = nil, dbPath: String? = nil,
        onBatch: (@Sendable (BatchOutcome) -> Void)? = nil, onCommit: (@Sendable () -> Void)? = nil,
        timing: PollerTiming = .system
    ) -> Poller {
        let pollClient = endpoint.map { TestClients.client(endpoint: $0) } ?? client
        let path = dbPath ?? self.dbPath
        return Poller(
            client: pollClient,
            configuration: PollerConfiguration(
                queueURLs: [queueURL ?? self.queueURL], concurrency: concurrency, waitSeconds: waitSeconds,
                peek: peek, stopWhenEmpty: stopWhenEmpty, maxConcurrency: maxConcurrency),
            makeStore: { try TimelineStore(path: path) }, timing: timing, onBatch: onBatch, onCommit: onCommit)
    }

    func store() throws -> TimelineStore { try TimelineStore(path: dbPath) }

    /// A valid event body.
    static func eventJSON(id: String, task: String, title: String, status: String = "info", second: Int) -> String {
        let ts = String(format: "2026-11-22T10:%02d:%02dZ", (second / 60) % 60, second % 60)
        return #"{"id":"\#(id)","agent_id":"agent-\#(task.hashValue & 3)","task_id":"\#(task)","title":"\#(title)","status":"\#(status)","timestamp":"\#(ts)"}"#
    }

    /// Sends bodies in batches of 10.
    func send(_ bodies: [String]) throws {
        for start in stride(from: 0, to: bodies.count, by: 10) {
            let chunk = bodies[start..<min(start + 10, bodies.count)]
            let result = try client.sendMessageBatch(
                queueURL: queueURL,
                entries: chunk.enumerated().map { SendEntry(id: "e\($0.offset)", body: $0.element) })
            precondition(result.failed.isEmpty, "send failed: \(result.failed)")
        }
    }

    /// Visible plus in-flight messages, as the queue reports them.
    func queueDepth() throws -> Int { try Self.queueDepth(client, queueURL) }

    /// Visible plus in-flight messages of any queue (usable from a `@Sendable` hook).
    static func queueDepth(_ client: SQSClient, _ queueURL: String) throws -> Int {
        let a = try client.getQueueAttributes(
            queueURL: queueURL, names: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"])
        return (Int(a["ApproximateNumberOfMessages"] ?? "") ?? -1) + (Int(a["ApproximateNumberOfMessagesNotVisible"] ?? "") ?? -1)
    }

    /// Waits until `condition` holds or `timeout` passes; returns whether it held.
    @discardableResult
    /// The bound is generous: every suite shares one moto server, which slows down while others use it.
    static func eventually(timeout: TimeInterval = 90, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return try condition()
    }
}
