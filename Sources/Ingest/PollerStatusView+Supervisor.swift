import Foundation
import SQSClient
import TimelineCore

extension PollerSupervisor.Status {
    /// The status as the TUI's status bar shows it: connecting, connected (a long poll waits), receiving
    /// (something was stored in the last 5 seconds), backing off or stopped with the problem in words.
    public func view(now: Date = Date()) -> PollerStatusView {
        func micros(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970 * 1_000_000) }
        let name = queueURL.map(AWSNames.queueName)
        let queueURL = queueURL.map(MaskedURL.text)  // shown: never with credentials in it
        switch state {
        case .starting:
            return PollerStatusView(state: .connecting, queueName: name, queueURL: queueURL)
        case .retryingStart(let until, let fault):
            return PollerStatusView(state: .backingOff(untilMicros: micros(until), problem: fault.problem),
                                    queueName: name, queueURL: queueURL)
        case .failedToStart(let reason):
            return PollerStatusView(state: .stopped(reason.problem), queueName: name, queueURL: queueURL)
        case .polling(let polling):
            let shown: PollerStatusView.State
            switch polling.state {
            case .connecting: shown = .connecting
            case .receiving:
                let recent = polling.lastStored.map { now.timeIntervalSince($0) < 5 } ?? false
                shown = recent ? .receiving : .connected
            case .backingOff(let until, let fault): shown = .backingOff(untilMicros: micros(until), problem: fault.problem)
            case .stopped(let reason): shown = .stopped(reason.problem)
            }
            return PollerStatusView(
                state: shown, queueName: name, queueURL: queueURL, lastReceiveMicros: polling.lastReceive.map(micros),
                storedCount: polling.stored, rejectedCount: polling.rejected, receivedManyTimes: polling.receivedManyTimes)
        }
    }
}

extension PollerFault {
    var problem: PollerProblem { PollerProblem(summary: summary, explanation: explanation) }
}

extension StopReason {
    var problem: PollerProblem { PollerProblem(summary: summary, explanation: explanation) }
}
