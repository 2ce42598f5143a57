import CCurl
import SharedRules

/// Collects one response's headers and body from libcurl's callbacks, stops reading past the request's
/// `ResponseLimit`, and checks the connected address against its `PeerPolicy` before anything is sent.
final class ResponseSink {
    var headers: [HTTPHeader] = []
    var body: [UInt8] = []
    let limit: ResponseLimit
    let policy: PeerPolicy?
    /// `host:port` as the user wrote it, for messages.
    let origin: String
    /// Why reading stopped or nothing was sent; set by a callback that aborted the transfer.
    private(set) var stopped: TransportError?
    private var headerBytes = 0

    init(limit: ResponseLimit = .standard, policy: PeerPolicy? = nil, origin: String = "") {
        self.limit = limit
        self.policy = policy
        self.origin = origin
    }

    static let bodyCallback: tl_curl_write_cb = { data, size, count, context in
        let length = size * count
        guard let context, let data else { return length }
        let sink = Unmanaged<ResponseSink>.fromOpaque(context).takeUnretainedValue()
        guard sink.body.count + length <= sink.limit.bodyBytes else {
            sink.stop(.responseTooLarge, "the answer from \(sink.origin) passed \(sink.limit.bodyBytes) bytes: stopped reading")
            return 0  // a short count aborts the transfer (CURLE_WRITE_ERROR)
        }
        data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            sink.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: length))
        }
        return length
    }

    static let headerCallback: tl_curl_write_cb = { data, size, count, context in
        let length = size * count
        guard let context, let data else { return length }
        let sink = Unmanaged<ResponseSink>.fromOpaque(context).takeUnretainedValue()
        sink.headerBytes += length
        guard sink.headerBytes <= sink.limit.headerBytes else {
            sink.stop(.responseTooLarge, "the answer from \(sink.origin) passed \(sink.limit.headerBytes) bytes of headers: stopped reading")
            return 0
        }
        data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            sink.addHeaderLine(UnsafeBufferPointer(start: bytes, count: length))
        }
        if let announced = sink.announcedLength, announced > sink.limit.bodyBytes {
            sink.stop(.responseTooLarge, "the answer from \(sink.origin) announced \(announced) bytes, past \(sink.limit.bodyBytes) bytes: stopped reading")
            return 0
        }
        return length
    }

    /// CURLOPT_PREREQFUNCTION: the connection is up, nothing is sent yet.
    static let prereqCallback: tl_curl_prereq_cb = { context, primaryIP, _, _, _ in
        guard let context else { return tl_curl_prereq_abort() }
        let sink = Unmanaged<ResponseSink>.fromOpaque(context).takeUnretainedValue()
        guard let policy = sink.policy else { return tl_curl_prereq_ok() }
        let address = primaryIP.map { String(cString: $0) } ?? ""
        if let refusal = NetworkAddress.connectedRefusal(address, policy: policy) {
            sink.stop(.refusedAddress, "refused to send to \(sink.origin): its connected address \(refusal); nothing was sent")
            return tl_curl_prereq_abort()
        }
        return tl_curl_prereq_ok()
    }

    private func stop(_ kind: TransportError.Kind, _ message: String) {
        if stopped == nil { stopped = TransportError(kind: kind, message: message) }
    }

    /// The current response's `Content-Length`, when it has one.
    private var announcedLength: Int? {
        headers.last.flatMap { $0.name.lowercased() == "content-length" ? Int($0.value) : nil }
    }

    /// One raw header line (`Name: value\r\n`, or a status line). Works on bytes: Foundation's
    /// `trimmingCharacters` here cost more CPU than the rest of a call's response handling.
    func addHeaderLine(_ line: UnsafeBufferPointer<UInt8>) {
        var end = line.count
        while end > 0, line[end - 1] == UInt8(ascii: "\r") || line[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        let content = UnsafeBufferPointer(rebasing: line[0..<end])
        if content.starts(with: "HTTP/".utf8) {
            // A new response starts (after 100 Continue or a redirect): keep only its headers.
            headers.removeAll()
            body.removeAll()
            return
        }
        guard let colon = content.firstIndex(of: UInt8(ascii: ":")) else { return }
        var valueStart = colon + 1
        var valueEnd = content.count
        func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        while valueStart < valueEnd, isBlank(content[valueStart]) { valueStart += 1 }
        while valueEnd > valueStart, isBlank(content[valueEnd - 1]) { valueEnd -= 1 }
        headers.append(HTTPHeader(
            String(decoding: content[0..<colon], as: UTF8.self),
            String(decoding: content[valueStart..<valueEnd], as: UTF8.self)))
    }
}
