import TimelineCore
import TimelineRuntime
import TimelineUI

/// An empty timeline: no rows, no counts, no history. Tests subclass it to make one read hang or fail.
class EmptyTimelineReader: TimelineReading {
    func rows(matching query: TimelineQuery, olderThan key: RowKey?, limit: Int) throws -> [TimelineRow] { [] }
    func rows(matching query: TimelineQuery, newerThan key: RowKey, limit: Int) throws -> [TimelineRow] { [] }
    func count(matching query: TimelineQuery) throws -> Int { 0 }
    func countNewer(than key: RowKey, matching query: TimelineQuery) throws -> Int { 0 }
    func statusCounts(matching query: TimelineQuery) throws -> [Status: Int] { [:] }
    func row(taskID: String) throws -> TimelineRow? { nil }
    func history(taskID: String, limit: Int) throws -> [Event] { [] }
    func changeToken() throws -> Int64 { 0 }
}
