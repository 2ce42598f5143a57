"""End-to-end tests of `timeline tui` in tmux: the real binary, a real SQLite file fed by `timeline import`
while the TUI runs (`--no-poll`), asserted with `tmux capture-pane` (plain and with `-e` for colours).

The binary: $TIMELINE_BIN, else .build/release/timeline, else .build/debug/timeline.
"""
import json
import os
import shutil
import subprocess
import time
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def timeline_binary() -> str:
    env = os.environ.get("TIMELINE_BIN")
    if env:
        return env
    for candidate in (ROOT / ".build/release/timeline", ROOT / ".build/debug/timeline"):
        if candidate.exists():
            return str(candidate)
    pytest.fail("no timeline binary: build it (make build) or set TIMELINE_BIN")


pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (make deps installs it)")


def event(task, title, status="info", agent="agent-1", category=None, seconds_ago=0, progress=None, body=""):
    ts = datetime.now(timezone.utc) - timedelta(seconds=seconds_ago)
    payload = {
        "id": str(uuid.uuid4()), "agent_id": agent, "task_id": task, "title": title, "status": status,
        "timestamp": ts.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), "body": body,
    }
    if category:
        payload["category"] = category
    if progress is not None:
        payload["progress"] = progress
    return payload


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


class TUI:
    """`timeline tui` running in its own tmux server (own socket, so nothing else is touched)."""

    def __init__(self, binary, db, tmp, width=100, height=30, extra_env=None, args=()):
        self.socket = f"timeline-e2e-{os.getpid()}-{uuid.uuid4().hex[:6]}"
        self.exit_file = tmp / f"exit-{self.socket}"
        self.modes_before = tmp / f"stty-before-{self.socket}"
        self.modes_after = tmp / f"stty-after-{self.socket}"
        env = {"TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "NO_COLOR": ""}
        env.update(extra_env or {})
        exports = " ".join(f"{k}={json.dumps(v)}" for k, v in env.items())
        command = (f"stty -g > {self.modes_before}; env {exports} {binary} tui --no-poll --db {db} {' '.join(args)}; "
                   f"echo $? > {self.exit_file}; stty -g > {self.modes_after}; echo TUI-EXITED; sleep 600")
        self.tmux("new-session", "-d", "-s", "e2e", "-x", str(width), "-y", str(height), command)

    def tmux(self, *args, check=True):
        return subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args],
                              capture_output=True, text=True, check=check, timeout=20)

    def keys(self, *keys):
        self.tmux("send-keys", "-t", "e2e", *keys)

    def type(self, text):
        self.tmux("send-keys", "-t", "e2e", "-l", text)

    def screen(self, colors=False):
        args = ["capture-pane", "-p", "-t", "e2e"] + (["-e"] if colors else [])
        return self.tmux(*args).stdout

    def lines(self):
        return self.screen().split("\n")

    def stable_screen(self, limit=1.0):
        """A capture taken once the pane stopped changing (ncurses may be mid-update), or the last one
        after `limit` seconds (a spinner never stops)."""
        deadline = time.monotonic() + limit
        previous = self.screen()
        while time.monotonic() < deadline:
            time.sleep(0.06)
            current = self.screen()
            if current == previous:
                return current
            previous = current
        return previous

    def wait_for(self, predicate, timeout=5.0, what="condition"):
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if predicate(screen):
                screen = self.stable_screen()
                if predicate(screen):
                    return screen
            if time.monotonic() > deadline:
                pytest.fail(f"timed out waiting for {what}; screen was:\n{screen}")
            time.sleep(0.05)

    def alternate_screen_on(self):
        return self.tmux("display-message", "-p", "-t", "e2e", "#{alternate_on}").stdout.strip() == "1"

    def pid(self):
        pane_pid = self.tmux("display-message", "-p", "-t", "e2e", "#{pane_pid}").stdout.strip()
        for proc in Path("/proc").iterdir():  # the shell's child: env execs timeline
            if not proc.name.isdigit():
                continue
            try:
                stat = (proc / "stat").read_text()
                cmd = (proc / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            ppid = stat.rsplit(")", 1)[1].split()[1]
            if ppid == pane_pid and any(part.endswith(b"timeline") for part in cmd) and b"tui" in cmd:
                return int(proc.name)
        pytest.fail("timeline tui process not found")

    def exit_code(self, timeout=5.0):
        deadline = time.monotonic() + timeout
        while not self.exit_file.exists():
            if time.monotonic() > deadline:
                pytest.fail(f"timeline tui did not exit; screen:\n{self.screen()}")
            time.sleep(0.05)
        time.sleep(0.05)
        return int(self.exit_file.read_text().strip())

    def terminal_modes_restored(self):
        """The tty modes (`stty -g`) after the TUI exited equal those before it started."""
        before = self.modes_before.read_text().strip()
        after = self.modes_after.read_text().strip()
        return before != "" and before == after

    def close(self):
        self.tmux("kill-server", check=False)


@pytest.fixture
def env(tmp_path):
    binary = timeline_binary()
    db = tmp_path / "timeline.db"
    feed = Feeder(binary, db, tmp_path)
    tuis = []

    def start(**kwargs):
        tui = TUI(binary, db, tmp_path, **kwargs)
        tuis.append(tui)
        tui.wait_for(lambda s: "FOLLOW" in s, what="the first frame")
        return tui

    yield feed, start
    for tui in tuis:
        tui.close()


def row_index(lines, text):
    return next(i for i, line in enumerate(lines) if text in line)


def test_empty_state_then_rows_appear_while_running(env):
    feed, start = env
    tui = start()
    screen = tui.wait_for(lambda s: "No events yet" in s, what="the empty state")
    assert "python agent-tool/publish_event.py" in screen
    assert '--title "Hello" --status info --agent-id me' in screen
    feed(event("T-1", "First task started", "in_progress", agent="alpha", category="deploy", progress=40),
         event("T-2", "Second task done", "success", agent="beta", seconds_ago=30))
    screen = tui.wait_for(lambda s: "First task started" in s and "Second task done" in s, what="rows to appear")
    lines = screen.split("\n")
    assert row_index(lines, "First task started") < row_index(lines, "Second task done")
    assert "row 1 of 2" in screen
    assert "alpha" in screen and "deploy" in screen and "40%" in screen


def test_upsert_moves_task_to_top(env):
    feed, start = env
    feed(*[event(f"T-{i}", f"task {i} begins", seconds_ago=100 - i) for i in range(1, 6)])
    tui = start()
    tui.wait_for(lambda s: "task 5 begins" in s, what="rows")
    lines = tui.lines()
    assert row_index(lines, "task 5 begins") < row_index(lines, "task 2 begins")
    feed(event("T-2", "task 2 finished", "success"))
    screen = tui.wait_for(lambda s: "task 2 finished" in s, what="the upsert")
    lines = screen.split("\n")
    assert row_index(lines, "task 2 finished") == 1, screen
    assert "task 2 begins" not in screen
    assert "row 1 of 5" in screen


def test_slash_filters_incrementally_and_esc_clears(env):
    feed, start = env
    feed(event("D-1", "Deploy api", category="deploy", seconds_ago=30),
         event("D-2", "Review PR 12", agent="reviewer", seconds_ago=20),
         event("D-3", "Fix flaky test", "error", seconds_ago=10, body="the deploy pipeline broke"))
    tui = start()
    tui.wait_for(lambda s: "Fix flaky test" in s, what="rows")
    tui.keys("/")
    tui.type("deploy")
    screen = tui.wait_for(lambda s: "Review PR 12" not in s and "2 matches" in s, what="the filter")
    assert "Deploy api" in screen and "Fix flaky test" in screen
    assert "filter: deploy" in screen
    tui.type(" status:error")
    screen = tui.wait_for(lambda s: "Deploy api" not in s, what="the qualifier")
    assert "Fix flaky test" in screen
    tui.keys("Escape")
    tui.wait_for(lambda s: "Review PR 12" in s and "Deploy api" in s, what="the cleared filter")


def test_browse_holds_its_place_while_events_arrive(env):
    feed, start = env
    feed(*[event(f"T-{i:02}", f"event number {i:02}", seconds_ago=1000 - i) for i in range(1, 41)])
    tui = start()
    tui.wait_for(lambda s: "event number 40" in s, what="rows")
    tui.keys("j", "j", "j", "j", "j")
    before = tui.wait_for(lambda s: "BROWSE" in s and "row 6 of 40" in s, what="BROWSE")
    feed(*[event(f"N-{i}", f"brand new {i}", seconds_ago=0) for i in range(3)])
    after = tui.wait_for(lambda s: "↑ 3 new" in s, what="the new-events counter")
    assert "brand new" not in after
    assert before.split("\n")[1:-2] == after.split("\n")[1:-2], "the rows moved while browsing"
    assert "row 9 of 43" in after
    tui.keys("f")
    screen = tui.wait_for(lambda s: "FOLLOW" in s and "brand new" in s, what="FOLLOW")
    assert row_index(screen.split("\n"), "brand new") == 1


def test_resize_redraws_at_once(env):
    feed, start = env
    feed(*[event(f"T-{i}", f"resizable row {i} " + "x" * 60, category="cat", seconds_ago=100 - i) for i in range(30)])
    tui = start(width=100, height=30)
    tui.wait_for(lambda s: "resizable row 29" in s, what="rows")
    tui.tmux("resize-window", "-t", "e2e", "-x", "60", "-y", "12")
    # tmux reflows the old frame into the new size at once; the redraw replaces it (header on line 0).
    screen = tui.wait_for(lambda s: len(s.rstrip("\n").split("\n")) == 12 and "row 1 of 30" in s.split("\n")[11]
                          and "timeline" in s.split("\n")[0], what="the 60x12 redraw")
    lines = screen.rstrip("\n").split("\n")
    assert all(len(line) <= 60 for line in lines)
    assert "timeline" in lines[0], screen
    assert sum("resizable row" in line for line in lines) == 10
    tui.tmux("resize-window", "-t", "e2e", "-x", "140", "-y", "40")
    screen = tui.wait_for(lambda s: sum("resizable row" in line for line in s.split("\n")) == 30, what="the 140x40 redraw")
    assert "row 1 of 30" in screen.rstrip("\n").split("\n")[-1]


def test_colours_and_no_color(env, tmp_path):
    feed, start = env
    feed(event("W", "a warning row", "warning"), event("E", "an error row", "error", seconds_ago=5))
    tui = start()
    tui.wait_for(lambda s: "an error row" in s, what="rows")
    coloured = tui.screen(colors=True)
    assert "38;5;208" in coloured, "warning is orange from the 256-colour palette"
    tui.keys("q")
    assert tui.exit_code() == 0
    plain = start(extra_env={"NO_COLOR": "1"})
    plain.wait_for(lambda s: "an error row" in s, what="rows without colour")
    screen = plain.screen(colors=True)
    assert "38;5;" not in screen and "[3" not in screen.replace("[39m", ""), "no foreground colours with NO_COLOR"
    assert "\x1b[7m" in screen or ";7m" in screen, "reverse video still marks the selection"


def test_q_restores_the_terminal(env):
    feed, start = env
    feed(event("T", "something"))
    tui = start()
    tui.wait_for(lambda s: "something" in s, what="rows")
    assert tui.alternate_screen_on()
    tui.keys("q")
    assert tui.exit_code() == 0
    tui.wait_for(lambda s: "TUI-EXITED" in s, what="the shell after exit")
    assert not tui.alternate_screen_on()
    assert tui.terminal_modes_restored()


def test_sigterm_restores_the_terminal(env):
    feed, start = env
    tui = start()
    tui.wait_for(lambda s: "No events yet" in s, what="the empty state")
    os.kill(tui.pid(), 15)
    assert tui.exit_code() == 128 + 15
    tui.wait_for(lambda s: "TUI-EXITED" in s, what="the shell after SIGTERM")
    assert not tui.alternate_screen_on()
    assert tui.terminal_modes_restored()


def test_crash_signal_restores_the_terminal_and_still_crashes(env):
    feed, start = env
    tui = start()
    tui.wait_for(lambda s: "No events yet" in s, what="the empty state")
    os.kill(tui.pid(), 11)  # SIGSEGV: the handler restores the terminal, then re-raises
    assert tui.exit_code() == 128 + 11
    tui.wait_for(lambda s: "TUI-EXITED" in s, what="the shell after the crash")
    assert not tui.alternate_screen_on()
    assert tui.terminal_modes_restored()


def test_help_overlay_and_detail(env):
    feed, start = env
    feed(event("T-9", "task with details", "error", body="first line of the body\nsecond line"))
    tui = start()
    tui.wait_for(lambda s: "task with details" in s, what="rows")
    tui.keys("?")
    screen = tui.wait_for(lambda s: "any key closes" in s, what="help")
    assert "next error / warning" in screen
    tui.keys("x", "Enter")
    screen = tui.wait_for(lambda s: "History · 1 event" in s, what="the detail view")
    assert "first line of the body" in screen and "second line" in screen
    tui.keys("Escape")
    tui.wait_for(lambda s: "History" not in s and "task with details" in s, what="the list again")


def test_a_900_kb_body_is_folded_then_expanded_with_z(env):
    feed, start = env
    body = "".join(f"body line {i:05d}\n" for i in range(57_000)) + "the very end " * 20
    assert len(body.encode()) > 900_000
    feed(event("T-big", "huge report", "success", body=body))
    tui = start(width=100, height=30)
    tui.wait_for(lambda s: "huge report" in s, what="the row")
    tui.keys("Enter")
    screen = tui.wait_for(lambda s: "z: expand" in s, what="the folded body")
    assert "body line 00000" in screen and "KB more" in screen
    tui.keys("z")
    tui.wait_for(lambda s: "z: expand" not in s, what="the expanded body")
    tui.keys("G")
    tui.wait_for(lambda s: "the very end" in s, what="the end of the body, scrolled to", timeout=15)
    tui.keys("g", "g")
    tui.wait_for(lambda s: "body line 00000" in s, what="the top again")
    tui.keys("z")
    tui.wait_for(lambda s: "z: expand" in s, what="folded again")
