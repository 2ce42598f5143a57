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
