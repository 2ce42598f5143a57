/// A small strict JSON reader for SQS answers. Foundation's `JSONSerialization` (and `JSONDecoder`) on
/// Linux cost about a tenth of `timeline drain`'s CPU time when profiled, more than signing requests.
/// Values come out as `[String: Any]`, `[Any]`, `String`, `Int`, `Double` and `Bool`; JSON `null`
/// members and elements are left out (SQS answers never need them). Strings must be valid UTF-8.
enum ResponseJSON {
    /// The top-level object, or nil when the bytes are not one well-formed JSON object.
    static func object(from bytes: [UInt8]) -> [String: Any]? {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(bytes: buffer)
            reader.skipWhitespace()
            guard reader.peek == UInt8(ascii: "{"), case .some(.some(let value)) = reader.value(depth: 0),
                  let object = value as? [String: Any] else { return nil }
            reader.skipWhitespace()
            return reader.atEnd ? object : nil
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        static let maximumDepth = 64

        var atEnd: Bool { index >= bytes.count }
        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        /// nil: malformed. `.some(nil)`: a JSON null.
        mutating func value(depth: Int) -> Any?? {
            guard depth < Self.maximumDepth else { return nil }
            skipWhitespace()
            guard let byte = peek else { return nil }
            switch byte {
            case UInt8(ascii: "{"): return wrap(object(depth: depth))
            case UInt8(ascii: "["): return wrap(array(depth: depth))
            case UInt8(ascii: "\""): return wrap(string())
            case UInt8(ascii: "t"): return literal("true") ? .some(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .some(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .some(nil) : nil
            default: return wrap(number())
            }
        }

        /// nil stays "malformed"; a value becomes "present".
        private func wrap<T>(_ value: T?) -> Any?? {
            guard let value else { return nil }
            return .some(.some(value))
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        mutating func object(depth: Int) -> [String: Any]? {
            index += 1  // {
            var result: [String: Any] = [:]
            skipWhitespace()
            if peek == UInt8(ascii: "}") { index += 1; return result }
            while true {
                skipWhitespace()
                guard peek == UInt8(ascii: "\""), let key = string() else { return nil }
                skipWhitespace()
                guard peek == UInt8(ascii: ":") else { return nil }
                index += 1
                guard case .some(let member) = value(depth: depth + 1) else { return nil }
                if let member { result[key] = member }
                skipWhitespace()
                switch peek {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"): index += 1; return result
                default: return nil
                }
            }
        }

        mutating func array(depth: Int) -> [Any]? {
            index += 1  // [
            var result: [Any] = []
            skipWhitespace()
            if peek == UInt8(ascii: "]") { index += 1; return result }
            while true {
                guard case .some(let element) = value(depth: depth + 1) else { return nil }
                if let element { result.append(element) }
                skipWhitespace()
                switch peek {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"): index += 1; return result
                default: return nil
                }
            }
        }

        mutating func number() -> Any? {
            let start = index
            while let byte = peek, (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                index += 1
            }
            guard index > start else { return nil }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            if let integer = Int(text) { return integer }
            return Double(text)
        }

        /// A string; the fast path copies runs without escapes in one go.
        mutating func string() -> String? {
            index += 1  // "
            var runStart = index
            var scalars: [UInt8] = []  // the decoded bytes so far, once an escape was seen
            var escaped = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let run = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
                    index += 1
                    if !escaped { return String(validating: run, as: UTF8.self) }
                    scalars.append(contentsOf: run)
                    return String(validating: scalars, as: UTF8.self)
                }
                if byte < 0x20 { return nil }
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    scalars.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                    index += 1
                    guard let code = peek else { return nil }
                    index += 1
                    switch code {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(code)
                    case UInt8(ascii: "b"): scalars.append(0x08)
                    case UInt8(ascii: "f"): scalars.append(0x0C)
                    case UInt8(ascii: "n"): scalars.append(0x0A)
                    case UInt8(ascii: "r"): scalars.append(0x0D)
                    case UInt8(ascii: "t"): scalars.append(0x09)
                    case UInt8(ascii: "u"):
                        guard let scalar = unicodeEscape() else { return nil }
                        scalars.append(contentsOf: String(Character(scalar)).utf8)
                    default: return nil
                    }
                    runStart = index
                    continue
                }
                index += 1
            }
            return nil
        }

        /// After `\u`: four hex digits, or a surrogate pair written as two escapes.
        mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let high = hex4() else { return nil }
            if (0xD800..<0xDC00).contains(high) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { return nil }
                index += 2
                guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            }
            return Unicode.Scalar(high)
        }

        mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case 0x30...0x39: digit = byte - 0x30
                case 0x41...0x46: digit = byte - 0x41 + 10
                case 0x61...0x66: digit = byte - 0x61 + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }
    }
}
