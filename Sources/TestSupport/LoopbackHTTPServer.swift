import Foundation

/// A tiny HTTP/1.1 server on 127.0.0.1 for transport tests and the fake AWS endpoints: counts
/// connections, records request heads, and answers each request as the handler says (respond,
/// hang, drop the connection, or never stop answering).
public final class LoopbackHTTPServer: Sendable {
    public enum Action {
        case respond(status: Int, headers: [(String, String)], body: String)
        case hang(seconds: Double)
        case drop
        /// An answer that never ends: sent until the client hangs up.
        case endless(Endless)
    }

    /// How an endless answer goes on.
    public enum Endless: Sendable {
        /// `Transfer-Encoding: chunked`, 64 KiB chunks.
        case chunked
        /// A `Content-Length` of 1 TB, then the bytes.
        case hugeContentLength
        /// Header lines, never the blank line that ends them.
        case headers
    }

    public struct Request: Sendable {
        public var head: String
        public var body: Data

        /// `GET`, `PUT`, …
        public var method: String { String(head.prefix { $0 != " " }) }
        /// The request target: path and query.
        public var target: String {
            let parts = head.prefix { $0 != "\r" && $0 != "\n" }.split(separator: " ")
            return parts.count > 1 ? String(parts[1]) : ""
        }
        /// The path without the query.
        public var path: String { String(target.prefix { $0 != "?" }) }
        /// The value of the query parameter `name` (percent-decoded).
        public func query(_ name: String) -> String? {
            URLComponents(string: target)?.queryItems?.first { $0.name == name }?.value
        }
        /// The first header named `name` (case-insensitive).
        public func header(_ name: String) -> String? {
            for line in head.split(separator: "\r\n").dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                if line[..<colon].lowercased() == name.lowercased() {
                    return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
    }

    public let port: Int
    private let listener: Int32
    private let handler: @Sendable (Request) -> Action
    private let state = Locked(ServerState())

    private struct ServerState: Sendable {
        var connections = 0
        var requests: [Request] = []
        var sockets: [Int32] = []
        var stopped = false
        /// False once the accept loop has closed the listener: its number may then belong to another
        /// test's socket, so nothing may shut it down again.
        var listenerOpen = true
    }

    public init(handler: @escaping @Sendable (Request) -> Action) throws {
        self.handler = handler
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSetupError("socket() failed") }
        var reuse: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw TestSetupError("bind/listen on 127.0.0.1 failed: \(reason)")
        }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        let state = self.state
        Thread { [handler] in Self.acceptLoop(fd, state: state, handler: handler) }.start()
    }

    public var url: URL { URL(string: "http://127.0.0.1:\(port)/")! }
    public var connectionCount: Int { state.withValue { $0.connections } }
    public var requests: [Request] { state.withValue { $0.requests } }

    /// Stops accepting and cuts open connections. Safe to call more than once (`deinit` calls it too).
    public func stop() {
        state.withValue { state in
            guard !state.stopped else { return }
            state.stopped = true
            // shutdown wakes the accept loop, which closes the listener itself (under this lock): closing it
            // here could let another test's new socket reuse the number while the loop still uses it.
            if state.listenerOpen { shutdown(listener, Int32(SHUT_RDWR)) }
            for socket in state.sockets { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    deinit { stop() }

    private static func acceptLoop(_ listener: Int32, state: Locked<ServerState>, handler: @escaping @Sendable (Request) -> Action) {
        func closeListener() {
            state.withValue { state in
                state.listenerOpen = false
                close(listener)
            }
        }
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if (errno == EINTR || errno == ECONNABORTED) && !state.withValue({ $0.stopped }) { continue }
                closeListener()
                return
            }
            let stopped = state.withValue { state -> Bool in
                state.connections += 1
                state.sockets.append(client)
                return state.stopped
            }
            if stopped {
                state.withValue { state in
                    state.sockets.removeAll { $0 == client }
                    close(client)
                }
                closeListener()
                return
            }
            Thread { serve(client, state: state, handler: handler) }.start()
        }
    }

    private static func serve(_ socket: Int32, state: Locked<ServerState>, handler: @Sendable (Request) -> Action) {
        // Forgotten and closed under the lock, so `stop()` never shuts down a number reused elsewhere.
        defer {
            state.withValue { state in
                state.sockets.removeAll { $0 == socket }
                close(socket)
            }
        }
        var buffer = Data()
        while true {
            guard let request = readRequest(socket, buffer: &buffer) else { return }
            state.withValue { $0.requests.append(request) }
            switch handler(request) {
            case .drop:
                var linger = linger(l_onoff: 1, l_linger: 0)  // RST instead of FIN
                setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
                return
            case .hang(let seconds):
                Thread.sleep(forTimeInterval: seconds)
                return
            case .endless(let kind):
                streamForever(socket, kind)
                return
            case .respond(let status, let headers, let body):
                var text = "HTTP/1.1 \(status) Status\r\nContent-Length: \(body.utf8.count)\r\n"
                for (name, value) in headers { text += "\(name): \(value)\r\n" }
                text += "\r\n" + body
                let bytes = Array(text.utf8)
                var sent = 0
                while sent < bytes.count {
                    let n = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if n <= 0 { return }
                    sent += n
                }
            }
        }
    }

    /// Sends `kind`'s endless answer until a send fails (the client closed the connection).
    private static func streamForever(_ socket: Int32, _ kind: Endless) {
        func sendAll(_ bytes: [UInt8]) -> Bool {
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { return false }
                sent += n
            }
            return true
        }
        let piece = [UInt8](repeating: UInt8(ascii: "x"), count: 65_536)
        switch kind {
        case .chunked:
            guard sendAll(Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)) else { return }
            let chunk = Array("10000\r\n".utf8) + piece + Array("\r\n".utf8)
            while sendAll(chunk) {}
        case .hugeContentLength:
            guard sendAll(Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000000000000\r\n\r\n".utf8)) else { return }
            while sendAll(piece) {}
        case .headers:
            guard sendAll(Array("HTTP/1.1 200 OK\r\n".utf8)) else { return }
            let line = Array("X-Filler: \(String(repeating: "y", count: 1_000))\r\n".utf8)
            while sendAll(line) {}
        }
    }

    private static func readRequest(_ socket: Int32, buffer: inout Data) -> Request? {
        let separator = Data("\r\n\r\n".utf8)
        var chunk = [UInt8](repeating: 0, count: 65536)
        while buffer.range(of: separator) == nil {
            let n = recv(socket, &chunk, chunk.count, 0)
            if n <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
        let headEnd = buffer.range(of: separator)!
        let head = String(decoding: buffer[buffer.startIndex..<headEnd.lowerBound], as: UTF8.self)
        var length = 0
        for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
            length = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
        }
        while buffer.count - (headEnd.upperBound - buffer.startIndex) < length {
            let n = recv(socket, &chunk, chunk.count, 0)
            if n <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
        let bodyStart = headEnd.upperBound
        let body = buffer[bodyStart..<(bodyStart + length)]
        buffer = Data(buffer[(bodyStart + length)...])
        return Request(head: head, body: Data(body))
    }
}
