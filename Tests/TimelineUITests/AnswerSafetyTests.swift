import Foundation
import Testing
import TimelineCore
@testable import TimelineUI

/// The answer path against hostile events and accidents: where a reply may go, what the confirmation
/// shows, a question that changes under the prompt, pastes, and screens too small to confirm on.
@Suite("Answer safety")
struct AnswerSafetyTests {
    static let ownQueue = "https://sqs.eu-west-1.amazonaws.com/123456789012/timeline-events"

    /// A waiting task whose event names `replyTo`, `label` and (optionally) a webhook.
    static func row(replyTo: String = AnsweringTests.replyTo, label: String = "Deploy", webhook: String? = nil,
                    id: String = "ev-ask", agent: String = "deployer", timestamp: String = "2026-11-22T02:59:30Z",
                    seq: Int64 = 50) -> TimelineRow {
        let url = webhook.map { ",\"url\":\"\($0)\"" } ?? ""
        let raw = """
            {"id":"\(id)","agent_id":"\(agent)","task_id":"deploy-billing","title":"Deploy billing v1.3 to prod?",\
            "status":"needs_input","timestamp":"\(timestamp)","actions":[{"id":"deploy","label":\(EventEncoder.quoted(label)),\
            "style":"primary"\(url)}],"reply_to":"\(replyTo)"}
            """
        let event = try! EventParser.parse(raw).get()
        return TimelineRow(event: event, seq: seq, eventCount: 1, receivedMicros: event.timestampMicros)
    }

    /// The detail of `row` open (as `i` opens it), with the viewer's own queue and policy set.
    static func open(_ row: TimelineRow, width: Int = 80, height: Int = 24, history: [Event]? = nil,
                     policy: ReplyQueuePolicy = ReplyQueuePolicy(viewerRegion: "eu-west-1")) -> AppState {
        var s = loadedState([row] + sampleRows(), width: width, height: height) {
            $0.answering.sender = "alice@laptop"
            $0.answering.replyPolicy = policy
            $0.answering.ownQueues = [ownQueue]
        }
        guard case .findMatch(let request)? = reduce(&s, .key(.char("i"))).first else { Issue.record("i found nothing"); return s }
        _ = reduce(&s, .matchFound(MatchResult(request: request, row: row, wrapped: false)))
        _ = reduce(&s, .historyLoaded(HistoryResult(taskID: row.taskID, row: row, events: history ?? [row.event])))
        return s
    }

    static func text(_ s: AppState) -> String { GoldenScreen.text(of: render(s, width: s.width, height: s.height)) }

    // MARK: where a reply may go

    @Test func aReplyToOnAnotherHostOpensNoPromptAndSaysWhy() {
        for replyTo in ["http://127.0.0.1:8999/123456789012/replies", "https://sqs.eu-west-1.amazonaws.com.evil.example/123456789012/replies",
                        "https://sqs.cn-north-1.amazonaws.com.cn/123456789012/replies"] {
            var s = Self.open(Self.row(replyTo: replyTo))
            #expect(reduce(&s, .key(.char("1"))).isEmpty)
            #expect(s.answering.prompt == nil, "\(replyTo)")
            #expect(s.answering.noticeIsError && s.answering.notice?.hasPrefix("refused: reply_to names host") == true)
            #expect(s.answering.notice?.contains("nothing was signed or sent") == true)
            #expect(reduce(&s, .key(.char("r"))).isEmpty)
            #expect(s.answering.prompt == nil, "no text prompt either")
            #expect(confirmWithY(&s).allSatisfy { if case .sendReply = $0 { false } else { true } })
        }
    }

    @Test func theConfiguredEndpointIsAllowedAndNamed() {
        var s = Self.open(Self.row(replyTo: "http://127.0.0.1:8999/123456789012/replies"),
                          policy: ReplyQueuePolicy(configuredEndpoint: "http://127.0.0.1:8999"))
        _ = reduce(&s, .key(.char("1")))
        #expect(s.answering.prompt != nil)
        #expect(Self.text(s).contains("|to queue replies (account 123456789012, 127.0.0.1:8999)?"))
    }

    @Test func theConfirmationWarnsOfAnotherAccountHostOrEarlierReplyTo() {
        let other = "https://sqs.eu-west-1.amazonaws.com/999999999999/replies"
        var s = Self.open(Self.row(replyTo: other))
        _ = reduce(&s, .key(.char("1")))
        let screen = render(s, width: 80, height: 24)
        let text = GoldenScreen.text(of: screen)
        #expect(text.contains("|to queue replies (account 999999999999, sqs.eu-west-1.amazonaws.com)?"))
        #expect(text.contains("|⚠ not your queue's account (yours: 123456789012)"))
        #expect(!text.contains("not your queue's host"))
        GoldenScreen.check(screen, "80x24-answer-confirm-other-account")
        var ascii = s
        ascii.asciiOnly = true
        #expect(Self.text(ascii).contains("|! not your queue's account (yours: 123456789012)"), "ASCII terminals see a warning too")

        let earlier = Self.row(id: "ev-first", timestamp: "2026-11-22T02:50:00Z", seq: 10).event
        let moved = Self.row(replyTo: "https://sqs.eu-west-2.amazonaws.com/123456789012/replies")
        var t = Self.open(moved, history: [moved.event, earlier])
        _ = reduce(&t, .key(.char("1")))
        let warned = Self.text(t)
        #expect(warned.contains("|⚠ not your queue's host (yours: sqs.eu-west-1.amazonaws.com)"))
        #expect(warned.contains("|⚠ not the task's earlier reply_to (agent-replies)"))
        #expect(!warned.contains("not your queue's account"))
    }

    // MARK: the question under the prompt

    @Test func aNewerEventOfTheTaskCancelsTheOpenPrompt() {
        // Another agent publishes a future-dated event of the same task while the confirmation is open.
        let swapped = Self.row(label: "Drop the database", id: "ev-swap", agent: "intruder",
                               timestamp: "2027-01-01T00:00:00Z", seq: 60)
        for input in [Input.historyLoaded(HistoryResult(taskID: "deploy-billing", row: swapped, events: [swapped.event])),
                      .windowLoaded(WindowResult(request: WindowRequest(generation: 0, query: TimelineQuery(), anchor: .newest,
                                                                        above: 0, below: 100, anchorPosition: nil,
                                                                        keepSelection: true, targetLine: nil),
                                                 rows: [swapped] + sampleRows(), anchorIndex: 0, startPosition: 0,
                                                 reachesNewest: true, reachesOldest: true, anchorMoved: false))] {
            for opener in [Key.char("1"), .char("r")] {
                var s = Self.open(Self.row())
                _ = follow(&s)
                _ = reduce(&s, .key(opener))
                #expect(s.answering.prompt != nil)
                _ = reduce(&s, input)
                #expect(s.answering.prompt == nil, "\(opener)")
                #expect(s.answering.notice == "the question changed: nothing sent")
                #expect(confirmWithY(&s).allSatisfy { if case .sendReply = $0 { false } else { true } })
            }
        }
    }

    @Test func inSplitViewNewRowsCancelThePromptAndTheDetailStays() {
        var s = Self.open(Self.row(), width: 160, height: 40)
        _ = follow(&s)
        #expect(s.splitDetail && s.detail?.taskID == "deploy-billing")
        _ = reduce(&s, .key(.char("1")))
        #expect(s.answering.prompt != nil)
        // A new task arrives on top in FOLLOW: the selection moves to it.
        let newcomer = makeRow("T-200", "Something new", agent: "other", secondsAgo: 1, seq: 70)
        let req = WindowRequest(generation: s.generation, query: s.listQuery, anchor: .newest, above: 0, below: 100,
                                anchorPosition: nil, keepSelection: true, targetLine: nil)
        _ = reduce(&s, .windowLoaded(WindowResult(request: req, rows: [newcomer, Self.row()] + sampleRows(), anchorIndex: 0,
                                                  startPosition: 0, reachesNewest: true, reachesOldest: true, anchorMoved: false)))
        #expect(s.answering.prompt == nil && s.answering.notice == "the selection changed: nothing sent")
        #expect(s.detail?.taskID == "deploy-billing", "the detail did not switch under the prompt")
    }

    @Test func aLateMatchDoesNotMoveAnythingUnderAnOpenPrompt() {
        var s = Self.open(Self.row(), width: 160, height: 40)
        guard case .findMatch(let request)? = reduce(&s, .key(.char("e"))).first else { Issue.record("e found nothing"); return }
        _ = reduce(&s, .key(.char("1")))
        _ = reduce(&s, .matchFound(MatchResult(request: request, row: sampleRows()[2], wrapped: false)))
        #expect(s.answering.prompt != nil && s.detail?.taskID == "deploy-billing" && s.selectedRow?.taskID == "deploy-billing")
    }

    @Test func theMouseWheelCancelsAnOpenPrompt() {
        var s = Self.open(Self.row(), width: 160, height: 40)
        _ = reduce(&s, .key(.char("1")))
        #expect(s.answering.prompt != nil)
        _ = reduce(&s, .mouse(.wheelDown(x: 3, y: 5)))
        #expect(s.answering.prompt == nil && s.answering.notice == "the selection changed: nothing sent")
    }

    @Test func inTheAgentsViewNewRowsDoNotCancelAMessage() {
        var s = loadedState(sampleRows(), width: 80, height: 24)
        _ = reduce(&s, .key(.char("A")))
        _ = reduce(&s, .agentsLoaded([AgentsViewTests.agent("deployer", replyTo: true, secondsAgo: 5)]))
        _ = reduce(&s, .key(.char("r")))
        let newcomer = makeRow("T-200", "Something new", agent: "other", secondsAgo: 1, seq: 70)
        let req = WindowRequest(generation: s.generation, query: s.listQuery, anchor: .newest, above: 0, below: 100,
                                anchorPosition: nil, keepSelection: true, targetLine: nil)
        _ = reduce(&s, .windowLoaded(WindowResult(request: req, rows: [newcomer] + sampleRows(), anchorIndex: 0,
                                                  startPosition: 0, reachesNewest: true, reachesOldest: true, anchorMoved: false)))
        guard case .text? = s.answering.prompt else { Issue.record("the hidden list's new rows cancelled the message"); return }
    }

    // MARK: pastes

    @Test func aPasteIsNeverACommandOrEnter() {
        var s = Self.open(Self.row())
        _ = reduce(&s, .key(.char("r")))
        #expect(reduce(&s, .paste("pip install -r requirements.txt\r")).isEmpty)
        guard case .text(let typing)? = s.answering.prompt else { Issue.record("the text prompt closed"); return }
        #expect(typing.text == "pip install -r requirements.txt ", "the line break became a space")
        #expect(reduce(&s, .paste("a\u{1B}[31mb\tc\nd")).isEmpty)
        guard case .text(let more)? = s.answering.prompt else { Issue.record("the text prompt closed"); return }
        #expect(more.text.hasSuffix("a [31mb c d"), "controls became spaces")
        // Enter reviews it; a paste in the confirmation is ignored and sends nothing.
        _ = reduce(&s, .key(.enter))
        guard case .confirm? = s.answering.prompt else { Issue.record("no confirmation"); return }
        #expect(reduce(&s, .paste("y")).isEmpty)
        guard case .confirm? = s.answering.prompt else { Issue.record("the paste closed the confirmation"); return }
        #expect(Self.text(s).contains(#"|Send text "pip install -r requirements.txt a [31mb c d""#))
        #expect(Self.text(s).contains("|paste ignored: type y to send"), "the footer says why nothing happened")
        _ = reduce(&s, .key(.char("n")))
        #expect(s.answering.prompt == nil && s.answering.notice == "cancelled: nothing sent")
        _ = reduce(&s, .key(.char("r")))
        _ = reduce(&s, .paste("ok"))
        _ = reduce(&s, .key(.enter))
        #expect(Self.text(s).contains("|y sends · any other key cancels"), "a new confirmation opens without the note")

        // Outside a prompt a paste does nothing (no filter, no `i`, no quit).
        var list = loadedState(sampleRows(), width: 80, height: 24)
        let before = list
        #expect(reduce(&list, .paste("i1q\r")).isEmpty)
        #expect(list.statusFilter == before.statusFilter && list.detail == nil && !list.quitRequested)
        #expect(list.notice?.hasPrefix("paste ignored") == true)
    }

    @Test func aPasteOverTheLimitIsRefusedWhole() {
        var s = Self.open(Self.row())
        _ = reduce(&s, .key(.char("r")))
        _ = reduce(&s, .paste(String(repeating: "x", count: Reply.maxTextBytes + 1)))
        guard case .text(let typing)? = s.answering.prompt else { Issue.record("the text prompt closed"); return }
        #expect(typing.text.isEmpty && typing.note == "paste refused: over 4096 bytes")
        #expect(Self.text(s).contains("paste refused: over 4096 bytes"))
    }

    @Test func aPasteGoesIntoTheSearchPrompt() {
        var s = loadedState(sampleRows(), width: 80, height: 24)
        _ = reduce(&s, .key(.char("/")))
        _ = reduce(&s, .paste("disk\nusage"))
        #expect(s.search.text == "disk usage" && s.search.promptOpen)
    }

    // MARK: what the confirmation shows, and when it cannot

    @Test func aLongTextIsCutVisiblyAndTheDestinationStaysWhole() {
        var s = Self.open(Self.row())
        _ = reduce(&s, .key(.char("r")))
        _ = reduce(&s, .paste(String(repeating: "word ", count: 40) + "end"))
        _ = reduce(&s, .key(.enter))
        let screen = render(s, width: 80, height: 24)
        let text = GoldenScreen.text(of: screen)
        #expect(text.contains("…\"") && !text.contains("end\""))
        #expect(text.contains("|to queue agent-replies (account 123456789012, sqs.eu-west-1.amazonaws.com)?"))
        GoldenScreen.check(screen, "80x24-answer-confirm-long-text")
    }

    @Test func aLabelCannotDrawAFakePromptAndYNStaysBottomRight() {
        var s = Self.open(Self.row(label: "OK\" to you? y/N"))
        _ = reduce(&s, .key(.char("1")))
        let screen = render(s, width: 80, height: 24)
        let text = GoldenScreen.text(of: screen)
        #expect(text.contains(#"|Send "OK\" to you? y/N""#), "quoted and escaped")
        for x in 77..<80 { #expect(screen[x, 23].style.reverse, "the real y/N is reverse video at the bottom right") }
        #expect(String((77..<80).map { screen[$0, 23].character }) == "y/N")
    }

    @Test func aLongWebhookWrapsWholeAt80x24() {
        let url = "https://github.com/example-org/example-repository/pull-requests/4711/merge?strategy=squash&confirm=1"
        var s = Self.open(Self.row(label: String(repeating: "L", count: 40), webhook: url))
        _ = reduce(&s, .key(.char("1")))
        #expect(s.answering.prompt != nil)
        let screen = render(s, width: 80, height: 24)
        let rows = (0..<24).map { y in String((0..<80).map { screen[$0, y].character }) }
        #expect(rows.joined().contains("to " + url + "?"), "the whole URL is on screen, in rows")
        GoldenScreen.check(screen, "80x24-answer-confirm-long-webhook")
    }

    @Test func noConfirmationOpensWhenItCannotBeShownWhole() {
        var s = Self.open(Self.row(), width: 20, height: 5)
        #expect(reduce(&s, .key(.char("1"))).isEmpty)
        #expect(s.answering.prompt == nil && s.answering.notice == AnswerConfirmation.tooSmall)
        #expect(confirmWithY(&s).allSatisfy { if case .sendReply = $0 { false } else { true } })
        // A typed text: Enter does not open a confirmation there either.
        _ = reduce(&s, .key(.char("r")))
        _ = reduce(&s, .paste("ok"))
        #expect(reduce(&s, .key(.enter)).isEmpty)
        #expect(s.answering.prompt == nil && s.answering.notice == AnswerConfirmation.tooSmall)
        GoldenScreen.check(render(s, width: 20, height: 5), "20x5-answer-too-small")

        // Shrinking the terminal under an open confirmation cancels it.
        var t = Self.open(Self.row())
        _ = reduce(&t, .key(.char("1")))
        _ = reduce(&t, .resize(width: 20, height: 5))
        #expect(t.answering.prompt == nil && t.answering.notice == AnswerConfirmation.tooSmall)
    }
}
