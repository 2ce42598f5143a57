import TimelineCore

/// Words about a running task's time: elapsed since its first event, the ETA, and the detail's fields.
enum RunText {
    /// "12m" or "12m · ~4m left" for a running row whose start is known; nil otherwise.
    static func row(_ row: TimelineRow, state: AppState) -> String? {
        guard row.event.status == .inProgress, let first = row.firstMicros else { return nil }
        let elapsed = TimeFormat.duration(micros: state.nowMicros - first, short: true)
        guard let left = ProgressETA.remainingMicros(row.recentProgress, nowMicros: state.nowMicros) else {
            return elapsed
        }
        return "\(elapsed) · ~\(TimeFormat.duration(micros: left, short: true)) left"
    }
}

extension RunText {
    /// The detail's duration fields: "Running" (and "ETA") for a running task, "Duration" (first to
    /// last event) for one that ended.
    static func detailFields(_ row: TimelineRow, state: AppState) -> [(String, String)] {
        guard let first = row.firstMicros else { return [] }
        if row.event.status == .inProgress {
            var out = [("Running", "for " + TimeFormat.duration(micros: state.nowMicros - first))]
            if let left = ProgressETA.remainingMicros(row.recentProgress, nowMicros: state.nowMicros) {
                out.append(("ETA", "~\(TimeFormat.duration(micros: left)) left (from the progress reports)"))
            }
            return out
        }
        return [("Duration", TimeFormat.duration(micros: row.event.timestampMicros - first) + " in total")]
    }
}
