import Foundation

/// Byte tests of `PayloadTemplate` over whole payloads, eight bytes at a time: a word with a byte below `n`
/// has `(word - n × 0x0101…) & ~word & 0x8080…` nonzero (exactly when one is, for n ≤ 128), and a word
/// holding byte `b` has a zero byte in `word ^ b × 0x0101…`. A word that may hold one is then tested byte
/// by byte, so the answers are the byte-by-byte ones.
enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    @inline(__always)
    private static func hasByte(below n: UInt8, _ word: UInt64) -> Bool {
        (word &- ones &* UInt64(n)) & ~word & highBits != 0
    }

    @inline(__always)
    private static func hasByte(_ byte: UInt8, _ word: UInt64) -> Bool {
        hasByte(below: 1, word ^ (ones &* UInt64(byte)))
    }

    /// Whether `bytes` holds a byte `PayloadTemplate.isReserved` (a C0 control other than JSON whitespace).
    static func containsReserved(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        contains(bytes, where: PayloadTemplate.isReserved) { hasByte(below: 0x20, $0) }
    }

    /// Whether `bytes` holds a backslash, DEL or C0 control (a string `JSONWriter` would write otherwise).
    static func containsEscaped(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        contains(bytes, where: { $0 == UInt8(ascii: "\\") || $0 == 0x7F || $0 < 0x20 }) {
            hasByte(below: 0x20, $0) || hasByte(UInt8(ascii: "\\"), $0) || hasByte(0x7F, $0)
        }
    }

    /// Whether `bytes` holds a byte JSON strings escape: a quote, or one `containsEscaped` finds.
    static func containsEscapedOrQuote(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        contains(bytes, where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0x7F || $0 < 0x20 }) {
            hasByte(below: 0x20, $0) || hasByte(UInt8(ascii: "\""), $0) || hasByte(UInt8(ascii: "\\"), $0)
                || hasByte(0x7F, $0)
        }
    }

    /// Whether two byte sequences are equal.
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard a.count > 0, let x = a.baseAddress, let y = b.baseAddress else { return true }
        return memcmp(x, y, a.count) == 0
    }

    static func equal(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        a.withUnsafeBufferPointer { equal($0, b) }
    }

    /// Whether two strings hold the same bytes (String's `==` also takes canonically equivalent text as
    /// equal; SQLite's `=` does not).
    static func equal(_ a: String, _ b: String) -> Bool {
        var (a, b) = (a, b)
        return a.withUTF8 { x in b.withUTF8 { equal(x, $0) } }
    }

    @inline(__always)
    private static func contains(_ bytes: UnsafeBufferPointer<UInt8>, where test: (UInt8) -> Bool,
                                 mayHold: (UInt64) -> Bool) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i + 8 <= bytes.count {
            if mayHold(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))) {
                for j in i..<(i + 8) where test(base[j]) { return true }
            }
            i += 8
        }
        while i < bytes.count {
            if test(base[i]) { return true }
            i += 1
        }
        return false
    }
}
