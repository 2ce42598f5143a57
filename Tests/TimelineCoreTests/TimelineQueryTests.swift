import Testing
@testable import TimelineCore

@Suite struct TimelineQueryTests {
    @Test func parsesQualifiersAndTerms() {
        let q = TimelineQuery.parse("deploy status:error,warning agent:builder category:ci task:T-1 Foo")
        #expect(q.terms == ["deploy", "Foo"])
        #expect(q.statuses == [.error, .warning])
        #expect(q.agents == ["builder"])
        #expect(q.categories == ["ci"])
        #expect(q.tasks == ["T-1"])
    }

    @Test func unknownStatusIsFreeTextAndEmptyQueryIsEmpty() {
        #expect(TimelineQuery.parse("status:done").terms == ["status:done"])
        #expect(TimelineQuery.parse("  ").isEmpty)
        #expect(!TimelineQuery.parse("x").isEmpty)
    }
}
