import Foundation
import TimelineCore

/// The `y/N` confirmation of a reply, drawn as a block over the bottom of the screen:
///
///     Send "Deploy"
///     to queue replies (account 123456789012, sqs.eu-west-1.amazonaws.com)?
///     ⚠ not your queue's account
///     y sends · any other key cancels                                    y/N
///
/// What is sent is quoted and escaped (a label cannot draw a fake prompt), and cut with `…` when long;
/// where it goes (queue, account and host, or the webhook's whole URL) and the warnings wrap but are
/// never cut; the real `y/N` is always at the right end of the bottom line, in reverse video.
/// `lines` is nil when all of that cannot be shown: then no confirmation opens.
enum AnswerConfirmation {
    /// One line of the block.
    struct Line: Equatable {
        var text: String
        var style: Style
    }

    static let key = "y/N"
    static let footer = "y sends · any other key cancels"
    /// The footer after a paste into the confirmation (a pasted `y` never sends).
    static let pasteIgnored = "paste ignored: type y to send · any other key cancels"
    /// The footer after a `y` typed before the confirmation was on screen (it did not send).
    static let typedAhead = "read this, then y sends · any other key cancels"
    /// The notice when the block does not fit.
    static let tooSmall = "widen the terminal: too small to show where this reply goes (or use `timeline reply`); nothing sent"

    /// The block's lines, top to bottom (the last one holds `y/N`); nil when it does not fit `width`×`height`
    /// below the header line.
    static func lines(_ s: AppState, _ record: ReplyRecord, width: Int, height: Int) -> [Line]? {
        guard width > 0 else { return nil }
        let head: String
        if case .text = record.reply.answer { head = "Send text \"" } else { head = "Send \"" }
        let room = width - TextWidth.of(head) - 1
        guard room >= 1, let destination = destination(s, record) else { return nil }
        let what = TextWidth.truncate(quotable(record.answerText), to: room)
        var out = [Line(text: head + what + "\"", style: Style(fg: .needsInput, bg: .statusBar, bold: true))]
        // A queue's words wrap at spaces; a webhook URL is cut into rows, so it reads as one piece.
        let wrapped = record.destination.isWebhook ? hardWrap(destination, width: width) : DisplayText.wrap(destination, toWidth: width)
        for piece in wrapped {
            out.append(Line(text: piece, style: Style(bg: .statusBar, bold: true)))
        }
        for warning in warnings(s, record) {
            for piece in DisplayText.wrap(warning, toWidth: width) {
                out.append(Line(text: piece, style: Style(fg: .warning, bg: .statusBar, bold: true)))
            }
        }
        let shown = s.answering.confirmNote ?? footer
        let footerFits = TextWidth.of(shown) + 1 + TextWidth.of(key) <= width
        out.append(Line(text: footerFits ? shown : "",
                        style: Style(fg: s.answering.confirmNote == nil ? .muted : .warning, bg: .statusBar)))
        guard TextWidth.of(key) <= width, out.count <= height - 1 else { return nil }
        return out
    }

    /// `to queue replies (account 123456789012, sqs.eu-west-1.amazonaws.com)?`, or `to URL?` for a webhook;
    /// nil when the queue is refused.
    static func destination(_ s: AppState, _ record: ReplyRecord) -> String? {
        switch record.destination {
        case .webhook(let url):
            return "to \(TextWidth.safe(url))?"
        case .queue(let url):
            guard case .success(let target) = s.answering.replyPolicy.target(for: url) else { return nil }
            return "to queue \(target.queueName) (account \(target.account), \(target.host))?"
        }
    }

    /// Why this destination deserves a second look: another account or host than the viewer's own
    /// queue's, or another queue than the task's earlier `reply_to`.
    static func warnings(_ s: AppState, _ record: ReplyRecord) -> [String] {
        guard case .queue(let url) = record.destination, let here = ReplyQueuePolicy.location(of: url) else { return [] }
        var out: [String] = []
        let own = s.answering.ownQueues.compactMap(ReplyQueuePolicy.location(of:))
        if !own.isEmpty, !own.contains(where: { $0.account == here.account }) {
            out.append("⚠ not your queue's account (yours: \(own[0].account))")
        }
        if !own.isEmpty, !own.contains(where: { $0.host == here.host }) {
            out.append("⚠ not your queue's host (yours: \(own[0].host))")
        }
        if let d = s.detail, d.taskID == record.reply.taskID,
           let earlier = d.history.first(where: { $0.id != record.reply.inReplyTo && $0.interaction.replyTo != nil }),
           let earlierURL = earlier.interaction.replyTo, earlierURL != url {
            out.append("⚠ not the task's earlier reply_to (\(TextWidth.safe(AWSNames.queueName(earlierURL))))")
        }
        return out
    }

    /// `text` in rows of at most `width` columns, broken anywhere.
    static func hardWrap(_ text: String, width: Int) -> [String] {
        var rows: [String] = [], row = "", used = 0
        for character in text {
            let w = TextWidth.of(character)
            if used + w > width, !row.isEmpty { rows.append(row); row = ""; used = 0 }
            row.append(character)
            used += w
        }
        if !row.isEmpty { rows.append(row) }
        return rows
    }

    /// Text as it is shown between quotes: every unsafe character escaped (`\n`, `\u001B`), `"` as `\"`.
    static func quotable(_ text: String) -> String {
        DisplayText.escaped(text).replacingOccurrences(of: "\"", with: "\\\"")
    }

    /// Draws the block at the bottom of `screen`.
    static func draw(_ lines: [Line], into screen: inout Screen) {
        let top = screen.height - lines.count
        for (i, line) in lines.enumerated() {
            screen.fill(y: top + i, width: screen.width, style: Style(bg: .statusBar))
            screen.put(line.text, x: 0, y: top + i, style: line.style, limit: screen.width)
        }
        let keyWidth = TextWidth.of(key)
        screen.put(key, x: screen.width - keyWidth, y: screen.height - 1, style: Style(bg: .statusBar, bold: true, reverse: true))
    }
}
