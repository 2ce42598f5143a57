import Foundation
import TimelineCore
import TimelineRuntime
@testable import TimelineUI

/// A `TimelineReading` over rows held in memory, following the store's rules: one row per task, newest
/// first by `(timestamp, arrival)`; matching by `QueryMatcher` (which mirrors the store's). No SQLite, no
/// threads: reducer tests answer effects with it synchronously.
final class InMemoryTimeline: TimelineReading {
    /// Newest first.
    private(set) var rows: [TimelineRow]
    private var histories: [String: [Event]]
    private var token: Int64 = 0
    /// Marked task ids (for `is:marked`).
    var marks: Set<String> = []

    init(_ rows: [TimelineRow], histories: [String: [Event]] = [:]) {
        self.rows = rows.sorted { $0.key > $1.key }
        self.histories = histories
    }

    private func listed(_ q: TimelineQuery) -> [TimelineRow] { rows.filter { QueryMatcher.matches($0, q, nowMicros: fixedNow, marks: marks) } }

    func rows(matching query: TimelineQuery, olderThan key: RowKey?, limit: Int) throws -> [TimelineRow] {
        Array(listed(query).filter { key == nil || $0.key < key! }.prefix(limit))
    }

    func rows(matching query: TimelineQuery, newerThan key: RowKey, limit: Int) throws -> [TimelineRow] {
        Array(listed(query).filter { $0.key > key }.suffix(limit))
    }

    func count(matching query: TimelineQuery) throws -> Int { listed(query).count }

    func countNewer(than key: RowKey, matching query: TimelineQuery) throws -> Int {
        listed(query).filter { $0.key > key }.count
    }

    func statusCounts(matching query: TimelineQuery) throws -> [Status: Int] {
        listed(query).reduce(into: [:]) { $0[$1.event.status, default: 0] += 1 }
    }

    func row(taskID: String) throws -> TimelineRow? { rows.first { $0.taskID == taskID } }

    func history(taskID: String, limit: Int) throws -> [Event] {
        Array((histories[taskID] ?? rows.filter { $0.taskID == taskID }.map(\.event)).prefix(limit))
    }

    func changeToken() throws -> Int64 { token }

    /// Rejected messages, in arrival order (`RejectedReading`).
    var rejectedMessages: [RejectedMessage] = []
}

extension InMemoryTimeline: RejectedReading {
    func rejected(limit: Int, olderThan seq: Int64?) throws -> [RejectedMessage] {
        Array(rejectedMessages.filter { seq == nil || $0.seq < seq! }.sorted { $0.seq > $1.seq }.prefix(limit))
    }

    func rejectedCount() throws -> Int { rejectedMessages.count }
}

/// `reduce` run to completion without threads: every effect is answered at once by `EffectExecutor`
/// against an in-memory timeline, and the answer is fed back, until nothing is pending.
struct SyncDriver {
    var state: AppState
    let store: InMemoryTimeline

    /// A sized view with its first loads done.
    init(_ store: InMemoryTimeline, width: Int = 80, height: Int = 12, state start: AppState? = nil) {
        self.store = store
        state = start ?? AppState(width: width, height: height, nowMicros: fixedNow)
        state.timeZone = TimeZone(identifier: "UTC")!
        answer(startEffects(&state))
    }

    /// Applies `input`; returns the effects `reduce` asked for (they are answered before this returns).
    @discardableResult
    mutating func send(_ input: Input) -> [Effect] {
        let effects = reduce(&state, input)
        answer(effects)
        confirmationDrawn(&state)  // a frame follows each input when keys come one at a time
        return effects
    }

    mutating func press(_ keys: Key...) { for key in keys { send(.key(key)) } }

    mutating func type(_ text: String) { for c in text { send(.key(.char(c))) } }

    private mutating func answer(_ effects: [Effect]) {
        var pending = effects
        while !pending.isEmpty {
            let effect = pending.removeFirst()
            // Marks are written by the runtime's actions; the in-memory store keeps them for is:marked.
            if case .setMark(let task, let marked) = effect {
                if marked { store.marks.insert(task) } else { store.marks.remove(task) }
            }
            if let result = EffectExecutor.run(effect, on: store) { pending += reduce(&state, result) }
        }
    }
}
