import Foundation  // NSNull only

/// The one JSON writer: compact JSON for SQS requests, event payloads (`timeline publish`) and `--json`
/// lines. Written by hand because Foundation's `JSONSerialization` on Linux bridges every value through
/// NSDictionary/NSString: profiling `timeline drain` showed it as the largest single CPU cost of a call.
///
/// Strings: `"` and `\` escaped, `\n` `\r` `\t`, other C0 controls and DEL as `\u00xx`, everything else
/// as UTF-8 unless the caller's `escaping` predicate asks for a `\uXXXX` escape (the same JSON value).
public enum JSONWriter {
    /// Compact JSON of `value` (`String`, `Bool`, `Int`, `Int64`, `Double`, `NSNull`, `[Any]`,
    /// `[String: Any]` with keys sorted, so the same value always has the same bytes), or nil for any
    /// other kind or a non-finite number.
    public static func encode(_ value: Any, escaping extra: ((Unicode.Scalar) -> Bool)? = nil) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        return append(value, to: &out, escaping: extra) ? out : nil
    }

    /// `text` as a JSON string literal.
    public static func quoted(_ text: String, escaping extra: ((Unicode.Scalar) -> Bool)? = nil) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 2)
        appendString(text, to: &out, escaping: extra)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal to `out`.
    public static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        appendString(text, to: &out, escaping: nil)
    }

    /// JSON text (already valid JSON) with every scalar `escaping` selects written as a `\uXXXX` escape:
    /// the same JSON value. Such scalars can only stand inside strings in valid JSON, except JSON's own
    /// whitespace (tab, newline, carriage return), which is always left as it is.
    public static func escaping(json: String, _ escaping: (Unicode.Scalar) -> Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(json.utf8.count)
        for scalar in json.unicodeScalars {
            if escaping(scalar), scalar != "\t", scalar != "\n", scalar != "\r" {
                appendUnicodeEscape(scalar.value, to: &out)
            } else {
                appendUTF8(scalar, to: &out)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A finite number: integers without a fraction (`42`), others in Swift's shortest form (`42.5`);
    /// nil for infinities and NaN (JSON has none).
    public static func number(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    private static func append(_ value: Any, to out: inout [UInt8], escaping extra: ((Unicode.Scalar) -> Bool)?) -> Bool {
        switch value {
        case let text as String:
            appendString(text, to: &out, escaping: extra)
        case let flag as Bool:
            out.append(contentsOf: (flag ? "true" : "false").utf8)
        case let number as Int:
            out.append(contentsOf: String(number).utf8)
        case let number as Int64:
            out.append(contentsOf: String(number).utf8)
        case let number as Double:
            guard let text = Self.number(number) else { return false }
            out.append(contentsOf: text.utf8)
        case is NSNull:
            out.append(contentsOf: "null".utf8)
        case let list as [Any]:
            out.append(UInt8(ascii: "["))
            for (index, element) in list.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                guard append(element, to: &out, escaping: extra) else { return false }
            }
            out.append(UInt8(ascii: "]"))
        case let object as [String: Any]:
            out.append(UInt8(ascii: "{"))
            for (index, key) in object.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendString(key, to: &out, escaping: extra)
                out.append(UInt8(ascii: ":"))
                guard append(object[key]!, to: &out, escaping: extra) else { return false }
            }
            out.append(UInt8(ascii: "}"))
        default:
            return false
        }
        return true
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
    private static let upperHexDigits = Array("0123456789ABCDEF".utf8)

    private static func appendString(_ text: String, to out: inout [UInt8], escaping extra: ((Unicode.Scalar) -> Bool)?) {
        out.append(UInt8(ascii: "\""))
        if let extra {
            for scalar in text.unicodeScalars {
                // JSON's own escapes (quote, backslash, C0, DEL) come first; then the caller's.
                let needsJSONEscape = scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\"" || scalar == "\\"
                if !needsJSONEscape, extra(scalar) {
                    appendUnicodeEscape(scalar.value, to: &out)
                } else {
                    appendUTF8(scalar, to: &out)
                }
            }
        } else {
            // Runs of bytes that need no escape are copied whole (receipt handles and bodies are long).
            var text = text
            text.withUTF8 { bytes in
                var start = 0
                for index in 0..<bytes.count where needsEscape(bytes[index]) {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                    appendByte(bytes[index], to: &out)
                    start = index + 1
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// True for the bytes `appendByte` escapes: quote, backslash, C0 controls and DEL.
    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// One byte of UTF-8 text, escaped when JSON requires it.
    @inline(__always)
    private static func appendByte(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "\\"))
        case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
        case 0..<0x20, 0x7F:
            out.append(contentsOf: #"\u00"#.utf8)
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0F)])
        default:
            out.append(byte)
        }
    }

    private static func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        if scalar.value < 0x80 { appendByte(UInt8(scalar.value), to: &out); return }
        out.append(contentsOf: UTF8.encode(scalar)!)
    }

    /// `\uXXXX` (upper-case hex), as a surrogate pair above U+FFFF.
    private static func appendUnicodeEscape(_ value: UInt32, to out: inout [UInt8]) {
        func unit(_ code: UInt32) {
            out.append(contentsOf: #"\u"#.utf8)
            for shift in stride(from: 12, through: 0, by: -4) { out.append(upperHexDigits[Int((code >> UInt32(shift)) & 0xF)]) }
        }
        if value > 0xFFFF {
            let offset = value - 0x10000
            unit(0xD800 + (offset >> 10))
            unit(0xDC00 + (offset & 0x3FF))
        } else {
            unit(value)
        }
    }
}
