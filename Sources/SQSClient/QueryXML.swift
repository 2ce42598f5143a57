/// Reads the few values timeline needs from the XML answers of AWS query-protocol services (SNS):
/// element texts by name, entities decoded. Not a general XML parser: AWS answers are flat and regular.
enum QueryXML {
    /// The text of the first `<name>…</name>` element.
    static func first(_ name: String, in text: Substring) -> String? {
        all(name, in: text).first
    }

    /// The texts of every `<name>…</name>` element, in order (nested elements are returned raw).
    static func all(_ name: String, in text: Substring) -> [String] {
        elements(name, in: text).map { decodeEntities(String($0)) }
    }

    /// The raw inner text of every `<name>…</name>` element (for reading nested members).
    static func elements(_ name: String, in text: Substring) -> [Substring] {
        var found: [Substring] = []
        var rest = text[...]
        while let open = rest.range(of: "<\(name)>"),
              let close = rest.range(of: "</\(name)>", range: open.upperBound..<rest.endIndex) {
            found.append(rest[open.upperBound..<close.lowerBound])
            rest = rest[close.upperBound...]
        }
        return found
    }

    /// XML's five named entities and numeric character references.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semi) <= 10 else {
                out += rest[amp...]
                return out
            }
            let entity = rest[rest.index(after: amp)..<semi]
            switch entity {
            case "lt": out += "<"
            case "gt": out += ">"
            case "amp": out += "&"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                let number = entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16)
                    : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                if let number, let scalar = Unicode.Scalar(number) { out.unicodeScalars.append(scalar) } else { out += rest[amp...semi] }
            }
            rest = rest[rest.index(after: semi)...]
        }
        return out + rest
    }
}
