"""A spoofed SQS endpoint on loopback that answers every call with terminal control sequences in every
string a client might print: error codes (`__type`, `x-amzn-query-error`, XML `<Code>`), messages, a
`MessageId`, queue attributes, a `Date` header. For tests that drive every command against it."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# OSC 52 (write the clipboard), OSC 0 (window title), CSI (clear screen), 8-bit CSI, a bidi override, CR/LF.
HOSTILE = "\x1b]52;c;SGVsbG8=\x07\x1b]0;pwned\x07\x1b[2J\x9b31m\u202eEvil\r\nX"
# The same in a header value (Latin-1, no line breaks).
HEADER_HOSTILE = "\x1b]52;c;SGVsbG8=\x07\x1b]0;pwned\x07\x1b[2J\x9b31mEvil"


def is_inert(text: str) -> bool:
    """True when `text` holds nothing a terminal would act on (newlines and tabs between lines allowed)."""
    return not any((ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F or 0x202A <= ord(c) <= 0x202E
                   for c in text)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    style = "json"

    def log_message(self, *args):
        pass

    def _send(self, status, body, content_type="application/x-amz-json-1.0", headers=()):
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        action = (self.headers.get("X-Amz-Target") or "").replace("AmazonSQS.", "")
        if action == "SendMessage":
            return self._send(200, json.dumps({"MessageId": HOSTILE, "MD5OfMessageBody": HOSTILE}))
        if action == "GetQueueAttributes":
            names = ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible",
                     "ApproximateNumberOfMessagesDelayed"]
            return self._send(200, json.dumps({"Attributes": {name: HOSTILE for name in names}}))
        if action == "GetQueueUrl":
            return self._send(200, json.dumps({"QueueUrl": "http://127.0.0.1/1/" + HOSTILE}))
        if action == "ListQueues":
            # The clock check reads the Date header: a hostile one.
            return self._send(403, json.dumps({"__type": "SignatureDoesNotMatch", "message": HOSTILE}),
                              headers=[("Date", HEADER_HOSTILE)])
        if self.style == "xml":
            body = f"<ErrorResponse><Error><Code>{HOSTILE}</Code><Message>{HOSTILE}</Message></Error></ErrorResponse>"
            return self._send(403, body, content_type="text/xml")
        return self._send(400, json.dumps({"__type": "com.amazonaws.sqs#" + HOSTILE, "message": HOSTILE}),
                          headers=[("x-amzn-query-error", HEADER_HOSTILE + ";Sender")])


class HostileServer:
    """Runs the hostile endpoint on 127.0.0.1 in a background thread; `style` is "json" or "xml"."""

    def __init__(self, style: str = "json"):
        handler = type("Handler", (_Handler,), {"style": style})
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.endpoint = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "HostileServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


class _EndlessHandler(BaseHTTPRequestHandler):
    """Answers every request with an answer that never ends (`mode`): a chunked body, a body under a
    1 TB Content-Length, or header lines without the blank line that ends them."""

    protocol_version = "HTTP/1.1"
    mode = "chunked"

    def log_message(self, *args):
        pass

    def _endless(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        piece = b"x" * 65536
        try:
            if self.mode == "headers":
                self.wfile.write(b"HTTP/1.1 200 OK\r\n")
                while True:
                    self.wfile.write(b"X-Filler: " + b"y" * 1000 + b"\r\n")
            head = b"HTTP/1.1 200 OK\r\nContent-Type: application/x-amz-json-1.0\r\n"
            if self.mode == "chunked":
                self.wfile.write(head + b"Transfer-Encoding: chunked\r\n\r\n")
                while True:
                    self.wfile.write(b"10000\r\n" + piece + b"\r\n")
            self.wfile.write(head + b"Content-Length: 1000000000000\r\n\r\n")
            while True:
                self.wfile.write(piece)
        except OSError:  # the client hung up: what a bounded reader does
            self.close_connection = True

    do_POST = _endless
    do_GET = _endless
    do_PUT = _endless


class EndlessServer(HostileServer):
    """An endpoint on 127.0.0.1 that never stops answering; `mode` is "chunked", "length" or "headers"."""

    def __init__(self, mode: str = "chunked"):  # not super().__init__: a different handler
        handler = type("Handler", (_EndlessHandler,), {"mode": mode})
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.endpoint = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)


def capture(host: str, port: int, log_path: str, cert: str | None = None, key: str | None = None) -> None:
    """Listens on host:port (inside a test's network namespace), appends one line per connection to
    `log_path` with the request bytes it carried (after TLS, when given a certificate), and answers 204."""
    import socket
    import ssl

    listener = socket.create_server((host, port))
    context = None
    if cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
    print("ready", flush=True)
    while True:
        connection, _ = listener.accept()
        received = b""
        try:
            if context:
                connection = context.wrap_socket(connection, server_side=True)
            connection.settimeout(5)
            while b"\r\n\r\n" not in received:
                data = connection.recv(65536)
                if not data:
                    break
                received += data
            if received:
                connection.sendall(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        except (OSError, ssl.SSLError):
            pass
        finally:
            connection.close()
        with open(log_path, "a", encoding="utf-8") as log:
            log.write(json.dumps({"bytes": len(received), "head": received[:200].decode("latin-1")}) + "\n")


if __name__ == "__main__":
    import sys

    # python hostile_server.py capture HOST PORT LOG [CERT KEY]
    if len(sys.argv) >= 5 and sys.argv[1] == "capture":
        capture(sys.argv[2], int(sys.argv[3]), sys.argv[4], *sys.argv[5:7])
