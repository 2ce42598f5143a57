import Foundation
import SharedRules

/// A request for an `HTTPTransport`.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: URL
    public var headers: [HTTPHeader]
    public var body: [UInt8]
    /// How much of the answer is read before the transport stops with `.responseTooLarge`.
    public var responseLimit: ResponseLimit
    /// What the connected address must be before anything is sent (`PeerPolicy.effective` adds `.loopback`
    /// for plain http to a loopback host); nil: any.
    public var peerPolicy: PeerPolicy?

    public init(method: String, url: URL, headers: [HTTPHeader] = [], body: [UInt8] = [],
                responseLimit: ResponseLimit = .standard, peerPolicy: PeerPolicy? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.responseLimit = responseLimit
        self.peerPolicy = peerPolicy
    }
}

/// What came back: status, headers of the final response, body.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [HTTPHeader]
    public var body: [UInt8]

    public init(status: Int, headers: [HTTPHeader], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text (invalid bytes replaced).
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// Sends one HTTP request and blocks until the whole response has arrived.
/// Called from background threads; implementations are thread-safe.
public protocol HTTPTransport: Sendable {
    /// Sends `request`; `timeout` bounds the whole exchange; `cancel` aborts it from any thread.
    func send(_ request: HTTPRequest, timeout: TimeInterval, cancel: CancellationToken?) throws(TransportError) -> HTTPResponse
}
