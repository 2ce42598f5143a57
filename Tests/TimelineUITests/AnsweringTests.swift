import Foundation
import Testing
import TimelineCore
@testable import TimelineUI

/// Answering agents in the pure core: (state, key) → (state, effects), and the screens it draws.
@Suite("Answering agents")
struct AnsweringTests {
    static let replyTo = "https://sqs.eu-west-1.amazonaws.com/123456789012/agent-replies"

    static func askingRow(hostile: Bool = false, webhook: String? = nil, seq: Int64 = 50) -> TimelineRow {
        let label = hostile ? "De\\u001b[31mploy\\u202e" : "Deploy"
        let url = webhook.map { ",\"url\":\"\($0)\"" } ?? ""
        let raw = """
            {"id":"ev-ask","agent_id":"deployer","task_id":"deploy-billing","title":"Deploy billing v1.3 to prod?",\
            "status":"needs_input","timestamp":"2026-11-22T02:59:30Z","actions":[{"id":"deploy","label":"\(label)",\
            "style":"primary"\(url)},{"id":"cancel","label":"Cancel","style":"danger"}],"reply_to":"\(replyTo)"}
            """
        let event = try! EventParser.parse(raw).get()
        return TimelineRow(event: event, seq: seq, eventCount: 1, receivedMicros: event.timestampMicros)
    }

    /// A loaded list with the asking task, `i` pressed and the match answered: the detail is open.
    static func detailOpen(width: Int = 80, height: Int = 24, row: TimelineRow = askingRow()) -> AppState {
        var s = loadedState([row] + sampleRows(), width: width, height: height) { $0.answering.sender = "alice@laptop" }
        let effects = reduce(&s, .key(.char("i")))
        guard case .findMatch(let request)? = effects.first else { Issue.record("i gave \(effects)"); return s }
        #expect(request.query.statuses == [.needsInput] && !request.olderFirst)
        _ = reduce(&s, .matchFound(MatchResult(request: request, row: row, wrapped: false)))
        _ = reduce(&s, .historyLoaded(HistoryResult(taskID: row.taskID, row: row, events: [row.event])))
        return s
    }

    @Test func iOpensTheWaitingTaskAndADigitAsksForConfirmation() {
        var s = Self.detailOpen()
        #expect(s.detail?.taskID == "deploy-billing" && s.selectedRow?.taskID == "deploy-billing")
        #expect(reduce(&s, .key(.char("1"))).isEmpty)
        guard case .confirm(let record)? = s.answering.prompt else { Issue.record("no confirmation"); return }
        #expect(record.reply.answer == .action("deploy") && record.label == "Deploy")
        #expect(record.destination == .queue(Self.replyTo))
        #expect((record.reply.inReplyTo, record.reply.from) == ("ev-ask", "alice@laptop"))
        let screen = render(s, width: 80, height: 24)
        let text = GoldenScreen.text(of: screen)
        #expect(text.contains(#"|Send "Deploy""#))
        #expect(text.contains("|to queue agent-replies (account 123456789012, sqs.eu-west-1.amazonaws.com)?"))
        #expect(text.contains("y sends · any other key cancels") && text.contains("y/N|"))
        GoldenScreen.check(screen, "80x24-answer-confirm")

        let effects = confirmWithY(&s)
        #expect(effects == [.sendReply(record)])
        #expect(s.answering.prompt == nil)
        #expect(confirmWithY(&s).isEmpty, "a second y sends nothing")
    }

    /// `1y` in one burst, or keys typed while the rows reloaded: the `y` came before the confirmation was on
    /// screen, so it sends nothing; the confirmation stays open and says so, and a `y` typed once it was
    /// drawn sends.
    @Test func aYTypedBeforeTheConfirmationWasOnScreenSendsNothing() {
        var s = Self.detailOpen()
        _ = reduce(&s, .key(.char("1")))
        guard case .confirm(let record)? = s.answering.prompt else { Issue.record("no confirmation"); return }
        #expect(reduce(&s, .key(.char("y"))).isEmpty, "typed ahead of the confirmation")
        #expect(s.answering.prompt == .confirm(record))
        #expect(GoldenScreen.text(of: render(s, width: 80, height: 24)).contains("read this, then y sends"))
        confirmationDrawn(&s)
        #expect(reduce(&s, .key(.char("y"))) == [.sendReply(record)])
        // A new confirmation is not on screen until it is drawn, whatever the last one was.
        var t = Self.detailOpen()
        _ = reduce(&t, .key(.char("1")))
        confirmationDrawn(&t)
        _ = reduce(&t, .key(.char("n")))
        _ = reduce(&t, .key(.char("1")))
        #expect(reduce(&t, .key(.char("y"))).isEmpty)
    }

    @Test func anyOtherKeyCancelsAndSendsNothing() {
        for key in [Key.char("n"), .escape, .enter, .char("2"), .char("q")] {
            var s = Self.detailOpen()
            _ = reduce(&s, .key(.char("2")))
            #expect(reduce(&s, .key(key)).isEmpty)
            #expect(s.answering.prompt == nil && s.answering.notice == "cancelled: nothing sent")
            #expect(s.detail != nil, "cancelling does not act on the key otherwise")
        }
    }

    @Test func aWebhookActionConfirmsWithTheFullURL() {
        var s = Self.detailOpen(row: Self.askingRow(webhook: "https://hooks.example.com/deploy?x=1"))
        _ = reduce(&s, .key(.char("1")))
        let text = GoldenScreen.text(of: render(s, width: 100, height: 24))
        #expect(text.contains(#"|Send "Deploy""#) && text.contains("|to https://hooks.example.com/deploy?x=1?"))
    }

    @Test func theOutcomeShowsInTheStatusBarTheHistoryAndTheRow() {
        var s = Self.detailOpen()
        _ = reduce(&s, .key(.char("1")))
        guard case .sendReply(var record)? = confirmWithY(&s).first else { Issue.record("not sent"); return }
        record.delivery = .sent(detail: "message m-1")
        _ = reduce(&s, .replyOutcome(record))
        #expect(s.answering.notice == #"sent "Deploy" to queue agent-replies (message m-1)"#)
        let detail = GoldenScreen.text(of: render(s, width: 80, height: 24))
        #expect(detail.contains("you answered Deploy · "))
        _ = reduce(&s, .key(.escape))
        let list = GoldenScreen.text(of: render(s, width: 80, height: 24))
        #expect(list.contains("answered · Deploy billing v1.3 to prod?"))
        GoldenScreen.check(render(s, width: 80, height: 24), "80x24-answered-row")
    }

    @Test func aFailedReplyIsShownAndROffersToResendTheSameID() {
        var s = Self.detailOpen()
        _ = reduce(&s, .key(.char("2")))
        guard case .sendReply(var record)? = confirmWithY(&s).first else { Issue.record("not sent"); return }
        record.delivery = .failed(reason: "AccessDenied: not authorized")
        _ = reduce(&s, .replyOutcome(record))
        #expect(s.answering.noticeIsError)
        #expect(s.answering.notice?.hasPrefix(#"not sent "Cancel" to queue agent-replies: AccessDenied"#) == true)
        _ = reduce(&s, .key(.char("R")))
        guard case .confirm(let again)? = s.answering.prompt else { Issue.record("R did not offer a resend"); return }
        #expect(again.reply == record.reply)
        #expect(confirmWithY(&s) == [.sendReply(again)])
    }

    @Test func reduceIsDeterministicForRepliesItsIDsComeFromTheState() throws {
        var base = Self.detailOpen()
        base.answering.replyIDs = ReplyIDs(seed: (1, 2))
        var (a, b) = (base, base)
        // An action reply: the same state and key give the same state, reply id included.
        _ = reduce(&a, .key(.char("1")))
        _ = reduce(&b, .key(.char("1")))
        #expect(a == b)
        guard case .confirm(let picked)? = a.answering.prompt, case .confirm(let again)? = b.answering.prompt else {
            Issue.record("no confirmation"); return
        }
        #expect(picked.reply.id == again.reply.id)
        let uuid = try #require(UUID(uuidString: picked.reply.id))
        #expect(picked.reply.id == uuid.uuidString.lowercased())
        #expect(Array(picked.reply.id)[14] == "4" && "89ab".contains(Array(picked.reply.id)[19]), "a version 4 UUID")
        // A text reply: deterministic too, and a new id.
        var (c, d) = (a, a)
        _ = confirmWithY(&c)
        _ = confirmWithY(&d)
        var sent: [String] = []
        for var state in [c, d] {
            _ = reduce(&state, .key(.char("r")))
            for ch in "ok" { _ = reduce(&state, .key(.char(ch))) }
            #expect(reduce(&state, .key(.enter)).isEmpty, "Enter only shows the text for review")
            guard case .sendReply(let record)? = confirmWithY(&state).first else { Issue.record("y sent nothing"); return }
            sent.append(record.reply.id)
        }
        #expect(sent[0] == sent[1])
        #expect(sent[0] != picked.reply.id)
        // Another seed, other ids; a state made without one draws its own seed.
        var other = base
        other.answering.replyIDs = ReplyIDs(seed: (1, 3))
        _ = reduce(&other, .key(.char("1")))
        guard case .confirm(let otherPick)? = other.answering.prompt else { Issue.record("no confirmation"); return }
        #expect(otherPick.reply.id != picked.reply.id)
        #expect(AnswerState().replyIDs != AnswerState().replyIDs)
    }

    @Test func rTypesATextReplyThatEnterSendsAndEscCancels() {
        var s = Self.detailOpen()
        _ = reduce(&s, .key(.char("r")))
        for c in "use release/2.4" { _ = reduce(&s, .key(.char(c))) }
        _ = reduce(&s, .key(.backspace))
        #expect(GoldenScreen.text(of: render(s, width: 80, height: 24)).contains("Reply to queue agent-replies: use release/2."))
        #expect(reduce(&s, .key(.enter)).isEmpty, "Enter opens the confirmation, it sends nothing")
        let review = GoldenScreen.text(of: render(s, width: 80, height: 24))
        #expect(review.contains(#"|Send text "use release/2.""#) && review.contains("y/N|"))
        guard case .sendReply(let record)? = confirmWithY(&s).first else { Issue.record("y sent nothing"); return }
        #expect(record.reply.answer == .text("use release/2.") && record.destination == .queue(Self.replyTo))

        var cancelled = Self.detailOpen()
        _ = reduce(&cancelled, .key(.char("r")))
        _ = reduce(&cancelled, .key(.char("x")))
        #expect(reduce(&cancelled, .key(.escape)).isEmpty)
        #expect(cancelled.answering.prompt == nil && cancelled.answering.notice == "cancelled: nothing sent")
        var empty = Self.detailOpen()
        _ = reduce(&empty, .key(.char("r")))
        #expect(reduce(&empty, .key(.enter)).isEmpty && empty.answering.notice == "the reply is empty")
    }

    @Test func withoutAWaitingTaskISaysSoAndDigitsStayFilters() {
        var s = loadedState(sampleRows(), width: 80, height: 24)
        guard case .findMatch(let request)? = reduce(&s, .key(.char("i"))).first else { Issue.record("no find"); return }
        _ = reduce(&s, .matchFound(MatchResult(request: request, row: nil, wrapped: false)))
        #expect(s.answering.notice == "no agent is waiting for you" && s.detail == nil)
        _ = reduce(&s, .key(.char("6")))
        #expect(s.statusFilter == [.needsInput])
    }

    @Test func hostileLabelsAreSanitizedOnScreen() {
        var s = Self.detailOpen(row: Self.askingRow(hostile: true))
        let text = GoldenScreen.text(of: render(s, width: 80, height: 24))
        #expect(!text.contains("\u{1B}") && !text.contains("\u{202E}"))
        #expect(text.contains("[1 Deploy] [2 Cancel]"), "the escape sequence and the bidi override are removed")
        _ = reduce(&s, .key(.char("1")))
        let prompt = GoldenScreen.text(of: render(s, width: 80, height: 24))
        #expect(!prompt.contains("\u{1B}") && !prompt.contains("\u{202E}"))
    }

    @Test func storedRepliesMarkRowsAnsweredAfterARestart() {
        var s = AppState(width: 80, height: 24, nowMicros: fixedNow)
        let row = Self.askingRow()
        let req = WindowRequest(generation: s.generation, query: s.listQuery, anchor: .newest, above: 0, below: 100,
                                anchorPosition: nil, keepSelection: false, targetLine: nil)
        let effects = reduce(&s, .windowLoaded(WindowResult(request: req, rows: [row], anchorIndex: 0, startPosition: 0,
                                                            reachesNewest: true, reachesOldest: true, anchorMoved: false)))
        #expect(effects == [.loadReplies(eventIDs: ["ev-ask"])])
        let stored = ReplyRecord(reply: Reply(id: "r-1", inReplyTo: "ev-ask", taskID: "deploy-billing", agentID: "deployer",
                                              answer: .action("deploy"), from: "alice@laptop", timestampMicros: fixedNow),
                                 label: "Deploy", destination: .queue(Self.replyTo), delivery: .sent(detail: "m"),
                                 updatedMicros: fixedNow)
        _ = reduce(&s, .repliesLoaded([stored]))
        #expect(s.answering.answered(row.event))
    }
}

@Suite("Agents view")
struct AgentsViewTests {
    static func agent(_ id: String, replyTo: Bool, secondsAgo: Int64, running: Int = 0, errors: Int = 0, waiting: Int = 0) -> AgentSummary {
        let slug = String(id.unicodeScalars.filter { $0.properties.isAlphabetic || $0 == "-" }.map(Character.init))
        let reply = replyTo ? #","reply_to":"https://sqs.eu-west-1.amazonaws.com/123456789012/\#(slug)-replies""# : ""
        let raw = #"{"id":"ev-\#(slug)","agent_id":\#(EventEncoder.quoted(id)),"task_id":"t-\#(slug)","title":"x","status":"info","timestamp":"2026-11-22T02:00:00Z"\#(reply)}"#
        var event = try! EventParser.parse(raw).get()
        event.timestampMicros = fixedNow - secondsAgo * 1_000_000
        return AgentSummary(agentID: id, latest: event, running: running, errors: errors, waiting: waiting, tasks: 3)
    }

    @Test func aListsAgentsAndRMessagesTheSelectedOne() {
        var s = loadedState(sampleRows(), width: 80, height: 12)
        #expect(reduce(&s, .key(.char("A"))) == [.loadAgents(limit: agentsViewLimit)])
        _ = reduce(&s, .agentsLoaded([Self.agent("deployer", replyTo: true, secondsAgo: 5, running: 2, waiting: 1),
                                      Self.agent("ci\u{1B}[2J-runner", replyTo: false, secondsAgo: 600, errors: 3)]))
        let screen = render(s, width: 80, height: 12)
        let text = GoldenScreen.text(of: screen)
        #expect(!text.contains("\u{1B}"))
        GoldenScreen.check(screen, "80x12-agents-view")

        _ = reduce(&s, .key(.char("j")))
        _ = reduce(&s, .key(.char("r")))
        #expect(s.answering.prompt == nil && s.answering.noticeIsError, "an agent without reply_to takes no messages")
        _ = reduce(&s, .key(.char("k")))
        _ = reduce(&s, .key(.char("r")))
        for c in "pause" { _ = reduce(&s, .key(.char(c))) }
        #expect(reduce(&s, .key(.enter)).isEmpty)
        guard case .sendReply(let record)? = confirmWithY(&s).first else { Issue.record("nothing sent"); return }
        #expect(record.reply.answer == .text("pause") && record.reply.agentID == "deployer")
        #expect(record.reply.inReplyTo == "ev-deployer" && record.reply.taskID == "t-deployer")
        #expect(record.destination == .queue("https://sqs.eu-west-1.amazonaws.com/123456789012/deployer-replies"))
        _ = reduce(&s, .key(.escape))
        #expect(s.agentsView == nil)
    }

    /// An agent heard from this second was seen "just now", never "now ago".
    @Test func anAgentSeenThisSecondWasSeenJustNow() {
        var s = loadedState(sampleRows(), width: 80, height: 12)
        _ = reduce(&s, .key(.char("A")))
        _ = reduce(&s, .agentsLoaded([Self.agent("deployer", replyTo: true, secondsAgo: 0)]))
        let text = GoldenScreen.text(of: render(s, width: 80, height: 12))
        #expect(text.contains("just now"))
        #expect(!text.contains("now ago"))
    }
}

@Suite("Interrupted replies")
struct InterruptedReplyTests {
    @Test func aReplyStillSendingFromAnEarlierRunIsShownAsNotSentAndRResendsIt() {
        var s = AnsweringTests.detailOpen()
        let row = AnsweringTests.askingRow()
        let stored = ReplyRecord(reply: Reply(id: "r-crashed", inReplyTo: "ev-ask", taskID: "deploy-billing",
                                              agentID: "deployer", answer: .action("deploy"), from: "alice@laptop",
                                              timestampMicros: fixedNow - 60_000_000),
                                 label: "Deploy", destination: .queue(AnsweringTests.replyTo), delivery: .sending,
                                 updatedMicros: fixedNow - 60_000_000)
        _ = reduce(&s, .historyLoaded(HistoryResult(taskID: row.taskID, row: row, events: [row.event], replies: [stored])))
        let text = GoldenScreen.text(of: render(s, width: 100, height: 24))
        #expect(text.contains("not sent: Deploy · interrupted before it was sent · R resends"))
        _ = reduce(&s, .key(.char("R")))
        guard case .confirm(let again)? = s.answering.prompt else { Issue.record("R offered nothing"); return }
        #expect(again.reply.id == "r-crashed")
        #expect(confirmWithY(&s) == [.sendReply(again)])
        #expect(GoldenScreen.text(of: render(s, width: 100, height: 24)).contains("sending Deploy…"))
    }
}
