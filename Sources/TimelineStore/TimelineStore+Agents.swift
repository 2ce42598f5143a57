import TimelineCore

extension TimelineStore: AgentDirectory {
    public func agents(limit: Int) throws -> [AgentSummary] {
        guard limit > 0 else { return [] }
        // Per agent: task counts by status from the timeline, and its newest row's event.
        let sql = """
            SELECT a.agent_id, a.tasks, a.running, a.errors, a.waiting,
                   e.seq, e.id, e.agent_id, e.task_id, e.title, e.body, e.status, e.category, e.ts_us, e.progress,
                   \(PayloadShapes.rawJSON("e"))
            FROM (SELECT agent_id, count(*) AS tasks,
                         count(*) FILTER (WHERE status = 'in_progress') AS running,
                         count(*) FILTER (WHERE status = 'error') AS errors,
                         count(*) FILTER (WHERE status = 'needs_input') AS waiting,
                         (SELECT t2.seq FROM timeline t2 WHERE t2.agent_id = t.agent_id
                          ORDER BY t2.ts_us DESC, t2.seq DESC LIMIT 1) AS newest
                  FROM timeline t GROUP BY agent_id) a
            JOIN events e ON e.seq = a.newest
            ORDER BY e.ts_us DESC, e.seq DESC LIMIT ?
            """
        return try locked {
            let s = try db.prepare(sql)
            try s.bind([.integer(Int64(limit))])
            var out: [AgentSummary] = []
            while try s.step() == .row {
                let event = Event(id: s.string(6), agentID: s.string(7), taskID: s.string(8), title: s.string(9),
                                  body: s.string(10), status: Status(rawValue: s.string(11)) ?? .info,
                                  category: s.optionalString(12), timestampMicros: s.int64(13),
                                  progress: s.optionalDouble(14), rawJSON: s.string(15))
                out.append(AgentSummary(agentID: s.string(0), latest: event, running: s.int(2), errors: s.int(3),
                                        waiting: s.int(4), tasks: s.int(1)))
            }
            return out
        }
    }
}
