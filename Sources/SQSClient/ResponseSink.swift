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
        let line = data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
        }
        sink.addHeaderLine(line)
        return length
    }

    func addHeaderLine(_ rawLine: String) {
        let line = rawLine.trimmingCharacters(in: ["\r", "\n"])
        if line.hasPrefix("HTTP/") {
            // A new response starts (after 100 Continue or a redirect): keep only its headers.
            headers.removeAll()
            body.removeAll()
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = String(line[..<colon])
        let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        headers.append(HTTPHeader(name, value))
    }
}
