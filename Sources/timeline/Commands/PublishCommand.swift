import ArgumentParser
import Foundation
import SQSClient
import TimelineCore

/// `timeline publish`: send one event, validated with the same rules as ingest. Same flags, environment and
/// exit codes as `agent-tool/publish_event.py`: 0 sent (prints the SQS message id), 2 invalid input,
/// 1 AWS or network error.
struct PublishCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Publish one status event to the queue and print its SQS message id.",
        discussion: "Exit codes: 0 sent, 2 invalid input (nothing sent), 1 AWS or network error."
    )

    @Option(help: "One-line summary (required).") var title: String?
    @Option(help: "info, in_progress, success, warning, error or needs_input (required).",
            completion: .list(Status.allCases.map(\.rawValue))) var status: String?
    @Option(name: .customLong("agent-id"), help: "Which agent sends this (required; default: $TIMELINE_AGENT_ID).")
    var agentID: String?
    @Option(name: .customLong("task-id"), help: "Events with the same task id update one row (default: the event id).")
    var taskID: String?
    @Option(help: "Details; may be long and multi-line.") var body: String?
    @Option(help: "Free text for filtering, e.g. deploy, code-review.") var category: String?
    @Option(help: "0-100, drawn as a progress bar.") var progress: Double?
    @Option(help: "Unique event id (default: a new UUID).") var id: String?
    @Option(help: "ISO 8601 with Z or an offset (default: now, UTC).") var timestamp: String?
    @Flag(help: "Read one whole event (JSON) from stdin instead of the flags.") var json = false

    @Option(name: .customLong("topic-arn"), help: ArgumentHelp(
        "Publish to this SNS topic instead of a queue (default: $TIMELINE_TOPIC_ARN unless a queue flag is given).",
        valueName: "arn"))
    var topicARN: String?

    @OptionGroup var queue: QueueOptions

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let payload: String
        switch makePayload(environment: environment) {
        case .success(let text): payload = text
        case .failure(let rejection):
            throw CommandFailure("invalid event: \(rejection.reason)", exitCode: ExitStatus.unusable)
        }
        // Validated above: parsing again cannot fail; it yields the ids FIFO destinations need.
        guard case .success(let event) = EventParser.parse(payload) else {
            throw CommandFailure("invalid event", exitCode: ExitStatus.unusable)
        }
        if let topic = TopicTarget.topicARN(flag: topicARN, queue: queue, environment: environment) {
            let client = try TopicTarget.client(topicARN: topic, queue: queue, environment: environment)
            let fifo = AWSNames.isFIFO(topic)
            print(try client.publish(
                topicARN: topic, message: payload, groupID: fifo ? FIFOKeys.key(event.taskID) : nil,
                deduplicationID: fifo ? FIFOKeys.key(event.id) : nil))
            return
        }
        // No queue or a malformed setting is bad input, as for publish_event.py: exit 2, nothing sent.
        let configuration = try queue.configuration()
        let client = configuration.makeClient()
        let queueURL = try configuration.queueURL(using: client).value
        let fifo = AWSNames.isFIFO(queueURL)
        do {
            print(try client.sendMessage(
                queueURL: queueURL, body: payload, groupID: fifo ? FIFOKeys.key(event.taskID) : nil,
                deduplicationID: fifo ? FIFOKeys.key(event.id) : nil))
        } catch {
            throw CommandFailure(error.explanation(queueURL: queueURL))
        }
    }

    /// The payload to send, validated by `EventParser` exactly as the poller will.
    func makePayload(environment: [String: String]) -> Result<String, EventRejection> {
        if json {
            let bytes = Array(FileHandle.standardInput.readDataToEndOfFile())
            return EventParser.parse(bytes).map { _ in
                String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        let agent = AgentIdentity.resolve(flag: agentID, environment: environment)
        for (name, value) in [("title", title), ("status", status), ("agent_id", agent)] where value == nil {
            return .failure(EventRejection("missing required field \"\(name)\""))
        }
        let eventID = id ?? UUID().uuidString.lowercased()
        let text = EventEncoder.json(
            id: eventID, agentID: agent!, taskID: taskID ?? eventID, title: title!, status: status!,
            timestamp: timestamp ?? TimeFormat.iso8601(micros: TimeFormat.nowMicros()),
            body: body, category: category, progress: progress)
        return EventParser.parse(text).map { _ in text }
    }
}
