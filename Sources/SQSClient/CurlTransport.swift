import Foundation
import Synchronization

/// `HTTPTransport` over libcurl. Thread-safe: each call borrows a connection (easy + multi handle)
/// from a small pool and returns it afterwards, so connections are kept alive between calls and
/// several threads can have requests in flight at once.
public final class CurlTransport: HTTPTransport, Sendable {
    private let idle = Mutex<[CurlConnection]>([])
    private let maximumIdle: Int

    /// `maximumIdleConnections`: how many connections are kept for reuse.
    /// Proxies come from the environment (`http_proxy`, `https_proxy`, `no_proxy`), read by libcurl.
    public init(maximumIdleConnections: Int = 8) {
        maximumIdle = maximumIdleConnections
    }

    public func send(_ request: HTTPRequest, timeout: TimeInterval, cancel: CancellationToken?) throws(TransportError) -> HTTPResponse {
        let connection: CurlConnection
        if let pooled = idle.withLock({ $0.popLast() }) { connection = pooled } else { connection = try CurlConnection() }
        do {
            let response = try connection.perform(request, timeout: timeout, cancel: cancel)
            giveBack(connection)
            return response
        } catch {
            // A cancelled or failed transfer may leave its connection half-used: libcurl closes such
            // connections itself, and the handle stays reusable.
            giveBack(connection)
            throw error
        }
    }

    private func giveBack(_ connection: CurlConnection) {
        idle.withLock { idle in
            if idle.count < maximumIdle { idle.append(connection) }
        }
    }
}
