"""The answer path against hostile events and accidents, end to end with the real binary: a reply_to on a
host that is neither AWS SQS nor the configured endpoint gets nothing (not `timeline reply`, not the TUI),
and a paste into the TUI (tmux paste-buffer -p, bracketed) never answers an agent, at 80x24 and 20x5."""

from __future__ import annotations

import json
import shlex
import shutil
import socket
import threading
from pathlib import Path

import pytest

from test_human_in_the_loop import wait_for_task

from publish_event import publish_dict  # noqa: E402 (agent-tool is on sys.path via test_human_in_the_loop)
from event_builder import new_event  # noqa: E402

needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class CaptureServer:
    """A loopback TCP server posing as a reply_to host: it records every connection and what came in."""

    def __init__(self):
        self.received: list[bytes] = []
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.queue_url = f"http://127.0.0.1:{self.port}/123456789012/replies"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                connection, _ = self.sock.accept()
            except OSError:
                return
            connection.settimeout(2)
            try:
                self.received.append(connection.recv(65536))
                connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
            except OSError:
                pass
            finally:
                connection.close()

    def close(self):
        self.sock.close()


@pytest.fixture
def capture():
    server = CaptureServer()
    yield server
    server.close()


def publish_question(queue, sqs, task_id, reply_to, agent="deployer"):
    publish_dict(new_event("Deploy billing v1.3 to prod?", "needs_input", agent, task_id=task_id,
                           extra={"actions": [{"id": "go", "label": "Deploy"}], "reply_to": reply_to}),
                 queue_url=queue.url, client=sqs)


def assert_nothing_arrived(sqs, queue_url):
    """Long-polls the reply queue (2 s): no message may be there."""
    answer = sqs.receive_message(QueueUrl=queue_url, WaitTimeSeconds=2, MaxNumberOfMessages=10)
    assert answer.get("Messages", []) == []


def test_timeline_reply_refuses_a_reply_to_on_another_host(queue, sqs, run_timeline, db_path, capture):
    publish_question(queue, sqs, "exfil", capture.queue_url)
    wait_for_task(run_timeline, queue, db_path, "exfil")
    host = f"127.0.0.1:{capture.port}"
    for extra in ([], ["--endpoint-url", queue.endpoint, "--region", queue.region]):
        for answer in (["--action", "go"], ["--text", "hi"]):
            refused = run_timeline("reply", "exfil", *answer, "--db", db_path, *extra)
            assert refused.returncode == 2, refused.stderr
            assert f"refused: reply_to names host {host}" in refused.stderr
            assert "nothing was signed or sent" in refused.stderr
    assert capture.received == []


def test_an_endpoint_from_the_environment_or_the_profile_is_a_configured_endpoint(queue, sqs, make_queue, run_timeline,
                                                                                 db_path, e2e_env, tmp_path):
    replies = make_queue()
    publish_question(queue, sqs, "env-endpoint", replies.url)
    wait_for_task(run_timeline, queue, db_path, "env-endpoint")
    refused = run_timeline("reply", "env-endpoint", "--text", "first", "--db", db_path)
    assert refused.returncode == 2 and "no endpoint is configured" in refused.stderr
    for name in ("AWS_ENDPOINT_URL_SQS", "AWS_ENDPOINT_URL"):
        sent = run_timeline("reply", "env-endpoint", "--text", name, "--db", db_path, env={**e2e_env, name: queue.endpoint})
        assert sent.returncode == 0, sent.stderr
    config = Path(e2e_env["AWS_CONFIG_FILE"])
    config.write_text(f"[default]\nendpoint_url = {queue.endpoint}\n")
    try:
        sent = run_timeline("reply", "env-endpoint", "--text", "profile", "--db", db_path)
        assert sent.returncode == 0, sent.stderr
    finally:
        config.unlink()
    texts = sorted(json.loads(m["Body"])["text"] for m in replies.receive_all())
    assert texts == ["AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_SQS", "profile"]


@pytest.fixture
def tui(tmux, timeline_bin, e2e_env, queue, db_path):
    """start(width, height) runs the TUI on the test queue in a tmux pane of that size."""

    def start(width=120, height=34):
        command = shlex.join([timeline_bin, "tui", "--queue-url", queue.url, "--endpoint-url", queue.endpoint,
                              "--region", queue.region, "--db", db_path, "--from", "alice@laptop"])
        pane = tmux.start(["sh", "-c", command + "; echo TUI-EXITED; sleep 600"], env=e2e_env, width=width,
                          height=height)
        tmux.wait_for(lambda screen: "FOLLOW" in screen or "timeline" in screen, pane=pane, timeout=15)
        return pane

    return start


def open_text_prompt(tmux, replies):
    """On the question on screen: `i` opens the answer bar, `r` the text prompt for the reply queue."""
    tmux.send_keys("i")
    tmux.wait_for("r reply with text", timeout=10)
    tmux.send_keys("r")
    tmux.wait_for(f"Reply to queue {replies.name}:", timeout=10)


@pytest.fixture
def question_at_80x24(tmux, tui, queue, sqs, make_queue):
    """The TUI at 80x24 showing a question whose reply_to is a new queue (returned)."""
    replies = make_queue()
    tui(80, 24)
    publish_question(queue, sqs, "deploy-billing", replies.url)
    tmux.wait_for("need you", timeout=20)
    return replies


@needs_tmux
def test_the_tui_refuses_a_reply_to_on_another_host(tmux, tui, queue, sqs, capture):
    tui()
    publish_question(queue, sqs, "exfil", capture.queue_url)
    tmux.wait_for("1 need you", timeout=20)
    tmux.send_keys("i")
    tmux.wait_for("[1 Deploy]", timeout=10)
    tmux.send_keys("1")
    tmux.wait_for(f"refused: reply_to names host 127.0.0.1:{capture.port}", timeout=10)
    tmux.send_keys("y")
    tmux.send_keys("r")
    tmux.wait_for(f"refused: reply_to names host 127.0.0.1:{capture.port}", timeout=10)
    tmux.send_keys("y", "Enter")
    screen = tmux.stable_capture()
    assert "Send " not in screen and "y/N" not in screen and "Reply to queue" not in screen
    assert capture.received == []


def type_after_paste(tmux, key: str, shown, still_open: str) -> str:
    """Types `key` right after a paste until `shown` is on screen. Keys read in the same batch as a paste are
    dropped by design (`InputDecoder.droppingKeysAfterPaste`: they came with the clipboard), and on a loaded
    machine tmux can deliver a key typed just after a paste with it: while `still_open` shows, the key was
    dropped and is typed again."""
    for _ in range(3):
        tmux.send_keys(key)
        try:
            return tmux.wait_for(shown, timeout=3)
        except pytest.fail.Exception:
            assert still_open in tmux.capture(), "the screen changed, but not to what the key should show"
    return tmux.wait_for(shown, timeout=10)


@needs_tmux
def test_a_paste_never_answers_at_80x24(tmux, sqs, question_at_80x24):
    replies = question_at_80x24
    # Outside a prompt, a paste is not keys: `i`, `1`, `y` and Enter in it do nothing.
    tmux.paste("i1y\n")
    tmux.wait_for("paste ignored", timeout=10)
    screen = tmux.capture()
    assert "[1 Deploy]" not in screen and "Send " not in screen
    # In the text prompt, a paste is text: its line break is a space, not Enter.
    open_text_prompt(tmux, replies)
    tmux.paste("pip install -r requirements.txt\n")
    tmux.wait_for(lambda screen: f"Reply to queue {replies.name}:" in screen and "-r requirements.txt" in screen, timeout=10)
    assert_nothing_arrived(sqs, replies.url)
    # Enter (typed) shows the text and where it goes; a pasted `y` is not the answer.
    tmux.send_keys("Enter")
    tmux.wait_for('Send text "pip install -r requirements.txt "', timeout=10)
    screen = tmux.capture()
    assert f"to queue {replies.name} (account {replies.url.split('/')[-2]}, {replies.endpoint.split('//')[1]})?" in screen
    assert screen.splitlines()[23].rstrip().endswith("y/N")
    tmux.paste("y")
    # The footer says the paste did nothing; only then is `n` typed (it cannot share the paste's read).
    tmux.wait_for("paste ignored: type y to send", timeout=10)
    assert "y/N" in tmux.capture()
    assert_nothing_arrived(sqs, replies.url)
    tmux.send_keys("n")
    tmux.wait_for("cancelled: nothing sent", timeout=10)
    assert_nothing_arrived(sqs, replies.url)


@needs_tmux
def test_a_paste_never_answers_at_20x5(tmux, tui, queue, sqs, make_queue):
    replies = make_queue()
    tui(20, 5)
    publish_question(queue, sqs, "deploy-billing", replies.url)
    tmux.wait_for("Deploy", timeout=20)
    tmux.send_keys("i")
    tmux.wait_for(lambda screen: "BROWSE" not in screen.splitlines()[-1] or "Deploy" in screen, timeout=10)
    # The confirmation cannot show where the reply goes at 20x5: it does not open, and `y` sends nothing.
    tmux.send_keys("1")
    tmux.wait_for("widen the terminal", timeout=10)
    tmux.send_keys("y")
    tmux.send_keys("r")
    tmux.wait_for("Reply to", timeout=10)
    tmux.paste("ok\n")
    type_after_paste(tmux, "Enter", "widen the terminal", still_open="Reply to")
    tmux.send_keys("y")
    assert "y/N" not in tmux.stable_capture()
    assert_nothing_arrived(sqs, replies.url)


@needs_tmux
def test_bracketed_paste_is_switched_off_when_the_tui_exits(tmux, timeline_bin, e2e_env, db_path):
    command = shlex.join([timeline_bin, "tui", "--no-poll", "--db", db_path])
    tmux.start(["sh", "-c", command + "; echo TUI-EXITED; cat -v"], env=e2e_env, width=80, height=24)
    tmux.wait_for("FOLLOW", timeout=15)
    tmux.send_keys("q")
    tmux.wait_for("TUI-EXITED", timeout=10)
    tmux.paste("after the tui\n")
    tmux.wait_for(lambda screen: screen.count("after the tui") >= 2, timeout=10)  # the tty's echo, then cat's
    assert "200~" not in tmux.capture(), "the pasted text reached cat without paste brackets"


@needs_tmux
def test_a_clipboard_that_closes_its_own_paste_does_not_answer(tmux, sqs, question_at_80x24):
    replies = question_at_80x24
    open_text_prompt(tmux, replies)
    # The pasted text ends the paste itself, then "presses" Enter and y: they came with the paste, not a hand.
    tmux.paste("rm -rf build\x1b[201~\ry")
    tmux.wait_for(lambda screen: f"Reply to queue {replies.name}: rm -rf build" in screen, timeout=10)
    screen = tmux.stable_capture()
    assert "Send text" not in screen and "sending" not in screen and "sent " not in screen
    assert_nothing_arrived(sqs, replies.url)
