import TimelineCore

/// Words about a running task's time: elapsed since its first event, the ETA, and the detail's fields;
/// for a question not yet answered, how long it has waited (since its event).
enum RunText {
    /// "12m" or "12m · ~4m left" for a running row whose start is known, "waiting 3m" for an unanswered
    /// `needs_input` row; nil otherwise.
    static func row(_ row: TimelineRow, state: AppState) -> String? {
        if let waited = waitedMicros(row, state: state) { return "waiting " + DurationText.span(micros: waited, short: true) }
        guard row.event.status == .inProgress, let first = row.firstMicros else { return nil }
        let elapsed = DurationText.span(micros: state.nowMicros - first, short: true)
        guard let left = ProgressETA.remainingMicros(row.recentProgress, nowMicros: state.nowMicros) else {
            return elapsed
        }
        return "\(elapsed) · ~\(DurationText.span(micros: left, short: true)) left"
    }
}

extension RunText {
    /// The detail's duration fields: "Waiting" for an unanswered question, "Running" (and "ETA") for a
    /// running task, "Duration" (first to last event) for one that ended.
    static func detailFields(_ row: TimelineRow, state: AppState) -> [(String, String)] {
        if let waited = waitedMicros(row, state: state) {
            return [("Waiting", "for you for " + DurationText.span(micros: waited))]
        }
        guard let first = row.firstMicros else { return [] }
        if row.event.status == .inProgress {
            var out = [("Running", "for " + DurationText.span(micros: state.nowMicros - first))]
            if let left = ProgressETA.remainingMicros(row.recentProgress, nowMicros: state.nowMicros) {
                out.append(("ETA", "~\(DurationText.span(micros: left)) left (from the progress reports)"))
            }
            return out
        }
        return [("Duration", DurationText.span(micros: row.event.timestampMicros - first) + " in total")]
    }
}

extension RunText {
    /// How long an unanswered `needs_input` row has waited (from its event's time, never negative); nil
    /// for other rows and once answered.
    static func waitedMicros(_ row: TimelineRow, state: AppState) -> Int64? {
        guard row.event.status == .needsInput, !state.answering.answered(row.event) else { return nil }
        return max(0, state.nowMicros - row.event.timestampMicros)
    }
}
