import Testing
@testable import TimelineStore

/// A batch's own ids, kept by id key: an id seen before in the batch is refused, ids sharing a key (a
/// collision) are told apart by their bytes.
@Suite("A batch's own event ids")
struct BatchIDsTests {
    /// Inserts each (id, key) in turn; whether each was new.
    static func inserted(_ ids: [(String, Int64)], into batch: inout BatchIDs) -> [Bool] {
        ids.map { batch.insert($0.0, key: $0.1) }
    }

    @Test func anIdIsTakenOnceAndIdsSharingAKeyAreToldApart() {
        var batch = BatchIDs(expected: 4)
        let results = Self.inserted([("a", 1), ("a", 1), ("b", 2), ("c", 1), ("d", 1), ("c", 1), ("d", 1), ("a", 1), ("b", 2)],
                                    into: &batch)
        #expect(results == [true, false, true, true, true, false, false, false, false])
    }

    @Test func idsAreComparedByteForByte() {
        var batch = BatchIDs()
        let results = Self.inserted([("caf\u{E9}", 7), ("cafe\u{301}", 7), ("cafe\u{301}", 7), ("caf\u{E9}", 7)], into: &batch)
        #expect(results == [true, true, false, false], "canonically equivalent ids with other bytes are two ids")
    }
}
