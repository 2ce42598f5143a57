import Testing
import TimelineCore
@testable import TimelineUI

/// The one palette: every status has its own colour in 256 and in 8 colours (the TUI and `list` share it).
struct RoleColorTests {
    @Test func everyStatusHasADistinctColourAtBothDepths() throws {
        let colors = try Status.allCases.map { try #require($0.colorRole.foreground) }
        #expect(Set(colors.map(\.xterm256)).count == Status.allCases.count)
        #expect(Set(colors.map(\.basic)).count == Status.allCases.count)
    }

    @Test func barsAndSelectionHaveABackgroundOnly() {
        for role in [ColorRole.selection, .headerBar, .statusBar] {
            #expect(role.foreground == nil && role.background != nil)
        }
        #expect(ColorRole.error.background == ColorRole.error.foreground)
    }
}
