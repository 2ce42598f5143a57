import Testing
import TimelineCore
@testable import TimelineUI

/// Running tasks: elapsed time, ETA, stale and timed-out rows, the detail's durations.
@Suite("Running tasks")
struct RunningTaskTests {
    private let minute: Int64 = 60_000_000

    /// Progress reports `ago` minutes before fixedNow, newest first.
    private func points(_ reports: [(ago: Int64, progress: Double)]) -> [ProgressPoint] {
        reports.map { ProgressPoint(micros: fixedNow - $0.ago * minute, progress: $0.progress) }
    }

    private func running(_ task: String, _ title: String, startedMinutesAgo: Int64, updatedSecondsAgo: Int64,
                         progress: Double? = nil, reports: [(ago: Int64, progress: Double)] = [], seq: Int64) -> TimelineRow {
        var row = makeRow(task, title, status: .inProgress, agent: "runner", secondsAgo: updatedSecondsAgo,
                          progress: progress, seq: seq, events: max(1, reports.count))
        row.firstMicros = fixedNow - startedMinutesAgo * minute
        row.recentProgress = points(reports)
        return row
    }

    private func rows() -> [TimelineRow] {
        var finished = makeRow("T-done", "Backfill finished", status: .success, agent: "runner", secondsAgo: 90, seq: 1,
                               events: 4)
        finished.firstMicros = fixedNow - 95 * minute
        return [
            // Rose steadily 20 → 40 → 60 over the last 4 minutes: 10 %/min, 40 % left ⇒ ~4m.
            running("T-eta", "Rendering video frames", startedMinutesAgo: 14, updatedSecondsAgo: 0, progress: 60,
                    reports: [(0, 60), (2, 40), (4, 20)], seq: 6),
            // Only two reports: no ETA, elapsed only.
            running("T-two", "Two reports, no estimate yet", startedMinutesAgo: 3, updatedSecondsAgo: 30, progress: 50,
                    reports: [(0, 50), (1, 30)], seq: 5),
            // Went backwards: no ETA.
            running("T-back", "Progress went backwards", startedMinutesAgo: 65, updatedSecondsAgo: 20, progress: 30,
                    reports: [(0, 30), (1, 45), (2, 20), (3, 10)], seq: 4),
            running("T-stale", "Waiting on a lock forever", startedMinutesAgo: 30, updatedSecondsAgo: 11 * 60, seq: 3),
            running("T-old", "Nightly reindex", startedMinutesAgo: 9 * 60, updatedSecondsAgo: 40, progress: 70, seq: 2),
            finished,
        ]
    }

    @Test func elapsedEtaStaleAndTimedOutRows100x12() {
        let s = loadedState(rows(), width: 100, height: 12)
        GoldenScreen.check(render(s, width: 100, height: 12), "100x12-running-elapsed-eta-stale-timed-out")
    }

    @Test func narrowRowsKeepTheTitle60x10() {
        let s = loadedState(rows(), width: 60, height: 10)
        GoldenScreen.check(render(s, width: 60, height: 10), "60x10-running-narrow")
    }

    @Test func thresholdsAreSettings() {
        // With a 1-hour lifetime, the 65-minute task times out; with 20-minute staleness, the lock waiter is live-ish.
        let s = loadedState(rows(), width: 100, height: 12) {
            $0.runThresholds = RunThresholds(staleSeconds: 20 * 60, maxLifetimeSeconds: 3_600)
        }
        GoldenScreen.check(render(s, width: 100, height: 12), "100x12-running-custom-thresholds")
        let back = rows()[2]
        #expect(Liveness(back, nowMicros: fixedNow, thresholds: s.runThresholds) == .timedOut)
        #expect(Liveness(back, nowMicros: fixedNow) == .live)
        let stale = rows()[3]
        #expect(Liveness(stale, nowMicros: fixedNow) == .stale)
        #expect(Liveness(stale, nowMicros: fixedNow, thresholds: s.runThresholds) == .quiet)
    }

    @Test func detailShowsStartedUpdatedRunningAndEta() {
        var s = loadedState(rows(), width: 80, height: 24)
        _ = reduce(&s, .key(.enter))
        GoldenScreen.check(render(s, width: 80, height: 24), "80x24-detail-running-eta")
    }

    @Test func detailOfAFinishedTaskShowsItsTotalDuration() {
        var s = loadedState(rows(), width: 80, height: 24)
        _ = reduce(&s, .key(.char("G")))
        _ = reduce(&s, .key(.enter))
        let text = (0..<24).map { render(s, width: 80, height: 24).line($0) }.joined(separator: "\n")
        #expect(text.contains("Duration   1h 33m in total"))
        #expect(text.contains("Started"))
    }

    @Test func detailOfATimedOutTaskSaysItIsTheViewersJudgement() {
        var s = loadedState(rows(), width: 80, height: 24)
        for _ in 0..<4 { _ = reduce(&s, .key(.char("j"))) }
        _ = reduce(&s, .key(.enter))
        let text = (0..<24).map { render(s, width: 80, height: 24).line($0) }.joined(separator: "\n")
        #expect(text.contains("timed out: running for over 8h 00m"))
        #expect(text.contains("Running    for 9h 00m"))
    }

    /// Questions waiting for an answer, a running task and a finished one.
    private func waitingRows() -> [TimelineRow] {
        var asking = makeRow("claude:4f1c", "Allow Bash: rm -rf build?", status: .needsInput, agent: "claude@laptop",
                             category: "web", secondsAgo: 3 * 60 + 20, seq: 9, events: 6)
        asking.firstMicros = fixedNow - 20 * minute
        let justAsked = makeRow("T-ask", "Deploy to prod?", status: .needsInput, agent: "deployer", secondsAgo: 5, seq: 8)
        let longAgo = makeRow("T-old-ask", "Which region?", status: .needsInput, agent: "planner", secondsAgo: 26 * 3_600,
                              seq: 7)
        return [asking, justAsked, longAgo] + rows().suffix(1)
    }

    @Test func aPendingQuestionShowsHowLongItHasWaited100x12() {
        let s = loadedState(waitingRows(), width: 100, height: 12)
        let text = GoldenScreen.text(of: render(s, width: 100, height: 12))
        #expect(text.contains("waiting 3m") && text.contains("waiting 5s") && text.contains("waiting 1d"))
        GoldenScreen.check(render(s, width: 100, height: 12), "100x12-needs-input-waiting")
    }

    @Test func theDetailOfAPendingQuestionSaysHowLongItHasWaitedForYou() {
        var s = loadedState(waitingRows(), width: 80, height: 24)
        _ = reduce(&s, .key(.enter))
        #expect(GoldenScreen.text(of: render(s, width: 80, height: 24)).contains("Waiting    for you for 3m 20s"))
        // A question without a known start says it too.
        var t = loadedState(waitingRows(), width: 80, height: 24)
        _ = reduce(&t, .key(.char("j")))
        _ = reduce(&t, .key(.enter))
        #expect(GoldenScreen.text(of: render(t, width: 80, height: 24)).contains("Waiting    for you for 5s"))
    }

    @Test func etaNeedsThreeSteadilyRisingReports() {
        #expect(ProgressETA.remainingMicros(points([(0, 60), (2, 40), (4, 20)]), nowMicros: fixedNow) == 4 * minute)
        #expect(ProgressETA.remainingMicros(points([(0, 60), (2, 40)]), nowMicros: fixedNow) == nil)
        #expect(ProgressETA.remainingMicros(points([(0, 60), (2, 60), (4, 20)]), nowMicros: fixedNow) == nil, "flat")
        // The newest rising run counts: an old drop further back does not spoil it.
        #expect(ProgressETA.remainingMicros(points([(0, 90), (1, 80), (2, 70), (3, 95)]), nowMicros: fixedNow) == minute)
        // Estimated from the last report: time since it counts down.
        #expect(ProgressETA.remainingMicros(points([(1, 60), (3, 40), (5, 20)]), nowMicros: fixedNow) == 3 * minute)
        #expect(ProgressETA.remainingMicros(points([(9, 60), (11, 40), (13, 20)]), nowMicros: fixedNow) == nil,
                "the estimated end has passed: no estimate rather than ~0s left")
        #expect(ProgressETA.remainingMicros(points([(0, 100), (1, 50), (2, 10)]), nowMicros: fixedNow) == nil, "done")
    }
}
