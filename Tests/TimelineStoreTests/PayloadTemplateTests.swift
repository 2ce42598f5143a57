import Foundation
import StrictJSON
import Testing
import TimelineCore
@testable import TimelineStore

/// `PayloadTemplate`: a payload without the values its columns hold, and the exact payload back.
@Suite("PayloadTemplate")
struct PayloadTemplateTests {
    private let values = PayloadValues(id: "e1", agentID: "agent-7", taskID: "T1", title: "café \"q\" 😀", body: "a\nb",
                                       status: "in_progress", category: "ops", timestampMicros: 1_767_225_600_085_000,
                                       progress: 45)

    private func roundTrip(_ raw: String, _ values: PayloadValues) -> (template: [UInt8], back: String?) {
        let template = PayloadTemplate.template(of: raw, values: values)
        return (template, PayloadTemplate.render(template, values: values).map { String(decoding: $0, as: UTF8.self) })
    }

    @Test func aCompactPayloadKeepsOnlyItsKeysAndUnknownFields() {
        let raw = #"{"id":"e1","agent_id":"agent-7","task_id":"T1","title":"café \"q\" 😀","body":"a\nb","#
            + #""status":"in_progress","category":"ops","timestamp":"2026-01-01T00:00:00.085Z","progress":45,"x":[1,{"y":"z"}]}"#
        let (template, back) = roundTrip(raw, values)
        #expect(back == raw)
        #expect(template == Array(#"{"id":\#u{1},"agent_id":\#u{2},"task_id":\#u{3},"title":\#u{4},"body":\#u{5},"#.utf8)
            + Array(#""status":\#u{6},"category":\#u{7},"timestamp":\#u{C},"progress":\#u{8},"x":[1,{"y":"z"}]}"#.utf8))
    }

    @Test func valuesOtherEncodersWroteOtherwiseStayLiterally() {
        // Python's json.dumps defaults (", ", ": ", ensure_ascii), `\/`, another time form, progress forms.
        let raw = #"{"id": "e1", "agent_id": "agent\/7", "task_id": "T1", "title": "caf\u00e9 \"q\" \ud83d\ude00", "#
            + #""status": "in_progress", "timestamp": "2026-01-01T00:00:00.085+00:00", "progress": 45.0}"#
        let (template, back) = roundTrip(raw, values)
        #expect(back == raw)
        let text = String(decoding: template, as: UTF8.self)
        #expect(text == #"{"id": \#u{1}, "agent_id": "agent\/7", "task_id": \#u{3}, "title": "caf\u00e9 \"q\" \ud83d\ude00", "#
            + #""status": \#u{6}, "timestamp": "2026-01-01T00:00:00.085+00:00", "progress": 45.0}"#)
        for progress in ["1", "1.0", "0.45", "1e-3", "100"] {
            var v = values
            v.progress = Double(progress)
            let raw = #"{"id":"e1","progress":\#(progress)}"#
            let (template, back) = roundTrip(raw, v)
            #expect(back == raw)
            #expect(template.contains(PayloadTemplate.Marker.progress.rawValue) == (progress == JSONWriter.number(v.progress!)))
        }
    }

    @Test func aStringIsCutOnlyWhenTheWriterWritesItSo() {
        // (title in the payload, title in the column, cut?)
        let cases: [(String, String, Bool)] = [
            (#""café 😀 ü""#, "café 😀 ü", true),  // raw UTF-8, compared in place
            (#""a\"b\\c""#, #"a"b\c"#, true),  // escapes the writer writes
            (#""a\/b""#, "a/b", false),  // an escape it does not
            ("\"a\u{7F}b\"", "a\u{7F}b", false),  // DEL raw: the writer escapes it
            (#""a\u007Fb""#, "a\u{7F}b", false),  // upper-case hex: the writer writes lower-case
            (#""a\u007fb""#, "a\u{7F}b", true),
            (#""ab""#, "abc", false), (#""abc""#, "ab", false), (#""""#, "", true),
        ]
        for (json, title, cut) in cases {
            var v = values
            v.title = title
            let raw = #"{"title":\#(json)}"#
            let (template, back) = roundTrip(raw, v)
            #expect(back == raw, "\(json)")
            #expect(template.contains(PayloadTemplate.Marker.title.rawValue) == cut, "\(json)")
        }
    }

    @Test func timestampsOfEachPrecisionAreCut() {
        for (micros, text) in [(Int64(1_767_225_600_000_000), "2026-01-01T00:00:00Z"), (1_767_225_600_085_000, "2026-01-01T00:00:00.085Z"),
                               (1_767_225_600_085_123, "2026-01-01T00:00:00.085123Z"), (1_767_225_600_000_000, "2026-01-01T00:00:00.000Z")] {
            var v = values
            v.timestampMicros = micros
            let raw = #"{"timestamp":"\#(text)"}"#
            let (template, back) = roundTrip(raw, v)
            #expect(back == raw)
            #expect(template.count == #"{"timestamp":}"#.utf8.count + 1)
        }
        var v = values
        v.timestampMicros += 1  // the column says otherwise (e.g. a restored ordering time): kept literally
        let raw = #"{"timestamp":"2026-01-01T00:00:00.085Z"}"#
        let (template, back) = roundTrip(raw, v)
        #expect(template == Array(raw.utf8) && back == raw)
    }

    @Test func oddPayloadsAreKeptWhole() {
        for raw in [#"{"id":"e1","id":"e1"}"#, #"["e1"]"#, #""e1""#, "", "{", #"{"id":"e1"} x"#, #"{"id":"e1",}"#,
                    "{\"id\":\"e1\",\"x\":\"\u{1}\"}", "\u{1F}{\"id\":\"e1\"}", #"{"id":"e1""#] {
            let (template, back) = roundTrip(raw, values)
            #expect(back == raw, "\(raw)")
            #expect(!String(decoding: template, as: UTF8.self).utf8.contains(PayloadTemplate.Marker.id.rawValue)
                    || raw.utf8.contains(1), "\(raw)")
        }
        // Missing body and category, a null category, nested and huge unknown values.
        let huge = String(repeating: "x\\\"{[", count: 20_000)
        let raw = #"{"id":"e1","category":null,"u":{"a":[{"b":"}]"}],"c":"\#(huge)"},"n":-1.5e+300,"t":true}"#
        var v = values
        v.category = nil
        let (template, back) = roundTrip(raw, v)
        #expect(back == raw)
        #expect(template.count == raw.utf8.count - 3)
    }

    @Test func aTemplateThatDoesNotFitItsRowIsRefused() {
        var v = values
        v.category = nil
        #expect(PayloadTemplate.render(Array("{\"category\":\u{7}}".utf8), values: v) == nil)
        #expect(PayloadTemplate.render(Array("{\u{10}}".utf8), values: v) == nil)
    }

    /// Random payloads from several encoders: every one renders back byte for byte, and a compact one
    /// written the canonical way keeps none of its field values.
    @Test func randomPayloadsRoundTrip() {
        var random = SplitMix(seed: 12)
        let pieces = ["word", " ", "\"", "\\", "/", "é", "😀", "日本", "\u{7}", "\n", "\t", "\u{2028}", "\u{7F}", "\u{0}"]
        func text() -> String { (0..<random.next(8)).map { _ in pieces[random.next(pieces.count)] }.joined() }
        for round in 0..<2_000 {
            let canonical = round % 4 == 0
            let v = PayloadValues(id: text(), agentID: text(), taskID: text(), title: text(), body: text(), status: text(),
                                  category: random.next(3) == 0 ? nil : text(),
                                  timestampMicros: 1_700_000_000_000_000 + Int64(random.next(1 << 30)) * [1, 1_000, 1_000_000][random.next(3)],
                                  progress: random.next(3) == 0 ? nil : [1, 0.45, 0.001, 45, 100][random.next(5)])
            let asciiOnly = !canonical && random.next(2) == 0
            let slashes = !canonical && random.next(2) == 0
            func quote(_ s: String) -> String {
                let nonASCII: ((Unicode.Scalar) -> Bool)? = asciiOnly ? { $0.value > 0x7E } : nil
                var out = JSONWriter.quoted(s, escaping: nonASCII)
                if slashes { out = out.replacingOccurrences(of: "/", with: "\\/") }
                return out
            }
            let micros = v.timestampMicros % 1_000_000
            let time = TimeFormat.iso8601(micros: v.timestampMicros)
            let stamp = micros == 0 ? String(time.dropLast(8)) + "Z" : micros % 1_000 == 0 ? String(time.dropLast(4)) + "Z" : time
            var members: [(String, String)] = [
                ("id", quote(v.id)), ("agent_id", quote(v.agentID)), ("task_id", quote(v.taskID)), ("title", quote(v.title)),
                ("status", quote(v.status)), ("timestamp", quote(stamp)),
            ]
            if !v.body.isEmpty || canonical { members.append(("body", quote(v.body))) }
            if let category = v.category { members.append(("category", quote(category))) }
            if let progress = v.progress {
                members.append(("progress", canonical ? JSONWriter.number(progress)! : ["\(progress)", "1e-3", "45"][random.next(3)]))
            }
            if !canonical {
                members.append(("extra_\(random.next(5))", [#"{"a":[1,"]}"]}"#, "null", quote(text()), "-0.5e10"][random.next(4)]))
                if random.next(4) == 0 { members.append(members[random.next(members.count)]) }
                members.shuffle(using: &random)
            }
            let (comma, colon) = canonical || random.next(2) == 0 ? (",", ":") : (", ", ": ")
            let raw = (canonical ? "" : [" ", "\n", ""][random.next(3)]) + "{"
                + members.map { quote($0.0) + colon + $0.1 }.joined(separator: comma) + "}"
            let (template, back) = roundTrip(raw, v)
            #expect(back == raw, "\(raw)")
            if canonical {
                let keysOnly = "{" + members.map { "\"\($0.0)\":" }.joined(separator: ",") + "}"
                #expect(template.count == keysOnly.utf8.count + members.count, "\(raw)")
            }
        }
    }
}

/// A small deterministic generator (SplitMix64).
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
