import Foundation
import TimelineCore
import Ingest
import SQSClient
import TimelineUI

/// The TUI's side of the background poller: how its target is resolved, and its typed status as the
/// plain value the status bar draws (TimelineUI never depends on Ingest).
enum TUIPollerStatus {
    /// The poller's target from the queue options. An SQS error keeps its type (the supervisor retries a
    /// passing one); any other failure carries the words `FailureReport` gives it.
    static func resolve(_ options: QueueOptions, prepared: SQSConfiguration?) throws -> PollerTarget {
        do {
            return try options.pollerTarget(resolved: prepared)
        } catch let error as SQSError {
            throw error
        } catch {
            throw CommandFailure(FailureReport(error)?.message ?? "\(error)")
        }
    }

    static func view(of status: PollerSupervisor.Status, now: Date = Date()) -> PollerStatusView {
        func micros(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970 * 1_000_000) }
        let name = status.queueURL.map(AWSNames.queueName)
        switch status.state {
        case .starting:
            return PollerStatusView(state: .connecting, queueName: name, queueURL: status.queueURL)
        case .retryingStart(let until, let fault):
            return PollerStatusView(state: .backingOff(untilMicros: micros(until), problem: problem(fault)),
                                    queueName: name, queueURL: status.queueURL)
        case .failedToStart(let reason):
            return PollerStatusView(state: .stopped(problem(reason)), queueName: name, queueURL: status.queueURL)
        case .polling(let polling):
            let state: PollerStatusView.State
            switch polling.state {
            case .connecting: state = .connecting
            case .receiving:
                let recent = polling.lastStored.map { now.timeIntervalSince($0) < 5 } ?? false
                state = recent ? .receiving : .connected
            case .backingOff(let until, let fault): state = .backingOff(untilMicros: micros(until), problem: problem(fault))
            case .stopped(let reason): state = .stopped(problem(reason))
            }
            return PollerStatusView(
                state: state, queueName: name, queueURL: status.queueURL, lastReceiveMicros: polling.lastReceive.map(micros),
                storedCount: polling.stored, rejectedCount: polling.rejected, receivedManyTimes: polling.receivedManyTimes)
        }
    }

    private static func problem(_ fault: PollerFault) -> PollerProblem {
        PollerProblem(summary: fault.summary, explanation: fault.explanation)
    }

    private static func problem(_ reason: StopReason) -> PollerProblem {
        PollerProblem(summary: reason.summary, explanation: reason.explanation)
    }
}
