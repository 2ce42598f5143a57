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
            let result = spool.withLock(until: deadline) { () -> (Int, String?) in
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
                            return (sent, "\(error)")
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
        return Outcome(sent: sent, waiting: spool.count(for: settings), failure: failure, timedOut: !finished)
    }
}

extension HookPublisher {
    /// Delivers as the spool's one background sender (named by its `settings`, for hooks to compare
    /// theirs with), until nothing of its own waits and nothing comes for `idle` seconds, a send fails or
    /// `budget` runs out; nil when another background sender runs. The lock is let go before a last look
    /// at the spool: an event spooled by a hook that found the lock held just before it was let go is sent
    /// by this run.
    public func deliverAlone(budget: TimeInterval, idle: TimeInterval = 0) -> Outcome? {
        let deadline = Date().addingTimeInterval(budget)
        var total: Outcome?
        while true {
            guard let outcome = spool.withSenderLock(identity: settings ?? "", {
                deliverWhileEventsCome(until: deadline, idle: idle)
            }) else { return total }
            total = Outcome(sent: (total?.sent ?? 0) + outcome.sent, waiting: outcome.waiting,
                            failure: outcome.failure, timedOut: outcome.timedOut)
            if outcome.failure != nil || outcome.timedOut || spool.count(for: settings) == 0 || Date() >= deadline {
                return total
            }
        }
    }

    /// Delivers what waits, then again each time an event comes within `idle` seconds (until `deadline`).
    private func deliverWhileEventsCome(until deadline: Date, idle: TimeInterval) -> Outcome {
        let watch = idle > 0 ? SpoolWatch(directory: spool.directory) : nil  // before the first look
        var sent = 0
        while true {
            let outcome = deliver(budget: deadline.timeIntervalSinceNow)
            sent += outcome.sent
            let total = Outcome(sent: sent, waiting: outcome.waiting, failure: outcome.failure, timedOut: outcome.timedOut)
            if outcome.failure != nil || outcome.timedOut { return total }
            let wait = min(idle, deadline.timeIntervalSinceNow)
            guard let watch, wait > 0, watch.wait(timeout: wait) == .added else { return total }
        }
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

/// The worker thread's result, read by the caller after the semaphore (or not at all when time ran out).
private final class OutcomeBox: Sendable {
    private let value = Mutex<(Int, String?)?>(nil)
    func set(_ value: (Int, String?)) { self.value.withLock { $0 = value } }
    func get() -> (Int, String?)? { value.withLock { $0 } }
}
