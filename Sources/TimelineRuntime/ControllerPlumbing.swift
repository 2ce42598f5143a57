import Foundation
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

/// Results waiting for the input thread.
final class Inbox: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Input] = []
    /// Called after each `put` (outside the lock), so an event-driven loop wakes for the result.
    private var wake: (@Sendable () -> Void)?
    func setWake(_ handler: (@Sendable () -> Void)?) { lock.lock(); wake = handler; lock.unlock() }
    func put(_ input: Input) {
        lock.lock(); items.append(input); let wake = self.wake; lock.unlock()
        wake?()
    }
    func takeAll() -> [Input] { lock.lock(); defer { lock.unlock() }; let out = items; items = []; return out }
    var isEmpty: Bool { lock.lock(); defer { lock.unlock() }; return items.isEmpty }
}

/// Latest ticket per effect kind (a newer request supersedes an older one), and how much work is in
/// flight: every `issue` or `begin` is matched by one `finish`.
final class Tickets: @unchecked Sendable {
    private let lock = NSLock()
    private var latest: [EffectKind: Int] = [:]
    private var inFlight = 0
    /// Starts work that a newer request of the same kind supersedes; its ticket tells which is latest.
    func issue(_ kind: EffectKind) -> Int {
        lock.lock(); defer { lock.unlock() }
        inFlight += 1
        let next = (latest[kind] ?? 0) + 1
        latest[kind] = next
        return next
    }
    /// Starts work that is never superseded (a confirmed reply is sent once).
    func begin() { lock.lock(); inFlight += 1; lock.unlock() }
    func isLatest(_ ticket: Int, _ kind: EffectKind) -> Bool { lock.lock(); defer { lock.unlock() }; return latest[kind] == ticket }
    func finish() { lock.lock(); inFlight -= 1; lock.unlock() }
    var idle: Bool { lock.lock(); defer { lock.unlock() }; return inFlight == 0 }
}

/// A flag set by one thread and cleared by another.
final class Atomic: @unchecked Sendable {
    private let lock = NSLock()
    private var set = false
    func setIfClear() -> Bool { lock.lock(); defer { lock.unlock() }; if set { return false }; set = true; return true }
    func clear() { lock.lock(); set = false; lock.unlock() }
}
