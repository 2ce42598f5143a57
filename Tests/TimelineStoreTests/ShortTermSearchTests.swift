import Foundation
import Testing
import TestSupport
import TimelineCore
@testable import TimelineStore

/// Search terms shorter than a trigram that are not all ASCII (`ShortTerms`): found through the index's
/// vocabulary wherever they stand in a value, exactly as the substring rule says, and the index entries
/// of replaced and pruned rows go with them.
@Suite("Short non-ASCII search terms")
struct ShortTermSearchTests {
    /// Short terms at the start, middle and end of every indexed column, a value that is the term alone,
    /// a case-folded one, and rows that hold none of them.
    static let events: [Event] = [
        makeEvent("e1", task: "T1", second: 1, title: "監査"),
        makeEvent("e2", task: "T2", second: 2, title: "年次の監査"),
        makeEvent("e3", task: "T3", second: 3, title: "plain", body: "監査ログを確認"),
        makeEvent("e4", task: "T4", second: 4, title: "plain", category: "監査"),
        makeEvent("e5", task: "監査-5", second: 5, title: "plain"),
        makeEvent("e6", task: "T6", second: 6, title: "plain", agent: "bot-監"),
        makeEvent("e7", task: "T7", second: 7, title: "ОТЧЁТ ДА"),
        makeEvent("e8", task: "T8", second: 8, title: "翻訳 review", body: "no match here"),
        makeEvent("e9", task: "T9", second: 9, title: "監 査"),
    ]

    /// The tasks whose text contains `term` ignoring case (the substring rule), newest first.
    static func expected(_ term: String) -> [String] {
        events.filter { e in
            [e.title, e.body, e.agentID, e.taskID, e.category ?? ""].contains { $0.lowercased().contains(term.lowercased()) }
        }.sorted { $0.timestampMicros > $1.timestampMicros }.map(\.taskID)
    }

    static func indexedStore() throws -> StoreFixture {
        let fixture = try StoreFixture()
        try fixture.store.ingestEvents(events)
        try fixture.store.flushSearchIndex()
        #expect(try fixture.store.searchIndexBacklog() == 0)
        return fixture
    }

    @Test func shortTermsAreFoundWhereverTheyStand() throws {
        let fixture = try Self.indexedStore()
        let reader = try fixture.secondConnection(readOnly: true)
        for term in ["監査", "監", "査", "ログ", "年次", "да", "Да", "翻訳", "ё"] {
            #expect(!Self.expected(term).isEmpty, "\(term) is in the fixture")
            for store in [fixture.store, reader] {
                // Answered by the index: the vocabulary lists trigrams for the term.
                let trigrams = try store.locked { try store.shortTermTrigrams(term) }
                #expect(trigrams?.isEmpty == false, "\(term) is looked up in the vocabulary")
                let query = TimelineQuery(terms: [term])
                #expect(try store.allRows(query).map(\.taskID) == Self.expected(term), "rows of \(term)")
                #expect(try store.count(matching: query) == Self.expected(term).count, "count of \(term)")
            }
        }
        // Terms of a value that ends right after them are found through the value's end.
        let ends = try fixture.store.locked { try fixture.store.shortTermTrigrams("監査") } ?? []
        #expect(ends.contains("監査\u{1}"))
        #expect(ends.contains("監査-"))
        #expect(ends.contains("監査ロ"))
    }

    @Test func aShortTermNobodyWroteMatchesNothing() throws {
        let fixture = try Self.indexedStore()
        #expect(try fixture.store.locked { try fixture.store.shortTermTrigrams("幽霊") } == [])
        #expect(try fixture.store.allRows(TimelineQuery(terms: ["幽霊"])).isEmpty)
        #expect(try fixture.store.count(matching: TimelineQuery(terms: ["幽霊"])) == 0)
        // With another term, and still current for rows the index has not caught up with yet.
        try fixture.store.ingestEvents([makeEvent("g1", task: "TG", second: 20, title: "幽霊 sighting")])
        #expect(try fixture.store.searchIndexBacklog() == 1)
        #expect(try fixture.store.allRows(TimelineQuery(terms: ["幽霊", "sighting"])).map(\.taskID) == ["TG"])
        #expect(try fixture.store.allRows(TimelineQuery(terms: ["幽霊"])).map(\.taskID) == ["TG"])
    }

    @Test func asciiAndCommonShortTermsKeepTheWalk() throws {
        let fixture = try StoreFixture()
        // "の" followed by 70 different characters: more trigrams than a MATCH should OR together.
        let followers = (0..<70).map { String(UnicodeScalar(0x4E00 + $0)!) }
        try fixture.store.ingestEvents(followers.enumerated().map { i, next in
            makeEvent("c\(i)", task: "C\(i)", second: Int64(i), title: "ab の\(next)")
        })
        try fixture.store.flushSearchIndex()
        #expect(try fixture.store.locked { try fixture.store.shortTermTrigrams("の") } == nil)
        #expect(try fixture.store.locked { try fixture.store.shortTermTrigrams("ab") } == nil)
        #expect(try fixture.store.count(matching: TimelineQuery(terms: ["の"])) == 70)
        #expect(try fixture.store.count(matching: TimelineQuery(terms: ["AB"])) == 70)
        #expect(try fixture.store.allRows(TimelineQuery(terms: ["の" + followers[3]])).map(\.taskID) == ["C3"])
    }

    @Test func theVocabularyPrefixIsTheFoldedShortTerm() {
        #expect(ShortTerms.vocabularyPrefix(of: "監査") == "監査")
        #expect(ShortTerms.vocabularyPrefix(of: "ДА") == "да")
        #expect(ShortTerms.vocabularyPrefix(of: "a監") == "a監")
        #expect(ShortTerms.vocabularyPrefix(of: "É") == "é")
        #expect(ShortTerms.vocabularyPrefix(of: "ab") == nil)
        #expect(ShortTerms.vocabularyPrefix(of: "監査役") == nil)
        #expect(ShortTerms.vocabularyPrefix(of: "") == nil)
        // "İ" lowercases to two characters: not looked up (the walk's Unicode-aware test decides).
        #expect(ShortTerms.vocabularyPrefix(of: "İ") == nil)
    }

    @Test func replacedAndPrunedRowsLeaveTheVocabulary() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        try store.ingestEvents([makeEvent("old", task: "T1", second: 1, title: "削除予定"),
                                makeEvent("keep", task: "T2", second: 1_000_000, title: "保存")])
        try store.flushSearchIndex()
        #expect(try store.locked { try store.shortTermTrigrams("削除") }?.isEmpty == false)
        // A newer event replaces the row: the old text's index entry is removed with its exact values.
        try store.ingestEvents([makeEvent("new", task: "T1", second: 2, title: "完了")])
        try store.flushSearchIndex()
        #expect(try store.locked { try store.shortTermTrigrams("削除") } == [])
        #expect(try store.allRows(TimelineQuery(terms: ["完了"])).map(\.taskID) == ["T1"])
        // Pruning the whole task removes its entry too.
        let cutoff: Int64 = 1_800_000_000_000_000 + 10 * 1_000_000
        _ = try store.prune(olderThan: cutoff, keepRunning: false, reclaimSpace: false)
        #expect(try store.locked { try store.shortTermTrigrams("完了") } == [])
        #expect(try store.allRows(TimelineQuery(terms: ["完了"])).isEmpty)
        #expect(try store.allRows(TimelineQuery(terms: ["保存"])).map(\.taskID) == ["T2"])
        #expect(try store.db.scalarString("PRAGMA integrity_check") == "ok")
    }

    @Test func aVersion8IndexIsRebuiltWithValueEnds() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("v8.db")
        do {
            // A version-8 file as version 8 indexed it: values without ends.
            let store = try TimelineStore(path: path)
            try store.ingestEvents([makeEvent("a", task: "TA", second: 1, title: "年次の監査"),
                                    makeEvent("b", task: "TB", second: 2, title: "plain")])
            try store.flushSearchIndex()
            try store.db.restorePayloadColumnsLayout()
            try store.db.execute("""
                INSERT INTO search (search) VALUES ('delete-all');
                INSERT INTO search (rowid, title, body, agent_id, task_id, category)
                    SELECT t.row_id, e.title, e.body, e.agent_id, e.task_id, e.category
                    FROM timeline t JOIN events e ON e.seq = t.seq;
                PRAGMA user_version = 8;
                """)
            #expect(try store.locked { try store.shortTermTrigrams("監査") } == [])
        }
        let store = try TimelineStore(path: path)
        #expect(try store.db.userVersion() == Schema.latestVersion)
        #expect(try store.searchIndexBacklog() == 0)
        #expect(try store.locked { try store.shortTermTrigrams("監査") } == ["監査\u{1}"])
        #expect(try store.allRows(TimelineQuery(terms: ["監査"])).map(\.taskID) == ["TA"])
        #expect(try store.allRows(TimelineQuery(terms: ["plain"])).map(\.taskID) == ["TB"])
        // The old entries went with the rebuild: replacing the row leaves nothing of its old text.
        try store.ingestEvents([makeEvent("a2", task: "TA", second: 3, title: "done")])
        try store.flushSearchIndex()
        #expect(try store.allRows(TimelineQuery(terms: ["年次の"])).isEmpty)
        #expect(try store.locked { try store.shortTermTrigrams("監査") } == [])
    }
}
