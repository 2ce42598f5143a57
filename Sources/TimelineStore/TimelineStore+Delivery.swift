import TimelineCore

extension TimelineStore {
    /// Stored events whose message was received `QueueDelivery.flaggedReceiveCount` times or more, and
    /// the newest few of them (for `timeline doctor`). A full scan: doctor runs rarely.
    public func eventsReceivedManyTimes(examples: Int = 3) throws -> (count: Int, newest: [(taskID: String, receiveCount: Int)]) {
        let threshold = Int64(QueueDelivery.flaggedReceiveCount)
        return try locked {
            let count = try db.scalarInt("SELECT count(*) FROM events WHERE receive_count >= ?", [.integer(threshold)])
            let statement = try db.cached(
                "SELECT task_id, receive_count FROM events WHERE receive_count >= ? ORDER BY seq DESC LIMIT ?")
            defer { statement.reset() }
            try statement.bind([.integer(threshold), .integer(Int64(examples))])
            var newest: [(taskID: String, receiveCount: Int)] = []
            while try statement.step() == .row { newest.append((statement.string(0), statement.int(1))) }
            return (Int(count), newest)
        }
    }
}
