import Testing
import TimelineCore
@testable import TimelineUI

/// The attention glyphs (unread `•`, timed out `⊘`) have ASCII stand-ins under a locale that is not UTF-8.
@Suite("Attention glyphs in the C locale")
struct AttentionAsciiTests {
    @Test func unreadAndTimedOutRowsAreASCII() {
        var unread = makeRow("T-1", "Broke", status: .error, secondsAgo: 5, seq: 2)
        unread.unread = true
        var timedOut = makeRow("T-2", "Long job", status: .inProgress, secondsAgo: 10, progress: 40, seq: 1)
        timedOut.firstMicros = fixedNow - 9 * 3_600 * 1_000_000
        let utf8 = render(loadedState([unread, timedOut], width: 80, height: 6), width: 80, height: 6)
        #expect(utf8.line(1).contains("•") && utf8.line(2).contains("⊘"))  // the glyphs the stand-ins replace
        let s = loadedState([unread, timedOut], width: 80, height: 6) { $0.asciiOnly = true }
        let screen = render(s, width: 80, height: 6)
        for y in 0..<screen.height {
            let ascii = screen.line(y).allSatisfy { $0.isASCII }
            #expect(ascii, "line \(y): \(screen.line(y))")
        }
        #expect(screen.line(1).contains("&") && screen.line(2).contains("%"))
    }
}
