/// One progress report of a task: when, and how far (0–100).
public struct ProgressPoint: Sendable, Equatable, Hashable {
    public var micros: Int64
    public var progress: Double
    public init(micros: Int64, progress: Double) {
        self.micros = micros
        self.progress = progress
    }
}

/// Estimates when a running task finishes from its recent progress reports.
public enum ProgressETA {
    /// Fewest consecutive rising reports an estimate needs.
    public static let minimumUpdates = 3

    /// Microseconds from `nowMicros` until the task should reach 100 %, or nil when the newest reports
    /// (`points`, newest first) did not rise steadily over at least `minimumUpdates` updates. Uses the
    /// average rate over the newest run of strictly rising reports. Nil once that time has passed too: the
    /// task is slower than its reports said, and "~0s left" at 43 % would mislead.
    public static func remainingMicros(_ points: [ProgressPoint], nowMicros: Int64) -> Int64? {
        var run: [ProgressPoint] = []
        for p in points {
            if let later = run.last, !(p.progress < later.progress && p.micros < later.micros) { break }
            run.append(p)
        }
        guard run.count >= minimumUpdates, let newest = run.first, let oldest = run.last else { return nil }
        let rate = (newest.progress - oldest.progress) / Double(newest.micros - oldest.micros)
        guard rate > 0, newest.progress < 100 else { return nil }
        let finish = Double(newest.micros) + (100 - newest.progress) / rate
        guard finish.isFinite, finish < Double(Int64.max) else { return nil }
        let left = Int64(finish) - nowMicros
        return left > 0 ? left : nil
    }
}
