import Foundation
@testable import Ingest
import SQSClient
import Testing
import TimelineCore

/// The supervisor's status as the TUI's status bar shows it (`PollerSupervisor.Status.view`).
@Suite struct PollerStatusViewTests {
    static let queueURL = "http://127.0.0.1:5000/123456789012/jobs"
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func view(_ state: PollerSupervisor.State, queueURL: String? = queueURL) -> PollerStatusView {
        PollerSupervisor.Status(state: state, queueURL: queueURL).view(now: now)
    }

    @Test func startingIsConnectingToTheNamedQueue() {
        #expect(view(.starting) == PollerStatusView(state: .connecting, queueName: "jobs", queueURL: Self.queueURL))
        #expect(view(.starting, queueURL: nil) == PollerStatusView(state: .connecting))
    }

    @Test func aFailedStartCarriesTheReasonInWords() {
        let fault = PollerFault.request(SQSError(kind: .network, code: "NetworkError", message: "Connection refused", httpStatus: nil))
        let retrying = view(.retryingStart(until: now.addingTimeInterval(2), fault: fault))
        #expect(retrying.state == .backingOff(untilMicros: 1_800_000_002_000_000,
                                              problem: PollerProblem(summary: fault.summary, explanation: fault.explanation)))
        let reason = StopReason(SQSError(kind: .queueMissing, code: "AWS.SimpleQueueService.NonExistentQueue",
                                         message: "no such queue", httpStatus: 400), queueURL: Self.queueURL)
        #expect(view(.failedToStart(reason)).state == .stopped(PollerProblem(summary: "queue jobs does not exist",
                                                                            explanation: reason.explanation)))
    }

    @Test func receivingMeansSomethingWasStoredInTheLastFiveSeconds() {
        var polling = PollerStatus()
        polling.state = .receiving
        polling.stored = 7
        polling.rejected = 2
        polling.receivedManyTimes = 1
        polling.lastReceive = now.addingTimeInterval(-1)
        polling.lastStored = now.addingTimeInterval(-4.9)
        let busy = view(.polling(polling))
        #expect(busy == PollerStatusView(state: .receiving, queueName: "jobs", queueURL: Self.queueURL,
                                         lastReceiveMicros: 1_799_999_999_000_000, storedCount: 7, rejectedCount: 2,
                                         receivedManyTimes: 1))
        polling.lastStored = now.addingTimeInterval(-5)
        #expect(view(.polling(polling)).state == .connected, "quiet for 5 s: connected, waiting on a long poll")
        polling.lastStored = nil
        #expect(view(.polling(polling)).state == .connected)
        polling.state = .stopped(.requested)
        #expect(view(.polling(polling)).state == .stopped(PollerProblem(summary: "stopped on request", explanation: "stopped on request")))
    }
}
