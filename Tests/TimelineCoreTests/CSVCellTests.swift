import Testing
import TimelineCore

/// CSV cells a spreadsheet shows as text and a terminal shows as text.
@Suite struct CSVCellTests {
    @Test(arguments: [
        ("=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\""),
        ("+1+1", "\"'+1+1\""),
        ("-2+3", "\"'-2+3\""),
        ("@SUM(A1)", "\"'@SUM(A1)\""),
        ("\t=1", "\"'\t=1\""),
        ("\r=1", "\"'\\u000D=1\""),
        ("＝1+1", "\"'＝1+1\""),
    ])
    func formulaStartsAreNeutralized(value: String, cell: String) {
        #expect(CSVCell.field(value) == cell)
    }

    @Test func plainTextIsUnchangedAndSpecialCharactersAreQuoted() {
        #expect(CSVCell.field("deploy billing") == "deploy billing")
        #expect(CSVCell.field("a=b") == "a=b")
        #expect(CSVCell.field("a,b") == "\"a,b\"")
        #expect(CSVCell.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSVCell.field("two\nlines") == "\"two\nlines\"")
        #expect(CSVCell.field("") == "")
    }

    @Test func escapeSequencesAreWrittenAsEscapes() {
        #expect(CSVCell.field("red \u{1B}[31mtext") == "red \\u001B[31mtext")
        #expect(CSVCell.field("a\u{202E}b") == "a\\u202Eb")
    }
}
