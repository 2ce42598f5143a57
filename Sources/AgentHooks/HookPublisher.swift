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
        /// Events of these settings that another process was sending (left to it).
        public var busy = 0
    }

    /// Sends every waiting event, oldest first, stopping at the first failure; returns by `budget` seconds.
    /// Events another process is sending are left to it, or (`waitingForBusy`) taken once it lets them go
    /// unsent, while the budget lasts.
    public func deliver(budget: TimeInterval, waitingForBusy: Bool = false) -> Outcome {
        let deadline = Date().addingTimeInterval(budget)
        let box = OutcomeBox()
        let done = DispatchSemaphore(value: 0)
        let spool = self.spool
        let makeSender = self.makeSender
        let made = self.made
        let settings = self.settings
        let thread = Thread {
            ThreadName.nameThisThread("tl-hook-send")
            box.set(Self.sendWaiting(spool: spool, settings: settings, made: made, makeSender: makeSender,
                                     busyUntil: waitingForBusy ? deadline : nil))
            done.signal()
        }
        thread.start()
        let finished = done.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow)) == .success
        let run = box.get() ?? Run()
        return Outcome(sent: run.sent, waiting: spool.count(for: settings), failure: run.failure?.text, timedOut: !finished,
                       failureMayPass: run.failure?.mayPass ?? false, busy: run.busy)
    }

    /// Sends the waiting events of `settings` one by one, oldest first, until none is left that this run
    /// has not looked at (events spooled meanwhile go too) or a send fails. Events another process is
    /// sending are left to it (counted `busy`), or looked at again every `busyLookAgain` seconds until
    /// `busyUntil`.
    private static func sendWaiting(spool: HookSpool, settings: String?, made: SenderSlot,
                                    makeSender: @Sendable () throws -> Send, busyUntil: Date?) -> Run {
        var run = Run()
        var send = made.value
        var seen = Set<URL>()
        var busy = Set<URL>()
        while true {
            let files = spool.pending(for: settings).filter { !seen.contains($0) }
            if files.isEmpty {
                guard !busy.isEmpty, let busyUntil, Date().addingTimeInterval(busyLookAgain) < busyUntil else { break }
                Thread.sleep(forTimeInterval: busyLookAgain)
                seen.subtract(busy)
                busy = []
                continue
            }
            for file in files {
                seen.insert(file)
                let event: SpooledEvent
                switch spool.take(file) {
                case .taken(let taken): event = taken
                case .busy:
                    busy.insert(file)
                    continue
                case .gone: continue
                }
                do {
                    if send == nil {
                        send = try makeSender()
                        made.value = send
                    }
                    try send?(event.payload)
                } catch {
                    made.value = nil
                    run.failure = Failure(text: "\(error)", mayPass: error is PassingFailure)
                    run.busy = busy.count
                    return run
                }
                event.sent()
                run.sent += 1
            }
        }
        run.busy = busy.count
        return run
    }

    /// Seconds after which a sender looks again at events another process was sending.
    static let busyLookAgain: TimeInterval = 0.2
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

/// What one delivery run did (`HookPublisher.sendWaiting`).
private struct Run: Sendable {
    var sent = 0
    var busy = 0
    var failure: Failure?
}

/// The worker thread's result, read by the caller after the semaphore (or not at all when time ran out).
private final class OutcomeBox: Sendable {
    private let value = Mutex<Run?>(nil)
    func set(_ value: Run) { self.value.withLock { $0 = value } }
    func get() -> Run? { value.withLock { $0 } }
}
