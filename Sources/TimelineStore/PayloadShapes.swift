import CSQLite

/// Where an event's payload template (`PayloadTemplate`) is kept, and how SQL reads the payload back.
///
/// Almost every event of one publisher has the same template, so templates are interned in
/// `payload_shapes` and the event row names one (`events.payload_shape`). A template longer than
/// `sharedTemplateLimit` bytes, or any new one once `shapeLimit` shapes exist, is kept in the row instead
/// (`events.payload_template`): a long template nearly always holds values of unknown fields that differ
/// per event and would never be shared, and a publisher that makes every template unique then costs about
/// what a row holding its payload cost, never a table (plus its unique index) of templates growing per
/// event. The bounds keep that table at most about 2 × 4096 × 512 bytes = 4 MiB, in cache for the lookups.
enum PayloadShapes {
    /// Longest template that is shared, in bytes.
    static let sharedTemplateLimit = 512
    /// Most shapes kept; newer templates are kept in their rows.
    static let shapeLimit: Int64 = 4_096

    /// The table of shared templates (created by migration 12).
    static let createTableSQL = """
        CREATE TABLE payload_shapes (
            id       INTEGER PRIMARY KEY,
            template TEXT NOT NULL UNIQUE
        );
        """

    /// The SQL function that renders a payload: `tl_payload(template, id, agent_id, task_id, title, body,
    /// status, category, ts_us, progress)`.
    static let functionName = "tl_payload"

    /// SQL for the exact payload (what `raw_json` held) of the `events` row aliased `alias`.
    static func rawJSON(_ alias: String) -> String {
        "\(functionName)(coalesce(\(alias).payload_template, (SELECT s.template FROM payload_shapes s"
            + " WHERE s.id = \(alias).payload_shape)), \(alias).id, \(alias).agent_id, \(alias).task_id,"
            + " \(alias).title, \(alias).body, \(alias).status, \(alias).category, \(alias).ts_us, \(alias).progress)"
    }

    /// SQL for the payload template of the `events` row aliased `alias` (its own, or its shape's, joined by
    /// `shapeJoin(alias)`): a read that decodes the row's columns anyway renders the payload from them
    /// (`payload(template:values:)`) instead of having `tl_payload` build each value a second time.
    static func template(_ alias: String) -> String {
        "coalesce(\(alias).payload_template, ps.template)"
    }

    /// The join that `template(alias)` reads the shape through (one cursor for the whole statement, where
    /// a subquery opened one per row).
    static func shapeJoin(_ alias: String) -> String {
        " LEFT JOIN payload_shapes ps ON ps.id = \(alias).payload_shape"
    }

    /// What `tl_payload` gives for `template` (the column's bytes; nil for SQL NULL) and the row's `values`:
    /// the exact payload, "" without a template, an error when the template does not fit the row.
    static func payload(template: UnsafeBufferPointer<UInt8>?, values: PayloadValues) throws -> String {
        guard let template else { return "" }
        guard let payload = PayloadTemplate.render(template, values: values) else { throw templateMismatch }
        return String(decoding: payload, as: UTF8.self)
    }

    /// The error of a payload template that does not fit its row (never for rows this store wrote).
    static let templateMismatch = SQLiteError(code: SQLITE_ERROR, message: "payload template does not fit its event",
                                              sql: functionName)

    /// Shape ids of one transaction's templates: looked up, or added while the table is under its bounds.
    /// Lives no longer than its transaction (a rolled-back shape must not be remembered).
    struct Interner {
        private let find: Statement
        private let add: Statement
        private let db: Database
        private var known: [Key: Int64] = [:]
        private var count: Int64?

        /// A template as a dictionary key, hashed in one pass over its bytes (an array hashes byte by byte).
        private struct Key: Hashable {
            let bytes: [UInt8]
            func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
        }

        init(db: Database) throws {
            self.db = db
            find = try db.cached("SELECT id FROM payload_shapes WHERE template = ?1")
            add = try db.cached("INSERT INTO payload_shapes (template) VALUES (?1)")
        }

        /// The shape id of `template`, nil when the row keeps it itself.
        mutating func shape(of template: [UInt8]) throws -> Int64? {
            if template.count > PayloadShapes.sharedTemplateLimit { return nil }
            if let id = known[Key(bytes: template)] { return id }
            defer { find.reset() }
            try find.bind(text: template, at: 1)
            if try find.step() == .row {
                let id = find.int64(0)
                known[Key(bytes: template)] = id
                return id
            }
            let stored = try count ?? db.scalarInt("SELECT count(*) FROM payload_shapes")
            guard stored < PayloadShapes.shapeLimit else { return nil }
            try add.bind(text: template, at: 1)
            try add.run()
            let id = db.lastInsertRowID
            count = stored + 1
            known[Key(bytes: template)] = id
            return id
        }
    }
}

extension Database {
    /// Registers `tl_payload` (`PayloadTemplate.render`): the exact payload of an event row. An error when
    /// the template does not fit the row (never for rows this store wrote).
    func registerPayloadRendering() throws {
        let rc = sqlite3_create_function_v2(
            handle, PayloadShapes.functionName, 10, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, count, arguments in
                guard count == 10, let arguments else { return }
                func bytes(_ index: Int) -> UnsafeBufferPointer<UInt8>? {
                    guard let value = arguments[index], sqlite3_value_type(value) != SQLITE_NULL else { return nil }
                    let text = sqlite3_value_text(value)
                    return UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
                }
                func text(_ index: Int) -> String? { bytes(index).map { String(decoding: $0, as: UTF8.self) } }
                guard let template = bytes(0) else {
                    sqlite3_result_null(context)
                    return
                }
                let values = PayloadValues(
                    id: text(1) ?? "", agentID: text(2) ?? "", taskID: text(3) ?? "", title: text(4) ?? "",
                    body: text(5) ?? "", status: text(6) ?? "", category: text(7),
                    timestampMicros: arguments[8].map { sqlite3_value_int64($0) } ?? 0,
                    progress: arguments[9].flatMap { sqlite3_value_type($0) == SQLITE_NULL ? nil : sqlite3_value_double($0) })
                guard let payload = PayloadTemplate.render(template, values: values) else {
                    sqlite3_result_error(context, PayloadShapes.templateMismatch.message, -1)
                    return
                }
                payload.withUnsafeBufferPointer { out in
                    guard let base = out.baseAddress, out.count > 0 else {
                        sqlite3_result_text(context, "", 0, tl_sqlite_transient())
                        return
                    }
                    base.withMemoryRebound(to: CChar.self, capacity: out.count) {
                        sqlite3_result_text(context, $0, Int32(out.count), tl_sqlite_transient())
                    }
                }
            }, nil, nil, nil)
        guard rc == SQLITE_OK else { throw SQLiteError(connection: handle, code: rc, sql: PayloadShapes.functionName) }
    }
}
