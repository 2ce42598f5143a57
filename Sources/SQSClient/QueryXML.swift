/// The one XML reader: a small, strict reader for the answers of AWS query-protocol services (STS, SNS)
/// and for XML error bodies. It reads a whole document into a tree of elements, or throws a
/// `MalformedError` saying what is wrong and where.
///
/// Accepted: one root element; the XML declaration, comments and processing instructions (skipped);
/// attributes (ignored); namespace prefixes (dropped: `sts:Arn` is `Arn`); CDATA sections; the five
/// predefined entities and numeric character references. Refused: a DOCTYPE (no entity definitions),
/// unclosed or mismatched tags, unknown entities, text mixed with elements, anything after the root, and
/// nesting deeper than `maxDepth`. Text is returned as it is: callers sanitize before display.
public struct QueryXML: Sendable {
    /// An element: its local name, its child elements, and its decoded text (empty when it has children).
    public struct Element: Sendable {
        public let name: String
        public let children: [Element]
        public let text: String
    }

    public struct MalformedError: Error, Equatable, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Deeper documents are refused (AWS answers nest a few levels).
    public static let maxDepth = 64

    public let root: Element

    public init(_ text: String) throws(MalformedError) {
        var parser = Parser(scalars: Array(text.unicodeScalars))
        root = try parser.document()
    }

    /// The text of the first leaf element whose path of names ends with `path`
    /// (`text("Credentials", "AccessKeyId")`), or nil.
    public func text(_ path: String...) -> String? {
        func search(_ element: Element, _ trail: [String]) -> String? {
            let here = trail + [element.name]
            if element.children.isEmpty {
                return here.count >= path.count && Array(here.suffix(path.count)) == path ? element.text : nil
            }
            for child in element.children {
                if let found = search(child, here) { return found }
            }
            return nil
        }
        return search(root, [])
    }
}

extension QueryXML.Element {
    /// The first element named `name`, this one or below, in document order.
    public func first(_ name: String) -> QueryXML.Element? {
        if self.name == name { return self }
        for child in children {
            if let found = child.first(name) { return found }
        }
        return nil
    }

    /// Every element named `name`, this one or below, in document order (not searched inside a match).
    public func all(_ name: String) -> [QueryXML.Element] {
        self.name == name ? [self] : children.flatMap { $0.all(name) }
    }
}

extension QueryXML {
    /// A recursive-descent reader over Unicode scalars (so a combining mark never hides a `<` or `>`).
    private struct Parser {
        let scalars: [Unicode.Scalar]
        var index = 0

        mutating func document() throws(MalformedError) -> Element {
            try skipMisc()
            guard starts(with: "<") else { throw fail("there is no root element") }
            let root = try element(depth: 1)
            try skipMisc()
            guard index == scalars.count else { throw fail("there is text after the root element </\(root.name)>") }
            return root
        }

        /// Whitespace, comments and processing instructions around the root.
        mutating func skipMisc() throws(MalformedError) {
            while index < scalars.count {
                if scalars[index].properties.isWhitespace {
                    index += 1
                } else if starts(with: "<?") || starts(with: "<!--") {
                    try skipMarkup()
                } else if starts(with: "<!") {
                    throw fail("a DOCTYPE or other declaration is not accepted")
                } else {
                    return
                }
            }
        }

        /// Skips a comment or processing instruction at `index`.
        mutating func skipMarkup() throws(MalformedError) {
            let comment = starts(with: "<!--")
            try skip(past: comment ? "-->" : "?>", what: comment ? "comment" : "processing instruction")
        }

        mutating func element(depth: Int) throws(MalformedError) -> Element {
            guard depth <= QueryXML.maxDepth else { throw fail("elements nest deeper than \(QueryXML.maxDepth) levels") }
            guard starts(with: "<") else { throw fail("expected an element") }
            index += 1
            let qualified = readName()
            guard !qualified.isEmpty else { throw fail("an element has no name") }
            let name = Self.localName(qualified)
            if try readAttributes(of: qualified) {
                return Element(name: name, children: [], text: "")
            }
            var children: [Element] = []
            var text = ""
            while true {
                guard index < scalars.count else { throw fail("<\(qualified)> is never closed") }
                let scalar = scalars[index]
                if starts(with: "</") {
                    index += 2
                    let closing = readName()
                    while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
                    guard starts(with: ">") else { throw fail("the closing tag </\(closing)> has no >") }
                    guard closing == qualified else { throw fail("</\(closing)> closes <\(qualified)>") }
                    index += 1
                    break
                } else if starts(with: "<![CDATA[") {
                    index += 9
                    let start = index
                    try skip(past: "]]>", what: "CDATA section")
                    text.unicodeScalars.append(contentsOf: scalars[start..<(index - 3)])
                } else if starts(with: "<!--") || starts(with: "<?") {
                    try skipMarkup()
                } else if starts(with: "<!") {
                    throw fail("a declaration inside <\(qualified)> is not accepted")
                } else if scalar == "<" {
                    children.append(try element(depth: depth + 1))
                } else if scalar == "&" {
                    text.unicodeScalars.append(try entity())
                } else {
                    text.unicodeScalars.append(scalar)
                    index += 1
                }
            }
            if !children.isEmpty {
                guard text.unicodeScalars.allSatisfy(\.properties.isWhitespace) else {
                    throw fail("<\(qualified)> mixes text with elements")
                }
                text = ""
            }
            return Element(name: name, children: children, text: text)
        }

        /// Skips attributes up to the end of a start tag; true for an empty-element tag (`<a/>`).
        mutating func readAttributes(of name: String) throws(MalformedError) -> Bool {
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar == ">" { index += 1; return false }
                if starts(with: "/>") { index += 2; return true }
                if scalar == "\"" || scalar == "'" {
                    index += 1
                    guard let close = scalars[index...].firstIndex(of: scalar) else {
                        throw fail("an attribute value of <\(name)> is never closed")
                    }
                    index = close + 1
                } else if scalar == "<" {
                    throw fail("the start tag <\(name) has no >")
                } else {
                    index += 1
                }
            }
            throw fail("the start tag <\(name) has no >")
        }

        /// `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` `&#65;` `&#x41;`, at `index`.
        mutating func entity() throws(MalformedError) -> Unicode.Scalar {
            let start = index
            guard let semicolon = scalars[start...].prefix(12).firstIndex(of: ";") else {
                throw fail("an & starts no entity (write &amp; for a literal &)")
            }
            var name = ""
            name.unicodeScalars.append(contentsOf: scalars[(start + 1)..<semicolon])
            index = semicolon + 1
            switch name {
            case "amp": return "&"
            case "lt": return "<"
            case "gt": return ">"
            case "quot": return "\""
            case "apos": return "'"
            default:
                let value = name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16)
                    : name.hasPrefix("#") ? UInt32(name.dropFirst(), radix: 10) : nil
                guard let value, value != 0, let scalar = Unicode.Scalar(value) else {
                    index = start
                    throw fail("&\(name); is not an entity XML defines")
                }
                return scalar
            }
        }

        /// An element name: everything up to whitespace, `/`, `>` or `<`.
        mutating func readName() -> String {
            var name = ""
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar.properties.isWhitespace || scalar == "/" || scalar == ">" || scalar == "<" { break }
                name.unicodeScalars.append(scalar)
                index += 1
            }
            return name
        }

        mutating func skip(past terminator: String, what: String) throws(MalformedError) {
            let end = Array(terminator.unicodeScalars)
            while index < scalars.count {
                if starts(with: terminator) { index += end.count; return }
                index += 1
            }
            throw fail("a \(what) is never closed (no \(terminator))")
        }

        func starts(with prefix: String) -> Bool {
            var position = index
            for scalar in prefix.unicodeScalars {
                guard position < scalars.count, scalars[position] == scalar else { return false }
                position += 1
            }
            return true
        }

        func fail(_ what: String) -> MalformedError {
            MalformedError(description: "not well-formed XML: \(what) (at character \(min(index, scalars.count)))")
        }

        /// `Name` of `ns:Name`.
        static func localName(_ qualified: String) -> String {
            String(qualified.split(separator: ":").last ?? "")
        }
    }
}
