import Testing
@testable import TimelineStore

/// `ByteScan`'s word-at-a-time answers are the byte-by-byte ones, whatever the bytes and wherever they sit.
@Suite("ByteScan")
struct ByteScanTests {
    private func escaped(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "\\") || byte == 0x7F || byte < 0x20 }

    @Test func answersAsByteByByte() {
        var rng = SystemRandomNumberGenerator()
        // Mostly printable text with a few bytes of every kind, at every offset of a word and in the tail.
        let special: [UInt8] = [0x00, 0x01, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0xA0, 0xDC, 0xFF]
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...40, using: &rng)
            let bytes: [UInt8] = (0..<count).map { _ in
                Int.random(in: 0..<6, using: &rng) == 0 ? special.randomElement(using: &rng)!
                    : UInt8.random(in: 0x20...0x7E, using: &rng)
            }
            var other = bytes
            if !other.isEmpty, Bool.random(using: &rng) { other[Int.random(in: 0..<other.count, using: &rng)] ^= 1 }
            bytes.withUnsafeBufferPointer { buffer in
                #expect(ByteScan.containsReserved(buffer) == bytes.contains(where: PayloadTemplate.isReserved), "\(bytes)")
                #expect(ByteScan.containsEscaped(buffer) == bytes.contains(where: escaped), "\(bytes)")
                #expect(ByteScan.equal(other, buffer) == (other == bytes), "\(bytes)")
            }
        }
    }

    @Test func eachByteValueAtEachPlaceOfAWord() {
        for value in 0...255 {
            for place in 0..<11 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 11)
                bytes[place] = UInt8(value)
                bytes.withUnsafeBufferPointer { buffer in
                    #expect(ByteScan.containsReserved(buffer) == PayloadTemplate.isReserved(UInt8(value)))
                    #expect(ByteScan.containsEscaped(buffer) == escaped(UInt8(value)))
                }
            }
        }
    }
}
