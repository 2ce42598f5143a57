/// Locates the first invalid UTF-8 sequence (for the rejection reason; validity itself is checked by
/// `String(validating:)`). Offsets match Python's `UnicodeDecodeError.start`.
enum UTF8Check {
    /// Offset of the first byte of the first ill-formed sequence, or nil when the bytes are valid UTF-8.
    static func firstInvalidOffset(_ bytes: [UInt8]) -> Int? {
        var i = 0
        let n = bytes.count
        func continuation(_ j: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool { j < n && range.contains(bytes[j]) }
        while i < n {
            let lead = bytes[i]
            let length: Int
            switch lead {
            case 0x00...0x7F: i += 1; continue
            case 0xC2...0xDF: length = continuation(i + 1) ? 2 : 0
            case 0xE0: length = continuation(i + 1, 0xA0...0xBF) && continuation(i + 2) ? 3 : 0
            case 0xE1...0xEC, 0xEE, 0xEF: length = continuation(i + 1) && continuation(i + 2) ? 3 : 0
            case 0xED: length = continuation(i + 1, 0x80...0x9F) && continuation(i + 2) ? 3 : 0
            case 0xF0: length = continuation(i + 1, 0x90...0xBF) && continuation(i + 2) && continuation(i + 3) ? 4 : 0
            case 0xF1...0xF3: length = continuation(i + 1) && continuation(i + 2) && continuation(i + 3) ? 4 : 0
            case 0xF4: length = continuation(i + 1, 0x80...0x8F) && continuation(i + 2) && continuation(i + 3) ? 4 : 0
            default: length = 0
            }
            if length == 0 { return i }
            i += length
        }
        return nil
    }
}
