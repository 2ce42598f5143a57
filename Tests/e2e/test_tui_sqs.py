"""End-to-end tests of `timeline tui` polling a real local SQS queue (moto) in the background, in tmux: events
published with agent-tool appear and leave the queue, rejected messages, keys answered while the endpoint is
down (through Tests/support/fault_proxy.py), and a quit that leaves nothing stored in the queue. What the view
does with rows (upserts, search, BROWSE, resize, colours, restoring the terminal) is tested once, in
test_tui.py, with events written by `timeline import`.

Asserted with `tmux capture-pane` (plain, and with -e for colours). No durations are asserted: waits are
bounded polls of the screen (`tmux.wait_for`), with generous limits.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from timeline_testing.tmux import TerminalProgram

from sqs_helpers import StoreView, make_event, now_event, send

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (make deps installs it)")

STATUSES = ("info", "in_progress", "success", "warning", "error")


@pytest.fixture
def start_tui(tmux, timeline_bin, e2e_env, db_path, tmp_path):
    """start_tui(queue, endpoint=None, width=100, height=30) -> TerminalProgram: `timeline tui` polling `queue`
    (through `endpoint`, e.g. a fault proxy, when given), once its first frame is up."""
    def start(queue, endpoint=None, width=100, height=30) -> TerminalProgram:
        command = [timeline_bin, "tui", "--queue-url", queue.url, "--endpoint-url", endpoint or queue.endpoint,
                   "--region", queue.region, "--db", db_path]
        tui = TerminalProgram(tmux, command, e2e_env, tmp_path, width, height)
        tui.wait_for("FOLLOW", timeout=15)
        return tui
    return start


# ------------------------------------------------------------------------------------------- tests

def test_published_events_appear_newest_first_and_leave_the_queue(queue, start_tui, db_path, wait_until):
    tui = start_tui(queue)
    tui.wait_for("No events yet")
    events = [make_event(f"live {status} task", status, task_id=f"live-{status}", agent_id="builder",
                         category="deploy" if status == "error" else None, offset=index)
              for index, status in enumerate(STATUSES)]
    for event in events:
        send(queue, event)
    screen = tui.wait_for(lambda s: all(event["title"] in s for event in events))
    rows = [tui.row_of(event["title"], screen) for event in events]
    assert rows == sorted(rows, reverse=True), f"newest first expected:\n{screen}"
    assert "row 1 of 5" in screen and "receiving" in screen
    wait_until(lambda: queue.depth() == 0, timeout=20, message="the TUI's poller left messages in the queue")
    assert StoreView(db_path).event_count() == 5
    # libcurl is opened at the first request (a view that never polls does not load it: test_tui.py).
    assert "libcurl" in Path(f"/proc/{tui.pid()}/maps").read_text()


def test_malformed_message_lands_in_rejected_and_leaves_the_queue(queue, start_tui, run_timeline, db_path,
                                                                    wait_until):
    tui = start_tui(queue)
    queue.send_raw('{"id": "bad-1", "agent_id": "a", "task_id": "t", "title": "x", "status": "done", '
                   '"timestamp": "2026-01-01T00:00:00Z"}')
    queue.send_raw("\x1b[31mnot json at all")
    send(queue, make_event("a good one after the bad ones"))
    tui.wait_for("a good one after the bad ones")
    wait_until(lambda: len(StoreView(db_path).rejected()) == 2, timeout=15, message="rejected not stored")
    wait_until(lambda: queue.depth() == 0, timeout=20, message="rejected messages were left in the queue")
    result = run_timeline("rejected", "--db", db_path)
    assert result.returncode == 0
    assert 'status "done" is not one of' in result.stdout
    assert "not valid JSON" in result.stdout
    assert "\x1b" not in result.stdout, "raw bodies are escaped"
    assert "bad ones" not in tui.tmux.capture().replace("a good one after the bad ones", ""), "rejects are not rows"


def test_keys_are_answered_while_the_endpoint_is_down(make_queue, fault_proxy, start_tui, wait_until):
    queue = make_queue(VisibilityTimeout="2")
    tui = start_tui(queue, endpoint=fault_proxy.endpoint)
    send(queue, make_event("before the outage", task_id="outage-1", offset=1))
    send(queue, make_event("also before the outage", task_id="outage-2", offset=2))
    tui.wait_for(lambda s: "before the outage" in s and "also before" in s)

    fault_proxy.kill()
    tui.wait_for("retry in")  # the status bar says the poller is backing off, and why
    tui.tmux.send_keys("?")
    tui.wait_for("any key closes", timeout=3)
    tui.tmux.send_keys("x")
    tui.wait_for(lambda s: "any key closes" not in s, timeout=3)
    tui.tmux.send_keys("j")
    screen = tui.wait_for(lambda s: "BROWSE" in s and "row 2 of 2" in s, timeout=3)
    assert "retry in" in screen.split("\n")[-2] or "retry in" in screen, "still backing off"
    tui.tmux.send_keys("f")
    tui.wait_for("FOLLOW", timeout=3)

    fault_proxy.start()
    send(queue, now_event("after the outage", task_id="outage-3"))
    screen = tui.wait_for(lambda s: "after the outage" in s and "receiving" in s, timeout=20)
    assert tui.row_of("after the outage", screen) == 1
    wait_until(lambda: queue.depth() == 0, timeout=20, message="messages left in the queue after recovery")


def test_quitting_while_polling_leaves_nothing_stored_in_the_queue(queue, start_tui, db_path, wait_until):
    tui = start_tui(queue)
    events = [make_event(f"quit test {index}", task_id=f"quit-{index}", offset=index) for index in range(5)]
    for event in events:
        send(queue, event)
    tui.wait_for(lambda s: "row 1 of 5" in s)
    wait_until(lambda: StoreView(db_path).event_count() == 5, timeout=15, message="not stored")
    tui.tmux.send_keys("q")
    assert tui.exit_code() == 0
    tui.wait_for("TUI-EXITED")
    # Every stored message was deleted before the TUI quit (delete after commit, no stragglers).
    assert queue.depth() == 0
    assert sorted(StoreView(db_path).event_ids()) == sorted(event["id"] for event in events)
