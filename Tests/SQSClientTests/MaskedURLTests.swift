import SQSClient
import Testing

@Suite("Masked URL")
struct MaskedURLTests {
    @Test func credentialsInAURLAreNeverShown() {
        #expect(MaskedURL.text("https://user:hunter2@sqs.eu-west-1.amazonaws.com/123456789012/q")
            == "https://****@sqs.eu-west-1.amazonaws.com/123456789012/q")
        #expect(MaskedURL.text("http://token@127.0.0.1:4566") == "http://****@127.0.0.1:4566")
        #expect(MaskedURL.text("https://sqs.eu-west-1.amazonaws.com/123456789012/q")
            == "https://sqs.eu-west-1.amazonaws.com/123456789012/q")
    }

    @Test func whatIsShownIsSafeForATerminal() {
        #expect(MaskedURL.text("http://127.0.0.1:9/q\u{1B}[2J") == "http://127.0.0.1:9/q")
    }

    @Test func aMissingQueueNamesItWithoutItsCredentials() {
        let error = SQSError(kind: .queueMissing, code: "AWS.SimpleQueueService.NonExistentQueue", message: "no")
        let text = error.explanation(queueURL: "https://u:secret-pass@sqs.us-east-1.amazonaws.com/1/q")
        #expect(!text.contains("secret-pass") && text.contains("https://****@sqs.us-east-1.amazonaws.com/1/q"))
    }
}
