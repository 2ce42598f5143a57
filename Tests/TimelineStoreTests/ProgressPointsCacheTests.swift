import Testing
import TimelineCore
@testable import TimelineStore

/// A running row's progress points are read again exactly when the row's version (winning seq, event count,
/// first time) differs from the one they were kept for.
@Suite("Progress points kept between reads")
struct ProgressPointsCacheTests {
    let version = ProgressPointsCache.Version(seq: 7, eventCount: 3, firstMicros: 100)

    @Test func aRowIsReadAgainOnlyWhenItsVersionChanges() throws {
        let cache = ProgressPointsCache()
        var reads = 0
        func points(_ version: ProgressPointsCache.Version, _ value: Double) -> [Double] {
            cache.points(taskRow: 1, version: version) {
                reads += 1
                return [ProgressPoint(micros: 1, progress: value)]
            }.map(\.progress)
        }
        #expect(points(version, 10) == [10])
        #expect(points(version, 11) == [10], "same version: the kept points")
        #expect(reads == 1)
        var changed = version
        changed.eventCount += 1
        #expect(points(changed, 12) == [12])
        changed.seq += 1
        #expect(points(changed, 13) == [13])
        changed.firstMicros = 200
        #expect(points(changed, 14) == [14])
        #expect(reads == 4)
    }

    @Test func pastItsLimitEveryRowIsForgotten() throws {
        let cache = ProgressPointsCache()
        var reads = 0
        for row in 0..<Int64(ProgressPointsCache.rowLimit) {
            _ = cache.points(taskRow: row, version: version) { reads += 1; return [] }
        }
        _ = cache.points(taskRow: 0, version: version) { reads += 1; return [] }
        #expect(reads == ProgressPointsCache.rowLimit, "row 0 was kept")
        _ = cache.points(taskRow: -1, version: version) { reads += 1; return [] }
        _ = cache.points(taskRow: 0, version: version) { reads += 1; return [] }
        #expect(reads == ProgressPointsCache.rowLimit + 2, "the row past the limit emptied the cache")
    }
}
