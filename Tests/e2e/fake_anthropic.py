"""A fake Anthropic Messages API on loopback for driving the real Claude Code CLI in tests.

POST /v1/messages answers as a model would, streaming (SSE) when asked: a conversation whose last user turn
carries no tool result gets a Bash tool use (`BASH_COMMAND`, or the command given); one that carries a tool result gets the final
text (`FINAL_TEXT`) and ends the turn. Requests without tools (titles, summaries) get a short text. Every
request body is kept in `requests` for assertions. Other paths answer 404.

    server = FakeAnthropic(); server.start(); ... server.url; server.stop()
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

BASH_COMMAND = "echo hooks-e2e"
FINAL_TEXT = "All done: the command printed hooks-e2e.\nNothing else to do."


def _has_tool_result(body: dict[str, Any]) -> bool:
    messages = body.get("messages") or []
    if not messages:
        return False
    content = messages[-1].get("content")
    return isinstance(content, list) and any(isinstance(p, dict) and p.get("type") == "tool_result" for p in content)


def _offers(body: dict[str, Any], name: str) -> bool:
    return any(isinstance(t, dict) and t.get("name") == name for t in body.get("tools") or [])


def answer_blocks(body: dict[str, Any], command: str = BASH_COMMAND,
                  tool: dict[str, Any] | None = None) -> tuple[list[dict[str, Any]], str]:
    """The content blocks and stop reason for one request. `tool` (`{"name", "input"}`) replaces the Bash
    call with another tool's."""
    use = tool or {"name": "Bash", "input": {"command": command, "description": "Run the test command"}}
    if _offers(body, use["name"]) and not _has_tool_result(body):
        return [{"type": "tool_use", "id": "toolu_e2e_1", **use}], "tool_use"
    if _offers(body, use["name"]):
        return [{"type": "text", "text": FINAL_TEXT}], "end_turn"
    return [{"type": "text", "text": "Hooks test"}], "end_turn"


def _sse(event: str, data: dict[str, Any]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


class FakeAnthropic:
    def __init__(self, command: str = BASH_COMMAND, tool: dict[str, Any] | None = None) -> None:
        """`command`: the Bash command the first answer asks to run; `tool`: another tool call instead."""
        self.command = command
        self.tool = tool
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                path = self.path.split("?")[0]
                if path == "/v1/messages/count_tokens":
                    return self._json(200, {"input_tokens": 10})
                if path != "/v1/messages":
                    return self._json(404, {"type": "error", "error": {"type": "not_found_error", "message": path}})
                body = json.loads(raw or b"{}")
                with owner._lock:
                    owner.requests.append(body)
                blocks, stop = answer_blocks(body, owner.command, owner.tool)
                model = body.get("model", "claude-test")
                if not body.get("stream"):
                    return self._json(200, {"id": "msg_e2e", "type": "message", "role": "assistant", "model": model,
                                            "content": blocks, "stop_reason": stop, "stop_sequence": None,
                                            "usage": {"input_tokens": 10, "output_tokens": 5}})
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                out = [_sse("message_start", {"type": "message_start", "message": {
                    "id": "msg_e2e", "type": "message", "role": "assistant", "model": model, "content": [],
                    "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 1}}})]
                for index, block in enumerate(blocks):
                    if block["type"] == "tool_use":
                        out.append(_sse("content_block_start", {"type": "content_block_start", "index": index,
                                                                "content_block": {**block, "input": {}}}))
                        out.append(_sse("content_block_delta", {"type": "content_block_delta", "index": index, "delta": {
                            "type": "input_json_delta", "partial_json": json.dumps(block["input"])}}))
                    else:
                        out.append(_sse("content_block_start", {"type": "content_block_start", "index": index,
                                                                "content_block": {"type": "text", "text": ""}}))
                        out.append(_sse("content_block_delta", {"type": "content_block_delta", "index": index,
                                                                "delta": {"type": "text_delta", "text": block["text"]}}))
                    out.append(_sse("content_block_stop", {"type": "content_block_stop", "index": index}))
                out.append(_sse("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                                  "usage": {"output_tokens": 5}}))
                out.append(_sse("message_stop", {"type": "message_stop"}))
                self.wfile.write(b"".join(out))
                self.wfile.flush()
                self.close_connection = True

            def do_GET(self) -> None:  # noqa: N802
                self._json(404, {"type": "error", "error": {"type": "not_found_error", "message": self.path}})

            do_HEAD = do_GET

            def _json(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> "FakeAnthropic":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
