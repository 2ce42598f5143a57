import Foundation

/// Hands batches from one producing thread to one consuming thread: `put` returns once the consumer has
/// taken the batch, so the producer prepares batch N+1 while the consumer stores batch N and never runs
/// further ahead: at most two batches are in memory (a bulk import reads and parses on one core while the
/// store writes on the other).
///
/// The producer calls `put` for each batch and `finish` at the end; the consumer calls `take` until it
/// answers nil, or `cancel` to stop early (the producer's waiting or next `put` then answers false).
// @unchecked: its state is guarded by `condition`, an NSCondition because both sides wait on it (Mutex cannot).
public final class BatchHandoff<Batch: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: Batch?
    private var finished = false
    private var cancelled = false

    public init() {}

    /// Hands over `batch` and waits until the consumer takes it. False when the consumer cancelled (stop
    /// producing).
    public func put(_ batch: Batch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if cancelled { return false }
        waiting = batch
        condition.broadcast()
        while waiting != nil && !cancelled { condition.wait() }
        return !cancelled
    }

    /// No more batches: `take` answers nil once the waiting one is taken.
    public func finish() {
        condition.lock()
        defer { condition.unlock() }
        finished = true
        condition.broadcast()
    }

    /// The next batch, waiting for it; nil when the producer finished and every batch was taken, or
    /// after `cancel`.
    public func take() -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while waiting == nil && !finished && !cancelled { condition.wait() }
        if cancelled { return nil }
        defer { waiting = nil; condition.broadcast() }
        return waiting
    }

    /// The consumer stops: the waiting batch is dropped, and the producer's `put` answers false.
    public func cancel() {
        condition.lock()
        defer { condition.unlock() }
        cancelled = true
        waiting = nil
        condition.broadcast()
    }
}
