import Testing
@testable import StrictJSON

/// `JSONReader.object(from:)`: the SQS answer path keeps the strict grammar of event payloads.
struct JSONReaderValuesTests {
    private func read(_ text: String) -> [String: Any]? { JSONReader.object(from: Array(text.utf8)) }

    @Test func readsAReceiveMessageAnswer() throws {
        let object = try #require(read(#"""
            {"Messages":[{"MessageId":"m-1","Body":"{\"id\":\"e\u00e9\ud83d\ude80\"}","Attributes":{"SentTimestamp":"1"},
              "Count":3,"Ratio":-2.5e-1,"Flag":true,"Gone":null}], "Empty": [], "Nothing": null}
            """#))
        let message = try #require((object["Messages"] as? [[String: Any]])?.first)
        #expect(message["MessageId"] as? String == "m-1")
        #expect(message["Body"] as? String == #"{"id":"eé🚀"}"#)
        #expect((message["Attributes"] as? [String: Any])?["SentTimestamp"] as? String == "1")
        #expect(message["Count"] as? Int == 3)
        #expect(message["Ratio"] as? Double == -0.25)
        #expect(message["Flag"] as? Bool == true)
        #expect(message["Gone"] == nil && object["Nothing"] == nil)  // nulls are left out
        #expect((object["Empty"] as? [Any])?.isEmpty == true)
    }

    /// The SQS-only reader accepted these (`+1`, `01`, `.5`, `1.` went through `Int`/`Double` parsing).
    @Test(arguments: ["+1", "01", "-01", ".5", "1.", "1e", "1e+", "-", "1.5.2", "0x10", "Infinity", "NaN"])
    func refusesNumbersOutsideTheJSONGrammar(_ number: String) {
        #expect(read(#"{"n":\#(number)}"#) == nil)
    }

    @Test(arguments: [#""a""#, "[]", "{", #"{"a":1"#, #"{"a":1,}"#, #"{"a" 1}"#, #"{"a":"\x"}"#, #"{"a":"\ud800"}"#,
                      #"{"a":"\udc00"}"#, "{\"a\":\"tab\there\"}", #"{"a":tru}"#, #"{} {}"#, ""])
    func refusesMalformedDocuments(_ text: String) {
        #expect(read(text) == nil)
    }

    @Test func refusesInvalidUTF8InsideStrings() {
        let bytes: [UInt8] = Array(#"{"a":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(JSONReader.object(from: bytes) == nil)
        let escaped: [UInt8] = Array(#"{"a":"\n"#.utf8) + [0xFF] + Array(#""}"#.utf8)
        #expect(JSONReader.object(from: escaped) == nil)
    }

    @Test func boundsNesting() {
        let deep = String(repeating: "[", count: JSONReader.maxDepth) + String(repeating: "]", count: JSONReader.maxDepth)
        #expect(read(#"{"a":\#(deep)}"#) == nil)
        let fits = String(repeating: "[", count: JSONReader.maxDepth - 2) + String(repeating: "]", count: JSONReader.maxDepth - 2)
        #expect(read(#"{"a":\#(fits)}"#) != nil)
    }
}
