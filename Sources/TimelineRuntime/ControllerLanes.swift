import Dispatch
import Foundation
import TimelineCore
import TimelineUI

/// Keeps counts from monopolizing a core on a large history: a recount of the same query (after store
/// changes) waits until twice its last duration has passed since it last finished (at most 2 s); a new
/// query waits a short debounce so a burst of keystrokes is counted once; the exact counts that follow a
/// capped count of the same query start at once.
final class CountThrottle: @unchecked Sendable {
    private var generation: Int?
    private var lastEnd: UInt64 = 0
    private var lastDuration: UInt64 = 0
    private var lastWasCapped = false

    /// A new query waits this long first, so counts for keystrokes typed in quick succession are
    /// skipped (superseded) instead of competing with the frames for CPU.
    private let debounceSeconds: Double
    init(debounceSeconds: Double) { self.debounceSeconds = debounceSeconds }

    func wait(generation g: Int) {
        guard g == generation else {
            if generation != nil, debounceSeconds > 0 { Thread.sleep(forTimeInterval: debounceSeconds) }
            return
        }
        if lastWasCapped { return }
        let ready = lastEnd + min(2 * lastDuration, 2_000_000_000)
        let now = DispatchTime.now().uptimeNanoseconds
        if ready > now { Thread.sleep(forTimeInterval: Double(ready - now) / 1e9) }
    }

    func finished(generation g: Int, startedNanos: UInt64, capped: Bool) {
        let now = DispatchTime.now().uptimeNanoseconds
        generation = g
        lastWasCapped = capped
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

    /// Waits until everything queued so far has run; false when `deadline` passed first.
    func waitUntilIdle(_ deadline: DispatchTime) -> Bool {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        return done.wait(timeout: deadline) == .success
    }

    /// Call only on `queue`.
    func reader() throws -> TimelineReading {
        if let opened { return opened }
        let r = try makeReader()
        opened = r
        return r
    }
}
