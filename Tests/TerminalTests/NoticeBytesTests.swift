import Terminal
import Testing
import TimelineCore

/// What reaches the terminal for a notice: the notification sequences, the window title, and that no
/// event text can end or extend a sequence.
@Suite("Notice bytes")
struct NoticeBytesTests {
    private func text(_ notice: TerminalNotice, _ sequence: NotificationSequence, tmux: Bool = false) -> String {
        String(decoding: NoticeBytes(sequence: sequence, tmux: tmux).bytes(notice), as: UTF8.self)
    }

    @Test func osc9IsOneSequenceThenOneBell() {
        #expect(text(.notification(title: "timeline: ci error", body: "Build failed"), .osc9)
            == "\u{1B}]9;timeline: ci error: Build failed\u{1B}\\\u{07}")
        #expect(text(.notification(title: "T", body: ""), .osc9) == "\u{1B}]9;T\u{1B}\\\u{07}")
    }

    @Test func osc777CarriesTitleAndBodyAndASemicolonCannotMoveText() {
        #expect(text(.notification(title: "a;b", body: "c;d"), .osc777) == "\u{1B}]777;notify;a,b;c;d\u{1B}\\\u{07}")
    }

    @Test func osc99SendsTitleThenBody() {
        #expect(text(.notification(title: "T", body: "B"), .osc99)
            == "\u{1B}]99;i=timeline:d=0:p=title;T\u{1B}\\\u{1B}]99;i=timeline:d=1:p=body;B\u{1B}\\\u{07}")
    }

    @Test func tmuxWrapsThePassthroughWithEscapesDoubledAndTheBellOutside() {
        #expect(text(.notification(title: "T", body: "B"), .osc9, tmux: true)
            == "\u{1B}Ptmux;\u{1B}\u{1B}]9;T: B\u{1B}\u{1B}\\\u{1B}\\\u{07}")
    }

    @Test func bellAloneAndNone() {
        #expect(NoticeBytes(sequence: .bell, tmux: true).bytes(.notification(title: "T", body: "B")) == [0x07])
        #expect(NoticeBytes(sequence: .none, tmux: false).bytes(.notification(title: "T", body: "B")).isEmpty)
    }

    @Test(arguments: NotificationSequence.allCases)
    func hostileTextCannotEndOrExtendTheSequence(_ sequence: NotificationSequence) {
        let hostile = "x\u{1B}\\\u{07}\u{1B}]2;owned\u{07}\u{9C}\u{9D}\u{1B}[31m\r\n\u{202E}y"
        let bytes = NoticeBytes(sequence: sequence, tmux: true).bytes(.notification(title: hostile, body: hostile))
        #expect(bytes.filter { $0 == 0x07 }.count == (sequence == .none ? 0 : 1))
        // Our own ESCs only: each one starts a passthrough, a doubled ESC, or an ST; never text-supplied.
        let s = String(decoding: bytes, as: UTF8.self)
        #expect(!s.contains("owned\u{07}"))
        #expect(!s.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0 == "\u{202E}" || $0 == "\r" || $0 == "\n" })
        if sequence == .osc9 {
            #expect(s == "\u{1B}Ptmux;\u{1B}\u{1B}]9;x⏎y: x⏎y\u{1B}\u{1B}\\\u{1B}\\\u{07}")
        }
    }

    @Test func longTextIsCut() {
        let notice = TerminalNotice.notification(title: String(repeating: "t", count: 500), body: String(repeating: "b", count: 900))
        #expect(text(notice, .osc777) == "\u{1B}]777;notify;" + String(repeating: "t", count: 79) + "…;"
            + String(repeating: "b", count: 239) + "…\u{1B}\\\u{07}")
    }

    @Test func theWindowTitleIsSavedSetSafelyAndRestored() {
        #expect(text(.saveWindowTitle, .osc9) == "\u{1B}[22;0t")
        #expect(text(.restoreWindowTitle, .none) == "\u{1B}[23;0t")
        #expect(text(.windowTitle("timeline · 2 errors"), .none) == "\u{1B}]2;timeline · 2 errors\u{1B}\\")
        #expect(text(.windowTitle("a\u{1B}\\\u{07}\u{1B}]0;b\u{07}" + String(repeating: "c", count: 200)), .osc9, tmux: true)
            == "\u{1B}]2;a" + String(repeating: "c", count: 118) + "…\u{1B}\\", "sanitized, cut, never wrapped or belled")
    }

    @Test func severalNoticesInOrder() {
        let bytes = NoticeBytes(sequence: .bell, tmux: false).bytes([.notification(title: "T", body: "B"), .windowTitle("x")])
        #expect(String(decoding: bytes, as: UTF8.self) == "\u{07}\u{1B}]2;x\u{1B}\\")
    }

    @Test func detectsTheTerminal() {
        #expect(NotificationSequence.detect(["TERM": "xterm-kitty"]) == .osc99)
        #expect(NotificationSequence.detect(["KITTY_WINDOW_ID": "1", "TERM": "xterm-256color"]) == .osc99)
        #expect(NotificationSequence.detect(["VTE_VERSION": "7600", "TERM": "xterm-256color"]) == .osc777)
        #expect(NotificationSequence.detect(["TERM": "rxvt-unicode-256color"]) == .osc777)
        #expect(NotificationSequence.detect(["TERM": "xterm-256color"]) == .osc9)
    }
}
