import Foundation
import TimelineCore
import TimelineRuntime
import TimelineStore
import TimelineUI

/// The viewer's reads on one existing database, for `bench/scale_bench.py` (which runs this once per size
/// and prints each figure beside its twin): `TIMELINE_SCALE_READS_DB=PATH TimelineBench` prints one JSON
/// object of milliseconds (medians) of this process's CPU time (every thread: the lanes' reads too), which
/// a busy machine disturbs far less than wall time, and the peak RSS, and exits. The database is opened
/// read-only.
///
/// Figures: `first frame` (start to the first frame drawn), `counts` (start to the header counts settled),
/// `scroll` (a page down, by key, with the selection half-way down the list), `reload far down` (a store
/// change there: until the window around the selection, and its position, are drawn again), `end` (End from the newest
/// rows), `search keystroke` (the worst keystroke's frame typing `deploy billing`), `search counts` (from
/// the last keystroke until its first counts are on screen), `search exact counts` (until the exact counts
/// are; information); and `uncapped position count`, what counting the
/// far-down row's position without a cap costs (what each reload there paid before the cap).
func runScaleReadsBench(databasePath path: String) {
    let width = 120, height = 40
    // Runs per figure (each a median): 3 let one run disturbed by the machine move a ratio by 0.5.
    let runs = 9
    var figures: [String: Double] = [:]
    func draw(_ c: TimelineController) { _ = render(c.state, width: width, height: height) }
    func settle(_ c: TimelineController) {
        do { try c.settle(timeout: 600) } catch { fatalError("scale reads bench: \(error)") }
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    func now() -> Double { TUIBenchMeasure.cpuSeconds() * 1000 }
    func press(_ c: TimelineController, _ key: Key) -> Double {
        let start = now()
        c.send(.key(key))
        c.settleFrame()
        draw(c)
        return now() - start
    }

    var firstFrames: [Double] = [], counts: [Double] = []
    var controller: TimelineController!
    for _ in 0..<runs {
        let start = now()
        controller = TimelineController(state: AppState(width: width, height: height, nowMicros: 1_796_000_000_000_000),
                                        makeReader: { try TimelineStore(path: path, readOnly: true) })
        controller.start()
        controller.settleFrame()
        draw(controller)
        firstFrames.append(now() - start)
        settle(controller)
        counts.append(now() - start)
        // A store that cannot be read (a path that is a symbolic link, say) would leave a window awaited forever.
        if let error = controller.state.lastError { fatalError("scale reads bench: \(error)") }
    }
    figures["first frame"] = median(firstFrames)
    figures["counts"] = median(counts)
    let total = controller.state.counts.total ?? 0

    // Half-way down, a page at a time (the walk there is not timed).
    while controller.state.selectedPosition < total / 2 {
        let before = controller.state.selectedPosition
        _ = press(controller, .pageDown)
        if controller.state.selectedPosition == before { settle(controller) }
    }
    settle(controller)
    var pages: [Double] = []
    for i in 0..<20 { pages.append(press(controller, i % 2 == 0 ? .pageDown : .pageUp)) }
    figures["scroll"] = median(pages)
    figures["position"] = Double(controller.state.selectedPosition)
    settle(controller)
    var reloads: [Double] = []
    for _ in 0..<runs {
        // Timed until the reloaded window is drawn; the recounts that follow (throttled) are not.
        let start = now()
        controller.send(.storeChanged)
        controller.settleFrame()
        while controller.state.awaitedWindow != nil { usleep(200); controller.settleFrame() }
        draw(controller)
        reloads.append(now() - start)
        settle(controller)
    }
    figures["reload far down"] = median(reloads)
    // What the reload's position cost when it counted every row above (the uncapped count).
    if let key = controller.state.selectedRow?.key, let store = try? TimelineStore(path: path, readOnly: true) {
        var counts: [Double] = []
        for _ in 0..<3 {
            let start = now()
            _ = try? store.countNewer(than: key, matching: TimelineQuery())
            counts.append(now() - start)
        }
        figures["uncapped position count"] = median(counts)
    }

    var ends: [Double] = []
    for _ in 0..<runs {
        _ = press(controller, .home)
        settle(controller)
        let start = now()
        controller.send(.key(.end))
        controller.settleFrame()
        while controller.state.awaitedWindow != nil { usleep(200); controller.settleFrame() }
        draw(controller)
        ends.append(now() - start)
    }
    figures["end"] = median(ends)
    _ = press(controller, .home)
    settle(controller)

    // `search counts`: from the last keystroke until its first counts are drawn (what the viewer reads
    // before it shows a count: the first screenful); `search exact counts`: until the exact counts that
    // follow on the count lane are drawn (information, no target).
    var keystrokes: [Double] = [], searchCounts: [Double] = [], exactCounts: [Double] = []
    func waitDrawn(_ c: TimelineController, _ shown: (AppState) -> Bool) {
        while !shown(c.state) {
            if !c.drain() { usleep(200) }
        }
        draw(c)
    }
    for _ in 0..<runs {
        _ = press(controller, .char("/"))
        let query = "deploy billing"
        var worst = 0.0
        for c in query.dropLast() { worst = max(worst, press(controller, .char(c))) }
        let start = now()
        worst = max(worst, press(controller, .char(query.last!)))
        keystrokes.append(worst)
        waitDrawn(controller) { $0.counts.generation == $0.generation }
        searchCounts.append(now() - start)
        waitDrawn(controller) { $0.counts.generation == $0.generation && $0.counts.cap == nil }
        exactCounts.append(now() - start)
        _ = press(controller, .escape)
        settle(controller)
    }
    figures["search keystroke"] = median(keystrokes)
    figures["search counts"] = median(searchCounts)
    figures["search exact counts"] = median(exactCounts)
    figures["peak rss mib"] = TUIBenchMeasure.peakRSSMiB()
    var load = [0.0, 0.0, 0.0]
    if getloadavg(&load, 3) == 3 { figures["load"] = load[0] }
    let data = (try? JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys])) ?? Data()
    print(String(decoding: data, as: UTF8.self))
}
