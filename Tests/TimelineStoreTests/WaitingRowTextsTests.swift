import Foundation
import Testing
import TimelineCore
@testable import TimelineStore

@Suite("Waiting rows' text searched in memory")
struct WaitingRowTextsTests {
    /// Texts and terms where LIKE (ASCII terms) and `tl_icontains` (others) differ from a plain lowercased
    /// comparison: non-ASCII letters LIKE does not fold, letters whose lowercase is ASCII (Kelvin sign, dotted
    /// capital I), wildcards and the escape character taken literally, combining marks.
    static let texts = ["Deploy billing", "GRÜSSE aus Köln", "grüße", "İstanbul", "\u{212A}elvin", "50% done_now",
                        "back\\slash", "e\u{301}clair", "ÉCLAIR", "日本語のテキスト", ""]
    static let terms = ["deploy", "BILLING", "grü", "GRÜ", "köln", "KÖLN", "ß", "i", "istanbul", "kelvin", "k",
                        "50%", "%", "_", "e_n", "\\", "éclair", "e\u{301}", "本語", "x", "ll"]

    @Test func aTermMatchesExactlyWhereTheSQLTestMatches() throws {
        let fixture = try StoreFixture()
        let db = try Database(path: fixture.path, mode: .readWrite)
        try db.registerUnicodeContains()
        // The row's columns share one buffer: the text is tested in each column's place, beside an ASCII
        // column and a non-ASCII one (a term must neither run into a neighbour nor miss its own column).
        let neighbours: [String?] = ["x", "Ü", nil, "", "ab"]
        for text in Self.texts {
            for place in 0..<5 {
                var columns = neighbours.map { $0.map { _ in "" } }
                columns[place] = text
                columns[(place + 1) % 5] = neighbours[place]
                let row = WaitingRowTexts.row(seq: 1, columns: columns)
                for term in Self.terms {
                    let sql = "SELECT " + FilterSQL.contains(column: "?", term: term)
                    let expected = try columns.contains { column in
                        try column.map { try db.scalarInt(sql, [.text($0)] + FilterSQL.containsValues(term, count: 1)) == 1 }
                            ?? false
                    }
                    #expect(WaitingRowTexts.Needle(term).occurs(in: row) == expected, "term \(term) in \(columns)")
                }
            }
        }
    }

    @Test func anyColumnMatchesAndANullCategoryMatchesNothing() {
        let row = WaitingRowTexts.row(seq: 1, columns: ["Title", "the body", "agent-7", "task-9", nil])
        #expect(WaitingRowTexts.Needle("BODY").occurs(in: row))
        #expect(WaitingRowTexts.Needle("agent-7").occurs(in: row))
        #expect(WaitingRowTexts.Needle("task-9").occurs(in: row))
        #expect(!WaitingRowTexts.Needle("null").occurs(in: row))
        // Columns are tested one by one: a term never matches across two of them.
        #expect(!WaitingRowTexts.Needle("titlethe").occurs(in: row))
    }

    @Test func outsideAReadNothingIsKeptAndTheCallerTestsInSQL() throws {
        let fixture = try StoreFixture()
        _ = try fixture.store.ingest([.event(makeEvent("a", task: "T", second: 1, title: "alpha"), messageID: nil)],
                                     deferSearchIndex: true)
        let texts = WaitingRowTexts()
        #expect(try fixture.store.locked { try texts.matching(all: ["alpha"], in: fixture.store.db) } == nil)
        texts.startRead(token: 1)
        #expect(try fixture.store.locked { try texts.matching(all: ["alpha"], in: fixture.store.db) } == [1])
        texts.endRead()
        #expect(try fixture.store.locked { try texts.matching(all: ["alpha"], in: fixture.store.db) } == nil)
    }

    /// A reading connection keeps waiting rows' text between searches; a row changed again while it waits
    /// (another connection's commit) is searched by its new text, and a row indexed meanwhile by the index.
    @Test func aRowChangedWhileItWaitsIsSearchedByItsNewText() throws {
        let fixture = try StoreFixture()
        let writer = fixture.store
        let reader = try fixture.secondConnection(readOnly: true)
        func titles(_ text: String) throws -> Set<String> {
            Set(try reader.rows(matching: TimelineQuery.parse(text), olderThan: nil, limit: 100).map(\.event.title))
        }
        func write(_ id: String, task: String, second: Int64, title: String) throws {
            _ = try writer.ingest([.event(makeEvent(id, task: task, second: second, title: title), messageID: nil)],
                                  deferSearchIndex: true)
        }
        try write("a1", task: "T1", second: 1, title: "alpha one")
        try write("b1", task: "T2", second: 2, title: "bravo two")
        #expect(try titles("alpha") == ["alpha one"])
        #expect(try reader.count(matching: TimelineQuery.parse("-alpha")) == 1)
        try write("a2", task: "T1", second: 3, title: "charlie one")
        #expect(try titles("alpha").isEmpty)
        #expect(try titles("charlie") == ["charlie one"])
        #expect(try titles("-charlie") == ["bravo two"])
        #expect(try reader.count(matching: TimelineQuery.parse("one")) == 1)
        try writer.flushSearchIndex()
        #expect(try writer.searchIndexBacklog() == 0)
        #expect(try titles("charlie") == ["charlie one"])
        #expect(try titles("alpha").isEmpty)
        try write("a3", task: "T2", second: 4, title: "delta two")
        #expect(try titles("two") == ["delta two"])
        // The index still holds "bravo two" for it: that term does not find it, excluding it keeps the row.
        #expect(try titles("bravo").isEmpty)
        #expect(try reader.count(matching: TimelineQuery.parse("bravo")) == 0)
        #expect(try titles("-bravo") == ["charlie one", "delta two"])
        #expect(try titles("-delta") == ["charlie one"])
        #expect(try reader.statusCounts(matching: TimelineQuery.parse("two")) == [.info: 1])
    }

    /// More waiting rows than the memory keeps (a bulk import that defers its indexing): searches test them
    /// in SQL and give the same answers.
    @Test func pastTheRowLimitSearchesTestTheWaitingRowsInSQL() throws {
        let fixture = try StoreFixture()
        let count = WaitingRowTexts.rowLimit + 10
        let events = (0..<count).map { makeEvent("e\($0)", task: "T\($0)", second: Int64($0),
                                                 title: $0 % 2 == 0 ? "even job \($0)" : "odd job \($0)") }
        _ = try fixture.store.ingest(events.map { .event($0, messageID: nil) }, deferSearchIndex: true)
        #expect(try fixture.store.searchIndexBacklog() == count)
        let texts = WaitingRowTexts()
        texts.startRead(token: 1)
        #expect(try fixture.store.locked { try texts.matching(all: ["even"], in: fixture.store.db) } == nil)
        texts.endRead()
        let reader = try fixture.secondConnection(readOnly: true)
        #expect(try reader.count(matching: TimelineQuery.parse("even")) == (count + 1) / 2)
        #expect(try reader.count(matching: TimelineQuery.parse("job -even")) == count / 2)
        let window = try reader.rows(matching: TimelineQuery.parse("odd"), olderThan: nil, limit: 5)
        #expect(window.map(\.event.title) == (0..<5).map { "odd job \(count - 1 - (count % 2 == 0 ? 0 : 1) - 2 * $0)" })
    }
}
