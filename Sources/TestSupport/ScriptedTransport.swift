import Foundation
import Synchronization
import SQSClient

/// An `HTTPTransport` that answers from a script instead of the network, and records every request:
/// request shapes, error classification and the poller's retry logic are tested in milliseconds.
///
/// `respond` is called for each request (from any thread) with the request, its action
/// (`X-Amz-Target` without `AmazonSQS.`) and the decoded JSON body; it returns a response or throws a
/// `TransportError`. Helpers build the common answers.
public final class ScriptedTransport: HTTPTransport, Sendable {
    /// One recorded call.
    public struct Call: Sendable {
        public var action: String
        public var timeout: TimeInterval
        public var request: HTTPRequest
        /// The JSON body as an object (empty when it is not one).
        public var body: [String: any Sendable] {
            (try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: any Sendable]) ?? [:]
        }
    }

    public typealias Responder = @Sendable (Call) throws(TransportError) -> HTTPResponse

    private let recorded = Mutex<[Call]>([])
    private let respond: Responder

    public init(_ respond: @escaping Responder) {
        self.respond = respond
    }

    /// Every request so far, in order.
    public var calls: [Call] { recorded.withLock { $0 } }

    /// The recorded calls of one action.
    public func calls(_ action: String) -> [Call] { calls.filter { $0.action == action } }

    public func send(_ request: HTTPRequest, timeout: TimeInterval, cancel: CancellationToken?) throws(TransportError) -> HTTPResponse {
        if cancel?.isCancelled == true { throw TransportError(kind: .cancelled, message: "cancelled") }
        let target = request.headers.value(for: "X-Amz-Target") ?? ""
        let call = Call(action: target.replacingOccurrences(of: "AmazonSQS.", with: ""), timeout: timeout, request: request)
        recorded.withLock { $0.append(call) }
        let response = try respond(call)
        // Like a real transport: the answer to a request cancelled meanwhile is never seen.
        if cancel?.isCancelled == true { throw TransportError(kind: .cancelled, message: "cancelled") }
        return response
    }

    // MARK: - Answers

    /// A 200 answer with a JSON body.
    public static func ok(_ json: String, headers: [HTTPHeader] = []) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/x-amz-json-1.0")] + headers,
                     body: Array(json.utf8))
    }

    /// An AWS JSON 1.0 error answer.
    public static func error(status: Int, type: String, message: String, headers: [HTTPHeader] = []) -> HTTPResponse {
        let body = try! JSONSerialization.data(withJSONObject: ["__type": type, "message": message])
        return HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "application/x-amz-json-1.0")] + headers,
                            body: Array(body))
    }

    /// A ReceiveMessage answer with `bodies` (message ids `m0`, `m1`, …, receive count `receiveCount`).
    public static func messages(_ bodies: [String], receiveCount: Int = 1) -> HTTPResponse {
        let items: [[String: Any]] = bodies.enumerated().map { index, body in
            ["MessageId": "m\(index)", "ReceiptHandle": "rh-\(index)-\(UUID().uuidString)", "Body": body,
             "Attributes": ["ApproximateReceiveCount": "\(receiveCount)", "SentTimestamp": "1700000000000"]]
        }
        let data = try! JSONSerialization.data(withJSONObject: ["Messages": items])
        return ok(String(decoding: data, as: UTF8.self))
    }

    /// A DeleteMessageBatch answer in which every entry of `call` succeeded.
    public static func deleted(_ call: Call) -> HTTPResponse {
        let entries = call.body["Entries"] as? [[String: Any]] ?? []
        let data = try! JSONSerialization.data(withJSONObject: ["Successful": entries.map { ["Id": $0["Id"] ?? ""] }])
        return ok(String(decoding: data, as: UTF8.self))
    }

    /// An IMF-fixdate for a `Date` header.
    public static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
