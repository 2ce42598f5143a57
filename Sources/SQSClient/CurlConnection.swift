import CCurl
import Foundation
import SharedRules

/// One libcurl easy handle inside its own multi handle. The multi handle keeps the connection
/// cache (keep-alive) and lets a transfer be polled in short slices so cancellation is quick.
/// Used by one thread at a time; `CurlTransport` pools them.
// @unchecked: it owns CURL* handles, which libcurl lets move between threads but not be shared.
final class CurlConnection: @unchecked Sendable {
    let easy: UnsafeMutableRawPointer
    let multi: UnsafeMutableRawPointer
    /// CURLOPT_ERRORBUFFER needs memory that stays put for the handle's lifetime.
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    /// How long one wait for socket activity lasts before the cancellation flag is checked again. Only a
    /// safety net: a cancellation wakes the wait at once (`curl_multi_wakeup`) and libcurl shortens it to
    /// its own timers, so a long slice keeps an idle long poll from waking its thread ten times a second.
    static let pollSliceMilliseconds: Int32 = 5_000
    static let connectTimeoutMilliseconds = 5_000

    /// Opens libcurl on first use (`tl_curl_open`); throws when it cannot be loaded or make a handle.
    init() throws(TransportError) {
        if let problem = tl_curl_open() { throw TransportError(kind: .other, message: String(cString: problem)) }
        guard let easy = tl_curl_easy_init() else { throw TransportError(kind: .other, message: "libcurl could not create a handle") }
        guard let multi = tl_curl_multi_init() else {
            tl_curl_easy_cleanup(easy)
            throw TransportError(kind: .other, message: "libcurl could not create a handle")
        }
        self.easy = easy
        self.multi = multi
    }

    deinit {
        _ = tl_curl_multi_cleanup(multi)
        tl_curl_easy_cleanup(easy)
        errorBuffer.deallocate()
    }

    /// Performs `request`, blocking the calling thread.
    func perform(_ request: HTTPRequest, timeout: TimeInterval, cancel: CancellationToken?) throws(TransportError) -> HTTPResponse {
        if cancel?.isCancelled == true { throw TransportError(kind: .cancelled, message: "cancelled before sending") }
        tl_curl_easy_reset(easy)
        let policy = PeerPolicy.effective(scheme: request.url.scheme ?? "", host: request.url.host ?? "", requested: request.peerPolicy)
        let sink = ResponseSink(limit: request.responseLimit, policy: policy, origin: Self.origin(request.url))
        var headerList: UnsafeMutablePointer<curl_slist>? = nil
        defer { tl_curl_slist_free_all(headerList) }
        for header in request.headers {
            headerList = tl_curl_slist_append(headerList, "\(header.name): \(header.value)")
        }
        // No `Expect: 100-continue` round trip for larger bodies.
        headerList = tl_curl_slist_append(headerList, "Expect:")
        // Ask for a persistent connection explicitly: some servers (LocalStack's gateway) close after
        // every answer unless asked, which costs a TCP handshake and a socket per call.
        headerList = tl_curl_slist_append(headerList, "Connection: keep-alive")
        try configure(request, timeout: timeout, headers: headerList, sink: sink)

        let wakeup = MultiHandleRef(pointer: multi)
        let handlerID = cancel?.onCancel { _ = tl_curl_multi_wakeup(wakeup.pointer) }
        defer { if let handlerID { cancel?.removeHandler(handlerID) } }

        let result = withExtendedLifetime(sink) { drive(cancel: cancel) }
        switch result {
        case .cancelled:
            throw TransportError(kind: .cancelled, message: "request to \(request.url.host ?? "?") was cancelled")
        case .failed(let code):
            // A callback that stopped the transfer says why better than the CURLcode it caused.
            if let stopped = sink.stopped { throw stopped }
            throw mapError(code, url: request.url)
        case .finished:
            var status = 0
            _ = tl_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            return HTTPResponse(status: status, headers: sink.headers, body: sink.body)
        }
    }

    private enum Outcome { case finished, failed(CURLcode), cancelled }

    /// Runs the transfer in slices of at most `pollSliceMilliseconds`, checking `cancel` between them.
    private func drive(cancel: CancellationToken?) -> Outcome {
        guard tl_curl_multi_add_handle(multi, easy) == CURLM_OK else { return .failed(CURLE_FAILED_INIT) }
        defer { _ = tl_curl_multi_remove_handle(multi, easy) }
        var running: Int32 = 1
        while true {
            if cancel?.isCancelled == true { return .cancelled }
            let code = tl_curl_multi_perform(multi, &running)
            guard code == CURLM_OK else { return .failed(CURLE_FAILED_INIT) }
            if running == 0 { break }
            _ = tl_curl_multi_poll(multi, Self.pollSliceMilliseconds)
        }
        var remaining: Int32 = 0
        while let message = tl_curl_multi_info_read(multi, &remaining) {
            if message.pointee.msg == CURLMSG_DONE {
                let code = message.pointee.data.result
                return code == CURLE_OK ? .finished : .failed(code)
            }
        }
        return .failed(CURLE_FAILED_INIT)
    }

    private func configure(
        _ request: HTTPRequest, timeout: TimeInterval, headers: UnsafeMutablePointer<curl_slist>?, sink: ResponseSink
    ) throws(TransportError) {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw TransportError(kind: .invalidURL, message: "unsupported URL \(request.url.absoluteString)")
        }
        var failed: CURLcode = CURLE_OK
        func set(_ code: CURLcode) { if failed == CURLE_OK, code != CURLE_OK { failed = code } }
        set(tl_curl_setopt_ptr(easy, CURLOPT_URL, request.url.absoluteString))
        set(tl_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1))
        set(tl_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.connectTimeoutMilliseconds))
        set(tl_curl_setopt_long(easy, CURLOPT_TIMEOUT_MS, max(1, Int(timeout * 1000))))
        set(tl_curl_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1))
        set(tl_curl_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 2))
        set(tl_curl_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1))
        set(tl_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0))
        set(tl_curl_setopt_ptr(easy, CURLOPT_USERAGENT, "timeline"))
        errorBuffer[0] = 0
        set(tl_curl_setopt_ptr(easy, CURLOPT_ERRORBUFFER, errorBuffer))
        set(tl_curl_setopt_ptr(easy, CURLOPT_HTTPHEADER, headers))
        let sinkPointer = Unmanaged.passUnretained(sink).toOpaque()
        set(tl_curl_setopt_write_cb(easy, CURLOPT_WRITEFUNCTION, ResponseSink.bodyCallback))
        set(tl_curl_setopt_ptr(easy, CURLOPT_WRITEDATA, sinkPointer))
        set(tl_curl_setopt_write_cb(easy, CURLOPT_HEADERFUNCTION, ResponseSink.headerCallback))
        set(tl_curl_setopt_ptr(easy, CURLOPT_HEADERDATA, sinkPointer))
        if sink.policy != nil {
            // The address checked must be the destination's, not a proxy's.
            set(tl_curl_setopt_ptr(easy, CURLOPT_NOPROXY, "*"))
            let prereq = tl_curl_setopt_prereq_cb(easy, ResponseSink.prereqCallback)
            if prereq != CURLE_OK {
                throw TransportError(kind: .refusedAddress, message: "this libcurl cannot check the address of \(Self.origin(request.url)) before sending (libcurl 7.80 or newer is needed): nothing was sent")
            }
            set(tl_curl_setopt_ptr(easy, CURLOPT_PREREQDATA, sinkPointer))
        }
        switch request.method.uppercased() {
        case "GET" where request.body.isEmpty:
            set(tl_curl_setopt_long(easy, CURLOPT_HTTPGET, 1))
        case "HEAD":
            set(tl_curl_setopt_long(easy, CURLOPT_NOBODY, 1))
        default:
            set(tl_curl_setopt_long(easy, CURLOPT_POST, 1))
            set(tl_curl_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)))
            // COPYPOSTFIELDS copies the body, so nothing has to outlive this call.
            let body = request.body.isEmpty ? [UInt8(0)] : request.body
            body.withUnsafeBufferPointer { bytes in
                set(tl_curl_setopt_ptr(easy, CURLOPT_COPYPOSTFIELDS, bytes.baseAddress))
            }
            if request.method.uppercased() != "POST" {
                set(tl_curl_setopt_ptr(easy, CURLOPT_CUSTOMREQUEST, request.method.uppercased()))
            }
        }
        if failed != CURLE_OK { throw mapError(failed, url: request.url) }
    }

    /// `scheme://host[:port]` of `url`, for messages.
    static func origin(_ url: URL) -> String {
        "\(url.scheme ?? "")://\(url.host ?? "")\(url.port.map { ":\($0)" } ?? "")"
    }

    private func mapError(_ code: CURLcode, url: URL) -> TransportError {
        let detail = String(cString: errorBuffer)
        let summary = String(cString: tl_curl_easy_strerror(code))
        let message = "\(detail.isEmpty ? summary : detail) (\(Self.origin(url)))"
        return TransportError(kind: Self.kind(of: code), code: Int(code.rawValue), message: message)
    }

    static func kind(of code: CURLcode) -> TransportError.Kind {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .dns
        case CURLE_COULDNT_CONNECT: return .connect
        case CURLE_OPERATION_TIMEDOUT: return .timeout
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2,
             CURLE_HTTP2_STREAM, CURLE_WEIRD_SERVER_REPLY:
            return .connectionLost
        case CURLE_SSL_CONNECT_ERROR: return .tls
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM: return .certificate
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL: return .invalidURL
        case CURLE_ABORTED_BY_CALLBACK: return .cancelled
        default: return .other
        }
    }
}

/// Lets the cancellation handler (another thread) wake the multi handle's poll.
/// curl_multi_wakeup is documented as safe to call from any thread.
// @unchecked: a raw CURLM* pointer, used here only for curl_multi_wakeup.
struct MultiHandleRef: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
}
