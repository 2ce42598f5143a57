"""End-to-end tests of `timeline tui` in tmux: the real binary, a real SQLite file fed by `timeline import`
while the TUI runs (`--no-poll`), asserted with `tmux capture-pane` (plain and with `-e` for colours).

The binary: $TIMELINE_BIN, else .build/release/timeline, else .build/debug/timeline (fixture `timeline_bin`).
The tmux harness is the shared one (Tests/support/timeline_testing/tmux.py).
"""
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from timeline_testing.events import event
from timeline_testing.tmux import TerminalProgram

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (make deps installs it)")


STATUS_COLOURS = {"info": ("39", "●"), "in_progress": ("220", ""), "success": ("78", "✓"),
                  "warning": ("208", "▲"), "error": ("203", "✗")}


class Feeder:
    """Writes events into the database through `timeline import` (another process, as a poller would)."""

    def __init__(self, binary, db, tmp):
        self.binary, self.db, self.tmp, self.n = binary, db, tmp, 0

    def __call__(self, *events):
        self.n += 1
        path = self.tmp / f"batch-{self.n}.jsonl"
        path.write_text("".join(json.dumps(e) + "\n" for e in events))
        result = subprocess.run([self.binary, "import", "--db", str(self.db), str(path)],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, f"timeline import failed: {result.stderr}"


@pytest.fixture
def env(tmux, timeline_bin, e2e_env, tmp_path):
    """(feed, start): feed(*events) imports into the test's database; start(width=, height=, extra_env=) runs
    `timeline tui --no-poll` on it in tmux and waits for the first frame."""
    db = tmp_path / "timeline.db"
    feed = Feeder(timeline_bin, db, tmp_path)

    def start(width=100, height=30, extra_env=None):
        command = [timeline_bin, "tui", "--no-poll", "--db", str(db)]
        tui = TerminalProgram(tmux, command, {**e2e_env, **(extra_env or {})}, tmp_path, width, height)
        tui.wait_for(lambda s: "FOLLOW" in s)
        return tui

    return feed, start


def row_index(lines, text):
    return next(i for i, line in enumerate(lines) if text in line)


def test_empty_state_then_rows_appear_while_running(env):
    feed, start = env
    tui = start()
    screen = tui.wait_for(lambda s: "No events yet" in s)
    assert "python agent-tool/publish_event.py" in screen
    assert '--title "Hello" --status info --agent-id me' in screen
    feed(event("T-1", "First task started", "in_progress", agent="alpha", category="deploy", progress=40),
         event("T-2", "Second task done", "success", agent="beta", age=30))
    screen = tui.wait_for(lambda s: "First task started" in s and "Second task done" in s)
    lines = screen.split("\n")
    assert row_index(lines, "First task started") < row_index(lines, "Second task done")
    assert "row 1 of 2" in screen
    assert "alpha" in screen and "deploy" in screen and "40%" in screen


def test_a_view_that_never_talks_to_sqs_does_not_load_the_network_stack(env):
    """libcurl (and the ~30 libraries it depends on) is opened at the first request: a `--no-poll` view
    never maps it. (test_tui_sqs checks that a polling TUI does.)"""
    feed, start = env
    feed(event("T-1", "quiet view"))
    tui = start()
    tui.wait_for(lambda s: "quiet view" in s)
    maps = Path(f"/proc/{tui.pid()}/maps").read_text()
    assert "libcurl" not in maps and "libldap" not in maps, "the network stack was loaded by a view that never polls"
    assert "libsqlite3" in maps


def test_writes_by_another_process_appear_without_keys_while_the_loop_sleeps(env):
    """The loop sleeps in poll(2) between ticks; another process's commits (inotify on the WAL, with the
    data_version check as the fallback) still reach the screen with no key pressed, one after another."""
    feed, start = env
    tui = start()
    tui.wait_for(lambda s: "No events yet" in s)
    for n in range(1, 4):
        time.sleep(1.2)  # past a tick: the loop is asleep again when the write lands
        feed(event(f"W-{n}", f"written by another process {n}"))
        screen = tui.wait_for(lambda s: f"written by another process {n}" in s)
        assert f"row 1 of {n}" in screen


def test_upsert_moves_task_to_top(env):
    feed, start = env
    feed(*[event(f"T-{i}", f"task {i} begins", age=100 - i) for i in range(1, 6)])
    tui = start()
    tui.wait_for(lambda s: "task 5 begins" in s)
    lines = tui.lines()
    assert row_index(lines, "task 5 begins") < row_index(lines, "task 2 begins")
    feed(event("T-2", "task 2 finished", "success"))
    screen = tui.wait_for(lambda s: "task 2 finished" in s)
    lines = screen.split("\n")
    assert row_index(lines, "task 2 finished") == 1, screen
    assert "task 2 begins" not in screen
    assert "row 1 of 5" in screen


def test_slash_filters_incrementally_and_esc_clears(env):
    feed, start = env
    feed(event("D-1", "Deploy api", category="deploy", age=30),
         event("D-2", "Review PR 12", agent="reviewer", age=20),
         event("D-3", "Fix flaky test", "error", age=10, body="the deploy pipeline broke"))
    tui = start()
    tui.wait_for(lambda s: "Fix flaky test" in s)
    tui.keys("/")
    tui.type("deploy")
    screen = tui.wait_for(lambda s: "Review PR 12" not in s and "2 matches" in s)
    assert "Deploy api" in screen and "Fix flaky test" in screen
    assert "filter: deploy" in screen
    tui.type(" status:error")
    screen = tui.wait_for(lambda s: "Deploy api" not in s)
    assert "Fix flaky test" in screen
    tui.keys("Escape")
    tui.wait_for(lambda s: "Review PR 12" in s and "Deploy api" in s)
    # A filter kept with Enter applies to events that arrive afterwards too.
    tui.keys("/")
    tui.type("deploy")
    tui.keys("Enter")
    tui.wait_for(lambda s: "Review PR 12" not in s and "deploy" in s.split("\n")[0])
    feed(event("D-4", "Deploy cron", category="deploy"), event("D-5", "Unrelated chore"))
    screen = tui.wait_for(lambda s: "Deploy cron" in s)
    assert row_index(screen.split("\n"), "Deploy cron") == 1 and "Unrelated chore" not in screen
    tui.keys("Escape")
    # Rows come first; the counts (header, row N of M) follow on their own, debounced lane.
    screen = tui.wait_for(lambda s: "Review PR 12" in s and "Unrelated chore" in s and "row 1 of 5" in s)


def test_browse_holds_its_place_while_events_arrive(env):
    feed, start = env
    feed(*[event(f"T-{i:02}", f"event number {i:02}", age=1000 - i) for i in range(1, 41)])
    tui = start()
    tui.wait_for(lambda s: "event number 40" in s)
    tui.keys("j", "j", "j", "j", "j")
    before = tui.wait_for(lambda s: "BROWSE" in s and "row 6 of 40" in s)
    # Three new tasks, and an upsert of a task below the selection (it moves to the top): counted, not shown.
    feed(event("T-01", "event number 01 updated", age=1), *[event(f"N-{i}", f"brand new {i}") for i in range(3)])
    after = tui.wait_for(lambda s: "↑ 4 new" in s)
    assert "brand new" not in after and "updated" not in after
    assert before.split("\n")[1:-2] == after.split("\n")[1:-2], "the rows moved while browsing"
    assert "row 10 of 43" in after
    tui.keys("f")
    screen = tui.wait_for(lambda s: "FOLLOW" in s and "brand new" in s)
    assert row_index(screen.split("\n"), "brand new 2") == 1
    assert row_index(screen.split("\n"), "event number 01 updated") == 4


def test_resize_redraws_at_once(env):
    feed, start = env
    feed(*[event(f"T-{i}", f"resizable row {i} " + "x" * 60, category="cat", age=100 - i) for i in range(30)])
    tui = start(width=100, height=30)
    tui.wait_for(lambda s: "resizable row 29" in s)
    tui.resize(60, 12)
    # tmux reflows the old frame into the new size at once; the redraw replaces it (header on line 0).
    screen = tui.wait_for(lambda s: len(s.rstrip("\n").split("\n")) == 12 and "row 1 of 30" in s.split("\n")[11]
                          and "timeline" in s.split("\n")[0])
    lines = screen.rstrip("\n").split("\n")
    assert all(len(line) <= 60 for line in lines)
    assert "timeline" in lines[0], screen
    assert sum("resizable row" in line for line in lines) == 10
    tui.resize(140, 40)
    screen = tui.wait_for(lambda s: sum("resizable row" in line for line in s.split("\n")) == 30)
    assert "row 1 of 30" in screen.rstrip("\n").split("\n")[-1]
    feed(event("T-new", "arrived after resizing"))
    screen = tui.wait_for(lambda s: "arrived after resizing" in s)
    assert row_index(screen.split("\n"), "arrived after resizing") == 1


def test_colours_and_no_color(env, tmp_path):
    feed, start = env
    feed(*[event(status, f"a {status} row", status, age=index) for index, status in enumerate(STATUS_COLOURS)],
         event("E", "an error row", "error", age=10))
    tui = start()
    tui.wait_for(lambda s: "an error row" in s)
    coloured = tui.screen(colours=True).split("\n")
    for status, (code, glyph) in STATUS_COLOURS.items():
        line = next(line for line in coloured if f"a {status} row" in line)
        assert f"38;5;{code}m{glyph}" in line, f"{status} is not drawn in colour {code} (256-colour palette): {line!r}"
    tui.keys("q")
    assert tui.exit_code() == 0
    plain = start(extra_env={"NO_COLOR": "1"})
    plain.wait_for(lambda s: "an error row" in s)
    screen = plain.screen(colours=True)
    assert "38;5;" not in screen and "[3" not in screen.replace("[39m", ""), "no foreground colours with NO_COLOR"
    assert "\x1b[7m" in screen or ";7m" in screen, "reverse video still marks the selection"


def test_q_restores_the_terminal(env):
    feed, start = env
    feed(event("T", "something"))
    tui = start()
    tui.wait_for(lambda s: "something" in s)
    assert tui.alternate_screen_on()
    tui.keys("q")
    assert tui.exit_code() == 0
    tui.wait_for(lambda s: "TUI-EXITED" in s)
    assert not tui.alternate_screen_on()
    assert tui.terminal_modes_restored()


def test_sigterm_restores_the_terminal(env):
    feed, start = env
    tui = start()
    tui.wait_for(lambda s: "No events yet" in s)
    os.kill(tui.pid(), 15)
    assert tui.exit_code() == 128 + 15
    tui.wait_for(lambda s: "TUI-EXITED" in s)
    assert not tui.alternate_screen_on()
    assert tui.terminal_modes_restored()


def test_crash_signal_restores_the_terminal_and_still_crashes(env):
    feed, start = env
    tui = start()
    tui.wait_for(lambda s: "No events yet" in s)
    os.kill(tui.pid(), 11)  # SIGSEGV: the handler restores the terminal, then re-raises
    assert tui.exit_code() == 128 + 11
    tui.wait_for(lambda s: "TUI-EXITED" in s)
    assert not tui.alternate_screen_on()
    assert tui.terminal_modes_restored()


def test_help_overlay_and_detail(env):
    feed, start = env
    feed(event("T-9", "task with details", "error", body="first line of the body\nsecond line"))
    tui = start()
    tui.wait_for(lambda s: "task with details" in s)
    tui.keys("?")
    screen = tui.wait_for(lambda s: "any key closes" in s)
    assert "next error / warning" in screen
    tui.keys("x", "Enter")
    screen = tui.wait_for(lambda s: "History · 1 event" in s)
    assert "first line of the body" in screen and "second line" in screen
    tui.keys("Escape")
    tui.wait_for(lambda s: "History" not in s and "task with details" in s)


def test_a_900_kb_body_is_folded_then_expanded_with_z(env):
    feed, start = env
    body = "".join(f"body line {i:05d}\n" for i in range(57_000)) + "the very end " * 20
    assert len(body.encode()) > 900_000
    feed(event("T-big", "huge report", "success", body=body))
    tui = start(width=100, height=30)
    tui.wait_for(lambda s: "huge report" in s)
    tui.keys("Enter")
    screen = tui.wait_for(lambda s: "z: expand" in s)
    assert "body line 00000" in screen and "KB more" in screen
    tui.keys("z")
    tui.wait_for(lambda s: "z: expand" not in s)
    tui.keys("G")
    tui.wait_for(lambda s: "the very end" in s, timeout=15)
    tui.keys("g", "g")
    tui.wait_for(lambda s: "body line 00000" in s)
    tui.keys("z")
    tui.wait_for(lambda s: "z: expand" in s)
