import Testing
import TimelineCore
@testable import TimelineStore

@Suite("Search SQL: how a query's parts reach the index")
struct FilterSQLTests {
    /// A qualifier resolved to values is read through its value index alone, but beside free text it also
    /// narrows the full-text match set (a common term and a rare agent start from the rows of both).
    @Test func aResolvedQualifierNarrowsTheMatchSetOnlyBesideFreeText() {
        let resolved: (FilterSQL.ValueQualifier, String) -> [String]? = { _, _ in ["agent-7"] }
        let withText = FilterSQL(TimelineQuery.parse("agent:agent-7 depl"), tokenizer: .trigram, resolve: resolved)
        #expect(withText.matchExpression?.contains("agent_id : ") == true)
        #expect(withText.matchExpression?.contains("\"depl\"") == true)
        #expect(withText.conditions.contains { $0.contains("t.agent_id IN (?)") }, "the exact test stays")
        let alone = FilterSQL(TimelineQuery.parse("agent:agent-7"), tokenizer: .trigram, resolve: resolved)
        #expect(alone.matchExpression == nil)
        #expect(alone.valueIndex == "timeline_agent")
        let category = FilterSQL(TimelineQuery.parse("category:deploy billing"), tokenizer: .trigram,
                                 resolve: { _, _ in ["deploy"] })
        #expect(category.matchExpression?.contains("category : ") == true)
    }
}
