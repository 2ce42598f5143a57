import Testing
@testable import TimelineCore

@Suite struct EventEncoderTests {
    @Test func encodedPayloadsParseBackUnchanged() throws {
        let titles = ["plain", "quote \" backslash \\ slash /", "ctl \u{1B}[31m \u{7F} \t\n\r", "部署 🚀 👨‍👩‍👧", "\u{202E}bidi"]
        for (i, title) in titles.enumerated() {
            let text = EventEncoder.json(id: "e\(i)", agentID: "agent", taskID: "task", title: title, status: "success",
                                         timestamp: "2026-11-22T05:04:05.5+02:00", body: "body \(title)",
                                         category: "ci", progress: [0, 42.5, 100, 1e-7, 99.99][i])
            let event = try EventParser.parse(text).get()
            #expect(event.title == title)
            #expect(event.body == "body \(title)")
            #expect(event.progress == [0, 42.5, 100, 1e-7, 99.99][i])
            #expect(event.timestampMicros == 1_795_316_645_500_000)
            let again = try EventParser.parse(EventEncoder.json(event)).get()
            #expect(again.title == event.title && again.timestampMicros == event.timestampMicros
                    && again.progress == event.progress && again.category == event.category)
        }
    }

    @Test func invalidValuesGetTheParsersReasons() {
        func reason(_ text: String) -> String? {
            if case .failure(let r) = EventParser.parse(text) { return r.reason }
            return nil
        }
        let base = (id: "e", agent: "a", task: "t", title: "x")
        #expect(reason(EventEncoder.json(id: base.id, agentID: base.agent, taskID: base.task, title: "a\u{0}b", status: "info",
                                         timestamp: "2026-11-22T03:04:05Z")) == #"field "title" contains a NUL character"#)
        #expect(reason(EventEncoder.json(id: base.id, agentID: base.agent, taskID: base.task, title: base.title, status: "done",
                                         timestamp: "2026-11-22T03:04:05Z"))
                == #"status "done" is not one of info, in_progress, success, warning, error, needs_input"#)
        #expect(reason(EventEncoder.json(id: base.id, agentID: base.agent, taskID: base.task, title: base.title, status: "info",
                                         timestamp: "2026-11-22T03:04:05Z", progress: .nan))
                == #"field "progress" must be a number from 0 to 100, got "nan""#)
        #expect(EventEncoder.quoted("a\u{1}\u{7F}") == #""a\u0001\u007f""#)
    }
}
