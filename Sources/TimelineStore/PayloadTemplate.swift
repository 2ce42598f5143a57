import StrictJSON
import TimelineCore

/// The values of an event that the `events` table keeps as columns, and that a payload template leaves out.
struct PayloadValues: Sendable, Equatable {
    var id: String
    var agentID: String
    var taskID: String
    var title: String
    var body: String
    var status: String
    var category: String?
    var timestampMicros: Int64
    var progress: Double?

    init(id: String, agentID: String, taskID: String, title: String, body: String, status: String,
         category: String?, timestampMicros: Int64, progress: Double?) {
        (self.id, self.agentID, self.taskID, self.title, self.body) = (id, agentID, taskID, title, body)
        (self.status, self.category, self.timestampMicros, self.progress) = (status, category, timestampMicros, progress)
    }

    init(_ event: Event) {
        self.init(id: event.id, agentID: event.agentID, taskID: event.taskID, title: event.title, body: event.body,
                  status: event.status.rawValue, category: event.category, timestampMicros: event.timestampMicros,
                  progress: event.progress)
    }
}

/// An event's exact payload bytes stored without the values its columns already hold.
///
/// The template is the payload's JSON text with each known field's value (a member of the top-level object)
/// replaced by one marker byte, a C0 control character other than JSON's whitespace (tab, newline, carriage
/// return): such a byte never appears raw in valid JSON text, so a marker is never mistaken for payload.
/// A value is cut only when writing the column's value back gives exactly the payload's bytes — strings the
/// one way `JSONWriter` writes them, the timestamp as `TimeFormat.iso8601` with 0, 3 or 6 fraction digits,
/// progress as `JSONWriter.number` — so `render(template(of: raw))` is `raw` whatever the payload's encoder
/// did (other escapes, spacing, key order, unknown fields): what cannot be written back stays in the
/// template literally. A payload whose top level is not one object, or that names a known field twice, is
/// kept whole; one that holds a marker byte itself (not valid JSON) is kept whole after `literal`.
enum PayloadTemplate {
    /// What a marker byte stands for.
    enum Marker: UInt8, CaseIterable {
        case id = 0x01, agentID = 0x02, taskID = 0x03, title = 0x04, body = 0x05, status = 0x06, category = 0x07
        case progress = 0x08
        case timestampSeconds = 0x0B, timestampMillis = 0x0C, timestampMicros = 0x0E
    }

    /// First byte of a template that is the payload itself, markers not interpreted.
    static let literal: UInt8 = 0x1F

    /// The known keys as the payload writes them, each with the markers that may stand for its value.
    private static let keys: [(key: [UInt8], markers: [Marker])] = [
        ("id", [.id]), ("agent_id", [.agentID]), ("task_id", [.taskID]), ("title", [.title]), ("body", [.body]),
        ("status", [.status]), ("category", [.category]), ("progress", [.progress]),
        ("timestamp", [.timestampMillis, .timestampSeconds, .timestampMicros]),
    ].map { (Array($0.0.utf8), $0.1) }

    /// Whether `byte` may be a marker (or `literal`): a C0 control that is not JSON whitespace.
    @inline(__always)
    static func isReserved(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D
    }

    /// The template of `raw` given the values the row's columns hold.
    static func template(of raw: String, values: PayloadValues) -> [UInt8] {
        var raw = raw
        return raw.withUTF8 { bytes in
            if ByteScan.containsReserved(bytes) { return [literal] + bytes }
            guard let members = TopLevelMembers.scan(bytes) else { return Array(bytes) }
            var cuts: [(range: Range<Int>, marker: Marker)] = []
            var seen = 0
            var scratch: [UInt8] = []
            for member in members {
                let key = UnsafeBufferPointer(rebasing: bytes[member.key])
                guard let known = keys.firstIndex(where: { ByteScan.equal($0.key, key) }) else { continue }
                if seen & (1 << known) != 0 { return Array(bytes) }  // a known key twice: keep it whole
                seen |= 1 << known
                let value = UnsafeBufferPointer(rebasing: bytes[member.value])
                for marker in keys[known].markers where writes(marker, of: values, as: value, scratch: &scratch) {
                    cuts.append((member.value, marker))
                    break
                }
            }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var start = 0
            for cut in cuts {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<cut.range.lowerBound]))
                out.append(cut.marker.rawValue)
                start = cut.range.upperBound
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
            return out
        }
    }

    /// Whether `append(marker, of: values)` writes exactly `value`. A string value without a backslash, DEL
    /// or C0 control is compared in place: `JSONWriter` writes it so exactly when the column holds its bytes
    /// (every escape it writes starts with a backslash, and those bytes are all it escapes besides the
    /// quote, which cannot stand raw inside the value). Anything else is written out into `scratch` and
    /// compared.
    private static func writes(_ marker: Marker, of values: PayloadValues, as value: UnsafeBufferPointer<UInt8>,
                               scratch: inout [UInt8]) -> Bool {
        if let text = text(of: marker, in: values), value.count >= 2, value[0] == UInt8(ascii: "\""),
           value[value.count - 1] == UInt8(ascii: "\"") {
            let inner = UnsafeBufferPointer(rebasing: value[1..<(value.count - 1)])
            if !ByteScan.containsEscaped(inner) {
                var text = text
                return text.withUTF8 { ByteScan.equal($0, inner) }
            }
        }
        scratch.removeAll(keepingCapacity: true)
        return append(marker, of: values, to: &scratch) && ByteScan.equal(scratch, value)
    }

    /// The column text a string marker stands for (nil for the others, and for a missing category).
    private static func text(of marker: Marker, in values: PayloadValues) -> String? {
        switch marker {
        case .id: values.id
        case .agentID: values.agentID
        case .taskID: values.taskID
        case .title: values.title
        case .body: values.body
        case .status: values.status
        case .category: values.category
        case .progress, .timestampSeconds, .timestampMillis, .timestampMicros: nil
        }
    }

    /// The exact payload a template stands for, nil when it names a value the row does not have (a template
    /// not made from this row).
    static func render(_ template: UnsafeBufferPointer<UInt8>, values: PayloadValues) -> [UInt8]? {
        guard let first = template.first else { return [] }
        if first == literal { return Array(template.dropFirst()) }
        var out: [UInt8] = []
        out.reserveCapacity(template.count + values.body.utf8.count + values.title.utf8.count + 160)
        var start = 0
        for index in template.indices where isReserved(template[index]) {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: template[start..<index]))
            guard let marker = Marker(rawValue: template[index]), append(marker, of: values, to: &out) else { return nil }
            start = index + 1
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: template[start...]))
        return out
    }

    /// `render` of a template held in an array.
    static func render(_ template: [UInt8], values: PayloadValues) -> [UInt8]? {
        template.withUnsafeBufferPointer { render($0, values: values) }
    }

    /// Appends the JSON text a marker stands for; false when the row has no such value.
    private static func append(_ marker: Marker, of values: PayloadValues, to out: inout [UInt8]) -> Bool {
        switch marker {
        case .id: appendQuoted(values.id, to: &out)
        case .agentID: appendQuoted(values.agentID, to: &out)
        case .taskID: appendQuoted(values.taskID, to: &out)
        case .title: appendQuoted(values.title, to: &out)
        case .body: appendQuoted(values.body, to: &out)
        case .status: appendQuoted(values.status, to: &out)
        case .category:
            guard let category = values.category else { return false }
            appendQuoted(category, to: &out)
        case .progress:
            guard let progress = values.progress, let text = JSONWriter.number(progress) else { return false }
            out.append(contentsOf: text.utf8)
        case .timestampSeconds, .timestampMillis, .timestampMicros:
            // "YYYY-MM-DDTHH:MM:SS.ffffffZ", cut to the marker's fraction digits when those are all it has;
            // written in place (a read renders one per row).
            let (fraction, unit): (Int, Int64) = switch marker {
            case .timestampSeconds: (0, 1_000_000)
            case .timestampMillis: (3, 1_000)
            default: (6, 1)
            }
            guard values.timestampMicros % 1_000_000 % unit == 0 else { return false }
            out.append(UInt8(ascii: "\""))
            let start = out.count
            TimeFormat.appendISO8601(micros: values.timestampMicros, to: &out)
            guard out.count - start > 8 else {
                out.removeLast(out.count - start + 1)
                return false
            }
            let secondsEnd = out.count - 8  // before ".ffffffZ"
            out.removeLast(out.count - (fraction == 0 ? secondsEnd : secondsEnd + 1 + fraction))
            out.append(contentsOf: "Z\"".utf8)
        }
        return true
    }
}

extension PayloadTemplate {
    /// `JSONWriter.appendQuoted`: a value with no byte to escape (nearly every one) is copied whole after a
    /// scan 8 bytes at a time (a read renders every value of every row); any other goes through `JSONWriter`.
    static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        var text = text
        let copied = text.withUTF8 { bytes in
            guard !needsEscape(bytes) else { return false }
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: bytes)
            out.append(UInt8(ascii: "\""))
            return true
        }
        if !copied { JSONWriter.appendQuoted(text, to: &out) }
    }

    /// Whether any byte is one JSON strings escape: a quote, a backslash, a C0 control or DEL.
    static func needsEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        ByteScan.containsEscapedOrQuote(bytes)
    }
}

/// The members of a JSON text's top-level object, as byte ranges: each key's (inside its quotes) and each
/// value's. Only finds where values start and end (the text was validated when it was parsed, and a cut is
/// checked byte for byte anyway); nil when the text is not one object.
enum TopLevelMembers {
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> [(key: Range<Int>, value: Range<Int>)]? {
        var members: [(key: Range<Int>, value: Range<Int>)] = []
        var i = skipSpace(bytes, 0)
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return nil }
        i = skipSpace(bytes, i + 1)
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
            return skipSpace(bytes, i + 1) == bytes.count ? members : nil
        }
        while true {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\""), let keyEnd = stringEnd(bytes, i) else { return nil }
            let key = (i + 1)..<(keyEnd - 1)
            i = skipSpace(bytes, keyEnd)
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
            i = skipSpace(bytes, i + 1)
            guard let valueEnd = valueEnd(bytes, i) else { return nil }
            members.append((key, i..<valueEnd))
            i = skipSpace(bytes, valueEnd)
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: "}") { break }
            guard bytes[i] == UInt8(ascii: ",") else { return nil }
            i = skipSpace(bytes, i + 1)
        }
        return skipSpace(bytes, i + 1) == bytes.count ? members : nil
    }

    private static func skipSpace(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var i = start
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        return i
    }

    /// Index after the string starting at `start` (its opening quote).
    private static func stringEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int? {
        var i = start + 1
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\\"): i += 2
            case UInt8(ascii: "\""): return i + 1
            default: i += 1
            }
        }
        return nil
    }

    /// Index after the value starting at `start`.
    private static func valueEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return stringEnd(bytes, start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var i = start
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "\""):
                    guard let end = stringEnd(bytes, i) else { return nil }
                    i = end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return i + 1 }
                default: break
                }
                i += 1
            }
            return nil
        default:
            // A number, true, false or null: up to the next delimiter.
            var i = start
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: return i == start ? nil : i
                default: i += 1
                }
            }
            return nil
        }
    }
}
