import Testing
@testable import Ingest

@Suite struct BackoffTests {
    @Test func growsExponentiallyUpToTheCap() {
        var b = Backoff(base: 0.1, cap: 1.5)
        let ceilings = (0..<8).map { _ -> Double in
            let c = b.ceiling
            _ = b.nextDelay(random: 0.5)
            return c
        }
        #expect(ceilings == [0.1, 0.2, 0.4, 0.8, 1.5, 1.5, 1.5, 1.5])
    }

    @Test func fullJitterScalesTheCeilingAndResetStartsOver() {
        var b = Backoff(base: 0.2, cap: 10)
        #expect(b.nextDelay(random: 0) == 0)
        #expect(b.nextDelay(random: 0.5) == 0.2)
        #expect(b.nextDelay(random: 0.25) == 0.2)
        b.reset()
        #expect(b.failures == 0)
        #expect(b.ceiling == 0.2)
    }

    @Test func manyFailuresNeverOverflow() {
        var b = Backoff(base: 0.1, cap: 1.5)
        for _ in 0..<200 { _ = b.nextDelay(random: 0.99) }
        #expect(b.ceiling == 1.5)
    }
}
