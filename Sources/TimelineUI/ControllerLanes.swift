import Dispatch
import Foundation
import TimelineCore

/// Keeps counts from monopolizing a core on a large history: a recount of the same query (after store
/// changes) waits until twice its last duration has passed since it last finished (at most 2 s); a new
/// query waits a short debounce so a burst of keystrokes is counted once.
final class CountThrottle: @unchecked Sendable {
    private var generation: Int?
    private var lastEnd: UInt64 = 0
    private var lastDuration: UInt64 = 0

    /// A new query waits this long first, so counts for keystrokes typed in quick succession are
    /// skipped (superseded) instead of competing with the frames for CPU.
    private let debounceSeconds: Double
    init(debounceSeconds: Double) { self.debounceSeconds = debounceSeconds }

    func wait(generation g: Int) {
        guard g == generation else {
            if generation != nil, debounceSeconds > 0 { Thread.sleep(forTimeInterval: debounceSeconds) }
            return
        }
        let ready = lastEnd + min(2 * lastDuration, 2_000_000_000)
        let now = DispatchTime.now().uptimeNanoseconds
        if ready > now { Thread.sleep(forTimeInterval: Double(ready - now) / 1e9) }
    }

    func finished(generation g: Int, startedNanos: UInt64) {
        let now = DispatchTime.now().uptimeNanoseconds
        generation = g
        lastEnd = now
        lastDuration = now - startedNanos
    }
}

/// A serial queue and the reader used only on it (opened lazily, on the queue).
final class Lane: @unchecked Sendable {
    let queue: DispatchQueue
    private let makeReader: @Sendable () throws -> TimelineReading
    private var opened: TimelineReading?

    init(label: String, makeReader: @escaping @Sendable () throws -> TimelineReading) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
        self.makeReader = makeReader
    }

    /// Call only on `queue`.
    func reader() throws -> TimelineReading {
        if let opened { return opened }
        let r = try makeReader()
        opened = r
        return r
    }
}

/// Effects of one kind supersede each other.
enum EffectKind: Hashable {
    case window, counts, history, find
    init(_ e: Effect) {
        switch e {
        case .loadWindow: self = .window
        case .loadCounts: self = .counts
        case .loadHistory: self = .history
        case .findMatch, .quit: self = .find
        }
    }
}

/// Results waiting for the input thread.
final class Inbox: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Input] = []
    func put(_ input: Input) { lock.lock(); items.append(input); lock.unlock() }
    func takeAll() -> [Input] { lock.lock(); defer { lock.unlock() }; let out = items; items = []; return out }
    var isEmpty: Bool { lock.lock(); defer { lock.unlock() }; return items.isEmpty }
}

/// Latest ticket per effect kind, and how many are in flight.
final class Tickets: @unchecked Sendable {
    private let lock = NSLock()
    private var latest: [EffectKind: Int] = [:]
    private var inFlight = 0
    func issue(_ kind: EffectKind) -> Int {
        lock.lock(); defer { lock.unlock() }
        inFlight += 1
        let next = (latest[kind] ?? 0) + 1
        latest[kind] = next
        return next
    }
    func isLatest(_ ticket: Int, _ kind: EffectKind) -> Bool { lock.lock(); defer { lock.unlock() }; return latest[kind] == ticket }
    func finish(_ kind: EffectKind) { lock.lock(); inFlight -= 1; lock.unlock() }
    var idle: Bool { lock.lock(); defer { lock.unlock() }; return inFlight == 0 }
}

/// A flag set by one thread and cleared by another.
final class Atomic: @unchecked Sendable {
    private let lock = NSLock()
    private var set = false
    func setIfClear() -> Bool { lock.lock(); defer { lock.unlock() }; if set { return false }; set = true; return true }
    func clear() { lock.lock(); set = false; lock.unlock() }
}
