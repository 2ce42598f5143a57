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
