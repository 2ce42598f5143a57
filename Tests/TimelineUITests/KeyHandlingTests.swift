import Testing
@testable import TimelineUI

@Suite("Key handling")
struct KeyHandlingTests {
    @Test func ggNeedsTwoPresses() {
        var s = loadedState(sampleRows(), width: 80, height: 12)
        _ = reduce(&s, .key(.char("j")))
        _ = reduce(&s, .key(.char("j")))
        #expect(s.mode == .browse)
        _ = reduce(&s, .key(.char("g")))
        #expect(s.mode == .browse && s.pendingG)
        _ = reduce(&s, .key(.char("x")))
        _ = reduce(&s, .key(.char("g")))
        #expect(s.mode == .browse)
        let effects = reduce(&s, .key(.char("g")))
        #expect(s.mode == .follow)
        #expect(effects.contains { if case .loadWindow(let r) = $0 { return r.anchor == .newest } else { return false } })
    }

    @Test func ctrlCQuitsFromEveryMode() {
        var s = loadedState(sampleRows(), width: 80, height: 12)
        _ = reduce(&s, .key(.char("/")))
        #expect(reduce(&s, .key(.ctrl("c"))) == [.quit])
        #expect(s.quitRequested)
    }
}
