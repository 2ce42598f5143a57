import Glibc

/// An ASCII-lowered term looked for in a waiting row's lowered columns (`WaitingRowTexts.Row`): `memchr`
/// for its rarest byte (by English letter frequency, a space or a hyphen counting as common), then one
/// compare, over the row's whole buffer at once; a hit counts only inside one non-NULL column. Looking
/// for the first byte column by column made 5 calls a row and stopped at every `d` of "deploy".
struct AnchoredNeedle {
    let bytes: [UInt8]
    /// The position in `bytes` of the byte looked for first.
    let anchor: Int

    init(lowered bytes: [UInt8]) {
        self.bytes = bytes
        anchor = bytes.indices.min { Self.commonness(bytes[$0]) < Self.commonness(bytes[$1]) } ?? 0
    }

    /// Whether the term lies inside one of the row's non-NULL columns.
    func occurs(in row: WaitingRowTexts.Row) -> Bool {
        guard !bytes.isEmpty else { return row.anyColumn { _ in true } }
        return row.lowered.withUnsafeBufferPointer { text in occurs(in: text, within: row.insideOneColumn) }
    }

    /// Whether the term occurs in `text` at a place `accepted` (its range in `text`) takes.
    private func occurs(in text: UnsafeBufferPointer<UInt8>, within accepted: (Range<Int>) -> Bool) -> Bool {
        guard let base = text.baseAddress, text.count >= bytes.count else { return false }
        return bytes.withUnsafeBufferPointer { needle in
            let anchorByte = Int32(needle[anchor])
            // Anchor hits at `position` begin a candidate at `position - anchor`, which must fit before the end.
            var position = anchor
            let end = text.count - (needle.count - anchor)
            while position <= end {
                guard let hit = memchr(base + position, anchorByte, end - position + 1) else { return false }
                let found = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                let start = found - anchor
                if memcmp(base + start, needle.baseAddress!, needle.count) == 0, accepted(start..<start + needle.count) {
                    return true
                }
                position = found + 1
            }
            return false
        }
    }

    /// How common `byte` is in English text and ids (higher: more common).
    static func commonness(_ byte: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: " "): return 100
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return letterCommonness[Int(byte - UInt8(ascii: "a"))]
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."): return 60
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return 40
        default: return 20
        }
    }

    /// Letter frequencies in English, in percent times ten (a … z).
    private static let letterCommonness = [82, 15, 28, 43, 127, 22, 20, 61, 70, 2, 8, 40, 24,
                                           67, 75, 19, 1, 60, 63, 91, 28, 10, 24, 2, 20, 1]
}
