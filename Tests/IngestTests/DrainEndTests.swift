import Foundation
import Ingest
import SQSClient
import TestSupport
import Testing
import TimelineStore

/// A drain ends when the queue reports empty. A receive still in flight at that moment can take an event
/// sent just then: the drain must store it, not abandon the request (the server would hide the event for
/// the queue's visibility timeout, and the next drain would wait that long for it).
@Suite struct DrainEndTests {
    @Test func aReceiveInFlightWhenTheQueueIsFoundEmptyIsStored() throws {
        let (directory, path, factory) = try PollerScriptedTests.temporaryStore()
        defer { withExtendedLifetime(directory) {} }
        let box = Locked<Poller?>(nil)
        let longPollStarted = Locked(false)
        let transport = ScriptedTransport { call throws(TransportError) in
            switch call.action {
            case "ReceiveMessage":
                // The first long poll is the one in flight: it answers with a late event once the poller has
                // decided the queue is drained. Every other receive finds nothing.
                let first = (call.body["WaitTimeSeconds"] as? Int ?? 0) > 0
                    && longPollStarted.withValue { started in defer { started = true }; return !started }
                guard first else { return ScriptedTransport.ok("{}") }
                _ = PollerTestKit.eventually(timeout: 30) { box.current?.status.state == .stopped(.drained) }
                return ScriptedTransport.messages(PollerScriptedTests.events(1, prefix: "late-"))
            case "GetQueueAttributes":
                // Not empty until the long poll is in flight; then empty.
                let hidden = longPollStarted.current ? "0" : "1"
                return ScriptedTransport.ok(
                    #"{"Attributes":{"ApproximateNumberOfMessages":"0","ApproximateNumberOfMessagesNotVisible":"\#(hidden)"}}"#)
            case "DeleteMessageBatch":
                return ScriptedTransport.deleted(call)
            default:
                return ScriptedTransport.ok("{}")
            }
        }
        let poller = Poller(
            client: SQSClient(
                endpoint: URL(string: "http://127.0.0.1:1")!, region: "us-east-1",
                credentials: StaticCredentialsProvider(TestClients.credentials), transport: transport),
            configuration: PollerConfiguration(
                queueURLs: [PollerScriptedTests.queueURL], concurrency: 2, waitSeconds: 1, stopWhenEmpty: true),
            makeStore: factory)
        box.withValue { $0 = poller }
        poller.start()
        #expect(poller.waitUntilStopped(deadline: Date().addingTimeInterval(60)))
        #expect(poller.status.state == .stopped(.drained))
        #expect(poller.status.stored == 1, "\(poller.status.summary)")
        #expect(poller.status.deleted == 1, "\(poller.status.summary)")
        #expect(try TimelineStore(path: path).stats().events == 1)
    }
}
