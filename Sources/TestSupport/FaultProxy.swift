import Foundation
import Synchronization
import SQSClient

/// `Tests/support/fault_proxy.py` on 127.0.0.1: forwards to an upstream SQS endpoint and, when armed,
/// answers with throttling, 5xx, HTML errors or dropped connections instead. Can be killed and
/// restarted on the same port to simulate the endpoint going away and coming back.
public final class FaultProxy: Sendable {
    public enum Fault: String, Sendable {
        case throttle, serverError = "server_error", htmlError = "html_error", drop, pass
    }

    public let port: Int
    public let upstream: URL
    private let process = Mutex<ChildProcess?>(nil)

    /// The URL clients should use as their endpoint.
    public var endpoint: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts a proxy in front of `upstream` on a free port.
    public init(upstream: URL) throws {
        self.upstream = upstream
        self.port = try FreePort.find()
        try launch()
    }

    deinit { kill() }

    /// Arms a fault for the next `count` requests (nil: until disarmed with `.pass`).
    public func arm(_ fault: Fault, count: Int? = nil) throws {
        var command: [String: Any] = ["mode": fault.rawValue]
        if let count { command["count"] = count }
        let body = try JSONSerialization.data(withJSONObject: command)
        let request = HTTPRequest(method: "POST", url: endpoint.appendingPathComponent("__fault__"), body: Array(body))
        let response = try CurlTransport().send(request, timeout: 5, cancel: nil)
        guard response.status == 200 else { throw TestSetupError("fault proxy refused \(command)") }
    }

    /// How many faults it has answered so far.
    public func faultsServed() throws -> Int { try counter("faults_served") }

    /// How many requests it has passed to the server and answered so far.
    public func forwarded() throws -> Int { try counter("forwarded") }

    /// How many ReceiveMessage calls are held by the server right now (long polls in flight).
    public func receivesInFlight() throws -> Int { try counter("receives_in_flight") }

    private func counter(_ name: String) throws -> Int {
        let request = HTTPRequest(method: "GET", url: endpoint.appendingPathComponent("__fault__"))
        let response = try CurlTransport().send(request, timeout: 5, cancel: nil)
        let state = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        guard let value = state?[name] as? Int else { throw TestSetupError("fault proxy state lacks \(name)") }
        return value
    }

    /// Kills the proxy: the endpoint refuses connections until `restart()`.
    public func kill() {
        let running = process.withLock { process in
            defer { process = nil }
            return process
        }
        running?.terminate()
    }

    /// Starts the proxy again on the same port.
    public func restart() throws {
        kill()
        try launch()
    }

    private func launch() throws {
        let script = RepositoryPaths.root.appendingPathComponent("Tests/support/fault_proxy.py").path
        let process = try ChildProcess(["python3", script, String(port), upstream.absoluteString])
        self.process.withLock { $0 = process }
        // Ready once it answers; the port may still be in TIME_WAIT for a moment after a kill.
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if (try? faultsServed()) != nil { return }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw TestSetupError("fault proxy did not start on port \(port)")
    }
}
