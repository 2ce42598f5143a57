import Dispatch
import Foundation
@testable import Ingest
import TestSupport
import Testing
import TimelineStore

/// Group commit: the batches workers hand in while a commit runs are stored together by the next one,
/// bounded in size, and a batch the store refuses fails alone.
@Suite struct GroupCommitTests {
    /// A store that records each transaction's message ids, holds the first one until `release`, refuses
    /// every transaction holding a `poison` message, and answers `.duplicate` for `dup` ids.
    final class FakeStore: Sendable {
        let transactions = Locked<[[String]]>([])
        /// Calls of the callers' `afterCommit`.
        let commitsSeen = Locked(0)
        private let gate = DispatchSemaphore(value: 0)

        func ingest(_ items: [IngestItem]) throws -> [IngestOutcome] {
            let ids = items.map { $0.messageID ?? "" }
            let first = transactions.withValue { $0.append(ids); return $0.count == 1 }
            if first { gate.wait() }
            if ids.contains(where: { $0.hasPrefix("poison") }) { throw Refused() }
            return ids.map { $0.hasPrefix("dup") ? .duplicate : .inserted }
        }

        func release() { gate.signal() }
    }

    struct Refused: Error {}

    static func batch(_ ids: [String]) -> [IngestItem] {
        ids.map { .rejected(rawBody: $0, messageID: $0, reason: "test") }
    }

    /// Hands `ids` in on a thread of its own; the result lands in `results[name]`.
    static func handIn(_ commit: GroupCommit, _ store: FakeStore, _ name: String, _ ids: [String],
                       into results: Locked<[String: Result<[IngestOutcome], Refused>]>, group: DispatchGroup) {
        group.enter()
        Thread {
            let result: Result<[IngestOutcome], Refused>
            do {
                result = .success(try commit.ingest(batch(ids), store: { try store.ingest($0) },
                                                    afterCommit: { store.commitsSeen.withValue { $0 += 1 } }))
            } catch { result = .failure(Refused()) }
            results.withValue { $0[name] = result }
            group.leave()
        }.start()
    }

    /// Starts a commit of `first` that the store holds, then hands in `others` while it runs, then lets it go.
    static func run(limit: Int, first: [String], others: [(String, [String])], store: FakeStore)
        -> [String: Result<[IngestOutcome], Refused>] {
        let commit = GroupCommit(limit: limit, window: 0)
        let results = Locked<[String: Result<[IngestOutcome], Refused>]>([:])
        let group = DispatchGroup()
        handIn(commit, store, "first", first, into: results, group: group)
        #expect(PollerTestKit.eventually(timeout: 10) { store.transactions.current.count == 1 })
        for (name, ids) in others {
            handIn(commit, store, name, ids, into: results, group: group)
            let handedIn = others.prefix { $0.0 != name }.count + 1
            #expect(PollerTestKit.eventually(timeout: 10) { commit.waiting == handedIn })
        }
        store.release()
        #expect(group.wait(timeout: .now() + 30) == .success)
        return results.current
    }

    @Test func batchesHandedInDuringACommitAreStoredTogetherByTheNextOne() throws {
        let store = FakeStore()
        let results = Self.run(limit: 500, first: ["a1", "a2"],
                               others: [("b", ["b1", "dup-b2"]), ("c", ["c1"]), ("d", ["dup-d1", "d2", "d3"])], store: store)
        #expect(store.transactions.current == [["a1", "a2"], ["b1", "dup-b2", "c1", "dup-d1", "d2", "d3"]])
        // Each caller gets the outcomes of its own items, in order.
        #expect(try results["first"]?.get() == [.inserted, .inserted])
        #expect(try results["b"]?.get() == [.inserted, .duplicate])
        #expect(try results["c"]?.get() == [.inserted])
        #expect(try results["d"]?.get() == [.duplicate, .inserted, .inserted])
        // One `afterCommit` per transaction, not per batch.
        #expect(store.commitsSeen.current == 2)
    }

    @Test func aGroupHoldsAtMostTheLimitOldestFirstAndALargerBatchGoesAlone() throws {
        let store = FakeStore()
        let results = Self.run(limit: 4, first: ["a1"],
                               others: [("b", ["b1", "b2"]), ("c", ["c1", "c2"]), ("d", ["d1", "d2", "d3", "d4", "d5"]),
                                        ("e", ["e1"])], store: store)
        #expect(store.transactions.current == [["a1"], ["b1", "b2", "c1", "c2"], ["d1", "d2", "d3", "d4", "d5"], ["e1"]])
        #expect(results.values.allSatisfy { (try? $0.get()) != nil })
    }

    @Test func aBatchTheStoreRefusesFailsAloneAndTheOthersAreStored() throws {
        let store = FakeStore()
        let results = Self.run(limit: 500, first: ["a1"],
                               others: [("b", ["b1"]), ("c", ["poison-c1"]), ("d", ["d1", "d2"])], store: store)
        // The group is refused, then each batch is tried alone.
        #expect(store.transactions.current == [["a1"], ["b1", "poison-c1", "d1", "d2"], ["b1"], ["poison-c1"], ["d1", "d2"]])
        #expect(try results["b"]?.get() == [.inserted])
        #expect(try results["d"]?.get() == [.inserted, .inserted])
        // The first transaction, then the batches stored alone (the refused group stored nothing).
        #expect(store.commitsSeen.current == 2)
        guard case .failure = results["c"] else {
            Issue.record("the refused batch was reported stored: \(String(describing: results["c"]))")
            return
        }
    }

    @Test func aLoneBatchIsCommittedAtOnceWithoutWaitingForCompany() throws {
        let commit = GroupCommit(limit: 500, window: 30)
        let transactions = Locked(0)
        let outcomes = try commit.ingest(Self.batch(["x1", "x2"])) { items in
            transactions.withValue { $0 += 1 }
            return items.map { _ in .inserted }
        }
        #expect(outcomes == [.inserted, .inserted])
        #expect(transactions.current == 1)
        #expect(commit.waiting == 0)
    }

    @Test func underSteadyTrafficACommitWaitsForCompanyUntilTheLimitIsReached() throws {
        // A window far longer than the test: only the limit can end the wait.
        let commit = GroupCommit(limit: 3, window: 300)
        let transactions = Locked<[[String]]>([])
        let store: @Sendable ([IngestItem]) throws -> [IngestOutcome] = { items in
            transactions.withValue { $0.append(items.map { $0.messageID ?? "" }) }
            return items.map { _ in .inserted }
        }
        _ = try commit.ingest(Self.batch(["a1"]), store: store)
        // A commit just ended: the next batch waits for company.
        let results = Locked<[String: Result<[IngestOutcome], Refused>]>([:])
        let group = DispatchGroup()
        for (name, ids) in [("b", ["b1"]), ("c", ["c1"])] {
            group.enter()
            Thread {
                let outcome: Result<[IngestOutcome], Refused>
                do { outcome = .success(try commit.ingest(Self.batch(ids), store: store)) } catch { outcome = .failure(Refused()) }
                results.withValue { $0[name] = outcome }
                group.leave()
            }.start()
            #expect(PollerTestKit.eventually(timeout: 10) { commit.waiting == (name == "b" ? 1 : 2) })
        }
        #expect(transactions.current == [["a1"]], "a batch was committed without waiting out the window")
        // The third item reaches the limit: the waiting commit takes all three at once.
        _ = try commit.ingest(Self.batch(["d1"]), store: store)
        #expect(group.wait(timeout: .now() + 30) == .success)
        #expect(transactions.current.count == 2)
        #expect(Set(transactions.current.last ?? []) == ["b1", "c1", "d1"])
        #expect(results.current.count == 2)
    }

    @Test func underSteadyTrafficALoneBatchIsCommittedOnceTheWindowHasPassed() throws {
        let commit = GroupCommit(limit: 500, window: 0.2)
        let store: ([IngestItem]) throws -> [IngestOutcome] = { $0.map { _ in .inserted } }
        _ = try commit.ingest(Self.batch(["a1"]), store: store)
        let started = Date()
        #expect(try commit.ingest(Self.batch(["b1"]), store: store) == [.inserted])
        #expect(Date().timeIntervalSince(started) >= 0.15, "no wait for company after a commit that just ended")
    }
}
