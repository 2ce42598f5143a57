import Foundation

/// The shared example payloads in `schema/examples` (also run by `agent-tool/tests/test_examples.py`).
enum ExamplePayloads {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("schema/examples")

    /// `(name, bytes)` of every `*.json` body in `valid/` or `invalid/` (not the metadata files).
    static func bodies(_ kind: String) throws -> [(name: String, bytes: [UInt8])] {
        let dir = root.appendingPathComponent(kind)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            .filter { $0.hasSuffix(".json") && $0 != "reasons.json" && $0 != "expected.json" }
            .sorted()
        return try names.map { file in
            (String(file.dropLast(5)), Array(try Data(contentsOf: dir.appendingPathComponent(file))))
        }
    }

    /// NAME → exact expected reason for each invalid body.
    static func reasons() throws -> [String: String] {
        try JSONDecoder().decode([String: String].self, from: Data(contentsOf: root.appendingPathComponent("invalid/reasons.json")))
    }

    /// NAME → normalized fields expected for valid bodies.
    static func expectations() throws -> [String: [String: JSONValue]] {
        try JSONDecoder().decode([String: [String: JSONValue]].self,
                                 from: Data(contentsOf: root.appendingPathComponent("valid/expected.json")))
    }

    struct GeneratedCase: Decodable {
        struct Part: Decodable {
            var text: String?
            var repeatText: String?
            var count: Int?
            init(from decoder: Decoder) throws {
                if let text = try? decoder.singleValueContainer().decode(String.self) {
                    self.text = text
                    return
                }
                let keyed = try decoder.container(keyedBy: CodingKeys.self)
                repeatText = try keyed.decode(String.self, forKey: .repeatText)
                count = try keyed.decode(Int.self, forKey: .count)
            }
            enum CodingKeys: String, CodingKey { case repeatText = "repeat", count }
        }
        var name: String
        var parts: [Part]
        var reason: String?
        var expect: [String: JSONValue]?

        /// The body: the parts concatenated, each `{repeat, count}` expanded.
        var bytes: [UInt8] {
            var out: [UInt8] = []
            for part in parts {
                if let text = part.text { out += Array(text.utf8) }
                if let unit = part.repeatText, let count = part.count {
                    for _ in 0..<count { out += Array(unit.utf8) }
                }
            }
            return out
        }
    }

    static func generated() throws -> [GeneratedCase] {
        struct Manifest: Decodable { var cases: [GeneratedCase] }
        return try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: root.appendingPathComponent("generated.json"))).cases
    }
}

/// A JSON value for expectation files.
enum JSONValue: Decodable, Equatable {
    case null, bool(Bool), number(Double), string(String)
    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else { self = .string(try c.decode(String.self)) }
    }
}
