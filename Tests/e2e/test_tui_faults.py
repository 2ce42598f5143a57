"""The TUI's status bar tells the truth under faults, in tmux: `connecting` (never `connected`) while the
endpoint is a black hole, and the real, sanitized cause when a spoofed endpoint answers with terminal
control sequences in its error."""

from __future__ import annotations

import shutil
import socket
import time
from types import SimpleNamespace

import pytest

from hostile_server import HostileServer
from timeline_testing.tmux import TerminalProgram

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (make deps installs it)")


def fake_queue(endpoint: str) -> SimpleNamespace:
    return SimpleNamespace(url=f"{endpoint}/000000000000/q", endpoint=endpoint, region="us-east-1")


def start_tui(tmux, timeline_bin, e2e_env, db_path, tmp_path, endpoint: str) -> TerminalProgram:
    """`timeline tui` on a fake queue at `endpoint` (no first-frame wait: the endpoint may never answer)."""
    queue = fake_queue(endpoint)
    command = [timeline_bin, "tui", "--queue-url", queue.url, "--endpoint-url", queue.endpoint,
               "--region", queue.region, "--db", db_path]
    return TerminalProgram(tmux, command, e2e_env, tmp_path, 100, 30)


def status_line(screen: str) -> str:
    return screen.rstrip("\n").split("\n")[-1]


def test_status_says_connecting_while_no_request_has_succeeded(tmux, timeline_bin, e2e_env, db_path, tmp_path):
    with socket.socket() as hole:  # accepts connections, never answers
        hole.bind(("127.0.0.1", 0))
        hole.listen(64)
        endpoint = f"http://127.0.0.1:{hole.getsockname()[1]}"
        tui = start_tui(tmux, timeline_bin, e2e_env, db_path, tmp_path, endpoint)
        screen = tui.wait_for("connecting", timeout=15)
        # A few seconds of a silent endpoint: still connecting, never connected.
        deadline = time.time() + 4
        while time.time() < deadline:
            screen = tui.screen()
            assert "connected" not in screen and "receiving" not in screen, screen
            time.sleep(0.25)
        assert "connecting" in screen, screen
        tui.keys("q")


def test_status_shows_a_hostile_endpoints_error_sanitized(tmux, timeline_bin, e2e_env, db_path, tmp_path):
    with HostileServer() as server:
        tui = start_tui(tmux, timeline_bin, e2e_env, db_path, tmp_path, server.endpoint)
        screen = tui.wait_for("stopped", timeout=15)
        assert "Evil" in screen, screen
        raw = tui.screen(colours=True)
        assert "]52;" not in raw and "pwned" not in raw, "an OSC sequence reached the terminal"
        tui.keys("q")


def test_a_queue_name_whose_lookup_cannot_connect_is_retried_until_the_endpoint_answers(
        tmux, timeline_bin, e2e_env, db_path, tmp_path, queue, sqs_endpoint):
    """`--queue NAME` at an endpoint that refuses (a proxy in front of the SQS server, not started yet): the
    GetQueueUrl lookup is retried with backoff (the status says why), never "stopped"; once the endpoint
    comes up, events arrive without pressing R."""
    from conftest import FaultProxy

    proxy = FaultProxy(sqs_endpoint)  # its port refuses connections until start()
    name = queue.url.rsplit("/", 1)[-1]
    command = [timeline_bin, "tui", "--queue", name, "--endpoint-url", proxy.endpoint, "--region", "us-east-1",
               "--db", db_path]
    tui = TerminalProgram(tmux, command, e2e_env, tmp_path, 100, 30)
    try:
        screen = tui.wait_for(lambda s: "retry" in status_line(s), timeout=20)
        assert "stopped" not in status_line(screen), screen
        assert "connection refused" in status_line(screen), screen  # the fault's summary; `!` has the details
        proxy.start()
        queue.send_raw('{"id":"e-1","task_id":"L-1","agent_id":"lookup","title":"arrived after the retry",'
                   '"status":"info","timestamp":"' + time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()) + '"}')
        screen = tui.wait_for("arrived after the retry", timeout=30)
        assert "stopped" not in status_line(screen), screen
        tui.keys("q")
    finally:
        proxy.kill()
