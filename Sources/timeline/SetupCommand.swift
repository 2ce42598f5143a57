import ArgumentParser
import Foundation
import SQSClient

/// `timeline setup`: SNS fan-out for several viewers of the same agents (one queue per viewer).
struct SetupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Create (idempotently) an SNS topic, this viewer's queue with a dead-letter queue, and the raw-delivery subscription.",
        discussion: """
            Agents publish to the topic; every viewer runs `timeline setup` with the same --topic and its own --queue. \
            Queues keep events 14 days; a message that fails 5 times moves to the dead-letter queue (QUEUE-dlq). \
            Running it again changes nothing. Prints what to export for agents and for this viewer, and the IAM \
            permissions each side needs. A topic and queues whose names end in .fifo are FIFO.
            """
    )

    @Option(help: ArgumentHelp("SNS topic name (the agents publish to it).", valueName: "name")) var topic: String
    @Flag(name: .customLong("dry-run"), help: "Only read: say what would be created or changed.") var dryRun = false
    @OptionGroup var queue: QueueOptions

    func validate() throws {
        guard queue.queueName?.isEmpty == false else { throw ValidationError("--queue NAME is required (this viewer's queue).") }
        guard queue.queueURLs.isEmpty else { throw ValidationError("give the queue by name (--queue NAME), not --queue-url.") }
        let names = [topic, queue.queueName!]
        guard names.allSatisfy(FIFOKeys.isFIFO) || !names.contains(where: FIFOKeys.isFIFO) else {
            throw ValidationError("a FIFO topic (.fifo) needs a FIFO queue (.fifo), and a standard topic a standard queue.")
        }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        try reportingFailures {
            let configuration = try queue.configuration(environment: environment)
            let region = configuration.region.value
            let snsEndpoint: Provenanced<URL>
            do {
                snsEndpoint = try SNSEndpoint.resolve(flag: queue.endpointURL, environment: environment, region: region, profile: queue.profile)
            } catch {
                throw CommandFailure("\(error)")
            }
            let plan = FanOutPlan(
                sns: SNSClient(endpoint: snsEndpoint.value, region: region, credentials: configuration.credentials),
                sqs: configuration.makeClient(), topicName: topic, queueName: queue.queueName!, dryRun: dryRun,
                report: { print($0) })
            let result = try plan.run()
            print(dryRun ? "\nDry run: nothing was changed." : "")
            print(Self.instructions(result, region: region))
        }
    }

    /// What to export on each side, and the IAM permissions each needs.
    static func instructions(_ r: FanOutPlan.Result, region: String) -> String {
        """
        Agents (publish_event.py, timeline publish):
          export TIMELINE_TOPIC_ARN=\(r.topicARN)
          export AWS_REGION=\(region)
        This viewer (timeline tui, poll, doctor):
          export TIMELINE_QUEUE_URL=\(r.queueURL)

        IAM for agents:
          {"Effect": "Allow", "Action": "sns:Publish", "Resource": "\(r.topicARN)"}
        IAM for this viewer:
          {"Effect": "Allow", "Action": ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:ChangeMessageVisibility", "sqs:GetQueueAttributes", "sqs:GetQueueUrl"], "Resource": "\(r.queueARN)"}
          {"Effect": "Allow", "Action": "sqs:GetQueueAttributes", "Resource": "\(r.deadLetterQueueARN)"}
        """
    }
}
