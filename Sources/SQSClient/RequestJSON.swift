/// Encodes SQS request bodies (`[String: Any]` of strings, integers, booleans, arrays and objects) as
/// compact JSON. Written by hand because Foundation's `JSONSerialization` on Linux bridges every value
/// through NSDictionary/NSString: profiling `timeline drain` showed it as the largest single CPU cost
/// of a call, far above signing or the transfer itself.
enum RequestJSON {
    /// The JSON bytes, or nil for a value that is not one of the supported kinds.
    static func encode(_ value: Any) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        return append(value, to: &out) ? out : nil
    }

    private static func append(_ value: Any, to out: inout [UInt8]) -> Bool {
        switch value {
        case let text as String:
            appendString(text, to: &out)
        case let flag as Bool:
            out.append(contentsOf: (flag ? "true" : "false").utf8)
        case let number as Int:
            out.append(contentsOf: String(number).utf8)
        case let list as [Any]:
            out.append(UInt8(ascii: "["))
            for (index, element) in list.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                guard append(element, to: &out) else { return false }
            }
            out.append(UInt8(ascii: "]"))
        case let object as [String: Any]:
            out.append(UInt8(ascii: "{"))
            // Sorted keys: the same request always has the same bytes (and the same signature).
            for (index, key) in object.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                guard append(object[key]!, to: &out) else { return false }
            }
            out.append(UInt8(ascii: "}"))
        default:
            return false
        }
        return true
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A JSON string: `"` and `\` escaped, control characters as `\u00XX`, everything else as UTF-8.
    private static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                out.append(contentsOf: Array(#"\u00"#.utf8))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
