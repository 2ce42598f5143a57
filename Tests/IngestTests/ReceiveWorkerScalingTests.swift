@testable import Ingest
import Testing

/// The rule that sizes a queue's receive workers: more while receives come back full, the usual number
/// once they do not.
@Suite struct ReceiveWorkerScalingTests {
    @Test func fullReceivesAddWorkersUpToTheMaximum() {
        var rule = ReceiveWorkerScaling(usual: 2, maximum: 8)
        let decisions = (0..<10).map { _ in rule.afterReceive(count: 10, full: 10) }
        #expect(decisions == Array(repeating: .add, count: 6) + [.keep, .keep, .keep, .keep])
        #expect(rule.running == 8)
    }

    @Test func receivesThatAreNotFullRetireTheAddedWorkersOnly() {
        var rule = ReceiveWorkerScaling(usual: 2, maximum: 8)
        for _ in 0..<3 { _ = rule.afterReceive(count: 10, full: 10) }
        #expect(rule.running == 5)
        let decisions = [3, 0, 9, 0, 0, 0].map { rule.afterReceive(count: $0, full: 10) }
        #expect(decisions == [.retire, .retire, .retire, .keep, .keep, .keep])
        #expect(rule.running == 2)
    }

    @Test func fullIsWhatOneReceiveAsksFor() {
        var rule = ReceiveWorkerScaling(usual: 1, maximum: 3)
        #expect(rule.afterReceive(count: 5, full: 5) == .add)
        #expect(rule.afterReceive(count: 4, full: 5) == .retire)
    }

    @Test func aMaximumBelowTheUsualNumberNeverScales() {
        var rule = ReceiveWorkerScaling(usual: 4, maximum: 2)
        #expect(rule.afterReceive(count: 10, full: 10) == .keep)
        #expect(rule.afterReceive(count: 0, full: 10) == .keep)
        #expect(rule.running == 4)
    }
}
