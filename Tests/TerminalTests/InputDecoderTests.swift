import CNCursesW
import Foundation
import Testing
@testable import Terminal
import TimelineUI

/// Bytes in, `Input` out: every key and mouse encoding the terminals people use send.
@Suite("Input decoder")
struct InputDecoderTests {
    static let esc = "\u{1B}"

    /// Decodes `bytes` in one read, then flushes (as the reader does after the escape timeout).
    static func decode(_ bytes: String) -> [Input] {
        var d = InputDecoder()
        return d.feed(Array(bytes.utf8)) + d.flush()
    }

    /// Decodes `bytes` one byte per read (a sequence split anywhere must decode the same).
    static func decodeBytewise(_ bytes: String) -> [Input] {
        var d = InputDecoder()
        var out: [Input] = []
        for b in bytes.utf8 { out += d.feed([b]) }
        return out + d.flush()
    }

    /// What each terminal sends for the keys the app binds (normal and application cursor mode, and the
    /// forms tmux and screen forward from an outer xterm), whatever the TERM value inside says.
    static let families: [(terminal: String, sequences: [(String, Key)])] = {
        let e = esc
        let xterm: [(String, Key)] = [
            (e + "[A", .up), (e + "[B", .down), (e + "[C", .right), (e + "[D", .left),
            (e + "OA", .up), (e + "OB", .down), (e + "OC", .right), (e + "OD", .left),
            (e + "[H", .home), (e + "[F", .end), (e + "OH", .home), (e + "OF", .end),
            (e + "[5~", .pageUp), (e + "[6~", .pageDown), (e + "[3~", .delete), (e + "[Z", .backTab),
            (e + "[1;5A", .up), (e + "[1;2B", .down), (e + "[1;5H", .home), (e + "[1;3F", .end), (e + "[5;5~", .pageUp),
            (e + "OP", .function(1)), (e + "OQ", .function(2)), (e + "OR", .function(3)), (e + "OS", .function(4)),
            (e + "[1;2P", .function(1)),
            (e + "[15~", .function(5)), (e + "[17~", .function(6)), (e + "[18~", .function(7)),
            (e + "[19~", .function(8)), (e + "[20~", .function(9)), (e + "[21~", .function(10)),
            (e + "[23~", .function(11)), (e + "[24~", .function(12)),
        ]
        let vt220: [(String, Key)] = [  // tmux, screen, and the Linux console's editing keys
            (e + "[1~", .home), (e + "[4~", .end), (e + "[5~", .pageUp), (e + "[6~", .pageDown),
            (e + "[11~", .function(1)), (e + "[12~", .function(2)), (e + "[13~", .function(3)), (e + "[14~", .function(4)),
        ]
        let linux: [(String, Key)] = [
            (e + "[[A", .function(1)), (e + "[[B", .function(2)), (e + "[[C", .function(3)),
            (e + "[[D", .function(4)), (e + "[[E", .function(5)),
        ]
        let rxvt: [(String, Key)] = [(e + "[7~", .home), (e + "[8~", .end)]
        return [
            ("xterm", xterm), ("VTE", xterm), ("kitty", xterm), ("foot", xterm),
            ("tmux", xterm + vt220), ("screen", xterm + vt220), ("linux", xterm + vt220 + linux), ("rxvt", rxvt),
        ]
    }()

    @Test(arguments: ["xterm-256color", "tmux-256color", "screen-256color", "screen", "linux", "vte-256color",
                      "xterm-kitty", "foot", "rxvt-unicode-256color"])
    func everyKeySequenceOfEveryTerminalUnderEveryTerm(term: String) {
        // The decoder does not consult TERM: under each value, every terminal's sequences decode the same,
        // whole, in one read or split byte by byte, and the key typed after them is not disturbed.
        for (terminal, sequences) in Self.families {
            for (bytes, key) in sequences {
                let expected: [Input] = [.key(key), .key(.char("j"))]
                #expect(Self.decode(bytes + "j") == expected, "\(terminal) \(bytes.debugDescription) under TERM=\(term)")
                #expect(Self.decodeBytewise(bytes + "j") == expected, "\(terminal) split \(bytes.debugDescription)")
            }
        }
    }

    @Test(.serialized, arguments: ["xterm-256color", "tmux-256color", "screen-256color", "linux", "rxvt-unicode-256color"])
    func whatTerminfoListsDecodes(term: String) throws {
        // Cross-check with the installed terminfo entry: each key capability decodes to its key.
        let usable = tl_terminal_can_draw(term)
        guard usable == 1 else {
            Issue.record("terminfo entry \(term) is not usable (\(usable)), errno \(errno)")
            return
        }
        let caps: [(String, Key)] = [
            ("kcuu1", .up), ("kcud1", .down), ("kcub1", .left), ("kcuf1", .right), ("khome", .home), ("kend", .end),
            ("kpp", .pageUp), ("knp", .pageDown), ("kdch1", .delete), ("kcbt", .backTab),
        ] + (1...12).map { ("kf\($0)", Key.function($0)) }
        var checked = 0
        for (cap, key) in caps {
            guard let value = tl_terminfo_string(term, cap) else { continue }
            let bytes = String(cString: value)
            #expect(Self.decode(bytes) == [.key(key)], "\(term) \(cap)=\(bytes.debugDescription)")
            checked += 1
        }
        #expect(checked >= 10, "\(term): only \(checked) key capabilities found")
    }

    @Test func sgrMouse() {
        let e = Self.esc
        #expect(Self.decode(e + "[<65;20;5M") == [.mouse(.wheelDown(x: 19, y: 4))])
        #expect(Self.decode(e + "[<64;1;1M") == [.mouse(.wheelUp(x: 0, y: 0))])
        #expect(Self.decode(e + "[<0;7;3M") == [.mouse(.click(x: 6, y: 2))])
        #expect(Self.decode(e + "[<0;7;3m").isEmpty)  // release
        #expect(Self.decode(e + "[<69;300;200M") == [.mouse(.wheelDown(x: 299, y: 199))])  // with Shift
        #expect(Self.decode(e + "[<32;7;3M").isEmpty)  // motion
        #expect(Self.decode(e + "[<2;7;3M").isEmpty)  // right button
        #expect(Self.decodeBytewise(e + "[<65;20;5Mj") == [.mouse(.wheelDown(x: 19, y: 4)), .key(.char("j"))])
    }

    @Test func x10AndUrxvtMouse() {
        let e = Self.esc
        func x10(_ b: Int, _ x: Int, _ y: Int) -> String { e + "[M" + String(UnicodeScalar(UInt8(b + 32))) + String(UnicodeScalar(UInt8(x + 33))) + String(UnicodeScalar(UInt8(y + 33))) }
        #expect(Self.decode(x10(65, 19, 4)) == [.mouse(.wheelDown(x: 19, y: 4))])
        #expect(Self.decode(x10(64, 0, 0)) == [.mouse(.wheelUp(x: 0, y: 0))])
        #expect(Self.decode(x10(0, 6, 2)) == [.mouse(.click(x: 6, y: 2))])
        #expect(Self.decode(x10(3, 6, 2)).isEmpty)  // release
        // Coordinates beyond 94 are bytes ≥ 0x80: raw bytes, not UTF-8.
        var d = InputDecoder()
        #expect(d.feed([0x1B, 0x5B, 0x4D, 97, 200, 40, 0x6A]) == [.mouse(.wheelDown(x: 167, y: 7)), .key(.char("j"))])
        #expect(Self.decode(e + "[97;20;5M") == [.mouse(.wheelDown(x: 19, y: 4))])  // urxvt 1015
    }

    @Test func unknownSequencesAreConsumedWhole() {
        let e = Self.esc
        for bytes in [e + "[2~", e + "[201~", e + "[?1;2c", e + "[>0;276;0c", e + "[I", e + "[O", e + "[99~",
                      e + "[1;5X", e + "Oz", e + "[[Z", e + "[12;40R", e + "[<1;2M", e + "[38:2:1:2:3m"] {
            #expect(Self.decode(bytes + "q") == [.key(.char("q"))], "\(bytes.debugDescription)")
            #expect(Self.decodeBytewise(bytes + "q") == [.key(.char("q"))], "split \(bytes.debugDescription)")
        }
        // Nothing of an issue-12 wheel event leaks as keys (it used to toggle the errors-only filter).
        #expect(!Self.decode(e + "[<65;20;5M").contains(.key(.char("5"))))
    }

    @Test func aBracketedPasteIsOneInputNeverKeys() {
        let e = Self.esc
        let paste = e + "[200~pip install -r requirements.txt\r" + e + "[201~"
        let expected: [Input] = [.key(.char("r")), .paste("pip install -r requirements.txt\r"), .key(.char("j"))]
        #expect(Self.decode("r" + paste + "j") == expected)
        #expect(Self.decodeBytewise("r" + paste + "j") == expected, "split anywhere, even inside the brackets")
        // Whatever it holds (y, Enter, escape sequences, a mouse report), a paste is text.
        let hostile = e + "[200~y\n\r" + e + "[A" + e + "[<0;3;3M" + e + "[200~q" + e + "[201~"
        #expect(Self.decode(hostile) == [.paste("y\n\r" + e + "[A" + e + "[<0;3;3M" + e + "[200~q")])
    }

    @Test func keysThatComeWithAPasteAreDropped() {
        // A clipboard holding its own closing bracket, then Enter and `y`: all in one batch of input.
        let e = Self.esc
        let batch = Self.decode("r" + e + "[200~ok" + e + "[201~\ry" + e + "[<0;3;3M")
        #expect(batch == [.key(.char("r")), .paste("ok"), .key(.enter), .key(.char("y")), .mouse(.click(x: 2, y: 2))])
        #expect(InputDecoder.droppingKeysAfterPaste(batch) == [.key(.char("r")), .paste("ok")])
        #expect(InputDecoder.droppingKeysAfterPaste([.key(.char("y")), .key(.enter)]) == [.key(.char("y")), .key(.enter)])
        #expect(InputDecoder.droppingKeysAfterPaste([.paste("a"), .paste("b")]) == [.paste("a"), .paste("b")])
    }

    @Test func aPasteStaysOpenAcrossTimeoutsAndIsCapped() {
        var d = InputDecoder()
        #expect(d.feed(Array((Self.esc + "[200~yes\r").utf8)).isEmpty)
        #expect(d.hasPending)
        #expect(d.flush().isEmpty, "the escape timeout does not end a paste")
        #expect(d.feed(Array("y\r".utf8)).isEmpty, "bytes after the timeout are still pasted text")
        #expect(d.feed(Array((Self.esc + "[201").utf8)).isEmpty)
        #expect(d.feed(Array("~n".utf8)) == [.paste("yes\ry\r"), .key(.char("n"))])
        #expect(!d.hasPending)

        var big = InputDecoder()
        let body = [UInt8](repeating: UInt8(ascii: "a"), count: InputDecoder.maxPasteBytes + 1000)
        let inputs = big.feed(Array((Self.esc + "[200~").utf8) + body + Array((Self.esc + "[201~").utf8))
        #expect(inputs == [.paste(String(repeating: "a", count: InputDecoder.maxPasteBytes))])
    }

    @Test func escapeAloneAndBeforeAKey() {
        var d = InputDecoder()
        #expect(d.feed([0x1B]).isEmpty)
        #expect(d.hasPending)
        #expect(d.flush() == [.key(.escape)])
        #expect(Self.decode(Self.esc + "j") == [.key(.escape), .key(.char("j"))])
        #expect(Self.decode(Self.esc + Self.esc) == [.key(.escape), .key(.escape)])
        #expect(Self.decode(Self.esc + Self.esc + "[A") == [.key(.up)])  // Alt + Up
        // An unfinished sequence that never completes is dropped, not replayed.
        var e = InputDecoder()
        #expect(e.feed(Array((Self.esc + "[1;5").utf8)).isEmpty)
        #expect(e.flush().isEmpty)
    }

    @Test func controlCharacters() {
        let table: [(UInt8, Input?)] = [
            (0x0A, .key(.enter)), (0x0D, .key(.enter)), (0x09, .key(.tab)), (0x7F, .key(.backspace)),
            (0x08, .key(.backspace)), (0x03, .key(.ctrl("c"))), (0x04, .key(.ctrl("d"))), (0x15, .key(.ctrl("u"))),
            (0x0C, .key(.ctrl("l"))), (0x1A, .key(.ctrl("z"))), (0x06, .key(.ctrl("f"))), (0x02, .key(.ctrl("b"))),
            (0x0E, .key(.ctrl("n"))), (0x10, .key(.ctrl("p"))), (0x00, nil), (0x1C, nil),
        ]
        for (byte, input) in table {
            var d = InputDecoder()
            #expect(d.feed([byte]) == (input.map { [$0] } ?? []), "byte \(byte)")
        }
        var d = InputDecoder()
        #expect(d.feed([0xC2, 0x9B]).isEmpty)  // C1 CSI (UTF-8) never becomes a key
        #expect(d.feed([0x9B, 0x41]) == [.key(.char("A"))])  // a stray 8-bit byte is dropped alone
    }

    @Test func printableAndWideCharacters() {
        #expect(Self.decode("jG/") == [.key(.char("j")), .key(.char("G")), .key(.char("/"))])
        #expect(Self.decode("部🚀") == [.key(.char("部")), .key(.char("🚀"))])
        #expect(Self.decodeBytewise("部🚀") == [.key(.char("部")), .key(.char("🚀"))])
        var d = InputDecoder()
        #expect(d.feed([0xED, 0xA0, 0x80, 0x6A]) == [.key(.char("j"))])  // a lone surrogate is no character
    }

    @Test func aBurstIsDecodedWhole() {
        // A held key or a paste arrives as one read: 200 presses are 200 inputs.
        #expect(Self.decode(String(repeating: "j", count: 200)) == Array(repeating: .key(.char("j")), count: 200))
        let arrows = String(repeating: Self.esc + "[B", count: 100)
        #expect(Self.decode(arrows) == Array(repeating: .key(.down), count: 100))
    }
}
