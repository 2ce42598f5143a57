/// The `events` table as the file defines it, read from `sqlite_schema` (never repeated in code): the body
/// of its `CREATE TABLE`, the columns a copy of a row writes (generated columns are computed, not written)
/// and the `CREATE INDEX` statements of its indexes. A prune that copies the kept events into a new table
/// builds that table and its indexes from this, so it follows every change of the table's columns.
struct EventsTableShape {
    /// Everything after the table's name in its `CREATE TABLE`: `(columns…) options`.
    var definition: String
    /// The stored (not generated) columns, quoted, in table order, joined by commas.
    var storedColumns: String
    /// `name` and `CREATE INDEX` SQL of each explicit index (automatic ones have no SQL and go with the table).
    var indexes: [(name: String, sql: String)]

    /// Reads the shape of `table` (caller holds the lock).
    static func read(_ db: Database, table: String = "events") throws -> EventsTableShape {
        let create = try db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?1")
        try create.bind(table, at: 1)
        guard try create.step() == .row, let sql = create.optionalString(0), let open = sql.firstIndex(of: "(") else {
            throw SQLiteError(code: 1, message: "no table \(table) to copy")
        }
        let columns = try db.prepare("SELECT name FROM pragma_table_xinfo(?1) WHERE hidden = 0 ORDER BY cid")
        try columns.bind(table, at: 1)
        var names: [String] = []
        while try columns.step() == .row { names.append(quoted(columns.string(0))) }
        let index = try db.prepare("""
            SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ?1 AND sql IS NOT NULL ORDER BY name
            """)
        try index.bind(table, at: 1)
        var indexes: [(name: String, sql: String)] = []
        while try index.step() == .row { indexes.append((index.string(0), index.string(1))) }
        return EventsTableShape(definition: String(sql[open...]), storedColumns: names.joined(separator: ", "),
                                indexes: indexes)
    }

    /// `name` as an SQL identifier.
    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
