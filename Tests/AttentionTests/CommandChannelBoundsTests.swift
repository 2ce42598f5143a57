import Attention
import Foundation
import StrictJSON
import Testing
import TestSupport
import TimelineCore

/// A burst of large events cannot make `--notify-command` documents or its queue grow without bound.
@Suite struct CommandChannelBoundsTests {
    static func bigTransition(_ i: Int, bodyBytes: Int) -> TaskTransition {
        let body = String(repeating: "b", count: bodyBytes)
        let raw = EventEncoder.json(id: "e\(i)", agentID: "a", taskID: "T\(i)", title: "t\(i)", status: "error",
                                    timestamp: "2026-11-25T10:00:00Z", body: body)
        let e = Event(id: "e\(i)", agentID: "a", taskID: "T\(i)", title: "t\(i)", body: body, status: .error,
                      timestampMicros: 0, rawJSON: raw)
        return transition(e)
    }

    /// `count` events as `bigTransition` makes them, cheaply: the body and its encoded JSON (the stored JSON's
    /// tail, after the title) are made once and shared, so a burst of large events costs no seconds to build.
    static func bigTransitions(_ count: Int, bodyBytes: Int) -> [TaskTransition] {
        let template = bigTransition(0, bodyBytes: bodyBytes).event
        let tail = template.rawJSON[template.rawJSON.range(of: ",\"body\":")!.lowerBound...]
        return (0..<count).map { i in
            let raw = "{\"id\":\"e\(i)\",\"agent_id\":\"a\",\"task_id\":\"T\(i)\",\"title\":\"t\(i)\"" + tail
            return transition(Event(id: "e\(i)", agentID: "a", taskID: "T\(i)", title: "t\(i)", body: template.body,
                                    status: .error, timestampMicros: 0, rawJSON: raw))
        }
    }

    @Test func aDocumentCarriesAtMostTheLimitOfEventsWithBodiesCut() throws {
        let transitions = Self.bigTransitions(800, bodyBytes: 250_000)
        #expect(transitions[7].event.rawJSON == Self.bigTransition(7, bodyBytes: 250_000).event.rawJSON, "as stored")
        let document = CommandChannel.json(Notification(kind: .burst, title: "800 errors", body: "b", transitions: transitions))
        #expect(document.utf8.count < 100_000, "20 events of at most ~2 KB each")
        let json = try #require(JSONReader.object(from: Array(document.utf8)))
        #expect(json["count"] as? Int == 800)
        let events = try #require(json["events"] as? [[String: Any]])
        #expect(events.count == CommandChannel.eventsPerDocument)
        #expect((events[0]["body"] as? String)?.count == CommandChannel.bodyCharacters)
        #expect(events[0]["body_truncated"] as? Bool == true)
        let small = CommandChannel.json(Notification(kind: .transition, title: "t", body: "b",
                                                     transitions: [Self.bigTransition(1, bodyBytes: 10)]))
        #expect(small.contains(Self.bigTransition(1, bodyBytes: 10).event.rawJSON), "short events pass as stored")
    }

    @Test func whileTheCommandRunsOnlyTheNewestNotificationWaitsAndTheDroppedAreCounted() throws {
        let dir = try TemporaryDirectory()
        let script = try dir.write("slow.sh", """
            #!/bin/sh
            cat > "\(dir.path)/doc.$$"
            touch "\(dir.path)/started.$$"
            while [ ! -e "\(dir.path)/go" ]; do sleep 0.02; done
            """, executable: true)
        let failures = FailureLog()
        let channel = CommandChannel(argv: [script], onFailure: failures.add)
        func files(_ prefix: String) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasPrefix(prefix) }
        }
        channel.deliver(Notification(kind: .transition, title: "first", body: "", transitions: []))
        let deadline = Date().addingTimeInterval(20)
        while files("started.").isEmpty, Date() < deadline { usleep(10_000) }
        #expect(files("started.").count == 1, "the first command is running")
        for i in 0..<500 {
            channel.deliver(Notification(kind: .transition, title: "n\(i)", body: "", transitions: [Self.bigTransition(i, bodyBytes: 1_000)]))
        }
        _ = try dir.write("go", "")
        #expect(channel.waitUntilIdle(timeout: 30))
        #expect(failures.all.isEmpty)
        let documents = try files("doc.").map { name -> [String: Any] in
            try #require(JSONReader.object(from: Array(Data(contentsOf: URL(fileURLWithPath: dir.file(name)))))) 
        }
        #expect(documents.count == 2, "the running one and the newest waiting one")
        let last = try #require(documents.first { $0["title"] as? String == "n499" })
        #expect(last["dropped"] as? Int == 499)
    }

    @Test func desktopBodiesAreShownAsTextNotMarkup() throws {
        let dir = try TemporaryDirectory()
        let log = dir.file("args")
        _ = try dir.write("notify-send", "#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(log)'\n", executable: true)
        let channel = try #require(DesktopChannel(environment: ["PATH": dir.path, "DISPLAY": ":0"]))
        channel.deliver(Notification(kind: .transition, title: "t", body: "<a href=\"http://x\">x</a> & <img src=y>",
                                     transitions: []))
        channel.waitUntilIdle()
        let args = try String(contentsOfFile: log, encoding: .utf8)
        #expect(args.hasSuffix("&lt;a href=\"http://x\"&gt;x&lt;/a&gt; &amp; &lt;img src=y&gt;\n"))
    }
}
