import Attention
import Foundation
import TimelineCore
import TimelineStore

/// Viewer start time in the tests: events stamped before it are backlog.
let startedMicros: Int64 = 1_800_000_000_000_000

/// An event `second`s after the viewer started (negative: before it).
func event(_ id: String, task: String, _ status: Status, second: Int64 = 1, title: String? = nil,
           agent: String = "agent-1") -> Event {
    let title = title ?? "title of \(id)"
    let micros = startedMicros + second * 1_000_000
    let raw = EventEncoder.json(id: id, agentID: agent, taskID: task, title: title, status: status.rawValue,
                                timestamp: TimeFormat.iso8601(micros: micros))
    return Event(id: id, agentID: agent, taskID: task, title: title, body: "", status: status, category: nil,
                 timestampMicros: micros, progress: nil, rawJSON: raw)
}

func transition(_ e: Event, seq: Int64 = 1, previous: Status? = nil) -> TaskTransition {
    TaskTransition(event: e, seq: seq, previous: previous)
}

extension TimelineStore {
    func put(_ events: Event...) throws {
        _ = try ingest(events.map { .event($0, messageID: nil) })
    }
}

let second: Int64 = 1_000_000
