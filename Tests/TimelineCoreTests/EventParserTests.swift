import Testing
@testable import TimelineCore

@Suite struct EventParserTests {
    static let minimal = #"{"id":"e1","agent_id":"a1","task_id":"t1","title":"Hello","status":"info","timestamp":"2026-11-22T03:04:05Z"}"#

    @Test func parsesMinimalEvent() throws {
        let event = try EventParser.parse(Self.minimal).get()
        #expect(event.id == "e1")
        #expect(event.agentID == "a1")
        #expect(event.taskID == "t1")
        #expect(event.title == "Hello")
        #expect(event.status == .info)
        #expect(event.body == "")
        #expect(event.category == nil)
        #expect(event.progress == nil)
        #expect(event.timestampMicros == 1_795_316_645_000_000)
        #expect(event.rawJSON == Self.minimal)
    }

    @Test func reportsOneReason() {
        let missing = #"{"id":"e1","agent_id":"a1","title":"Hello","status":"info","timestamp":"2026-11-22T03:04:05Z"}"#
        #expect(reason(missing) == #"missing required field "task_id""#)
        #expect(reason(Self.minimal.replacingOccurrences(of: #""info""#, with: #""done""#))
                == #"status "done" is not one of info, in_progress, success, warning, error, needs_input"#)
        #expect(reason(Self.minimal.replacingOccurrences(of: "}", with: #","progress":150}"#))
                == #"field "progress" must be a number from 0 to 100, got 150"#)
        #expect(reason(Self.minimal.replacingOccurrences(of: "}", with: #","progress":true}"#))
                == #"field "progress" must be a number from 0 to 100, got true"#)
        #expect(reason(Array(Self.minimal.utf8) + [0xFF]) == "message is not valid UTF-8 (byte 0xFF at offset \(Self.minimal.utf8.count))")
        #expect(reason("{") == "message is not valid JSON: unexpected end of input at byte 1")
        #expect(reason("[1]") == "message is not a JSON object, got an array")
    }

    private func reason(_ text: String) -> String? { reason(Array(text.utf8)) }
    private func reason(_ bytes: [UInt8]) -> String? {
        if case .failure(let rejection) = EventParser.parse(bytes) { return rejection.reason }
        return nil
    }
}
