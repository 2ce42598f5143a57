import Foundation
import Synchronization

/// A flag that any thread may raise to abort the work that watches it (e.g. an in-flight long poll).
/// Handlers registered with `onCancel` run once, on the cancelling thread.
public final class CancellationToken: Sendable {
    private struct State {
        var cancelled = false
        var handlers: [Int: @Sendable () -> Void] = [:]
        var nextHandlerID = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// True once `cancel()` has been called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Raises the flag and runs the registered handlers. Later calls do nothing.
    public func cancel() {
        // Handlers run under the lock so that `removeHandler` returning means the handler is not running.
        state.withLock { state in
            guard !state.cancelled else { return }
            state.cancelled = true
            for handler in state.handlers.values { handler() }
            state.handlers.removeAll()
        }
    }

    /// Registers `handler` to run on cancellation (at once if already cancelled); returns an id
    /// for `removeHandler`. Handlers must be quick and must not touch this token.
    @discardableResult
    public func onCancel(_ handler: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state in
            if state.cancelled {
                handler()
                return -1
            }
            state.nextHandlerID += 1
            state.handlers[state.nextHandlerID] = handler
            return state.nextHandlerID
        }
    }

    /// Unregisters a handler; after it returns the handler will not run.
    public func removeHandler(_ id: Int) {
        _ = state.withLock { $0.handlers.removeValue(forKey: id) }
    }
}
