import Foundation
import TimelineCore
@testable import TimelineStore
import TestSupport

/// A store on a fresh file in its own temporary directory.
struct StoreFixture {
    let directory: TemporaryDirectory
    let store: TimelineStore
    var path: String { store.path }

    init() throws {
        directory = try TemporaryDirectory()
        store = try TimelineStore(path: directory.file("timeline.db"))
    }

    /// Another connection to the same file (as another process would open it).
    func secondConnection(readOnly: Bool = false) throws -> TimelineStore {
        try TimelineStore(path: path, readOnly: readOnly)
    }
}

/// A valid event with realistic raw JSON; `second` is seconds after a fixed epoch.
func makeEvent(
    _ id: String, task: String, second: Int64, status: Status = .info, title: String? = nil, body: String = "",
    agent: String = "agent-1", category: String? = nil, progress: Double? = nil
) -> Event {
    let micros = 1_800_000_000_000_000 + second * 1_000_000
    let title = title ?? "event \(id) of \(task)"
    let raw = #"{"id":"\#(id)","agent_id":"\#(agent)","task_id":"\#(task)","title":"\#(title)","status":"\#(status.rawValue)","timestamp":"t+\#(second)","extra":{"kept":true}}"#
    return Event(id: id, agentID: agent, taskID: task, title: title, body: body, status: status,
                 category: category, timestampMicros: micros, progress: progress, rawJSON: raw)
}

extension TimelineStore {
    /// Ingests events without message ids.
    @discardableResult
    func ingestEvents(_ events: [Event]) throws -> [IngestOutcome] {
        try ingest(events.map { .event($0, messageID: nil) })
    }

    /// Every row of the timeline in one unbounded read, newest first.
    func allRows(_ query: TimelineQuery = TimelineQuery()) throws -> [TimelineRow] {
        try rows(matching: query, olderThan: nil, limit: Int.max)
    }
}

extension Database {
    /// Puts the events of a file written now back in the layout of versions 10 and 11 (each payload in
    /// `raw_json`, `PayloadColumns`), for tests that fake an older version on such a file.
    func restorePayloadColumnsLayout() throws {
        let fields = PayloadColumns.fields
        try execute("""
            CREATE TABLE events_v10 (
            \(Schema.eventsTableVersion10)
            );
            INSERT INTO events_v10 (seq, id_key, task_row, ts_us, progress, received_us, message_id, sent_us,
                                    receive_count, raw_json, \(fields.map(\.own).joined(separator: ", ")))
            SELECT seq, id_key, task_row, ts_us, progress, received_us, message_id, sent_us, receive_count, raw,
                   \(fields.map { PayloadColumns.ownValue($0, value: $0.name, raw: "raw") }.joined(separator: ", "))
            FROM (SELECT e.*, \(PayloadShapes.rawJSON("e")) AS raw FROM events e) ORDER BY seq;
            DROP TABLE events;
            DROP TABLE payload_shapes;
            ALTER TABLE events_v10 RENAME TO events;
            CREATE INDEX events_id_key ON events (id_key);
            CREATE INDEX events_task_order ON events (task_row, ts_us);
            """)
    }
}
