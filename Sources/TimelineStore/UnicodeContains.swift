import CSQLite

extension Database {
    /// Registers `tl_icontains(haystack, needle)`: 1 when `needle` occurs in `haystack` ignoring case
    /// (Unicode lowercase mapping, like the trigram tokenizer's folding; LIKE only folds ASCII).
    /// Used only for search terms that are not plain ASCII.
    func registerUnicodeContains() throws {
        let rc = sqlite3_create_function_v2(
            handle, "tl_icontains", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, count, arguments in
                guard count == 2, let arguments,
                      let haystack = sqliteText(arguments[0]), let needle = sqliteText(arguments[1])
                else {
                    sqlite3_result_int(context, 0)
                    return
                }
                sqlite3_result_int(context, haystack.lowercased().contains(needle.lowercased()) ? 1 : 0)
            }, nil, nil, nil)
        guard rc == SQLITE_OK else { throw SQLiteError(connection: handle, code: rc, sql: "tl_icontains") }
    }
}

/// The text of a function argument, nil for NULL.
private func sqliteText(_ value: OpaquePointer?) -> String? {
    guard let value, sqlite3_value_type(value) != SQLITE_NULL, let text = sqlite3_value_text(value) else { return nil }
    let count = Int(sqlite3_value_bytes(value))
    return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
}
