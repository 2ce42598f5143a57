import Foundation
import Testing
@testable import StrictJSON

struct JSONWriterTests {
    private func text(_ value: Any, escaping: ((Unicode.Scalar) -> Bool)? = nil) -> String? {
        JSONWriter.encode(value, escaping: escaping).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func writesCompactJSONWithSortedKeys() {
        let value: [String: Any] = ["b": [1, Int64(2), 2.5, 3.0, true, NSNull()], "a": "x", "c": ["z": false]]
        #expect(text(value) == #"{"a":"x","b":[1,2,2.5,3,true,null],"c":{"z":false}}"#)
    }

    @Test func escapesWhatJSONRequires() {
        #expect(JSONWriter.quoted("q\" b\\ /\n\r\t\u{1}\u{7F} é🚀") == #""q\" b\\ /\n\r\t\u0001\u007f é🚀""#)
    }

    @Test func escapesAtTheEdgesAndBetweenLongPlainRuns() {
        let plain = String(repeating: "AQEB+zx/9=", count: 40)
        #expect(JSONWriter.quoted("\"" + plain + "\n" + plain + "\\") == #""\""# + plain + #"\n"# + plain + #"\\""#)
        #expect(JSONWriter.quoted(plain) == "\"" + plain + "\"")
        #expect(JSONWriter.quoted("") == "\"\"")
        #expect(JSONWriter.quoted("\u{1}\u{7F}") == #""\u0001\u007f""#)
    }

    @Test func objectWriterWritesTheSameBytesAsTheDictionaryInSortedOrder() {
        var item = JSONObjectWriter()
        item.add("Id", "m0")
        item.add("ReceiptHandle", "AQEB\"quoted\"\n/+=")
        var object = JSONObjectWriter()
        object.add("Attributes", ["A", "b\\c"])
        object.add("Entries", [item, item])
        object.add("Max", 10)
        object.add("Negative", -3)
        object.add("QueueUrl", "http://127.0.0.1:4566/000000000000/q é")
        let entry: [String: Any] = ["Id": "m0", "ReceiptHandle": "AQEB\"quoted\"\n/+="]
        let dictionary: [String: Any] = [
            "QueueUrl": "http://127.0.0.1:4566/000000000000/q é", "Max": 10, "Negative": -3,
            "Attributes": ["A", "b\\c"], "Entries": [entry, entry],
        ]
        #expect(object.bytes == JSONWriter.encode(dictionary))
        #expect(JSONObjectWriter().bytes == Array("{}".utf8))
    }

    @Test func escapesTheCallersCharactersAsTheSameValue() throws {
        let unsafe: (Unicode.Scalar) -> Bool = { $0.value == 0x202E || $0.value == 0xE0001 || $0 == "\"" || $0 == "A" }
        let line = try #require(text(["k": "A\u{202E}\u{E0001}\"\u{1}"], escaping: unsafe))
        #expect(line == #"{"k":"\u0041\u202E\uDB40\uDC01\"\u0001"}"#)
        let back = try #require(JSONReader.object(from: Array(line.utf8)))
        #expect(back["k"] as? String == "A\u{202E}\u{E0001}\"\u{1}")
    }

    @Test func refusesWhatJSONCannotHold() {
        #expect(text(["n": Double.infinity]) == nil)
        #expect(text(["d": Date()]) == nil)
        #expect(JSONWriter.number(.nan) == nil)
        #expect(JSONWriter.number(42) == "42" && JSONWriter.number(42.5) == "42.5")
    }
}
