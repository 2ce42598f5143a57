import Foundation
import Synchronization
import TimelineCore

/// Sends spooled events in order within a total time budget, so a hook never holds its agent up: the
/// work runs on its own thread and the caller gets an answer by the deadline whatever the network does
/// (an event being sent when time runs out stays spooled; the next run sends it again, and ingest keeps
/// one copy per event id).
public struct HookPublisher: Sendable {
    /// Sends one payload; throws when it did not reach the queue.
    public typealias Send = @Sendable (String) throws -> Void

    public let spool: HookSpool
    /// The settings (`HookSenderIdentity`) this publisher sends with: it sends only the events spooled
    /// with them (and unmarked ones); nil: every event.
    public let settings: String?
    /// Makes the sender (resolving the queue and credentials may itself take time: it runs inside the budget).
    public let makeSender: @Sendable () throws -> Send

    /// The sender made by an earlier run of this publisher (a background sender's runs share one, and
    /// its connection); dropped when a send fails.
    private let made = SenderSlot()

    public init(spool: HookSpool, settings: String? = nil, makeSender: @escaping @Sendable () throws -> Send) {
        self.spool = spool
        self.settings = settings
        self.makeSender = makeSender
    }

    /// What a delivery run did.
    public struct Outcome: Sendable, Equatable {
        public var sent: Int
        /// Events still waiting in the spool.
        public var waiting: Int
        /// The first failure, in words (nil when everything went or time ran out first).
        public var failure: String?
        /// The budget ran out before the run finished.
        public var timedOut: Bool
        /// The failure may pass (`PassingFailure`): trying again later may succeed.
        public var failureMayPass = false
    }

    /// Sends every waiting event, oldest first, stopping at the first failure; returns by `budget` seconds.
    public func deliver(budget: TimeInterval) -> Outcome {
        let deadline = Date().addingTimeInterval(budget)
        let box = OutcomeBox()
        let done = DispatchSemaphore(value: 0)
        let spool = self.spool
        let makeSender = self.makeSender
        let made = self.made
        let settings = self.settings
        let thread = Thread {
            ThreadName.nameThisThread("tl-hook-send")
            let result = spool.withLock(until: deadline) { () -> (Int, Failure?) in
                var send = made.value
                var sent = 0
                // Until the spool is empty: events other hooks add while this run holds the lock go too
                // (those hooks may give up waiting for the lock).
                while case let files = spool.pending(for: settings), !files.isEmpty {
                    for file in files {
                        guard let data = FileManager.default.contents(atPath: file.path) else { continue }
                        do {
                            if send == nil {
                                send = try makeSender()
                                made.value = send
                            }
                            try send?(String(decoding: data, as: UTF8.self))
                        } catch {
                            made.value = nil
                            return (sent, Failure(text: "\(error)", mayPass: error is PassingFailure))
                        }
                        try? FileManager.default.removeItem(at: file)
                        sent += 1
                    }
                }
                return (sent, nil)
            }
            box.set(result ?? (0, nil))
            done.signal()
        }
        thread.start()
        let finished = done.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow)) == .success
        let (sent, failure) = box.get() ?? (0, nil)
        return Outcome(sent: sent, waiting: spool.count(for: settings), failure: failure?.text, timedOut: !finished,
                       failureMayPass: failure?.mayPass ?? false)
    }
}

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
    /// delivery went (a failure, or what still waits), as it goes. The lock is let go
    /// before a last look at the spool: an event spooled by a hook that found the lock held just before
    /// it was let go is sent by this run.
    public func deliverAlone(budget: TimeInterval, idle: TimeInterval = 0, retry: RetryPause? = nil,
                             report: (Outcome) -> Void = { _ in }) -> Outcome? {
        let deadline = Date().addingTimeInterval(budget)
        var total: Outcome?
        while true {
            guard let outcome = spool.withSenderLock(identity: settings ?? "", {
                deliverWhileEventsCome(until: deadline, idle: idle, retry: retry, report: report)
            }) else { return total }
            total = Outcome(sent: (total?.sent ?? 0) + outcome.sent, waiting: outcome.waiting,
                            failure: outcome.failure, timedOut: outcome.timedOut, failureMayPass: outcome.failureMayPass)
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
            let outcome = deliver(budget: deadline.timeIntervalSinceNow)
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

/// A failed send that may pass (the network, throttling, the service itself): a background sender tries
/// again after a pause. Any other failure (no queue, credentials refused, the queue missing) ends its run.
public struct PassingFailure: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// A publisher's sender once made, shared by its runs.
private final class SenderSlot: Sendable {
    private let slot = Mutex<HookPublisher.Send?>(nil)
    var value: HookPublisher.Send? {
        get { slot.withLock { $0 } }
        set { slot.withLock { $0 = newValue } }
    }
}

/// A delivery run's failure, in words, and whether it may pass.
private struct Failure: Sendable {
    var text: String
    var mayPass: Bool
}

/// The worker thread's result, read by the caller after the semaphore (or not at all when time ran out).
private final class OutcomeBox: Sendable {
    private let value = Mutex<(Int, Failure?)?>(nil)
    func set(_ value: (Int, Failure?)) { self.value.withLock { $0 = value } }
    func get() -> (Int, Failure?)? { value.withLock { $0 } }
}
