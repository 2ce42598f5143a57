import CSQLite
import Foundation

extension Database {
    /// Registers `tl_icontains(haystack, needle)`: 1 when `needle` occurs in `haystack` ignoring case
    /// (Unicode lowercase mapping, like the trigram tokenizer's folding; LIKE only folds ASCII).
    /// Used only for search terms that are not plain ASCII (and shorter than a trigram, so every row is
    /// tested): the common cases never build a String. A raw byte match is a match; a needle without
    /// case (CJK, kana, digits, punctuation) needs nothing more; an ASCII row cannot hold a needle whose
    /// folding is not ASCII; only a cased needle against a non-ASCII row is folded the slow way.
    func registerUnicodeContains() throws {
        let rc = sqlite3_create_function_v2(
            handle, "tl_icontains", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, count, arguments in
                guard count == 2, let arguments, let needle = FoldedNeedle.of(arguments[1], context),
                      let haystack = sqliteBytes(arguments[0])
                else {
                    sqlite3_result_int(context, 0)
                    return
                }
                sqlite3_result_int(context, needle.occurs(in: haystack) ? 1 : 0)
            }, nil, nil, nil)
        guard rc == SQLITE_OK else { throw SQLiteError(connection: handle, code: rc, sql: "tl_icontains") }
    }
}

/// A needle of `tl_icontains`, analysed once per statement (kept as SQLite auxdata of the argument).
final class FoldedNeedle {
    let raw: [UInt8]
    let folded: [UInt8]
    /// No scalar changes under case mapping and none is a combining mark: only identical bytes match.
    let caseless: Bool
    let foldedIsASCII: Bool

    init(_ text: String) {
        raw = Array(text.utf8)
        folded = Array(text.lowercased().utf8)
        caseless = text.unicodeScalars.allSatisfy { scalar in
            let p = scalar.properties
            return !p.changesWhenCaseMapped
                && ![.nonspacingMark, .spacingMark, .enclosingMark].contains(p.generalCategory)
        }
        foldedIsASCII = folded.allSatisfy { $0 < 0x80 }
    }

    /// The needle of argument `value`, from the statement's cache or analysed now (and cached).
    static func of(_ value: OpaquePointer?, _ context: OpaquePointer?) -> FoldedNeedle? {
        if let cached = sqlite3_get_auxdata(context, 1) {
            return Unmanaged<FoldedNeedle>.fromOpaque(cached).takeUnretainedValue()
        }
        guard let bytes = sqliteBytes(value) else { return nil }
        let needle = FoldedNeedle(String(decoding: bytes, as: UTF8.self))
        sqlite3_set_auxdata(context, 1, Unmanaged.passRetained(needle).toOpaque()) { pointer in
            if let pointer { Unmanaged<FoldedNeedle>.fromOpaque(pointer).release() }
        }
        return needle
    }

    func occurs(in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        if Self.find(raw, in: haystack) { return true }
        if caseless { return false }
        if haystack.allSatisfy({ $0 < 0x80 }) {
            guard foldedIsASCII else { return false }
            let lowered = Self.asciiLowered(haystack)
            return lowered.withUnsafeBufferPointer { Self.find(folded, in: $0) }
        }
        let text = String(decoding: haystack, as: UTF8.self).lowercased()
        return text.contains(String(decoding: folded, as: UTF8.self))
    }

    /// `bytes` with ASCII letters lowered and every other byte kept (LIKE's folding).
    static func asciiLowered(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        bytes.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }
    }

    /// Whether `needle`'s bytes occur in `haystack` (an empty needle always does).
    static func find(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !needle.isEmpty else { return true }
        guard let base = haystack.baseAddress, haystack.count >= needle.count else { return false }
        // memchr for the first byte, memcmp for the rest (memmem is a GNU extension Glibc does not export).
        return needle.withUnsafeBufferPointer { n in
            let last = haystack.count - n.count
            var start = 0
            while start <= last {
                guard let hit = memchr(base + start, Int32(n[0]), last - start + 1) else { return false }
                let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if memcmp(base + at, n.baseAddress!, n.count) == 0 { return true }
                start = at + 1
            }
            return false
        }
    }
}

/// The UTF-8 bytes of a function argument (valid until the function returns), nil for NULL.
private func sqliteBytes(_ value: OpaquePointer?) -> UnsafeBufferPointer<UInt8>? {
    guard let value, sqlite3_value_type(value) != SQLITE_NULL, let text = sqlite3_value_text(value) else { return nil }
    return UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
}
