#!/usr/bin/env python3
"""A small fault-injecting HTTP proxy for tests, on loopback only.

Forwards every request to an upstream SQS endpoint (moto) unchanged, except while a fault is armed:

    POST /__fault__  {"mode": "throttle" | "server_error" | "html_error" | "drop", "count": N}
    POST /__fault__  {"mode": "slow", "seconds": S, "count": N}  # hold the request S seconds, then forward it
    POST /__fault__  {"mode": "pass"}      # disarm
    GET  /__fault__                        # {"mode": ..., "remaining": N, "faults_served": M, "forwarded": K,
                                           #  "receives_in_flight": R, "long_polls_in_flight": L}
                                           # (ReceiveMessage calls held upstream now; L: those with
                                           #  WaitTimeSeconds > 0)

`throttle` answers 400 ThrottlingException (AWS JSON 1.0 shape), `server_error` 500 InternalError,
`html_error` a 502 with an HTML body, `drop` closes the connection without an answer, `blackhole` reads the
request and never answers (the connection stays open, silent, until the mode is disarmed). A fault with
"count" answers that many requests and then disarms; without "count" it stays armed.
Usage: fault_proxy.py PORT UPSTREAM_URL  (prints "ready" on stdout when listening)
"""
import http.client
import json
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlparse

state_lock = threading.Lock()
state = {"mode": "pass", "remaining": None, "seconds": 0, "faults_served": 0, "forwarded": 0, "receives_in_flight": 0,
         "long_polls_in_flight": 0}


def current_mode():
    with state_lock:
        return state["mode"]


def take_fault():
    """Returns the fault to serve for this request, or None to forward it."""
    with state_lock:
        mode = state["mode"]
        if mode == "pass":
            return None
        if state["remaining"] is not None:
            state["remaining"] -= 1
            if state["remaining"] <= 0:
                state["mode"], state["remaining"] = "pass", None
        state["faults_served"] += 1
        return mode


def waits(body):
    """True for a ReceiveMessage body (JSON 1.0) that asks for a long poll (WaitTimeSeconds > 0)."""
    try:
        return int(json.loads(body or b"{}").get("WaitTimeSeconds", 0)) > 0
    except (ValueError, TypeError, AttributeError):
        return False


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    upstream = None

    def log_message(self, *args):
        pass

    def _reply(self, status, body, content_type="application/x-amz-json-1.0", headers=()):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/__fault__":
            with state_lock:
                self._reply(200, json.dumps(state), "application/json")
            return
        self._forward(b"")

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length) if length else b""
        if self.path == "/__fault__":
            cmd = json.loads(body or b"{}")
            with state_lock:
                state["mode"] = cmd.get("mode", "pass")
                state["remaining"] = cmd.get("count")
                state["seconds"] = float(cmd.get("seconds", 0))
            self._reply(200, "{}", "application/json")
            return
        fault = take_fault()
        if fault == "throttle":
            self._reply(400, json.dumps({"__type": "com.amazonaws.sqs#ThrottlingException",
                                         "message": "Rate exceeded"}),
                        headers=[("x-amzn-query-error", "ThrottlingException;Sender")])
        elif fault == "server_error":
            self._reply(500, json.dumps({"__type": "com.amazonaws.sqs#InternalError",
                                         "message": "We encountered an internal error."}))
        elif fault == "html_error":
            self._reply(502, "<html><body><h1>502 Bad Gateway</h1></body></html>", "text/html")
        elif fault == "blackhole":
            while current_mode() == "blackhole":
                time.sleep(0.1)
            self.close_connection = True
        elif fault == "slow":
            with state_lock:
                seconds = state["seconds"]
            time.sleep(seconds)
            self._forward(body)
        elif fault == "drop":
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        else:
            self._forward(body)

    def _forward(self, body):
        up = urlparse(self.upstream)
        conn = http.client.HTTPConnection(up.hostname, up.port, timeout=60)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("connection", "keep-alive")}
        receive = self.headers.get("X-Amz-Target", "").endswith(".ReceiveMessage")
        long_poll = receive and waits(body)
        if receive:
            with state_lock:
                state["receives_in_flight"] += 1
                state["long_polls_in_flight"] += long_poll
        try:
            conn.request(self.command, self.path, body=body, headers=headers)
            resp = conn.getresponse()
            data = resp.read()
        except OSError as exc:
            self._reply(502, f"<html>upstream unreachable: {exc}</html>", "text/html")
            return
        finally:
            conn.close()
            if receive:
                with state_lock:
                    state["receives_in_flight"] -= 1
                    state["long_polls_in_flight"] -= long_poll
        with state_lock:
            state["forwarded"] += 1
        self.send_response(resp.status)
        for k, v in resp.getheaders():
            if k.lower() not in ("transfer-encoding", "connection", "content-length", "server", "date"):
                self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main():
    port, upstream = int(sys.argv[1]), sys.argv[2]
    Handler.upstream = upstream
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    print("ready", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
