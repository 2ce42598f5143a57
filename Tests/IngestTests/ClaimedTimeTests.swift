import Foundation
import Ingest
import SQSClient
import TestSupport
import Testing
import TimelineCore
import TimelineStore

/// An event stamped in the future must not freeze its task: it is ordered at its arrival.
@Suite struct ClaimedTimeTests {
    static let sentMillis: Int64 = 1_800_000_000_000

    static func message(_ id: String, task: String, status: String, timestamp: String, sentMillis: Int64?) -> SQSMessage {
        let body = """
            {"id":"\(id)","agent_id":"a","task_id":"\(task)","title":"t \(id)","status":"\(status)","timestamp":"\(timestamp)"}
            """
        var attributes = ["ApproximateReceiveCount": "1"]
        if let sentMillis { attributes["SentTimestamp"] = String(sentMillis) }
        return SQSMessage(messageID: "m-\(id)", receiptHandle: "h-\(id)", body: body, attributes: attributes)
    }

    static func timestamp(_ item: IngestItem) -> Int64? {
        if case .event(let event, _) = item { return event.timestampMicros }
        return nil
    }

    @Test func aClaimWithinTheSkewIsKeptAndOneBeyondItIsOrderedAtItsArrival() {
        let sent = Self.sentMillis * 1_000
        let near = TimeFormat.iso8601(micros: sent + 30_000_000)
        let far = "2099-01-01T00:00:00Z"
        let past = TimeFormat.iso8601(micros: sent - 86_400_000_000)
        let items = MessageValidation.items(for: [
            Self.message("1", task: "t", status: "info", timestamp: near, sentMillis: Self.sentMillis),
            Self.message("2", task: "t", status: "info", timestamp: far, sentMillis: Self.sentMillis),
            Self.message("3", task: "t", status: "info", timestamp: past, sentMillis: Self.sentMillis),
            Self.message("4", task: "t", status: "info", timestamp: far, sentMillis: nil),
        ], receivedMicros: sent + 5_000_000)
        #expect(items.map(Self.timestamp) == [sent + 30_000_000, sent, sent - 86_400_000_000, sent + 5_000_000])
    }

    @Test func aBackdatedQuestionWaitsFromItsArrivalSoItCannotJumpTheQueue() {
        let sent = Self.sentMillis * 1_000
        let items = MessageValidation.items(for: [
            Self.message("q", task: "q", status: "needs_input", timestamp: "1970-01-02T00:00:00Z", sentMillis: Self.sentMillis),
            Self.message("i", task: "i", status: "info", timestamp: "1970-01-02T00:00:00Z", sentMillis: Self.sentMillis),
        ])
        #expect(items.map(Self.timestamp) == [sent, 86_400_000_000], "a question waits from its arrival; other events keep old claims")
    }

    @Test func aFutureDatedEventDoesNotOutrankTheRealOutcomeThatArrivesLater() throws {
        let directory = try TemporaryDirectory()
        let store = try TimelineStore(path: directory.url.appendingPathComponent("t.db").path)
        let future = MessageValidation.items(for: [
            Self.message("f", task: "deploy", status: "success", timestamp: "2099-01-01T00:00:00Z", sentMillis: Self.sentMillis),
        ])
        try store.ingest(future)
        let later = TimeFormat.iso8601(micros: (Self.sentMillis + 2_000) * 1_000)
        let outcomes = try store.ingest(MessageValidation.items(for: [
            Self.message("e", task: "deploy", status: "error", timestamp: later, sentMillis: Self.sentMillis + 2_000),
        ]))
        #expect(outcomes == [.replaced])
        #expect(try store.row(taskID: "deploy")?.event.status == .error)
    }
}
