import Foundation
import Ingest
import SQSClient
import Testing
import TimelineStore

/// The poller's typed outcomes in words: a summary for the status bar, an explanation with the fix, both
/// made from the values (no sentence is cut out of another).
@Suite struct PollerTextTests {
    static let queueURL = "http://127.0.0.1:5000/123456789012/jobs"

    @Test func aMissingQueueIsNamedShortInTheSummaryAndInFullWithTheFix() {
        let reason = StopReason(SQSError(kind: .queueMissing, code: "AWS.SimpleQueueService.NonExistentQueue",
                                         message: "no such queue", httpStatus: 400), queueURL: Self.queueURL)
        #expect(reason.summary == "queue jobs does not exist")
        #expect(reason.explanation.contains("queue \(Self.queueURL) does not exist (AWS.SimpleQueueService.NonExistentQueue)"))
        #expect(reason.explanation.contains("Check the queue URL and the region"))
        #expect(reason.isFailure)
    }

    @Test func credentialsAccessAndClockHaveTheirOwnSummaries() {
        let refused = StopReason(SQSError(kind: .auth, code: "InvalidClientTokenId", message: "bad", httpStatus: 403),
                                 queueURL: Self.queueURL)
        #expect(refused.summary == "AWS refused the credentials")
        #expect(refused.explanation.contains("AWS_PROFILE"))
        let denied = StopReason(SQSError(kind: .auth, code: "AccessDenied", message: "no", httpStatus: 403), queueURL: Self.queueURL)
        #expect(denied.summary == "AWS denied access")
        #expect(denied.explanation.contains("sqs:ReceiveMessage"))
        var skewed = SQSError(kind: .auth, code: "SignatureDoesNotMatch", message: "late", httpStatus: 403)
        skewed.clockSkew = 900
        #expect(StopReason(skewed, queueURL: Self.queueURL).summary == "AWS refused the request because of the clock")
    }

    @Test func faultsSayWhatFailedInAFewWords() {
        let refused = PollerFault.request(SQSError(kind: .network, code: "NetworkError", message: "Connection refused",
                                                    transport: TransportError(kind: .connect, code: 7, message: "Connection refused")))
        #expect(refused.summary == "connection refused")
        #expect(refused.explanation.contains("Connection refused"))
        let timeout = PollerFault.request(SQSError(kind: .network, code: "NetworkError", message: "after 20 s",
                                                    transport: TransportError(kind: .timeout, code: 28, message: "after 20 s")))
        #expect(timeout.summary == "request timed out")
        #expect(timeout.explanation == "request timed out: after 20 s")
        let throttled = PollerFault.request(SQSError(kind: .throttled, code: "ThrottlingException", message: "slow down",
                                                     httpStatus: 400))
        #expect(throttled.summary == "ThrottlingException")
        let full = PollerFault.store(StoreFailure(problem: .full, explanation: "database or disk is full: free space"))
        #expect(full.summary == "cannot store events (full)")
        #expect(full.explanation == "cannot store events: database or disk is full: free space")
    }

    @Test func onlyFailuresAreFailures() {
        #expect(!StopReason.drained.isFailure && !StopReason.requested.isFailure && !StopReason.interrupted.isFailure)
        #expect(StopReason.notStarted("no queue given").isFailure)
        #expect(StopReason.notStarted("no queue given").explanation == "no queue given")
        let gaveUp = StopReason.gaveUp(after: 600, lastFault: .store(StoreFailure(problem: .busy, explanation: "locked")))
        #expect(gaveUp.summary == "gave up: cannot store events (busy)")
        #expect(gaveUp.explanation == "gave up after 10 min without a successful request: cannot store events: locked")
    }

    @Test func pollLogsACauseOnceAndTheRecovery() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let fault = PollerFault.request(SQSError(kind: .server, code: "HTTP 500", message: "", httpStatus: 500))
        let backingOff = PollerStatus.State.backingOff(until: now.addingTimeInterval(1.5), fault: fault)
        #expect(PollerText.change(from: .receiving, to: backingOff, now: now) == "backing off 1.5s: HTTP 500 (HTTP 500)")
        #expect(PollerText.change(from: backingOff, to: backingOff, now: now) == nil)
        #expect(PollerText.change(from: backingOff, to: .receiving, now: now) == "recovered: receiving again")
        #expect(PollerText.change(from: .connecting, to: .receiving, now: now) == "connected: receiving")
    }
}
