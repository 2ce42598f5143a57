import TimelineUI

/// Turns the raw bytes a terminal sends into semantic `Input`: the one place that knows key and mouse
/// encodings. It decodes every form xterm, tmux, screen, VTE, kitty, foot, rxvt and the Linux console
/// send (CSI and SS3 cursor/editing keys, `CSI n ~`, F-keys, SGR, X10 and urxvt mouse), whatever terminfo
/// says, so the app works the same under any `TERM`. An escape sequence it does not know is consumed
/// whole and ignored, never replayed as keystrokes. Pure and byte-driven: tests feed bytes, read inputs.
///
/// Stateful only across reads: a sequence split between two reads waits in `pending`. A lone ESC stays
/// pending until `flush()` (the reader calls it when no byte followed within the escape timeout).
///
/// Bracketed paste (`ESC [ 200 ~` … `ESC [ 201 ~`, switched on by `BracketedPaste`) becomes one
/// `.paste(String)`: the bytes between the brackets are never keys, whatever they hold (Enter, `y`,
/// escape sequences). A paste stays open across reads and timeouts until its closing bracket; at most
/// `maxPasteBytes` of it are kept.
struct InputDecoder {
    private var pending: [UInt8] = []
    /// The paste being read (between the brackets), if any.
    private var paste: [UInt8]?
    static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)
    /// A paste longer than this is cut here (more than any text reply takes).
    static let maxPasteBytes = 65_536

    /// True while bytes of an unfinished sequence (or a lone ESC, or an open paste) wait for more.
    var hasPending: Bool { !pending.isEmpty || paste != nil }

    /// Decodes `bytes` (appended to what was pending); returns every complete input, in order.
    mutating func feed<S: Sequence>(_ bytes: S) -> [Input] where S.Element == UInt8 {
        pending.append(contentsOf: bytes)
        var out: [Input] = []
        var i = 0
        while i < pending.count {
            if paste != nil {
                guard let end = Self.find(Self.pasteEnd, in: pending, from: i) else {
                    // Keep the tail that may be the start of the closing bracket; the rest is pasted text.
                    let keep = Self.partialSuffix(of: Self.pasteEnd, in: pending, from: i)
                    appendPaste(pending[i..<(pending.count - keep)])
                    pending.removeFirst(pending.count - keep)
                    return out
                }
                appendPaste(pending[i..<end])
                out.append(.paste(String(decoding: paste ?? [], as: UTF8.self)))
                paste = nil
                i = end + Self.pasteEnd.count
                continue
            }
            switch Self.parse(pending, at: i) {
            case .incomplete: pending.removeFirst(i); return out
            case .pasteStart(let length):
                paste = []
                i += length
            case .done(let input, let length):
                if let input { out.append(input) }
                i += length
            }
        }
        pending.removeAll(keepingCapacity: true)
        return out
    }

    /// No more bytes came within the escape timeout: a lone ESC is the Escape key; any other unfinished
    /// sequence is dropped (it can never complete). An open paste stays open: its bytes are never keys.
    mutating func flush() -> [Input] {
        if paste != nil { return [] }
        defer { pending.removeAll() }
        if pending == [0x1B] { return [.key(.escape)] }
        return []
    }

    /// Inputs read in one batch (everything already queued), without the keys and mouse reports that follow
    /// a paste in it: no hand types that fast, so they came with the paste — from a clipboard holding its own
    /// closing bracket (`ESC [ 201 ~` then Enter, `y`) — and are dropped.
    static func droppingKeysAfterPaste(_ inputs: [Input]) -> [Input] {
        guard let first = inputs.firstIndex(where: { if case .paste = $0 { true } else { false } }) else { return inputs }
        return Array(inputs[...first]) + inputs[(first + 1)...].filter {
            switch $0 {
            case .key, .mouse: false
            default: true
            }
        }
    }

    private mutating func appendPaste(_ bytes: ArraySlice<UInt8>) {
        guard var text = paste else { return }
        text.append(contentsOf: bytes.prefix(max(0, Self.maxPasteBytes - text.count)))
        paste = text
    }

    /// The index where `needle` starts in `haystack` at or after `from`.
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard haystack.count - from >= needle.count else { return nil }
        var i = from
        while i + needle.count <= haystack.count {
            if haystack[i] == needle[0], haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// How many bytes at the end of `haystack` (after `from`) are a proper prefix of `needle`.
    private static func partialSuffix(of needle: [UInt8], in haystack: [UInt8], from: Int) -> Int {
        for length in stride(from: min(needle.count - 1, haystack.count - from), through: 1, by: -1)
        where haystack[(haystack.count - length)...].elementsEqual(needle[..<length]) {
            return length
        }
        return 0
    }

    private enum Step { case incomplete, done(Input?, length: Int), pasteStart(length: Int) }

    private static func parse(_ b: [UInt8], at i: Int) -> Step {
        let byte = b[i]
        if byte == 0x1B { return escape(b, at: i) }
        if byte < 0x80 { return .done(control(byte), length: 1) }
        return utf8(b, at: i)
    }

    /// One byte below 0x80: printable ASCII, or a control key.
    static func control(_ byte: UInt8) -> Input? {
        switch byte {
        case 0x0A, 0x0D: return .key(.enter)
        case 0x09: return .key(.tab)
        case 0x08, 0x7F: return .key(.backspace)
        case 0x01...0x1A: return .key(.ctrl(Character(Unicode.Scalar(byte + 0x60))))
        case 0x00...0x1F: return nil
        default: return .key(.char(Character(Unicode.Scalar(byte))))
        }
    }

    /// A UTF-8 multi-byte character; an invalid byte (C1 controls sent as single bytes included) is dropped.
    private static func utf8(_ b: [UInt8], at i: Int) -> Step {
        let lead = b[i]
        let length = lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 && lead <= 0xEF ? 3 : lead >= 0xC2 && lead <= 0xDF ? 2 : 0
        guard length > 0 else { return .done(nil, length: 1) }
        for k in 1..<length {
            guard i + k < b.count else { return .incomplete }
            guard b[i + k] & 0xC0 == 0x80 else { return .done(nil, length: k) }
        }
        let scalars = String(decoding: b[i..<(i + length)], as: UTF8.self).unicodeScalars
        guard scalars.count == 1, let scalar = scalars.first, scalar != "\u{FFFD}",
              !(0x80...0x9F).contains(scalar.value) else { return .done(nil, length: length) }
        return .done(.key(.char(Character(scalar))), length: length)
    }

    /// ESC: a CSI or SS3 sequence, Escape followed by a key, or (alone, at the end) pending.
    private static func escape(_ b: [UInt8], at i: Int) -> Step {
        guard i + 1 < b.count else { return .incomplete }
        switch b[i + 1] {
        case UInt8(ascii: "["): return csi(b, at: i)
        case UInt8(ascii: "O"):
            guard i + 2 < b.count else { return .incomplete }
            return .done(ss3(b[i + 2]), length: 3)
        case 0x1B:
            // ESC ESC [ …: some terminals send Alt + a key this way; otherwise Escape pressed twice.
            if i + 2 < b.count, b[i + 2] == UInt8(ascii: "[") || b[i + 2] == UInt8(ascii: "O") {
                return .done(nil, length: 1)
            }
            return .done(.key(.escape), length: 1)
        case 0x09: return .done(.key(.backTab), length: 2)  // the Linux console's Shift-Tab
        default:
            // ESC + key (Alt + key, or Escape typed just before a key): Escape, then the key itself.
            return .done(.key(.escape), length: 1)
        }
    }

    /// SS3 (`ESC O x`): application-mode cursor keys, Home/End, F1–F4, keypad.
    static func ss3(_ final: UInt8) -> Input? {
        switch final {
        case UInt8(ascii: "A"): return .key(.up)
        case UInt8(ascii: "B"): return .key(.down)
        case UInt8(ascii: "C"): return .key(.right)
        case UInt8(ascii: "D"): return .key(.left)
        case UInt8(ascii: "H"): return .key(.home)
        case UInt8(ascii: "F"): return .key(.end)
        case UInt8(ascii: "M"): return .key(.enter)
        case UInt8(ascii: "P")...UInt8(ascii: "S"): return .key(.function(Int(final - UInt8(ascii: "P")) + 1))
        case UInt8(ascii: "p")...UInt8(ascii: "y"):  // keypad digits in application mode
            return .key(.char(Character(Unicode.Scalar(final - UInt8(ascii: "p") + UInt8(ascii: "0")))))
        default: return nil
        }
    }

    /// CSI (`ESC [` parameters intermediates final). The mouse forms are fixed-length (X10) or end in M/m.
    private static func csi(_ b: [UInt8], at i: Int) -> Step {
        var j = i + 2
        guard j < b.count else { return .incomplete }
        // Linux console F1–F5: ESC [ [ A … E.
        if b[j] == UInt8(ascii: "[") {
            guard j + 1 < b.count else { return .incomplete }
            let f = b[j + 1]
            let key: Input? = (UInt8(ascii: "A")...UInt8(ascii: "E")).contains(f)
                ? .key(.function(Int(f - UInt8(ascii: "A")) + 1)) : nil
            return .done(key, length: 4)
        }
        // X10 mouse: ESC [ M Cb Cx Cy, each byte offset by 32.
        if b[j] == UInt8(ascii: "M") {
            guard j + 3 < b.count else { return .incomplete }
            let mouse = mouseReport(button: Int(b[j + 1]) - 32, x: Int(b[j + 2]) - 33, y: Int(b[j + 3]) - 33, release: false)
            return .done(mouse, length: j + 4 - i)
        }
        let paramStart = j
        while j < b.count, (0x30...0x3F).contains(b[j]) { j += 1 }
        let paramEnd = j
        while j < b.count, (0x20...0x2F).contains(b[j]) { j += 1 }
        guard j < b.count else {
            // A CSI longer than any real key or mouse report is garbage: drop its first byte and resync.
            return j - i > 64 ? .done(nil, length: 1) : .incomplete
        }
        let final = b[j]
        let length = j + 1 - i
        guard (0x40...0x7E).contains(final), paramEnd == j else { return .done(nil, length: length) }
        let paramBytes = b[paramStart..<paramEnd]
        if paramBytes.first == UInt8(ascii: "<") {
            guard final == UInt8(ascii: "M") || final == UInt8(ascii: "m") else { return .done(nil, length: length) }
            let p = numbers(paramBytes.dropFirst())
            guard p.count == 3 else { return .done(nil, length: length) }
            return .done(mouseReport(button: p[0], x: p[1] - 1, y: p[2] - 1, release: final == UInt8(ascii: "m")), length: length)
        }
        guard paramBytes.allSatisfy({ (0x30...0x3B).contains($0) }) else {
            return .done(nil, length: length)  // private parameters (`?`, `>`, `=`): replies, not keys
        }
        let p = numbers(paramBytes)
        if final == UInt8(ascii: "~"), p == [200] { return .pasteStart(length: length) }
        // urxvt mouse (1015): ESC [ Cb ; x ; y M, Cb offset by 32.
        if final == UInt8(ascii: "M"), p.count == 3 {
            return .done(mouseReport(button: p[0] - 32, x: p[1] - 1, y: p[2] - 1, release: false), length: length)
        }
        return .done(csiKey(final: final, params: p), length: length)
    }

    /// The key of a complete CSI sequence; modifiers (`;5` and so on) do not change which key it is.
    static func csiKey(final: UInt8, params p: [Int]) -> Input? {
        switch final {
        case UInt8(ascii: "A"): return .key(.up)
        case UInt8(ascii: "B"): return .key(.down)
        case UInt8(ascii: "C"): return .key(.right)
        case UInt8(ascii: "D"): return .key(.left)
        case UInt8(ascii: "H"): return .key(.home)
        case UInt8(ascii: "F"): return .key(.end)
        case UInt8(ascii: "Z"): return .key(.backTab)
        case UInt8(ascii: "P")...UInt8(ascii: "S"):
            // F1–F4 with modifiers are `CSI 1 ; m P`; another first parameter is a cursor report, not a key.
            guard (p.first ?? 1) <= 1 else { return nil }
            return .key(.function(Int(final - UInt8(ascii: "P")) + 1))
        case UInt8(ascii: "~"):
            switch p.first ?? 0 {
            case 1, 7: return .key(.home)  // 1: VT220/screen/tmux, 7: rxvt
            case 4, 8: return .key(.end)
            case 3: return .key(.delete)
            case 5: return .key(.pageUp)
            case 6: return .key(.pageDown)
            case 11...15: return .key(.function(p[0] - 10))
            case 17...21: return .key(.function(p[0] - 11))
            case 23, 24: return .key(.function(p[0] - 12))
            default: return nil  // Insert, paste brackets, unknown
            }
        case UInt8(ascii: "u"):
            // kitty's keyboard protocol (CSI code ; mods u), should a terminal have it on.
            switch p.first ?? 0 {
            case 27: return .key(.escape)
            case 13: return .key(.enter)
            case 9: return .key(.tab)
            case 127: return .key(.backspace)
            case let code where code >= 0x20:
                return Unicode.Scalar(UInt32(code)).map { .key(.char(Character($0))) }
            default: return nil
            }
        default: return nil
        }
    }

    /// A mouse report's button code (modifier bits 4/8/16 ignored): wheel, left press, or nothing.
    static func mouseReport(button: Int, x: Int, y: Int, release: Bool) -> Input? {
        guard button >= 0, x >= 0, y >= 0, !release else { return nil }
        if button & 32 != 0 { return nil }  // motion
        let code = button & ~(4 | 8 | 16)
        switch code {
        case 64: return .mouse(.wheelUp(x: x, y: y))
        case 65: return .mouse(.wheelDown(x: x, y: y))
        case 0: return .mouse(.click(x: x, y: y))
        default: return nil  // other buttons, horizontal wheel, X10 release (3)
        }
    }

    private static func numbers<C: Collection>(_ bytes: C) -> [Int] where C.Element == UInt8 {
        bytes.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map { part in
            part.reduce(0) { min(1_000_000, $0 * 10 + Int($1 &- 0x30)) }
        }
    }
}
