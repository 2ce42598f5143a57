import Foundation
import SQSClient

/// SQS response reading: parses 10,000 ReceiveMessage answers of 10 messages each (the shape moto and
/// SQS send: escaped event JSON bodies, receipt handles, attributes) into messages with the reader
/// `SQSClient.receiveMessage` uses. CPU seconds and answers per second; asserts nothing.
func runResponseJSONBench() {
    report("== SQS response JSON ==")
    let response = Array(sampleReceiveResponse(messages: 10).utf8)
    let rounds = ProcessInfo.processInfo.environment["TIMELINE_BENCH_JSON_ROUNDS"].flatMap(Int.init) ?? 10_000
    var fields = 0
    let cpuBefore = processCPUSeconds()
    for _ in 0..<rounds {
        guard let messages = SQSMessage.messages(inReceiveAnswer: response) else {
            report("response did not parse"); return
        }
        for message in messages { fields += 3 + message.attributes.count + (message.md5OfBody == nil ? 0 : 1) }
    }
    let cpu = processCPUSeconds() - cpuBefore
    report(String(format: "%d answers of %d bytes (%d fields read): %.3f CPU-s, %.0f answers/CPU-s",
                  rounds, response.count, fields, cpu, Double(rounds) / max(cpu, 1e-9)))
}

/// One ReceiveMessage answer body with `messages` messages, each carrying a typical event.
private func sampleReceiveResponse(messages: Int) -> String {
    let items = (0..<messages).map { index -> String in
        let event = #"{"id":"evt-\#(index)-4f1c2d","agent_id":"builder-7","task_id":"task-\#(index)","#
            + #""title":"Compile the release build — step \#(index)","status":"running","#
            + #""timestamp":"2026-11-23T20:14:10.123Z","body":"Line one\nLine two with \"quotes\" and a tab\t.","#
            + #""category":"build","progress":0.\#(index)5}"#
        let escaped = event.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let handle = String(repeating: "AQEBz3rR8kq+Lm0/TfWx", count: 18)
        return #"{"MessageId":"b1f9a2c4-6c1e-4e6b-9a5e-0000000000\#(index)\#(index)","ReceiptHandle":"\#(handle)","#
            + #""MD5OfBody":"9e107d9d372bb6826bd81d3542a419d6","Body":"\#(escaped)","#
            + #""Attributes":{"ApproximateReceiveCount":"1","SentTimestamp":"1763928850123"}}"#
    }
    return #"{"Messages":["# + items.joined(separator: ",") + "]}"
}

