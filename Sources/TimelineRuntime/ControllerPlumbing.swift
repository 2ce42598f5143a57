import Foundation
import Synchronization
import TimelineUI

/// Effects of one kind supersede each other.
enum EffectKind: Hashable {
    case window, counts, history, find, replies, send, agents, rejected, pinned
    /// Writes (read marks): never superseded, each one runs.
    case write
    init(_ e: Effect) {
        switch e {
        case .markRead, .markAllRead: self = .write
        case .loadWindow: self = .window
        case .loadCounts: self = .counts
        case .loadHistory: self = .history
        case .findMatch, .quit, .setMark, .saveView, .rememberView, .rememberSearches, .setPins, .exportHistory, .restartPoller: self = .find
        case .loadReplies: self = .replies
        case .sendReply: self = .send
        case .loadAgents: self = .agents
        case .loadRejected: self = .rejected
        case .loadPinned: self = .pinned
        }
    }
}

/// Results waiting for the input thread, each with whether it answers the user's input.
final class Inbox: Sendable {
    struct Item: Sendable {
        var input: Input
        var answersUser: Bool
    }
    private struct Content {
        var items: [Item] = []
        /// Called after each `put` (outside the lock), so an event-driven loop wakes for the result.
        var wake: (@Sendable () -> Void)?
    }
    private let content = Mutex(Content())
    func setWake(_ handler: (@Sendable () -> Void)?) { content.withLock { $0.wake = handler } }
    /// `wakes: false` for a put by the loop itself, which takes its inbox next anyway.
    func put(_ input: Input, answersUser: Bool = false, wakes: Bool = true) {
        put([Item(input: input, answersUser: answersUser)], wakes: wakes)
    }
    /// Queues `items` at once, waking the loop once: they are drained together.
    func put(_ items: [Item], wakes: Bool = true) {
        guard !items.isEmpty else { return }
        let wake = content.withLock { content in
            content.items += items
            return content.wake
        }
        if wakes { wake?() }
    }
    /// Wakes the loop without a result (it has something else to look at).
    func wake() { content.withLock { $0.wake }?() }
    func takeAll() -> [Item] {
        content.withLock { content in
            defer { content.items = [] }
            return content.items
        }
    }
    var isEmpty: Bool { content.withLock { $0.items.isEmpty } }
}

/// Latest ticket per effect kind (a newer request supersedes an older one), how much work is in flight
/// (every `issue` or `begin` is matched by one `finish`), and which kinds owe the user an answer.
final class Tickets: Sendable {
    private struct Counts {
        var latest: [EffectKind: Int] = [:]
        /// The effect of each kind's latest ticket (when given).
        var latestEffect: [EffectKind: Effect] = [:]
        var inFlight = 0
        var owed: Set<EffectKind> = []
    }
    private let counts = Mutex(Counts())
    /// Starts work that a newer request of the same kind supersedes; its ticket tells which is latest.
    /// `answersUser`: the user waits for its result; if a newer request (a store reload right after the
    /// key) supersedes it, that one's result answers the user in its place (`takeOwed`).
    func issue(_ kind: EffectKind, _ effect: Effect? = nil, answersUser: Bool = false) -> Int {
        counts.withLock { counts in
            if answersUser { counts.owed.insert(kind) }
            counts.inFlight += 1
            let next = (counts.latest[kind] ?? 0) + 1
            counts.latest[kind] = next
            counts.latestEffect[kind] = effect
            return next
        }
    }
    /// Starts work that is never superseded (a confirmed reply is sent once).
    func begin() { counts.withLock { $0.inFlight += 1 } }
    /// True when the user waits for a result of `kind` (and no longer: this one answers).
    func takeOwed(_ kind: EffectKind) -> Bool { counts.withLock { $0.owed.remove(kind) != nil } }
    func isLatest(_ ticket: Int, _ kind: EffectKind) -> Bool { counts.withLock { $0.latest[kind] == ticket } }
    /// True when work already running for `ticket` is still wanted: it is the latest, or the latest asks
    /// for the very same thing (a reload of the same window after the next store change). Stopping it
    /// then would only start the same read over: under steady writes, none would ever finish.
    func stillWanted(_ ticket: Int, _ kind: EffectKind, _ effect: Effect) -> Bool {
        counts.withLock { $0.latest[kind] == ticket || $0.latestEffect[kind] == effect }
    }
    func finish() { counts.withLock { $0.inFlight -= 1 } }
    var idle: Bool { counts.withLock { $0.inFlight == 0 } }
}

extension Atomic<Bool> {
    /// Sets a clear flag; false when it was set already (someone else has the work it stands for).
    func setIfClear() -> Bool {
        compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    func clear() { store(false, ordering: .releasing) }
}

/// The results of one store change's reads on the fast lane (its rows, pinned rows, rejected messages),
/// queued together once the last of them is read: one drain takes them all, so one frame shows the changed
/// rows with the pinned ones (a pinned task's row read a millisecond after the list's waited a frame).
final class ResultGroup: Sendable {
    private let items = Mutex<[Inbox.Item]>([])
    /// Reads still to answer; the one that brings it to zero hands the group over.
    private let left: Atomic<Int>

    init(reads: Int) { left = Atomic(reads) }

    func add(_ item: Inbox.Item) { items.withLock { $0.append(item) } }

    /// One read answered (or skipped): the last one queues every result in `inbox`.
    func finished(into inbox: Inbox) {
        guard left.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 else { return }
        inbox.put(items.withLock { items in
            defer { items = [] }
            return items
        })
    }
}
