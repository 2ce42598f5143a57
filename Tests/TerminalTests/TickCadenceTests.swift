import Testing
@testable import Terminal

@Suite struct TickCadenceTests {
    @Test func unchangedFramesStretchTheWaitUpToTheMaximum() {
        var cadence = TickCadence()
        #expect(cadence.interval(animating: false) == 1_000_000)
        var waits: [Int64] = []
        for _ in 0..<5 {
            cadence.ticked(changedScreen: false)
            waits.append(cadence.interval(animating: false))
        }
        #expect(waits == [2_000_000, 4_000_000, 4_000_000, 4_000_000, 4_000_000])
        #expect(cadence.interval(animating: true) == 100_000, "an animation always ticks ten times a second")
    }

    @Test func aChangedFrameOrActivityBringsBackOneSecond() {
        var cadence = TickCadence()
        cadence.ticked(changedScreen: false)
        cadence.ticked(changedScreen: false)
        cadence.ticked(changedScreen: true)
        #expect(cadence.interval(animating: false) == 1_000_000)
        cadence.ticked(changedScreen: false)
        cadence.activity()
        #expect(cadence.interval(animating: false) == 1_000_000)
    }
}
