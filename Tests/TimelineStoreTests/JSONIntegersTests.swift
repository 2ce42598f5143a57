import Testing
@testable import TimelineStore

/// Integers as the JSON array `json_each` reads back, extremes included.
@Suite struct JSONIntegersTests {
    @Test func integersBecomeOneJSONArrayThatSQLiteReadsBack() throws {
        #expect(JSONIntegers.array([]) == "[]")
        #expect(JSONIntegers.array([7]) == "[7]")
        let values: [Int64] = [Int64.min, -5, 0, 42, Int64.max]
        #expect(JSONIntegers.array(values) == "[-9223372036854775808,-5,0,42,9223372036854775807]")
        let fixture = try StoreFixture()
        let statement = try fixture.store.db.prepare("SELECT value FROM json_each(?1)")
        try statement.bind(JSONIntegers.array(values), at: 1)
        var read: [Int64] = []
        while try statement.step() == .row { read.append(statement.int64(0)) }
        #expect(read == values)
    }
}
