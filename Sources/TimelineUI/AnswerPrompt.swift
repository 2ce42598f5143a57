import TimelineCore

// Opening, pinning and closing the answer prompts: nothing opens for a refused queue or a screen too
// small to show where a reply goes, and an open prompt is cancelled when its question or the selection changes.

/// Opens the `y/N` confirmation for `record`, unless its queue is refused (the reason is shown) or the
/// confirmation cannot be shown whole (a notice says to widen the terminal).
func openConfirmation(_ s: inout AppState, _ record: ReplyRecord) -> [Effect] {
    if case .queue(let url) = record.destination, case .failure(let refusal) = s.answering.replyPolicy.target(for: url) {
        closePrompt(&s, notice: "refused: \(refusal.reason)", error: true)
        return []
    }
    guard AnswerConfirmation.lines(s, record, width: s.width, height: s.height) != nil else {
        closePrompt(&s, notice: AnswerConfirmation.tooSmall, error: true)
        return []
    }
    pin(&s, taskID: record.reply.taskID)
    s.answering.prompt = .confirm(record)
    s.answering.confirmNote = nil
    s.answering.confirmationOnScreen = false
    return []
}

/// A frame showing `s` was drawn: an open confirmation is now on screen, and `y` may send it.
public func confirmationDrawn(_ s: inout AppState) {
    if case .confirm? = s.answering.prompt { s.answering.confirmationOnScreen = true }
}

/// Opens the text prompt for a reply to `event`'s agent at `replyTo`, unless the queue is refused.
func openTextPrompt(_ s: inout AppState, event: Event, replyTo: String) -> [Effect] {
    if case .failure(let refusal) = s.answering.replyPolicy.target(for: replyTo) {
        notice(&s, "refused: \(refusal.reason)", error: true)
        return []
    }
    pin(&s, taskID: event.taskID, eventID: event.id)
    s.answering.prompt = .text(TextReply(event: event, replyTo: replyTo))
    return []
}

/// Pins the question a prompt opens on: the task's current row (the shown one) and the selection.
private func pin(_ s: inout AppState, taskID: String, eventID: String? = nil) {
    let shown = s.detail?.taskID == taskID ? s.detail?.row?.event.id : nil
    let listed = s.window.first { $0.taskID == taskID }?.event.id
    let current = eventID ?? shown ?? listed ?? ""
    s.answering.pinned = PinnedQuestion(taskID: taskID, eventID: current, selectedTaskID: s.selectedRow?.taskID)
}

/// Closes the open prompt (if any) with a notice.
func closePrompt(_ s: inout AppState, notice text: String, error: Bool) {
    s.answering.prompt = nil
    s.answering.pinned = nil
    notice(&s, text, error: error)
}

/// After every input: an open prompt whose question changed (a newer or future-dated event of the task,
/// from any agent), whose selection moved (keys, wheel, new rows) or that no longer fits the screen is
/// cancelled with a notice. Nothing is ever sent for a question the user did not see.
func guardOpenPrompt(_ s: inout AppState) {
    guard s.answering.prompt != nil, let pin = s.answering.pinned else { return }
    let rowChanged = s.window.contains { $0.taskID == pin.taskID && $0.event.id != pin.eventID }
        || (s.detail?.taskID == pin.taskID && s.detail?.row.map { $0.event.id != pin.eventID } == true)
    if rowChanged {
        closePrompt(&s, notice: "the question changed: nothing sent", error: true)
        return
    }
    // In the agents view the list is hidden: its selection is not what the prompt was opened on.
    let selectionMoved = s.agentsView == nil && s.selectedRow?.taskID != pin.selectedTaskID
    let detailMoved = s.agentsView == nil && s.detail != nil && s.detail?.taskID != pin.taskID
    if selectionMoved || detailMoved {
        closePrompt(&s, notice: "the selection changed: nothing sent", error: true)
        return
    }
    if case .confirm(let record) = s.answering.prompt,
       AnswerConfirmation.lines(s, record, width: s.width, height: s.height) == nil {
        closePrompt(&s, notice: AnswerConfirmation.tooSmall, error: true)
    }
}
