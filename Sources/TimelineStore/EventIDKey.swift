import CSQLite

/// The 64-bit key the `events_id_key` index stores for an event id: FNV-1a over the id's UTF-8 bytes.
///
/// Stable across processes and versions (Swift's `Hasher` is seeded per process, so it cannot be used).
/// Different ids may share a key; ingest then compares the full ids, so a collision costs one extra
/// row read and never merges two events.
enum EventIDKey {
    static func key(_ id: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }
}

extension Database {
    /// Registers `tl_id_key(id)` (`EventIDKey.key`), used by the version-3 migration to fill `id_key`.
    func registerEventIDKey() throws {
        let rc = sqlite3_create_function_v2(
            handle, "tl_id_key", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, count, arguments in
                guard count == 1, let arguments, let value = arguments[0],
                      sqlite3_value_type(value) != SQLITE_NULL, let text = sqlite3_value_text(value)
                else {
                    sqlite3_result_null(context)
                    return
                }
                let id = String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))),
                                as: UTF8.self)
                sqlite3_result_int64(context, EventIDKey.key(id))
            }, nil, nil, nil)
        guard rc == SQLITE_OK else { throw SQLiteError(connection: handle, code: rc, sql: "tl_id_key") }
    }
}
