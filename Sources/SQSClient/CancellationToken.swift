import Foundation

/// A flag that any thread may raise to abort the work that watches it (e.g. an in-flight long poll).
/// Handlers registered with `onCancel` run once, on the cancelling thread.
public final class CancellationToken: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private var handlers: [Int: @Sendable () -> Void] = [:]
    private var nextHandlerID = 0

    public init() {}

    /// True once `cancel()` has been called.
    public var isCancelled: Bool { lock.withLock { cancelled } }

    /// Raises the flag and runs the registered handlers. Later calls do nothing.
    public func cancel() {
        // Handlers run under the lock so that `removeHandler` returning means the handler is not running.
        lock.withLock {
            guard !cancelled else { return }
            cancelled = true
            for handler in handlers.values { handler() }
            handlers.removeAll()
        }
    }

    /// Registers `handler` to run on cancellation (at once if already cancelled); returns an id
    /// for `removeHandler`. Handlers must be quick and must not touch this token.
    @discardableResult
    public func onCancel(_ handler: @escaping @Sendable () -> Void) -> Int {
        lock.withLock {
            if cancelled {
                handler()
                return -1
            }
            nextHandlerID += 1
            handlers[nextHandlerID] = handler
            return nextHandlerID
        }
    }

    /// Unregisters a handler; after it returns the handler will not run.
    public func removeHandler(_ id: Int) {
        _ = lock.withLock { handlers.removeValue(forKey: id) }
    }
}
