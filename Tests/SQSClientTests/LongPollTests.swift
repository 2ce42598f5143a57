import TestSupport
import Foundation
import SQSClient
import Testing

/// Long polls against moto: early return, cancellation from another thread.
@Suite struct LongPollTests {
    @Test func longPollReturnsWhenAMessageArrives() throws {
        let server = try MotoServer.shared
        let client = TestClients.client(server)
        let queue = try TestClients.freshQueue(client)
        // Through a proxy that tells when the receive is held by the server: the message is sent only then.
        let proxy = try FaultProxy(upstream: server.endpoint)
        let polling = TestClients.client(endpoint: proxy.endpoint)
        let sender = Thread {
            guard Self.waitUntilHeld(proxy) else { return }
            _ = try? client.sendMessage(queueURL: queue, body: "arrived")
        }
        let started = Date()
        sender.start()
        let messages = try polling.receiveMessage(queueURL: queue, waitSeconds: 10)
        let elapsed = Date().timeIntervalSince(started)
        // Structural: a 10 s wait that came back with the message sent while it waited did not wait it out.
        #expect(messages.map(\.body) == ["arrived"])
        #expect(elapsed < 10, "the long poll waited the full 10 s instead of returning on arrival")
    }

    @Test func cancellingAnInFlightLongPollAbortsIt() throws {
        let server = try MotoServer.shared
        let setup = TestClients.client(server)
        let queue = try TestClients.freshQueue(setup)
        // Through a proxy that tells when the receive is held by the server: it is cancelled only then.
        let proxy = try FaultProxy(upstream: server.endpoint)
        let client = TestClients.client(endpoint: proxy.endpoint)
        let token = CancellationToken()
        let canceller = Thread {
            _ = Self.waitUntilHeld(proxy)
            token.cancel()
        }
        let started = Date()
        canceller.start()
        var caught: SQSError?
        do {
            _ = try client.receiveMessage(queueURL: queue, waitSeconds: 20, cancel: token)
        } catch {
            caught = error
        }
        let elapsed = Date().timeIntervalSince(started)
        let error = try #require(caught, "a cancelled long poll must throw")
        #expect(error.kind == .cancelled)
        #expect(!error.isRetryable)
        #expect(elapsed < 20, "cancellation did not abort the 20 s long poll")

        // The client (and its pooled connections) still works afterwards. Another queue: the server
        // still holds the abandoned poll on the first one, which would take a message sent there
        // (it becomes visible again after the visibility timeout, like on AWS).
        let other = try TestClients.freshQueue(client)
        _ = try client.sendMessage(queueURL: other, body: "after")
        #expect(try client.receiveMessage(queueURL: other, waitSeconds: 2).map(\.body) == ["after"])
    }

    /// Waits (up to 10 s) until the proxy holds a ReceiveMessage at the server: a long poll in flight.
    static func waitUntilHeld(_ proxy: FaultProxy) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if ((try? proxy.receivesInFlight()) ?? 0) > 0 { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    @Test func alreadyCancelledTokenSendsNothing() throws {
        let server = try MotoServer.shared
        let setup = TestClients.client(server)
        let queue = try TestClients.freshQueue(setup)
        _ = try setup.sendMessage(queueURL: queue, body: "still there")
        // Through a proxy that counts what reaches the server: a real queue with a message in it, so a
        // request that went out anyway would succeed (and take the message) instead of failing.
        let proxy = try FaultProxy(upstream: server.endpoint)
        let client = TestClients.client(endpoint: proxy.endpoint)
        let token = CancellationToken()
        token.cancel()
        var caught: SQSError?
        do {
            _ = try client.receiveMessage(queueURL: queue, waitSeconds: 1, cancel: token)
        } catch {
            caught = error
        }
        #expect(caught?.kind == .cancelled, "\(String(describing: caught))")
        #expect(try proxy.forwarded() == 0, "a request went out on a cancelled token")
        #expect(try setup.receiveMessage(queueURL: queue, waitSeconds: 1).map(\.body) == ["still there"])
    }

    @Test func concurrentLongPollsFromSeveralThreads() throws {
        let client = TestClients.client(try MotoServer.shared)
        let queue = try TestClients.freshQueue(client)
        _ = try client.sendMessageBatch(queueURL: queue, entries: (0..<6).map { SendEntry(id: "m\($0)", body: "\($0)") })
        let bodies = Locked<[String]>([])
        let failures = Locked<[String]>([])
        let group = DispatchGroup()
        for _ in 0..<3 {
            group.enter()
            Thread {
                defer { group.leave() }
                for _ in 0..<4 {
                    do {
                        let batch = try client.receiveMessage(queueURL: queue, maxMessages: 2, waitSeconds: 1)
                        if !batch.isEmpty {
                            _ = try client.deleteMessageBatch(
                                queueURL: queue,
                                entries: batch.enumerated().map { DeleteEntry(id: "d\($0.offset)", receiptHandle: $0.element.receiptHandle) })
                        }
                        bodies.withValue { $0 += batch.map(\.body) }
                    } catch {
                        failures.withValue { $0.append("\(error)") }
                    }
                }
            }.start()
        }
        group.wait()
        #expect(failures.current.isEmpty)
        #expect(bodies.current.sorted() == ["0", "1", "2", "3", "4", "5"])
    }
}
