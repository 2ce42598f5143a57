import Foundation
import TimelineCore

/// Answering agents from the TUI: the open confirmation or text prompt, the last outcome, and the replies
/// known per event ("answered" rows, local history entries). Nothing is sent without `y` (or Enter on a
/// typed text), and one key press sends at most once.
public struct AnswerState: Sendable, Equatable {
    public static func == (a: AnswerState, b: AnswerState) -> Bool {
        a.prompt == b.prompt && a.notice == b.notice && a.noticeIsError == b.noticeIsError && a.byEvent == b.byEvent
            && a.sender == b.sender && a.openDetailOnMatch == b.openDetailOnMatch && a.inFlight == b.inFlight
            && a.focus?.eventID == b.focus?.eventID && a.focus?.index == b.focus?.index && a.replyIDs == b.replyIDs
            && a.replyPolicy == b.replyPolicy && a.ownQueues == b.ownQueues && a.pinned == b.pinned
            && a.confirmNote == b.confirmNote && a.confirmationOnScreen == b.confirmationOnScreen
    }

    /// What the status line asks.
    public enum Prompt: Sendable, Equatable {
        /// `Send "Deploy" to queue agent-replies (account …, host)? … y/N` (also a resend: same reply id;
        /// also a typed text after Enter). See `AnswerConfirmation`.
        case confirm(ReplyRecord)
        /// `Reply to queue agent-replies: TEXT` — Enter shows it for confirmation (`y` sends), Esc cancels.
        case text(TextReply)
    }

    public var prompt: Prompt?
    /// Why the last paste into the open confirmation did nothing, shown in place of its footer (a new
    /// confirmation opens without it).
    public var confirmNote: String?
    /// The open confirmation has been drawn (`confirmationDrawn`): only then does `y` send. A `y` typed
    /// ahead of it (`1y` in one burst, keys typed while the rows reloaded) would confirm what its typist
    /// never saw.
    public var confirmationOnScreen = false
    /// The last outcome, for the status bar: "sent …", "not sent …", "cancelled: nothing sent".
    public var notice: String?
    public var noticeIsError = false
    /// The newest reply per event id (in_reply_to).
    public var byEvent: [String: ReplyRecord] = [:]
    /// Who answers (`user@host`), set by the runtime.
    public var sender = "user@host"
    /// Set by `i`: open the detail of the row the match lands on.
    public var openDetailOnMatch = false
    /// Replies sent from this view whose outcome has not come back yet. A stored reply still "sending"
    /// that is not one of these was interrupted (the viewer stopped mid-send): shown as not sent, `R` resends.
    public var inFlight: Set<String> = []
    /// The button Tab moved to (event id, 0-based index); Enter picks it.
    public var focus: (eventID: String, index: Int)?
    /// The ids new replies take (seeded when the state is made, so `reduce` stays deterministic).
    public var replyIDs = ReplyIDs()
    /// Which reply queues may get the viewer's signature (set by the runtime from its settings).
    public var replyPolicy = ReplyQueuePolicy()
    /// The viewer's own queue URLs: a reply elsewhere (another account or host) is flagged.
    public var ownQueues: [String] = []
    /// The question the open prompt answers: if its task's row changes, or the selection moves, the
    /// prompt is cancelled (see `guardOpenPrompt`).
    public var pinned: PinnedQuestion?

    public init() {}

    /// True once `event` has a sent reply (the row says "answered" until the agent's next event).
    public func answered(_ event: Event) -> Bool {
        byEvent[event.id]?.isSent == true
    }

    /// True for a reply that did not reach its destination and is not being sent now.
    public func notSent(_ record: ReplyRecord) -> Bool {
        switch record.delivery {
        case .failed: true
        case .sending: !inFlight.contains(record.reply.id)
        case .sent: false
        }
    }
}

/// The question an open prompt answers, and the row that was selected when it opened.
public struct PinnedQuestion: Sendable, Equatable {
    public var taskID: String
    public var eventID: String
    public var selectedTaskID: String?
}

/// A text reply being typed: to whom, and the text so far.
public struct TextReply: Sendable, Equatable {
    public var event: Event
    public var replyTo: String
    public var text = ""
    /// Why the last paste was refused, shown beside the text until the next key.
    public var note: String?
    public init(event: Event, replyTo: String) {
        self.event = event
        self.replyTo = replyTo
    }
}

/// The query `i` searches: tasks waiting for input.
let waitingQuery: TimelineQuery = {
    var q = TimelineQuery()
    q.statuses = [.needsInput]
    return q
}()

/// `i`: jump to the task that has waited longest for input and open its detail.
func jumpToWaiting(_ s: inout AppState) -> [Effect] {
    s.answering.openDetailOnMatch = true
    let oldest = RowKey(timestampMicros: .min, seq: .min)
    return [.findMatch(MatchRequest(generation: s.generation, query: waitingQuery, from: oldest, olderFirst: false,
                                    wrap: false))]
}

/// The event whose buttons the detail shows (the task's latest event), if it takes answers.
func answerableEvent(_ s: AppState) -> Event? {
    guard let event = s.detail?.row?.event else { return nil }
    return event.interaction.isEmpty ? nil : event
}

/// A digit in the detail: pick action N of the shown event; nil when the digit means something else.
func pickAction(_ s: inout AppState, digit: Character) -> [Effect]? {
    guard let event = answerableEvent(s), let n = digit.wholeNumberValue else { return nil }
    let interaction = event.interaction
    guard (1...interaction.actions.count).contains(n) else { return nil }
    let action = interaction.actions[n - 1]
    let destination: ReplyDestination
    if let url = action.url {
        destination = .webhook(url)
    } else if let replyTo = interaction.replyTo {
        destination = .queue(replyTo)
    } else {
        notice(&s, "this event names no reply_to and the action no url: nothing can be sent", error: true)
        return []
    }
    let reply = Reply(id: s.answering.replyIDs.next(), inReplyTo: event.id, taskID: event.taskID,
                      agentID: event.agentID, answer: .action(action.id), from: s.answering.sender,
                      timestampMicros: s.nowMicros)
    return openConfirmation(&s, ReplyRecord(reply: reply, label: action.label, destination: destination,
                                            delivery: .sending, updatedMicros: s.nowMicros))
}

/// Tab in a detail with buttons: move to the next button (Enter then picks it).
func focusNextAction(_ s: inout AppState) -> [Effect]? {
    guard let event = answerableEvent(s) else { return nil }
    let count = event.interaction.actions.count
    guard count > 0 else { return nil }
    let current = s.answering.focus.flatMap { $0.eventID == event.id ? $0.index : nil }
    s.answering.focus = (event.id, current.map { ($0 + 1) % count } ?? 0)
    return []
}

/// Enter on a focused button picks it; nil when no button has the focus.
func pickFocusedAction(_ s: inout AppState) -> [Effect]? {
    guard let event = answerableEvent(s), let focus = s.answering.focus, focus.eventID == event.id else { return nil }
    return pickAction(&s, digit: Character(String(focus.index + 1)))
}

/// The focused button of the shown event, if any.
func focusedAction(_ s: AppState, _ event: Event) -> Int? {
    guard let focus = s.answering.focus, focus.eventID == event.id else { return nil }
    return focus.index
}

/// `r`: open the text prompt for the shown event's agent.
func openTextReply(_ s: inout AppState) -> [Effect] {
    guard let event = s.detail?.row?.event else { return [] }
    guard let replyTo = event.interaction.replyTo else {
        notice(&s, "this agent takes no messages: its latest event names no reply_to", error: true)
        return []
    }
    return openTextPrompt(&s, event: event, replyTo: replyTo)
}

/// `R`: offer to send the task's last failed reply again, with the same id.
func offerResend(_ s: inout AppState) -> [Effect] {
    guard let d = s.detail else { return [] }
    let failed = d.replies.last { s.answering.notSent($0) }
    guard var record = failed else {
        notice(&s, "no reply of this task is waiting to be sent again", error: false)
        return []
    }
    record.delivery = .sending
    return openConfirmation(&s, record)
}

/// Keys while a prompt is open: `y` sends, anything else cancels (confirm); typing, Enter, Esc (text).
func reduceAnswerKey(_ s: inout AppState, _ key: Key) -> [Effect] {
    switch s.answering.prompt {
    case nil:
        return []
    case .confirm(let record):
        guard key == .char("y") || key == .char("Y") else {
            closePrompt(&s, notice: "cancelled: nothing sent", error: false)
            return []
        }
        guard s.answering.confirmationOnScreen else {
            s.answering.confirmNote = AnswerConfirmation.typedAhead
            return []
        }
        s.answering.prompt = nil
        s.answering.pinned = nil
        return send(&s, record)
    case .text(var typing):
        typing.note = nil
        switch key {
        case .escape:
            closePrompt(&s, notice: "cancelled: nothing sent", error: false)
            return []
        case .enter:
            if let problem = Reply.textProblem(typing.text) {
                notice(&s, problem, error: true)
                return []
            }
            // A typed text is confirmed like an action: Enter shows it and where it goes, `y` sends.
            let event = typing.event
            let reply = Reply(id: s.answering.replyIDs.next(), inReplyTo: event.id, taskID: event.taskID,
                              agentID: event.agentID, answer: .text(typing.text), from: s.answering.sender,
                              timestampMicros: s.nowMicros)
            let pinned = s.answering.pinned
            let effects = openConfirmation(&s, ReplyRecord(reply: reply, label: nil, destination: .queue(typing.replyTo),
                                                           delivery: .sending, updatedMicros: s.nowMicros))
            if s.answering.prompt != nil { s.answering.pinned = pinned }  // still the question the text answers
            return effects
        case .backspace:
            if !typing.text.isEmpty { typing.text.removeLast() }
        case .ctrl("u"):
            typing.text = ""
        case .char(let c):
            if typing.text.utf8.count + c.utf8.count <= Reply.maxTextBytes { typing.text.append(c) }
        default:
            break
        }
        s.answering.prompt = .text(typing)
        return []
    }
}

private func send(_ s: inout AppState, _ record: ReplyRecord) -> [Effect] {
    notice(&s, "sending \"\(TextWidth.safe(record.answerText))\" to \(TextWidth.safe(record.destination.confirmationText))…",
           error: false)
    s.answering.inFlight.insert(record.reply.id)
    remember(&s, record)
    return [.sendReply(record)]
}

/// The outcome of a send (or a store read of replies): kept per event and in the open detail.
func remember(_ s: inout AppState, _ record: ReplyRecord) {
    let known = s.answering.byEvent[record.reply.inReplyTo]
    if known == nil || known!.reply.id == record.reply.id || known!.reply.timestampMicros <= record.reply.timestampMicros {
        s.answering.byEvent[record.reply.inReplyTo] = record
    }
    if var d = s.detail, d.taskID == record.reply.taskID {
        if let i = d.replies.firstIndex(where: { $0.reply.id == record.reply.id }) {
            d.replies[i] = record
        } else {
            d.replies.append(record)
        }
        s.detail = d
    }
}

func applyReplyOutcome(_ s: inout AppState, _ record: ReplyRecord) -> [Effect] {
    s.answering.inFlight.remove(record.reply.id)
    remember(&s, record)
    let what = "\"\(TextWidth.safe(record.answerText))\" to \(TextWidth.safe(record.destination.confirmationText))"
    switch record.delivery {
    case .sent(let detail): notice(&s, "sent \(what) (\(TextWidth.safe(detail)))", error: false)
    case .failed(let reason): notice(&s, "not sent \(what): \(TextWidth.safe(reason)) · R resends", error: true)
    case .sending: break
    }
    return []
}

func notice(_ s: inout AppState, _ text: String, error: Bool) {
    s.answering.notice = text
    s.answering.noticeIsError = error
}

/// The confirmation or text prompt, drawn over the status bar.
func renderAnswerPrompt(_ state: AppState, into screen: inout Screen, y: Int) {
    switch state.answering.prompt {
    case nil:
        return
    case .confirm(let record):
        // Opened only when it fits (`openConfirmation`); a resize that breaks that cancels it.
        guard let lines = AnswerConfirmation.lines(state, record, width: screen.width, height: screen.height) else { return }
        AnswerConfirmation.draw(lines, into: &screen)
    case .text(let typing):
        let label = "Reply to queue \(TextWidth.safe(AWSNames.queueName(typing.replyTo))): "
        var x = screen.put(label, x: 0, y: y, style: Style(fg: .needsInput, bg: .statusBar, bold: true))
        let room = max(4, screen.width - x - 22)
        var text = TextWidth.safe(typing.text)
        while TextWidth.of(text) > room - 1, !text.isEmpty { text.removeFirst() }
        x += screen.put(text, x: x, y: y, style: Style(bg: .statusBar, bold: true))
        screen.put(" ", x: x, y: y, style: Style(reverse: true))
        let info = typing.note.map { "\($0) " } ?? "⏎ review  Esc cancel "
        if x + TextWidth.of(info) + 2 <= screen.width {
            screen.put(info, x: screen.width - TextWidth.of(info), y: y,
                       style: Style(fg: typing.note == nil ? .muted : .error, bg: .statusBar))
        }
    }
}

/// Detail lines for a task that takes answers: its buttons, how to answer, and the replies sent.
func answerLines(_ s: AppState, event: Event, width: Int) -> [StyledLine] {
    let interaction = event.interaction
    guard !interaction.isEmpty || !(s.detail?.replies.isEmpty ?? true) else { return [] }
    var out: [StyledLine] = []
    let label = Style(fg: .muted)
    if !interaction.actions.isEmpty {
        var line = StyledLine()
        var used = 0
        for (i, action) in interaction.actions.enumerated() {
            let text = "[\(i + 1) \(TextWidth.truncate(TextWidth.safe(action.label), to: 40))]"
            var style: Style
            switch action.style {
            case .primary: style = Style(fg: .needsInput, bold: true, reverse: true)
            case .danger: style = Style(fg: .error, bold: true)
            case .default: style = Style(bold: true)
            }
            if focusedAction(s, event) == i { style.underline = true; style.reverse.toggle() }
            if used > 0, used + 1 + TextWidth.of(text) > width {
                out.append(line)
                line = StyledLine()
                used = 0
            }
            if used > 0 { line.segments.append((" ", .plain)); used += 1 }
            line.segments.append((text, style))
            used += TextWidth.of(text)
        }
        out.append(line)
        out.append(StyledLine([("pick: a digit, or Tab then Enter · y sends, any other key cancels", label)]))
    }
    if let replyTo = interaction.replyTo {
        out.append(StyledLine([("r", Style(fg: .accent, bold: true)),
                               (" reply with text · queue \(TextWidth.safe(AWSNames.queueName(replyTo)))", label)]))
    }
    for record in s.detail?.replies ?? [] {
        let age = Times.relative(record.reply.timestampMicros, s)
        let what = TextWidth.safe(record.answerText)
        let text: String
        let style: Style
        switch record.delivery {
        case .sent: text = "you answered \(what) · \(age) ago"; style = Style(fg: .needsInput)
        case .sending where s.answering.inFlight.contains(record.reply.id):
            text = "sending \(what)…"; style = label
        case .sending: text = "not sent: \(what) · interrupted before it was sent · R resends"; style = Style(fg: .error)
        case .failed(let reason): text = "not sent: \(what) · \(TextWidth.safe(reason)) · R resends"; style = Style(fg: .error)
        }
        for piece in TextWidth.wrap(text, to: max(1, width - 2)) {
            out.append(StyledLine([("↩ ", style), (piece, style)]))
        }
    }
    out.append(StyledLine())
    return out
}
