import Testing
import TimelineCore
@testable import TimelineUI

@Suite("Rejected messages in the TUI")
struct RejectedViewTests {
    /// `n` rejected messages, one a minute, the last the newest; the second carries terminal escapes.
    static func store(rejected n: Int) -> InMemoryTimeline {
        let store = InMemoryTimeline(sampleRows())
        store.rejectedMessages = (1...max(1, n)).prefix(n).map { i in
            RejectedMessage(seq: Int64(i), rawBody: i == 2 ? "{\"title\":\"\u{1B}[2J\u{1B}]0;pwned\u{07}\u{202E}x\"}\n" : "not json \(i)",
                            messageID: "msg-\(i)", reason: i == 2 ? "missing field: id" : "not JSON (\(i))",
                            receivedMicros: fixedNow - Int64(n - i + 1) * 60_000_000)
        }
        return store
    }

    static func text(_ screen: Screen) -> String {
        (0..<screen.height).map { y in String((0..<screen.width).map { screen[$0, y].character }) }.joined(separator: "\n")
    }

    @Test func headerCountsThemAndNamesTheKey() {
        let d = SyncDriver(Self.store(rejected: 31), width: 120, height: 12)
        #expect(d.state.rejected.count == 31)
        let header = Self.text(render(d.state, width: 120, height: 12)).split(separator: "\n")[0]
        #expect(header.contains("31 rejected (X)"))
    }

    @Test func noCountWithoutRejectedMessages() {
        let d = SyncDriver(InMemoryTimeline(sampleRows()), width: 120, height: 12)
        #expect(d.state.rejected.count == 0)
        #expect(!Self.text(render(d.state, width: 120, height: 12)).contains("rejected"))
    }

    @Test func xOpensTheOverlayNewestFirstWithBodiesEscaped() {
        var d = SyncDriver(Self.store(rejected: 3), width: 100, height: 30)
        d.press(.char("X"))
        #expect(d.state.rejected.open)
        #expect(d.state.rejected.newest.map(\.seq) == [3, 2, 1])
        let screen = render(d.state, width: 100, height: 30)
        let text = Self.text(screen)
        #expect(text.contains("Rejected messages"))
        #expect(text.contains("✗ missing field: id"))
        #expect(text.contains("message id msg-2"))
        #expect(text.contains(#"{"title":"\u001B[2J\u001B]0;pwned\u0007\u202Ex"}\n"#))
        let newest = text.range(of: "not JSON (3)")!.lowerBound, older = text.range(of: "not JSON (1)")!.lowerBound
        #expect(newest < older)
        for y in 0..<screen.height {
            for x in 0..<screen.width {
                #expect(!screen[x, y].character.unicodeScalars.contains { TerminalSafety.isUnsafe($0) })
            }
        }
        GoldenScreen.check(screen, "100x30-rejected-overlay")
    }

    @Test func itScrollsAndAnyOtherKeyClosesIt() {
        var d = SyncDriver(Self.store(rejected: 40), width: 80, height: 24)
        d.press(.char("X"))
        #expect(RejectedView.hiddenLines(d.state) > 0)
        d.press(.char("j"), .char("j"))
        #expect(d.state.rejected.scroll == 2)
        d.press(.char("k"))
        #expect(d.state.rejected.scroll == 1)
        d.press(.char("G"))
        #expect(d.state.rejected.scroll == RejectedView.hiddenLines(d.state))
        let bottom = Self.text(render(d.state, width: 80, height: 24))
        #expect(bottom.contains("not JSON (1)"))
        #expect(!bottom.contains("not JSON (40)"))
        GoldenScreen.check(render(d.state, width: 80, height: 24), "80x24-rejected-overlay-bottom")
        d.press(.char("q"))
        #expect(!d.state.rejected.open)
        #expect(!d.state.quitRequested)
        #expect(d.state.rejected.count == 40)
    }

    @Test func newMessagesArriveWhileItIsOpen() {
        let store = Self.store(rejected: 2)
        var d = SyncDriver(store, width: 80, height: 24)
        d.press(.char("X"))
        store.rejectedMessages.append(RejectedMessage(seq: 9, rawBody: "late", messageID: nil, reason: "late one",
                                                      receivedMicros: fixedNow))
        d.send(.storeChanged)
        #expect(d.state.rejected.count == 3)
        #expect(d.state.rejected.newest.first?.seq == 9)
        #expect(Self.text(render(d.state, width: 80, height: 24)).contains("no message id"))
    }

    @Test func aTinyTerminalStillShowsIt() {
        var d = SyncDriver(Self.store(rejected: 3), width: 20, height: 5)
        d.press(.char("X"))
        GoldenScreen.check(render(d.state, width: 20, height: 5), "20x5-rejected-overlay")
    }
}
