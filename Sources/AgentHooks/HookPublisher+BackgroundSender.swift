import Foundation

/// The spool's one background sender (`timeline hooks flush --background`): it sends as hooks spool,
/// lingers a while for more, and rides out a queue it cannot reach by pausing and trying again.
extension HookPublisher {
    /// How a background sender waits after a failed send before it tries again: `first` seconds, twice as
    /// long after each further failure, at most `longest`. Events spooled meanwhile do not end the pause.
    public struct RetryPause: Sendable {
        public var first: TimeInterval
        public var longest: TimeInterval

        public init(first: TimeInterval, longest: TimeInterval) {
            (self.first, self.longest) = (first, longest)
        }
    }

    /// Delivers as the spool's one background sender (named by its `settings`, for hooks to compare
    /// theirs with), until nothing of its own waits and nothing comes for `idle` seconds, or `budget`
    /// runs out; nil when another background sender runs. A failed send ends the run, unless it may pass
    /// (`PassingFailure`) and `retry` says how long to pause before trying again. `report` hears how each
    /// delivery went (a failure, or what still waits), as it goes. The sender's lock is let go before a
    /// last look at the spool: an event spooled by a hook that found the lock held just before it was let
    /// go is sent by this run.
    public func deliverAlone(budget: TimeInterval, idle: TimeInterval = 0, retry: RetryPause? = nil,
                             report: (Outcome) -> Void = { _ in }) -> Outcome? {
        let deadline = Date().addingTimeInterval(budget)
        var total: Outcome?
        while true {
            guard var outcome = spool.withSenderLock(identity: settings ?? "", {
                deliverWhileEventsCome(until: deadline, idle: idle, retry: retry, report: report)
            }) else { return total }
            outcome.sent += total?.sent ?? 0
            total = outcome
            if outcome.failure != nil || outcome.timedOut || spool.count(for: settings) == 0 || Date() >= deadline {
                return total
            }
        }
    }

    /// Delivers what waits, then again each time an event comes within `idle` seconds (until `deadline`);
    /// after a failure, again after a pause (`retry`), while the deadline allows one.
    private func deliverWhileEventsCome(until deadline: Date, idle: TimeInterval, retry: RetryPause?,
                                        report: (Outcome) -> Void) -> Outcome {
        // Made before the first look at the spool: an event spooled after that look still wakes it.
        let watch = idle > 0 || retry != nil ? SpoolWatch(spool: spool) : nil
        var sent = 0
        var pause = retry?.first
        while true {
            // Events another process sends (a `hooks flush`, a hook's own send) are taken if it lets them go.
            let outcome = deliver(budget: deadline.timeIntervalSinceNow, waitingForBusy: true)
            report(outcome)
            sent += outcome.sent
            var total = outcome
            total.sent = sent
            if outcome.timedOut { return total }
            if outcome.failure != nil {
                guard let retry, outcome.failureMayPass, let seconds = pause, seconds < deadline.timeIntervalSinceNow,
                      Self.pause(seconds, watching: watch) else { return total }
                pause = min(seconds * 2, retry.longest)
                continue
            }
            pause = retry?.first
            let wait = min(idle, deadline.timeIntervalSinceNow)
            guard let watch, wait > 0, watch.wait(timeout: wait) == .added else { return total }
        }
    }

    /// Waits `seconds` whatever is spooled meanwhile; false when the spool was removed (nothing is left
    /// to send).
    private static func pause(_ seconds: TimeInterval, watching watch: SpoolWatch?) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        guard let watch else {
            Thread.sleep(until: end)
            return true
        }
        while case let left = end.timeIntervalSinceNow, left > 0 {
            if watch.wait(timeout: left) == .gone { return false }
        }
        return true
    }
}
