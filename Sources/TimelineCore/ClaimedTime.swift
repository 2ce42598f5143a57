/// How far an event's claimed `timestamp` may run ahead of when it reached the queue.
///
/// Agents stamp their own events, so a claimed time is only a claim: an event stamped in the future would
/// outrank every later event of its task (newest wins) and freeze the row. A claim more than
/// `allowedSkewMicros` past the arrival time (SQS `SentTimestamp`, else when the viewer received it) is
/// ordered at the arrival time instead; the claimed text stays in the stored JSON. Claims in the past are
/// kept (events may wait in an agent's spool or in the queue), except a question's (`needs_input`): a
/// question waits from when it arrived, so a backdated one cannot jump ahead of those waiting longer.
public enum ClaimedTime {
    /// Clock skew allowed between an agent and SQS: one minute.
    public static let allowedSkewMicros: Int64 = 60_000_000

    /// The time an event is ordered by: its claim, or its arrival when the claim is too far ahead.
    public static func orderingMicros(claimed: Int64, arrivedMicros: Int64, status: Status = .info) -> Int64 {
        if claimed > arrivedMicros &+ allowedSkewMicros { return arrivedMicros }
        if status == .needsInput, claimed < arrivedMicros &- allowedSkewMicros { return arrivedMicros }
        return claimed
    }
}
