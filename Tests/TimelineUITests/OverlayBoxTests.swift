import Testing
import TimelineCore
@testable import TimelineUI

/// The one box-drawing helper of the overlays (help, poller message, view picker).
@Suite struct OverlayBoxTests {
    @Test func drawsAClearedCenteredFrameWithItsTitleBetweenTheCorners() {
        var screen = Screen(width: 12, height: 6)
        screen.fill(y: 0, width: 12, height: 6, style: Style(fg: .error))
        for y in 0..<6 { screen.put(String(repeating: "x", count: 12), x: 0, y: y, style: .plain) }
        let box = OverlayBox(innerWidth: 6, innerHeight: 2, centeredOn: screen)
        #expect((box.x0, box.y0) == (2, 1))
        box.draw(title: " Long title ", style: Style(bold: true), into: &screen)
        #expect((0..<6).map { screen.line($0) } == [
            "xxxxxxxxxxxx",
            "xx┌─ Lon─┐xx",
            "xx│      │xx",
            "xx│      │xx",
            "xx└──────┘xx",
            "xxxxxxxxxxxx",
        ])
        #expect(screen[2, 1].style == Style(bold: true))
        #expect(screen[4, 2].style == .plain)
    }

    @Test func helpUsesItsLongTitleOnlyWhereItFitsBetweenTheCorners() throws {
        // 26 columns: a 24-wide box, whose title room (22) is one short of the long title (23).
        for (width, long) in [(26, false), (27, true)] {
            var s = loadedState(sampleRows(), width: width, height: 20)
            _ = reduce(&s, .key(.char("?")))
            let screen = render(s, width: width, height: 20)
            let top = try #require((0..<20).map { screen.line($0) }.first { $0.contains("┌") })
            #expect(top.contains("┌─ Keys ") && top.contains(long ? " Keys · any key closes ─" : " Keys ──"), "\(width): \(top)")
        }
    }
}
