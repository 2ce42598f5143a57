import TimelineCore

/// A decoded key press.
public enum Key: Sendable, Equatable {
    case char(Character)
    /// Control + letter (lowercase), e.g. `.ctrl("d")`.
    case ctrl(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, escape, backspace, tab, backTab, delete
    /// F1 … F12.
    case function(Int)
}

/// A mouse report in screen coordinates.
public enum MouseEvent: Sendable, Equatable {
    case wheelUp(x: Int, y: Int)
    case wheelDown(x: Int, y: Int)
    case click(x: Int, y: Int)
}

/// Everything that can change the UI state: user input, time and data results.
public enum Input: Sendable, Equatable {
    case key(Key)
    /// Text the terminal pasted (bracketed paste): never keys, never Enter.
    case paste(String)
    case mouse(MouseEvent)
    case resize(width: Int, height: Int)
    /// The clock moved (drives relative times and spinners).
    case tick(nowMicros: Int64)
    /// Another connection (poller or another process) committed a write.
    case storeChanged
    case windowLoaded(WindowResult)
    case countsLoaded(CountsResult)
    case historyLoaded(HistoryResult)
    case matchFound(MatchResult)
    case pollerStatus(PollerStatusView)
    /// Unread errors and waiting tasks for the header (from the attention monitor).
    case attention(AttentionCounts)
    /// A store read failed; shown in the status bar.
    case loadFailed(String)
    /// How sending a reply went (sent, or not sent with the reason).
    case replyOutcome(ReplyRecord)
    /// Stored replies to the events of the window.
    case repliesLoaded([ReplyRecord])
    /// The agents view's rows.
    case agentsLoaded([AgentSummary])
    /// The pinned tasks' rows (`Effect.loadPinned`).
    case pinnedLoaded([TimelineRow])
    /// How many messages were rejected, and the newest of them when asked for (`Effect.loadRejected`).
    case rejectedLoaded(count: Int, newest: [RejectedMessage])
    /// An action (mark, save view, export) finished: what happened, for the status bar (nil: nothing to say).
    case actionFinished(String?)
}

extension Input {
    /// A background result that needs no frame of its own while the store is being checked, since the next
    /// check's frame shows it too: the poller's status, a store change itself (its reload's rows follow),
    /// what such a reload reads beside its rows (counts, rejected messages, replies; not the pinned rows,
    /// which a person watches), and rows that `state` already shows (a second reload of the same commit).
    public func isIncidental(to state: AppState) -> Bool {
        switch self {
        case .storeChanged, .pollerStatus, .countsLoaded, .rejectedLoaded, .repliesLoaded: true
        case .windowLoaded(let result): result.rows == state.window
        default: false
        }
    }
}
