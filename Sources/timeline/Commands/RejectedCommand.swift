import ArgumentParser
import Foundation
import TimelineCore
import TimelineStore

/// `timeline rejected`: messages that failed validation, newest first, with reasons and escaped raw bodies.
struct RejectedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rejected",
        abstract: "Print rejected messages, newest first: reason, SQS message id and raw body (escaped).")

    @OptionGroup var store: StoreOptions

    @Flag(help: "JSON lines: seq, message_id, reason, received_at and raw_body (or raw_body_base64 when not UTF-8).")
    var json = false

    @Option(help: "Print at most this many messages.")
    var limit: Int = 50

    @Option(help: "Show at most this many characters of each raw body in the table (0: all).")
    var bodyChars: Int = 300

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1.") }
        guard bodyChars >= 0 else { throw ValidationError("--body-chars must not be negative.") }
    }

    func run() throws {
        guard let timeline = try store.openForReading() else { return }
        let messages = try timeline.rejected(limit: limit)
        if messages.isEmpty {
            standardError("No rejected messages.")
            return
        }
        let color = TerminalStyle.stdoutWantsColor
        for message in messages {
            let bytes = try timeline.rejectedRawBytes(seq: message.seq) ?? Array(message.rawBody.utf8)
            if json {
                var object: [String: Any] = [
                    "seq": message.seq, "reason": message.reason,
                    "received_at": TimeFormat.iso8601(micros: message.receivedMicros),
                    "message_id": message.messageID ?? NSNull(),
                ]
                if let text = String(validating: bytes, as: UTF8.self) {
                    object["raw_body"] = text
                } else {
                    object["raw_body_base64"] = Data(bytes).base64EncodedString()
                }
                print(try EventJSONLine.line(object))
                continue
            }
            var body = DisplayText.escaped(bytes: bytes)
            if bodyChars > 0, body.count > bodyChars { body = String(body.prefix(bodyChars)) + "… (\(bytes.count) bytes)" }
            let where_ = message.messageID.map { " message " + DisplayText.escaped($0) } ?? ""
            print(TerminalStyle.paint("#\(message.seq) \(TimeFormat.absolute(micros: message.receivedMicros, utc: false))\(where_)", TerminalStyle.dim, enabled: color))
            print("  reason: " + TerminalStyle.paint(DisplayText.escaped(message.reason), TerminalStyle.color(of: .error), enabled: color))
            print("  body:   " + body)
        }
    }
}
