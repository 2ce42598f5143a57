import TestSupport
import Testing
@testable import TimelineCore

@Suite struct DisplayTextSanitizeTests {
    @Test(arguments: [
        ("\u{1B}[31mred\u{1B}[0m", "red"),                                          // SGR colours
        ("\u{1B}[2J\u{1B}[Hwiped", "wiped"),                                       // clear screen, home
        ("\u{1B}[?25lhidden cursor\u{1B}[?1049h", "hidden cursor"),               // private modes
        ("\u{1B}]8;;https://evil.example\u{1B}\\click\u{1B}]8;;\u{1B}\\", "click"),  // OSC 8 link, ST
        ("\u{1B}]8;;http://x\u{07}link\u{1B}]8;;\u{07}", "link"),                 // OSC 8 link, BEL
        ("before\u{1B}]52;c;cm0gLXJmIC8=\u{07}after", "beforeafter"),            // OSC 52 clipboard write
        ("ding\u{07}dong", "dingdong"),                                            // BEL
        ("a\u{9B}31mb", "ab"),                                                     // 8-bit CSI
        ("a\u{9D}0;title\u{9C}b", "ab"),                                           // 8-bit OSC, 8-bit ST
        ("x\u{1B}P1$r0m\u{1B}\\y", "xy"),                                          // DCS
        ("x\u{1B}_apc\u{1B}\\y\u{1B}^pm\u{07}z", "xyz"),                           // APC, PM
        ("safe\u{1B}]0;evil title", "safe"),                                       // unterminated OSC
        ("a\u{1B}]0;t\u{1B}[31mb", "ab"),                                          // ESC inside OSC starts anew
        ("a\u{1B}cb\u{1B}(Bc\u{1B}7d", "abcd"),                                    // RIS, charset, save cursor
        ("trailing\u{1B}", "trailing"),                                           // lone ESC
        ("a\u{7F}b\u{00}c\u{08}d\u{0C}e", "abcde"),                                // DEL, NUL, BS, FF
        ("a\u{85}b\u{84}c", "a⏎bc"),                                               // NEL is a line break, IND removed
        ("abc\u{202E}fed\u{202C}\u{2066}x\u{2069}\u{200F}\u{200E}\u{061C}", "abcfedx"),  // bidi controls
        ("a\u{200B}b\u{FEFF}c\u{AD}d\u{2060}e", "abcde"),                          // invisible format characters
        ("one\ntwo\r\nthree\rfour\u{2028}five\u{2029}six", "one⏎two⏎three⏎four⏎five⏎six"),
        ("a\tb\t\tc", "a b  c"),
        ("\u{301}x", " \u{301}x"),                                                 // orphan combining mark
        ("\u{1B}[0m\u{301}", " \u{301}"),
        ("Greek \u{0378} and \u{FFFF}", "Greek \u{FFFD} and \u{FFFD}"),           // unassigned, noncharacter
    ])
    func removesOrNeutralisesHostileText(input: String, expected: String) {
        #expect(DisplayText.sanitize(input) == expected)
    }

    @Test func keepsOrdinaryUnicode() {
        for text in ["部署完成 🚀 ✅", "👨‍👩‍👧 family", "e\u{301}té", "🇯🇵🇫🇷", "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}",
                     "क्‍ष", "שלום עולם", "Ｆｕｌｌ", "plain ASCII ~!@#$%^&*()"] {
            #expect(DisplayText.sanitize(text) == text, "\(text)")
        }
    }

    @Test func nothingUnsafeSurvivesRandomInput() {
        var rng = SplitMix64(seed: 0x7157)
        let alphabet: [UInt32] = [0x1B, 0x5B, 0x5D, 0x07, 0x9B, 0x9C, 0x9D, 0x90, 0x5C, 0x0A, 0x0D, 0x09, 0x00, 0x7F,
                                  0x202E, 0x2066, 0x200F, 0x061C, 0x301, 0x200D, 0xFE0F, 0x41, 0x6D, 0x3B, 0x32, 0x20,
                                  0x6F22, 0x1F680, 0x85, 0x2028, 0xAD, 0x50, 0x5F]
        for _ in 0..<3_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int(rng.next() % 40) {
                text.append(Unicode.Scalar(alphabet[Int(rng.next() % UInt64(alphabet.count))])!)
            }
            let input = String(text)
            let oneLine = DisplayText.sanitize(input)
            #expect(oneLine.unicodeScalars.allSatisfy(isSafe), "\(input.debugDescription) → \(oneLine.debugDescription)")
            for line in DisplayText.sanitizeLines(input) {
                #expect(line.unicodeScalars.allSatisfy(isSafe))
                #expect(!line.unicodeScalars.contains("⏎") || input.unicodeScalars.contains("⏎"))
            }
        }
    }

    private func isSafe(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x20 || (0x7F...0x9F).contains(v) { return false }
        if (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F || v == 0x061C { return false }
        return v != 0x2028 && v != 0x2029
    }

    @Test func multiLineVariantKeepsLinesAndExpandsTabs() {
        #expect(DisplayText.sanitizeLines("a\tb\nline2\u{1B}[31m\r\nx") == ["a   b", "line2", "x"])
        #expect(DisplayText.sanitizeLines("漢\tx\n\n\tend", tabWidth: 4) == ["漢  x", "", "    end"])
        #expect(DisplayText.sanitizeLines("") == [""])
        #expect(DisplayText.sanitizeLines("a\u{1B}]52;c;\nstill inside osc\u{07}b") == ["ab"])
    }

    @Test func escapedShowsEverythingInvisible() {
        #expect(DisplayText.escaped("a\u{1B}[31m\n\u{202E}\\\t\u{9B}") == "a\\u001B[31m\\n\\u202E\\\\\\t\\u009B")
        #expect(DisplayText.escaped("部署 🚀") == "部署 🚀")
    }

    @Test func escapedBytesShowInvalidUTF8AsHexAndTextAsEscaped() {
        #expect(DisplayText.escaped(bytes: [0xFF, 0xFE] + Array(#"{"id":"x3"}"#.utf8)) == #"\xFF\xFE{"id":"x3"}"#)
        #expect(DisplayText.escaped(bytes: Array("a\u{1B}[2J\r\n\u{7F}\\é".utf8)) == #"a\u001B[2J\r\n\u007F\\é"#)
        #expect(DisplayText.escaped(bytes: [0xC0, 0xAF]) == #"\xC0\xAF"#, "an overlong slash is two bad bytes")
        #expect(DisplayText.escaped(bytes: [0xED, 0xA0, 0x80]) == #"\xED\xA0\x80"#, "an encoded surrogate is not text")
        #expect(DisplayText.escaped(bytes: [0xE2, 0x82, 0x41]) == #"\xE2\x82A"#, "a cut sequence ends at the next character")
        #expect(DisplayText.escaped(bytes: [0xF0, 0x9F, 0x9A]) == #"\xF0\x9F\x9A"#, "a sequence cut by the end")
        #expect(DisplayText.escaped(bytes: Array("\u{202E}\u{9B}31m".utf8)) == #"\u202E\u009B31m"#)
        #expect(DisplayText.escaped(bytes: Array("\u{301}x".utf8)) == " \u{301}x", "a leading mark gets a base")
        #expect(DisplayText.escaped(bytes: []) == "")
    }
}

@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("abc", 3), ("", 0), ("漢字", 4), ("ｱｲ", 2), ("Ａ", 2), ("\u{3000}", 2), ("e\u{301}", 1), ("👍", 2),
        ("👍🏽", 2), ("👨‍👩‍👧", 2), ("🇯🇵", 2), ("☀", 1), ("☀\u{FE0F}", 2), ("1\u{FE0F}\u{20E3}", 2), ("한", 2),
        ("\u{1112}\u{1161}\u{11AB}", 2), ("ก\u{E31}", 1), ("का", 1), ("🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}", 2),
        ("a\u{200D}", 1), ("\u{200D}", 0), ("…", 1), ("⏎", 1), ("日本語 text 🚀!", 15), ("\u{1F1EF}", 2),
    ])
    func widthFollowsWcwidth(text: String, columns: Int) {
        #expect(DisplayText.width(of: text) == columns)
    }

    @Test func characterAndScalarWidths() {
        #expect(DisplayText.width(of: Character("漢")) == 2)
        #expect(DisplayText.width(of: Character("\u{301}")) == 0)
        #expect(DisplayText.width(of: Unicode.Scalar(0x1F680)!) == 2)
        #expect(DisplayText.width(of: Unicode.Scalar(0xFE0F)!) == 0)
        #expect(DisplayText.width(of: Unicode.Scalar(0x1B)!) == 0)
        #expect(DisplayText.width(of: Unicode.Scalar(0x20000)!) == 2)  // CJK Extension B
    }

    @Test func truncationNeverSplitsWideCharacters() {
        #expect(DisplayText.truncate("漢字テスト", toWidth: 5) == "漢字…")
        #expect(DisplayText.truncate("漢字テスト", toWidth: 4) == "漢 …")
        #expect(DisplayText.truncate("漢字テスト", toWidth: 5, ellipsis: false) == "漢字 ")
        #expect(DisplayText.truncate("漢字テスト", toWidth: 10) == "漢字テスト")
        #expect(DisplayText.truncate("👨‍👩‍👧abc", toWidth: 2, ellipsis: false) == "👨‍👩‍👧")
        #expect(DisplayText.truncate("👨‍👩‍👧abc", toWidth: 1, ellipsis: false) == " ")
        #expect(DisplayText.truncate("abcdef", toWidth: 1) == "…")
        #expect(DisplayText.truncate("abcdef", toWidth: 0) == "")
        #expect(DisplayText.truncate("e\u{301}e\u{301}e\u{301}", toWidth: 2, ellipsis: false) == "e\u{301}e\u{301}")
    }

    @Test func truncatedAndPaddedTextHasExactWidth() {
        let samples = ["", "abc", "漢字テスト", "a漢b字c", "👨‍👩‍👧🇯🇵e\u{301}x", "ｱＡ☀\u{FE0F}1\u{FE0F}\u{20E3}", "long ascii text here"]
        for text in samples {
            let full = DisplayText.width(of: text)
            for columns in 0...14 {
                for ellipsis in [true, false] {
                    let cut = DisplayText.truncate(text, toWidth: columns, ellipsis: ellipsis)
                    #expect(DisplayText.width(of: cut) == min(full, columns), "\(text) @\(columns)")
                    #expect(text.hasPrefix(cut.trimmingTrailing(["…", " "])), "\(text) @\(columns)")
                }
                for alignment in [DisplayText.Alignment.left, .right] {
                    #expect(DisplayText.width(of: DisplayText.pad(text, toWidth: columns, alignment: alignment)) == columns)
                }
            }
        }
        #expect(DisplayText.pad("ab", toWidth: 4) == "ab  ")
        #expect(DisplayText.pad("ab", toWidth: 4, alignment: .right) == "  ab")
        #expect(DisplayText.fit("\u{1B}[31m漢字\n", toWidth: 6) == "漢字⏎ ")
    }

    @Test func wrapBreaksAtSpacesAndNeverOverflows() {
        #expect(DisplayText.wrap("the quick brown fox", toWidth: 10) == ["the quick", "brown fox"])
        #expect(DisplayText.wrap("abcdefghij", toWidth: 4) == ["abcd", "efgh", "ij"])
        #expect(DisplayText.wrap("漢字漢字漢", toWidth: 5) == ["漢字", "漢字", "漢"])
        #expect(DisplayText.wrap("", toWidth: 5) == [""])
        #expect(DisplayText.wrap("a b", toWidth: 0) == [])
        let text = "日本語のテキスト and some english words, 👨‍👩‍👧 emoji, e\u{301}te\u{301}, averyveryverylongwordwithoutspaces end"
        for columns in 1...30 {
            let rows = DisplayText.wrap(text, toWidth: columns)
            #expect(rows.allSatisfy { DisplayText.width(of: $0) <= columns }, "\(columns)")
            #expect(rows.joined().filter { $0 != " " } == text.filter { $0 != " " } || columns == 1)
        }
    }
}

extension String {
    func trimmingTrailing(_ characters: Set<Character>) -> String {
        var s = self
        while let last = s.last, characters.contains(last) { s.removeLast() }
        return s
    }
}
