/// A small, strict reader for the AWS query protocol's XML answers (STS): finds the text of a
/// leaf element by its path of names, e.g. `["Credentials", "AccessKeyId"]`. Namespaces and
/// attributes are ignored; the five predefined entities and numeric references are decoded;
/// anything malformed (unclosed tags, a leaf that holds elements, unknown entities) gives nil.
public struct XMLTextReader: Sendable {
    /// Every leaf element: its path of element names from the root, and its decoded text.
    public let leaves: [(path: [String], text: String)]

    /// Parses `text`; nil when it is not well-formed enough to trust.
    public init?(_ text: String) {
        var leaves: [(path: [String], text: String)] = []
        var stack: [String] = []
        var pendingText = ""
        var childSeen: [Bool] = []
        var index = text.startIndex
        while index < text.endIndex {
            guard let open = text[index...].firstIndex(of: "<") else {
                guard text[index...].allSatisfy(\.isWhitespace) else { return nil }
                break
            }
            pendingText += text[index..<open]
            guard let close = text[open...].firstIndex(of: ">") else { return nil }
            let tag = text[text.index(after: open)..<close]
            index = text.index(after: close)
            if tag.hasPrefix("?") || tag.hasPrefix("!") { continue }  // declaration, comment
            if tag.hasPrefix("/") {
                let name = Self.localName(tag.dropFirst())
                guard let top = stack.popLast(), top == name else { return nil }
                let hadChildren = childSeen.popLast() ?? false
                if !hadChildren {
                    guard let decoded = Self.decodeEntities(pendingText) else { return nil }
                    leaves.append((stack + [name], decoded))
                } else if !pendingText.allSatisfy(\.isWhitespace) {
                    return nil  // mixed content
                }
                pendingText = ""
                continue
            }
            guard pendingText.allSatisfy(\.isWhitespace) else { return nil }
            pendingText = ""
            if !childSeen.isEmpty { childSeen[childSeen.count - 1] = true }
            let selfClosing = tag.hasSuffix("/")
            let name = Self.localName(selfClosing ? tag.dropLast() : tag)
            guard !name.isEmpty else { return nil }
            if selfClosing {
                leaves.append((stack + [name], ""))
            } else {
                stack.append(name)
                childSeen.append(false)
            }
        }
        guard stack.isEmpty, !leaves.isEmpty || !text.isEmpty else { return nil }
        self.leaves = leaves
    }

    /// The text of the first leaf whose path ends with `suffix`.
    public func text(_ suffix: String...) -> String? {
        leaves.first { $0.path.count >= suffix.count && Array($0.path.suffix(suffix.count)) == suffix }?.text
    }

    /// `Name` of `ns:Name attr="…"`.
    static func localName(_ tag: Substring) -> String {
        let name = tag.prefix { !$0.isWhitespace }
        return String(name.split(separator: ":").last ?? "")
    }

    static func decodeEntities(_ text: String) -> String? {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";") else { return nil }
            let entity = rest[rest.index(after: amp)..<semi]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let scalarValue: UInt32?
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    scalarValue = UInt32(entity.dropFirst(2), radix: 16)
                } else if entity.hasPrefix("#") {
                    scalarValue = UInt32(entity.dropFirst())
                } else {
                    scalarValue = nil
                }
                guard let value = scalarValue, let scalar = Unicode.Scalar(value) else { return nil }
                result.unicodeScalars.append(scalar)
            }
            rest = rest[rest.index(after: semi)...]
        }
        return result + rest
    }
}
