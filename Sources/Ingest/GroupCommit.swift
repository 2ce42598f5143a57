import Foundation
import TimelineStore

/// Stores the batches that several receive workers hand in at about the same time in one transaction
/// (group commit): a commit writes every page it touches to the WAL whole (the events' indexes, the
/// timeline, the search index), so one commit of three batches writes far fewer bytes and costs far less
/// CPU than three commits.
///
/// A batch that comes after a quiet spell (no commit in the last `window` seconds) is committed at once.
/// Under steady traffic a commit starts `window` after the previous one ended (or as soon as `limit`
/// items wait), and takes every batch handed in meanwhile, up to `limit` items, the oldest first (a single
/// batch larger than that goes alone): so commits come at most about once per `window`, and a batch waits
/// at most about that long for its commit. `ingest` returns only once the caller's own batch is
/// committed, so the caller still deletes its messages after their commit.
///
/// A failed group is stored batch by batch, so one batch the store refuses does not hold up the others:
/// each caller sees exactly the outcome it would have had alone.
// @unchecked: its state is guarded by `condition`, an NSCondition because callers wait on it.
final class GroupCommit: @unchecked Sendable {
    /// One caller's batch and, once its commit is decided, the result.
    private final class Submission {
        let items: [IngestItem]
        var result: Result<[IngestOutcome], any Error>?
        init(_ items: [IngestItem]) { self.items = items }
    }

    private let condition = NSCondition()
    private var pending: [Submission] = []
    /// Whether a caller is committing (or waiting for `window` to pass before it does).
    private var committing = false
    /// When the last commit ended (nil before the first).
    private var lastCommitEnd: Date?
    /// Most items one group commit stores (a single batch larger than that is stored alone).
    let limit: Int
    /// Least time between the end of a commit and the start of the next (seconds).
    let window: TimeInterval

    init(limit: Int, window: TimeInterval) {
        self.limit = max(1, limit)
        self.window = max(0, window)
    }

    /// Batches handed in and not yet taken by a commit.
    var waiting: Int { condition.withLock { pending.count } }

    /// Stores `items` (in one transaction with whatever other batches are pending) with `store` (one
    /// transaction per call: `TimelineStore.ingest`), and returns their outcomes in order; throws when
    /// their transaction failed (then nothing of them is stored). `afterCommit` runs once after each
    /// transaction that stored something, on the committing caller's thread, before any caller whose
    /// batch it stored returns.
    func ingest(_ items: [IngestItem], store: ([IngestItem]) throws -> [IngestOutcome],
                afterCommit: () -> Void = {}) throws -> [IngestOutcome] {
        let mine = Submission(items)
        condition.lock()
        pending.append(mine)
        condition.broadcast()  // a caller waiting out the window may now have `limit` items
        while mine.result == nil {
            if committing {
                condition.wait()
                continue
            }
            committing = true
            waitOutWindow()
            let group = takeGroup()
            condition.unlock()
            let results = Self.commit(group.map(\.items), store: store)
            if results.contains(where: { (try? $0.get()) != nil }) { afterCommit() }
            condition.lock()
            for (submission, result) in zip(group, results) { submission.result = result }
            committing = false
            lastCommitEnd = Date()
            condition.broadcast()
        }
        condition.unlock()
        return try mine.result!.get()
    }

    /// Under steady traffic (a commit ended less than `window` ago), waits until `window` after it, or
    /// until `limit` items wait. Called locked.
    private func waitOutWindow() {
        guard window > 0, let lastCommitEnd else { return }
        let until = lastCommitEnd.addingTimeInterval(window)
        while Date() < until, pending.reduce(0, { $0 + $1.items.count }) < limit {
            _ = condition.wait(until: until)
        }
    }

    /// The oldest pending batches, up to `limit` items (always at least one batch). Called locked.
    private func takeGroup() -> [Submission] {
        var count = 0
        var taken = 0
        for submission in pending {
            if taken > 0 && count + submission.items.count > limit { break }
            count += submission.items.count
            taken += 1
        }
        let group = Array(pending.prefix(taken))
        pending.removeFirst(taken)
        return group
    }

    /// Commits `batches` as one transaction; if that fails and there are several, each alone. One result
    /// per batch, in order.
    private static func commit(_ batches: [[IngestItem]], store: ([IngestItem]) throws -> [IngestOutcome]) -> [Result<[IngestOutcome], any Error>] {
        if batches.count > 1, let outcomes = try? store(batches.flatMap { $0 }) {
            var rest = outcomes[...]
            return batches.map { batch in
                defer { rest = rest.dropFirst(batch.count) }
                return .success(Array(rest.prefix(batch.count)))
            }
        }
        // One batch, or a group the store refused: each alone, so a batch the store refuses does not fail
        // the others.
        return batches.map { batch in Result { try store(batch) } }
    }
}
