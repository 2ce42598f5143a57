import Testing
@testable import TimelineUI

@Suite("Key handling")
struct KeyHandlingTests {
    /// As in less: one `g` goes to the top (the newest task, FOLLOW); `gg` still does.
    @Test func gIsTheTopAsInLess() {
        for keys in ["g", "gg", "F"] {
            var s = loadedState(sampleRows(), width: 80, height: 12)
            _ = reduce(&s, .key(.char("j")))
            _ = reduce(&s, .key(.char("j")))
            #expect(s.mode == .browse)
            var effects: [Effect] = []
            for c in keys { effects += reduce(&s, .key(.char(c))) }
            #expect(s.mode == .follow && s.selected == 0, "\(keys)")
            #expect(effects.contains { if case .loadWindow(let r) = $0 { return r.anchor == .newest } else { return false } })
        }
    }

    @Test func colonQAndF10Quit() {
        for keys: [Key] in [[.char(":"), .char("q"), .enter], [.char(":"), .char("q"), .char("u"), .char("i"), .char("t"), .enter],
                            [.function(10)], [.enter, .function(10)]] {
            var s = loadedState(sampleRows(), width: 80, height: 12)
            var effects: [Effect] = []
            for key in keys { effects += reduce(&s, .key(key)) }
            #expect(s.quitRequested && effects.last == .quit, "\(keys)")
        }
    }

    @Test func ctrlCQuitsFromEveryMode() {
        var s = loadedState(sampleRows(), width: 80, height: 12)
        _ = reduce(&s, .key(.char("/")))
        #expect(reduce(&s, .key(.ctrl("c"))) == [.quit])
        #expect(s.quitRequested)
    }
}
