import Foundation
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

@Suite struct QueryLanguageTests {
    @Test func negationAndPhrases() {
        let q = TimelineQuery.parse(#"-agent:heartbeat -"dry run" "two words" -status:info,success -category:ci -task:T-9 -noise"#)
        #expect(q.excludedAgents == ["heartbeat"])
        #expect(q.excludedTerms == ["dry run", "noise"])
        #expect(q.terms == ["two words"])
        #expect(q.excludedStatuses == [.info, .success])
        #expect(q.excludedCategories == ["ci"])
        #expect(q.excludedTasks == ["T-9"])
        #expect(q.problems.isEmpty)
    }

    @Test func hostAndProjectQualifiers() {
        let q = TimelineQuery.parse("host:Laptop -host:ci-runner project:web -project:legacy")
        #expect(q.hosts == ["Laptop"])
        #expect(q.excludedHosts == ["ci-runner"])
        #expect(q.categories == ["web"])
        #expect(q.excludedCategories == ["legacy"])
        #expect(q.terms.isEmpty && q.problems.isEmpty)
        #expect(!TimelineQuery.parse("-host:x").isEmpty)
        #expect(TimelineQuery.parse("host:").isEmpty)
    }

    @Test func agentHostIsTheTextAfterTheLastAt() {
        #expect(AgentHost.of("claude@my-laptop") == "my-laptop")
        #expect(AgentHost.of("a@b@box") == "box")
        #expect(AgentHost.of("builder") == "")
        #expect(AgentHost.of("claude@") == "")
    }

    @Test func quotedQualifierValuesAndEscapedQuotes() {
        let q = TimelineQuery.parse(#"category:"code review" "say ""hi""" Agent:x"#)
        #expect(q.categories == ["code review"])
        #expect(q.terms == [#"say "hi""#])
        #expect(q.agents == ["x"])
    }

    @Test func unknownQualifiersAndLoneDashAreText() {
        let q = TimelineQuery.parse("http://host - a:b")
        #expect(q.terms == ["http://host", "-", "a:b"])
        #expect(q.problems.isEmpty)
    }

    @Test func sinceAndUntilWithDurationsDatesAndTimestamps() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        let q = TimelineQuery.parse("since:15m until:2026-11-20", timeZone: utc)
        #expect(q.since == .ago(seconds: 900))
        // until: a date includes that whole day.
        #expect(q.until == .at(micros: Timestamp.parseMicros("2026-11-21T00:00:00Z")! - 1))
        let r = TimelineQuery.parse("since:2026-11-20 until:2026-11-20T12:30:00+01:00", timeZone: utc)
        #expect(r.since == .at(micros: Timestamp.parseMicros("2026-11-20T00:00:00Z")!))
        #expect(r.until == .at(micros: Timestamp.parseMicros("2026-11-20T11:30:00Z")!))
        #expect(TimelineQuery.parse("since:1h30m").since == .ago(seconds: 5_400))
        #expect(TimeBound.ago(seconds: 60).micros(now: 100_000_000) == 40_000_000)
    }

    @Test func malformedBoundsAreProblemsThatMatchNothing() {
        let q = TimelineQuery.parse("since:soon until:2026-02-30 -since:1h")
        #expect(q.since == nil && q.until == nil)
        #expect(q.problems.count == 3)
        #expect(q.problems[0].contains("since:soon is not a time"))
        #expect(q.terms.count == 3)
        #expect(TimelineQuery.parse("status:bogus").problems.first?.contains("unknown status") == true)
        // A qualifier still being typed adds no condition.
        #expect(TimelineQuery.parse("agent:").isEmpty)
    }

    @Test func durations() {
        #expect(DurationText.seconds("30d") == 2_592_000)
        #expect(DurationText.seconds("1w2d") == 777_600)
        #expect(DurationText.seconds("90s") == 90)
        #expect(DurationText.seconds("1H30m") == 5_400)
        #expect(DurationText.seconds("2W") == 1_209_600)
        for bad in ["", "30", "d", "1x", "-1d", "1.5h", "99999999999d", "1 h", "h1"] { #expect(DurationText.seconds(bad) == nil, "\(bad)") }
        // The microseconds of every accepted duration fit in an Int64.
        #expect(DurationText.maxSeconds == 9_223_372_036_854)
        #expect(DurationText.seconds("15250284w") == 9_223_371_763_200)
        #expect(DurationText.seconds("15250285w") == nil)
        #expect(DurationText.seconds("15250284w1w") == nil)
        #expect(DurationText.seconds("9999999999w") == nil)
    }

    @Test func aHugeSinceIsAProblemNotAnOverflow() {
        // 9,999,999,999 weeks used to parse, and `since` then trapped converting it to microseconds.
        let q = TimelineQuery.parse("since:9999999999w")
        #expect(q.since == nil)
        #expect(q.problems.first?.contains("since:9999999999w is not a time") == true)
        let ok = TimelineQuery.parse("since:1000w")
        #expect(ok.problems.isEmpty)
        let expected: Int64 = 2_000_000_000_000_000 - 604_800_000 * 1_000_000
        #expect(ok.since?.micros(now: 2_000_000_000_000_000) == expected)
    }
}

@Suite struct MarkedQualifierTests {
    @Test func isMarkedAndItsNegation() {
        #expect(TimelineQuery.parse("is:marked").marked == true)
        #expect(TimelineQuery.parse("-is:marked deploy").marked == false)
        #expect(TimelineQuery.parse("").marked == nil)
        let bad = TimelineQuery.parse("is:starred")
        #expect(bad.marked == nil && bad.problems.count == 1 && bad.terms == ["is:starred"])
    }
}
