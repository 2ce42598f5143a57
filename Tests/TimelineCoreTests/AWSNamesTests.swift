import Testing
import TimelineCore

/// One rule each for the names inside AWS identifiers.
@Suite struct AWSNamesTests {
    @Test func aQueueURLIsNamedByItsLastPathSegment() {
        #expect(AWSNames.queueName("https://sqs.eu-west-1.amazonaws.com/123456789012/jobs.fifo") == "jobs.fifo")
        #expect(AWSNames.queueName("jobs") == "jobs")
        #expect(AWSNames.queueName("") == "")
    }

    @Test func anARNIsNamedByItsLastPart() {
        #expect(AWSNames.resourceName(ofARN: "arn:aws:sqs:eu-west-1:123456789012:jobs-dlq") == "jobs-dlq")
        #expect(AWSNames.resourceName(ofARN: "arn:aws:sns:us-east-1:123456789012:") == "")
        #expect(AWSNames.resourceName(ofARN: "plain") == "plain")
    }

    @Test func fifoIsTheNameEndingInDotFifo() {
        #expect(AWSNames.isFIFO("arn:aws:sns:eu-west-1:123456789012:t.fifo"))
        #expect(AWSNames.isFIFO("https://sqs.eu-west-1.amazonaws.com/123456789012/q.fifo"))
        #expect(!AWSNames.isFIFO("https://sqs.eu-west-1.amazonaws.com/123456789012/q"))
    }
}
