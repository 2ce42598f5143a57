import CNCursesW
import Testing
@testable import Terminal
import TimelineUI

@Suite("Input decoder")
struct InputDecoderTests {
    @Test func functionKeys() {
        let table: [(Int32, Key)] = [
            (KEY_DOWN, .down), (KEY_UP, .up), (KEY_LEFT, .left), (KEY_RIGHT, .right), (KEY_HOME, .home),
            (KEY_END, .end), (KEY_NPAGE, .pageDown), (KEY_PPAGE, .pageUp), (KEY_BACKSPACE, .backspace),
            (KEY_ENTER, .enter), (KEY_BTAB, .backTab), (KEY_DC, .delete),
        ]
        for (code, key) in table { #expect(InputDecoder.decode(.keyCode(code)) == .key(key)) }
        #expect(InputDecoder.decode(.keyCode(0o410)) == nil)  // F0: unbound
        // The codes are ncurses' own (`<curses.h>`, ncurses 6); resize and mouse are reads of their own.
        #expect(KEY_DOWN == 258 && KEY_RESIZE == 410 && KEY_MOUSE == 409)
        #expect(InputDecoder.decode(.keyCode(KEY_RESIZE)) == nil && InputDecoder.decode(.keyCode(KEY_MOUSE)) == nil)
    }

    @Test func controlCharacters() {
        #expect(InputDecoder.decode(.character(0x0A)) == .key(.enter))
        #expect(InputDecoder.decode(.character(0x0D)) == .key(.enter))
        #expect(InputDecoder.decode(.character(0x09)) == .key(.tab))
        #expect(InputDecoder.decode(.character(0x1B)) == .key(.escape))
        #expect(InputDecoder.decode(.character(0x7F)) == .key(.backspace))
        #expect(InputDecoder.decode(.character(0x08)) == .key(.backspace))
        #expect(InputDecoder.decode(.character(0x03)) == .key(.ctrl("c")))
        #expect(InputDecoder.decode(.character(0x04)) == .key(.ctrl("d")))
        #expect(InputDecoder.decode(.character(0x15)) == .key(.ctrl("u")))
        #expect(InputDecoder.decode(.character(0x17)) == .key(.ctrl("w")))
        #expect(InputDecoder.decode(.character(0x00)) == nil)
        #expect(InputDecoder.decode(.character(0x1C)) == nil)
        #expect(InputDecoder.decode(.character(0x9B)) == nil)  // C1 CSI never becomes a key
    }

    @Test func printableAndWideCharacters() {
        #expect(InputDecoder.decode(.character(UInt32(UInt8(ascii: "j")))) == .key(.char("j")))
        #expect(InputDecoder.decode(.character(UInt32(UInt8(ascii: "G")))) == .key(.char("G")))
        #expect(InputDecoder.decode(.character(UInt32(UInt8(ascii: "/")))) == .key(.char("/")))
        #expect(InputDecoder.decode(.character(0x90E8)) == .key(.char("部")))
        #expect(InputDecoder.decode(.character(0x1F680)) == .key(.char("🚀")))
        #expect(InputDecoder.decode(.character(0xD800)) == nil)  // a lone surrogate is no character
    }

    @Test func mouse() {
        #expect(InputDecoder.decode(RawMouse(x: 3, y: 4, wheelUp: true)) == .mouse(.wheelUp(x: 3, y: 4)))
        #expect(InputDecoder.decode(RawMouse(x: 3, y: 4, wheelDown: true)) == .mouse(.wheelDown(x: 3, y: 4)))
        #expect(InputDecoder.decode(RawMouse(x: 7, y: 2, button1: true)) == .mouse(.click(x: 7, y: 2)))
        #expect(InputDecoder.decode(RawMouse(x: 7, y: 2)) == nil)
    }
}
