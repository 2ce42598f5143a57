import Foundation

// PLACEHOLDER until branch `core` lands DisplayText and TimeFormat in TimelineCore: delete this file then.
// Deliberately simple, Character-level versions of the same jobs.

enum DisplayText {
    /// Removes control characters, escape sequences and bidi overrides; newlines and tabs become spaces.
    static func sanitize(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        var it = s.unicodeScalars.makeIterator()
        while let u = it.next() {
            switch u.value {
            case 0x1B:
                // Skip CSI (ESC [ … final 0x40–0x7E), OSC (ESC ] … BEL/ST) or a 2-byte escape.
                guard let n = it.next() else { break }
                if n == "[" { while let c = it.next(), !(0x40...0x7E).contains(c.value) {} }
                else if n == "]" {
                    while let c = it.next() { if c.value == 7 { break }; if c.value == 0x1B { _ = it.next(); break } }
                }
            case 0x09, 0x0A, 0x0D: out.append(" ")
            case 0x00...0x1F, 0x7F...0x9F: break
            case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C: break
            default: out.append(u)
            }
        }
        return String(out)
    }

    /// Terminal columns of one grapheme (wcwidth-like: wide 2, combining 0).
    static func width(_ c: Character) -> Int {
        guard let first = c.unicodeScalars.first else { return 0 }
        if c.unicodeScalars.contains(where: { $0.value == 0xFE0F || $0.properties.isEmojiPresentation }) { return 2 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        switch first.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD: return 2
        default: return 1
        }
    }
}

enum TimeFormat {
    /// `12s`, `5m`, `3h`, `2d`.
    static func relative(_ micros: Int64, now: Int64) -> String {
        let s = max(0, (now - micros) / 1_000_000)
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m" }
        if s < 86400 { return "\(s / 3600)h" }
        return "\(s / 86400)d"
    }

    /// `2026-11-22 03:26:15` in UTC.
    static func absolute(_ micros: Int64) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return f.string(from: Date(timeIntervalSince1970: Double(micros) / 1_000_000))
    }
}
