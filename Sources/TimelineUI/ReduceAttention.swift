import TimelineCore

/// The user looked at `row` (opened its detail, or pressed Space): it is read, at once on screen and, through
/// the effect, in the store. Nothing happens for a row that is already read (so a reload cannot loop).
func markRead(_ s: inout AppState, _ row: TimelineRow?) -> [Effect] {
    guard let row, row.unread else { return [] }
    for i in s.window.indices where s.window[i].taskID == row.taskID && s.window[i].seq <= row.seq {
        s.window[i].unread = false
    }
    if s.detail?.taskID == row.taskID { s.detail?.row?.unread = false }
    // The header follows at once (the monitor's next count confirms it).
    if row.event.status == .error, let a = s.attention {
        s.attention = AttentionCounts(unreadErrors: max(0, a.unreadErrors - 1), waiting: a.waiting)
    }
    return [.markRead(taskID: row.taskID, seq: row.seq)]
}

/// `U`: every task read.
func markAllRead(_ s: inout AppState) -> [Effect] {
    for i in s.window.indices { s.window[i].unread = false }
    s.detail?.row?.unread = false
    if let a = s.attention { s.attention = AttentionCounts(unreadErrors: 0, waiting: a.waiting) }
    return [.markAllRead]
}
