import CCurl

/// Collects one response's headers and body from libcurl's callbacks.
final class ResponseSink {
    var headers: [HTTPHeader] = []
    var body: [UInt8] = []

    static let bodyCallback: tl_curl_write_cb = { data, size, count, context in
        let length = size * count
        guard let context, let data else { return length }
        let sink = Unmanaged<ResponseSink>.fromOpaque(context).takeUnretainedValue()
        data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            sink.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: length))
        }
        return length
    }

    static let headerCallback: tl_curl_write_cb = { data, size, count, context in
        let length = size * count
        guard let context, let data else { return length }
        let sink = Unmanaged<ResponseSink>.fromOpaque(context).takeUnretainedValue()
        data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            sink.addHeaderLine(UnsafeBufferPointer(start: bytes, count: length))
        }
        return length
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
