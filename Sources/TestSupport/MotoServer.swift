// A real moto SQS server for tests, shared by every test target through TestSupport.
import Foundation
import Synchronization
import SQSClient

/// A `moto_server` process on 127.0.0.1, or the server named by `TIMELINE_TEST_SQS_ENDPOINT`.
public final class MotoServer: Sendable {
    public let endpoint: URL
    private let process: ChildProcess?

    /// One server shared by every test in this process (started on first use, stopped at exit).
    /// Honours `TIMELINE_TEST_SQS_ENDPOINT` when set.
    public static var shared: MotoServer {
        get throws { try sharedResult.get() }
    }

    private static let sharedResult: Result<MotoServer, Error> = Result {
        if let given = ProcessInfo.processInfo.environment["TIMELINE_TEST_SQS_ENDPOINT"], !given.isEmpty,
           let url = URL(string: given) {
            return MotoServer(endpoint: url, process: nil)
        }
        let server = try MotoServer.start()
        ServersToStopAtExit.add(server)
        return server
    }

    private init(endpoint: URL, process: ChildProcess?) {
        self.endpoint = endpoint
        self.process = process
    }

    /// Starts a private server (e.g. with `INITIAL_NO_AUTH_ACTION_COUNT`); call `stop()` when done.
    public static func start(environment extra: [String: String] = [:]) throws -> MotoServer {
        let port = try FreePort.find()
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in extra { environment[key] = value }
        let moto = RepositoryPaths.root.appendingPathComponent(".venv/bin/moto_server").path
        let executable = FileManager.default.isExecutableFile(atPath: moto) ? moto : "moto_server"
        let process = try ChildProcess([executable, "-H", "127.0.0.1", "-p", String(port)], environment: environment)
        let server = MotoServer(endpoint: URL(string: "http://127.0.0.1:\(port)")!, process: process)
        try server.waitUntilHealthy()
        return server
    }

    /// Stops a server this object started (no-op for an external one).
    public func stop() {
        process?.terminate()
    }

    private func waitUntilHealthy() throws {
        let transport = CurlTransport()
        let health = endpoint.appendingPathComponent("moto-api/")
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let process, !process.isRunning {
                throw TestSetupError("moto_server exited at once (is it installed? `pip install 'moto[server]'`)")
            }
            if let response = try? transport.send(HTTPRequest(method: "GET", url: health), timeout: 2, cancel: nil),
               response.status == 200 {
                return
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        stop()
        throw TestSetupError("moto_server did not answer at \(health) within 30 s")
    }
}

public struct TestSetupError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A TCP port on 127.0.0.1 that was free a moment ago.
public enum FreePort {
    public static func find() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSetupError("socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { throw TestSetupError("bind() failed") }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw TestSetupError("getsockname() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Stops the shared server when the test process exits.
public enum ServersToStopAtExit {
    private static let servers = Mutex<[MotoServer]>([])
    private static let registered: Bool = {
        atexit { ServersToStopAtExit.stopAll() }
        return true
    }()

    public static func add(_ server: MotoServer) {
        _ = registered
        servers.withLock { $0.append(server) }
    }

    public static func stopAll() {
        let all = servers.withLock { $0 }
        for server in all { server.stop() }
    }
}
