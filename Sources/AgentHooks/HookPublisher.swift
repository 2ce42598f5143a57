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
        let (spool, settings, made, makeSender) = (self.spool, self.settings, self.made, self.makeSender)
        let (run, finished) = Self.onSendingThread(until: deadline) {
            Self.sendWaiting(spool: spool, settings: settings, made: made, makeSender: makeSender,
                             busyUntil: waitingForBusy ? deadline : nil)
        }
        return Outcome(sent: run.sent, waiting: spool.count(for: settings), failure: run.failure?.text, timedOut: !finished,
                       failureMayPass: run.failure?.mayPass ?? false, busy: run.busy)
    }

    /// Sends `payloads` in order without the spool (for events it could not take: a full disk), stopping at
    /// the first failure; returns by `budget` seconds. `waiting`: those not sent (nothing keeps them).
    public func sendDirect(_ payloads: [String], budget: TimeInterval) -> Outcome {
        let (made, makeSender) = (self.made, self.makeSender)
        let (run, finished) = Self.onSendingThread(until: Date().addingTimeInterval(budget)) {
            var run = Run()
            for payload in payloads {
                run.failure = Self.sendOne(payload, via: made, makeSender: makeSender)
                if run.failure != nil { break }
                run.sent += 1
            }
            return run
        }
        return Outcome(sent: run.sent, waiting: payloads.count - run.sent, failure: run.failure?.text, timedOut: !finished,
                       failureMayPass: run.failure?.mayPass ?? false)
    }

    /// Runs `body` on a thread of its own and waits for it until `deadline` (the thread may go on, inside
    /// curl, after that: what it had not sent stays where it was). The run, and whether it finished.
    private static func onSendingThread(until deadline: Date, _ body: @escaping @Sendable () -> Run) -> (Run, Bool) {
        let box = OutcomeBox()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            ThreadName.nameThisThread("tl-hook-send")
            box.set(body())
            done.signal()
        }
        thread.start()
        let finished = done.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow)) == .success
        return (box.get() ?? Run(), finished)
    }

    /// Sends the waiting events of `settings` one by one, oldest first, until none is left that this run
    /// has not looked at (events spooled meanwhile go too) or a send fails. Events another process is
    /// sending are left to it (counted `busy`), or looked at again every `busyLookAgain` seconds until
    /// `busyUntil`.
    private static func sendWaiting(spool: HookSpool, settings: String?, made: SenderSlot,
                                    makeSender: @Sendable () throws -> Send, busyUntil: Date?) -> Run {
        var run = Run()
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
                if let failure = sendOne(event.payload, via: made, makeSender: makeSender) {
                    run.failure = failure
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

    /// Sends one payload with the sender an earlier send made, or one made now; a failure drops that
    /// sender (the next send makes another: credentials and the queue are resolved again).
    private static func sendOne(_ payload: String, via made: SenderSlot, makeSender: () throws -> Send) -> Failure? {
        do {
            let send = try made.value ?? makeSender()
            made.value = send
            try send(payload)
            return nil
        } catch {
            made.value = nil
            return Failure(text: "\(error)", mayPass: error is PassingFailure)
        }
    }

    /// Seconds after which a sender looks again at events another process was sending.
    static let busyLookAgain: TimeInterval = 0.2
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
