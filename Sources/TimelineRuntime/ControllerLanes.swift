import Dispatch
import Foundation
import Synchronization
import TimelineCore
import TimelineUI

/// Keeps counts from monopolizing a core on a large history: a recount of the same query (after store
/// changes) waits until twice its last duration has passed since it last finished (at most 2 s); a new
/// query waits a short debounce so a burst of keystrokes is counted once; the exact counts that follow a
/// capped count of the same query start at once.
final class CountThrottle: Sendable {
    private struct Last {
        var generation: Int?
        var end: UInt64 = 0
        var duration: UInt64 = 0
        var wasCapped = false
    }
    private let last = Mutex(Last())

    /// A new query waits this long first, so counts for keystrokes typed in quick succession are
    /// skipped (superseded) instead of competing with the frames for CPU.
    private let debounceSeconds: Double
    init(debounceSeconds: Double) { self.debounceSeconds = debounceSeconds }

    func wait(generation g: Int) {
        let seen = last.withLock { $0 }
        guard g == seen.generation else {
            if seen.generation != nil, debounceSeconds > 0 { Thread.sleep(forTimeInterval: debounceSeconds) }
            return
        }
        if seen.wasCapped { return }
        let ready = seen.end + min(2 * seen.duration, 2_000_000_000)
        let now = DispatchTime.now().uptimeNanoseconds
        if ready > now { Thread.sleep(forTimeInterval: Double(ready - now) / 1e9) }
    }

    func finished(generation g: Int, startedNanos: UInt64, capped: Bool) {
        let now = DispatchTime.now().uptimeNanoseconds
        last.withLock { last in
            last.generation = g
            last.wasCapped = capped
            last.end = now
            last.duration = now - startedNanos
        }
    }
}

/// A serial queue and the reader used only on it (opened lazily, on the queue).
final class Lane: Sendable {
    let queue: DispatchQueue
    private let makeReader: @Sendable () throws -> TimelineReading
    /// Reached only on `queue`, so the lock is never contended: it lets the compiler check the sharing.
    private let opened = Mutex<TimelineReading?>(nil)

    init(label: String, makeReader: @escaping @Sendable () throws -> TimelineReading) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
        self.makeReader = makeReader
    }

    /// Waits until everything queued so far has run; false when `deadline` passed first.
    func waitUntilIdle(_ deadline: DispatchTime) -> Bool {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        return done.wait(timeout: deadline) == .success
    }

    /// Runs `body` with the lane's reader (opened on first use). Call only on `queue`.
    func withReader<R: Sendable>(_ body: (TimelineReading) throws -> R) throws -> R {
        try opened.withLock { opened in
            if let reader = opened { return try body(reader) }
            let reader = try makeReader()
            opened = reader
            return try body(reader)
        }
    }
}
