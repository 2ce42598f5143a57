"""End-to-end tests of `timeline tui` polling a real local SQS queue (moto) in the background, in tmux: events
published with agent-tool appear, upserts, search, BROWSE anchoring, resize, colours, rejected messages, keys
answered while the endpoint is down (through Tests/support/fault_proxy.py), and a clean quit.

Asserted with `tmux capture-pane` (plain, and with -e for colours). No durations are asserted: waits are
bounded polls of the screen (`tmux.wait_for`), with generous limits.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from timeline_testing.tmux import TerminalProgram

from sqs_helpers import StoreView, make_event, now_event, send

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (make deps installs it)")

STATUS_COLOURS = {"info": ("39", "●"), "in_progress": ("220", ""), "success": ("78", "✓"),
                  "warning": ("208", "▲"), "error": ("203", "✗")}


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


def titles_by_line(screen: str) -> list[str]:
    """Per list line, the `steady task NN` it shows (relative times may tick between captures)."""
    return [match.group(0) if (match := re.search(r"steady task \d\d", line)) else ""
            for line in screen.rstrip("\n").split("\n")[1:-1]]


# ------------------------------------------------------------------------------------------- tests

def test_published_events_appear_upsert_moves_to_top_and_colours(queue, start_tui, db_path, wait_until):
    tui = start_tui(queue)
    tui.wait_for("No events yet")
    events = [make_event(f"live {status} task", status, task_id=f"live-{status}", agent_id="builder",
                         category="deploy" if status == "error" else None, offset=index)
              for index, status in enumerate(STATUS_COLOURS)]
    for event in events:
        send(queue, event)
    screen = tui.wait_for(lambda s: all(event["title"] in s for event in events))
    rows = [tui.row_of(event["title"], screen) for event in events]
    assert rows == sorted(rows, reverse=True), f"newest first expected:\n{screen}"
    assert "row 1 of 5" in screen and "receiving" in screen

    coloured = tui.tmux.capture(colours=True).split("\n")
    for status, (code, glyph) in STATUS_COLOURS.items():
        line = next(line for line in coloured if f"live {status} task" in line)
        assert f"38;5;{code}m{glyph}" in line, f"{status} is not drawn in colour {code}: {line!r}"

    # An upsert of the oldest task (same task_id, newer timestamp) moves it to the top.
    send(queue, now_event("live info task, now finished", "success", task_id="live-info", agent_id="builder"))
    screen = tui.wait_for("now finished")
    assert tui.row_of("now finished", screen) == 1, screen
    assert "live info task" not in screen.replace("live info task, now finished", "")
    assert "row 1 of 5" in screen
    wait_until(lambda: queue.depth() == 0, timeout=20, message="the TUI's poller left messages in the queue")
    assert StoreView(db_path).event_count() == 6
    # libcurl is opened at the first request (a view that never polls does not load it: test_tui.py).
    assert "libcurl" in Path(f"/proc/{tui.pid()}/maps").read_text()


def test_search_filters_and_esc_clears(queue, start_tui):
    tui = start_tui(queue)
    for index, (title, category) in enumerate((("Deploy api to staging", "deploy"), ("Review PR 12", "review"),
                                               ("Rotate keys", "security"), ("Deploy worker", "deploy"))):
        send(queue, make_event(title, task_id=f"search-{index}", category=category, offset=index))
    tui.wait_for(lambda s: "Rotate keys" in s and "Deploy worker" in s and "Review PR 12" in s)
    tui.tmux.send_keys("/")
    tui.tmux.type("deploy")
    tui.tmux.send_keys("Enter")
    screen = tui.wait_for(lambda s: "Review PR 12" not in s and "Rotate keys" not in s)
    assert "Deploy api to staging" in screen and "Deploy worker" in screen
    assert "deploy" in screen.split("\n")[0], "the header names the filter"
    # The kept filter applies to events that arrive afterwards too.
    send(queue, now_event("Deploy cron", task_id="search-9", category="deploy"))
    send(queue, now_event("Unrelated chore", task_id="search-10"))
    screen = tui.wait_for("Deploy cron")
    assert tui.row_of("Deploy cron", screen) == 1
    tui.tmux.send_keys("Escape")
    # Rows come first; the counts (header, row N of M) follow on their own, debounced lane.
    screen = tui.wait_for(lambda s: "Review PR 12" in s and "Rotate keys" in s and "Unrelated chore" in s
                          and "row 1 of 6" in s)
    assert "6 info" in screen.split("\n")[0]


def test_browse_holds_its_place_while_new_events_arrive(queue, start_tui):
    # More tasks than list lines, so that holding the place means new rows stay out of view above.
    tui = start_tui(queue, height=12)
    for index in range(15):
        send(queue, make_event(f"steady task {index:02}", task_id=f"steady-{index:02}", offset=index))
    tui.wait_for(lambda s: "steady task 14" in s and "row 1 of 15" in s)
    tui.tmux.send_keys("j", "j", "j", "j")
    before = tui.wait_for(lambda s: "BROWSE" in s and "row 5 of 15" in s)
    selected_line = tui.row_of("steady task 10", before)
    for index in range(3):
        send(queue, now_event(f"fresh arrival {index}", task_id=f"fresh-{index}"))
    # An upsert of a task below the selection moves that task to the top: counted, not shown.
    send(queue, now_event("steady task 02 updated", task_id="steady-02"))
    after = tui.wait_for(lambda s: "↑ 4 new" in s and "row 9 of 18" in s)
    assert "fresh arrival" not in after and "updated" not in after, "BROWSE scrolled new events into view"
    assert tui.row_of("steady task 10", after) == selected_line, "the selected task moved on screen"
    assert titles_by_line(before) == titles_by_line(after), "the rows around the selection changed"
    assert "BROWSE" in after
    tui.tmux.send_keys("f")
    screen = tui.wait_for(lambda s: "FOLLOW" in s and "row 1 of 18" in s and "↑" not in s.split("\n")[-2])
    assert tui.row_of("steady task 02 updated", screen) == 1
    assert tui.row_of("fresh arrival 2", screen) == 2


def test_resize_redraws(queue, start_tui):
    tui = start_tui(queue, width=100, height=30)
    for index in range(20):
        send(queue, make_event(f"resizable {index:02} " + "x" * 70, task_id=f"resize-{index}", offset=index))
    tui.wait_for("row 1 of 20")
    tui.tmux.resize(60, 12)
    screen = tui.wait_for(lambda s: len(s.rstrip("\n").split("\n")) == 12 and "timeline" in s.split("\n")[0]
                          and "row 1 of 20" in s.rstrip("\n").split("\n")[-1])
    lines = screen.rstrip("\n").split("\n")
    assert all(len(line) <= 60 for line in lines), screen
    assert sum("resizable" in line for line in lines) == 10
    tui.tmux.resize(140, 40)
    screen = tui.wait_for(lambda s: sum("resizable" in line for line in s.split("\n")) == 20)
    assert "row 1 of 20" in screen.rstrip("\n").split("\n")[-1]
    send(queue, now_event("arrived after resizing", task_id="resize-new"))
    screen = tui.wait_for("arrived after resizing")
    assert tui.row_of("arrived after resizing", screen) == 1


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


def test_q_restores_the_terminal_and_leaves_nothing_stored_in_the_queue(queue, start_tui, db_path, wait_until):
    tui = start_tui(queue)
    events = [make_event(f"quit test {index}", task_id=f"quit-{index}", offset=index) for index in range(5)]
    for event in events:
        send(queue, event)
    tui.wait_for(lambda s: "row 1 of 5" in s)
    assert tui.alternate_screen_on()
    wait_until(lambda: StoreView(db_path).event_count() == 5, timeout=15, message="not stored")
    tui.tmux.send_keys("q")
    assert tui.exit_code() == 0
    tui.wait_for("TUI-EXITED")
    assert not tui.alternate_screen_on()
    assert tui.before.read_text().strip() == tui.after.read_text().strip(), "tty modes not restored"
    # Every stored message was deleted before the TUI quit (delete after commit, no stragglers).
    assert queue.depth() == 0
    assert sorted(StoreView(db_path).event_ids()) == sorted(event["id"] for event in events)
