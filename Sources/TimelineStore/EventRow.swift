/// The one INSERT of an `events` row (ingest, restore, migration 12) and its parameter numbers.
enum EventRow {
    static let id: Int32 = 1, agentID: Int32 = 2, taskID: Int32 = 3, title: Int32 = 4, body: Int32 = 5
    static let status: Int32 = 6, category: Int32 = 7, timestampMicros: Int32 = 8, progress: Int32 = 9
    static let payloadShape: Int32 = 10, payloadTemplate: Int32 = 11, messageID: Int32 = 12
    static let receivedMicros: Int32 = 13, idKey: Int32 = 14, taskRow: Int32 = 15, sentMicros: Int32 = 16
    static let receiveCount: Int32 = 17, seq: Int32 = 18

    /// The INSERT into `table` (`events`, or the table a migration fills), with `seq` given or allocated.
    static func insertSQL(table: String = "events", withSeq: Bool = false) -> String {
        """
        INSERT INTO \(table) (id, agent_id, task_id, title, body, status, category, ts_us, progress, payload_shape,
                              payload_template, message_id, received_us, id_key, task_row, sent_us, receive_count\
        \(withSeq ? ", seq" : ""))
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17\(withSeq ? ", ?18" : ""))
        """
    }

    /// Binds the columns that hold the payload: the known fields, and the template, as a shape id or inline.
    static func bind(_ values: PayloadValues, template: [UInt8], shape: Int64?, to insert: Statement) throws {
        try insert.bind(values.id, at: id)
        try insert.bind(values.agentID, at: agentID)
        try insert.bind(values.taskID, at: taskID)
        try insert.bind(values.title, at: title)
        try insert.bind(values.body, at: body)
        try insert.bind(values.status, at: status)
        try insert.bind(values.category, at: category)
        try insert.bind(values.timestampMicros, at: timestampMicros)
        try insert.bind(values.progress, at: progress)
        if let shape {
            try insert.bind(shape, at: payloadShape)
            try insert.bindNull(at: payloadTemplate)
        } else {
            try insert.bindNull(at: payloadShape)
            try insert.bind(text: template, at: payloadTemplate)
        }
    }
}
