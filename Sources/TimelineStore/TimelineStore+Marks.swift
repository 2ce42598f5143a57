import Foundation

extension TimelineStore {
    /// Marks (`marked: true`) or unmarks a task. Marks are kept across restarts.
    public func setMark(taskID: String, marked: Bool) throws {
        let now = Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
        try locked {
            if marked {
                try db.run("INSERT OR IGNORE INTO marks (task_id, marked_us) VALUES (?, ?)", [.text(taskID), .integer(now)])
            } else {
                try db.run("DELETE FROM marks WHERE task_id = ?", [.text(taskID)])
            }
        }
    }

    /// Every marked task id, sorted.
    public func markedTaskIDs() throws -> [String] {
        try locked {
            let statement = try db.cached("SELECT task_id FROM marks ORDER BY task_id")
            defer { statement.reset() }
            var ids: [String] = []
            while try statement.step() == .row { ids.append(statement.string(0)) }
            return ids
        }
    }

    /// A value the application keeps in the database (`meta`), e.g. the TUI's last view.
    public func setting(_ key: String) throws -> String? {
        try locked {
            let statement = try db.cached("SELECT value FROM meta WHERE key = ?")
            defer { statement.reset() }
            try statement.bind([.text("app." + key)])
            return try statement.step() == .row ? statement.string(0) : nil
        }
    }

    /// Stores (or with nil, removes) an application value in `meta`.
    public func setSetting(_ key: String, _ value: String?) throws {
        try locked {
            if let value {
                try db.run("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [.text("app." + key), .text(value)])
            } else {
                try db.run("DELETE FROM meta WHERE key = ?", [.text("app." + key)])
            }
        }
    }
}

extension Database {
    /// Runs one statement that returns no rows, with `values` bound (cached: these run often).
    func run(_ sql: String, _ values: [SQLiteValue]) throws {
        let statement = try cached(sql)
        try statement.bind(values)
        try statement.run()
    }
}
