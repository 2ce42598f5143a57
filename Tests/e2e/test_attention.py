"""Attention end to end: the bytes `timeline tui` writes to its pty (notification sequences, BELs, the window
title), `--notify-command` for `tui` and headless `poll`, unread marks across a restart (in tmux), and
`timeline status`.

The TUI runs on a real pseudo-terminal (Python's pty) so every byte it writes is read back exactly; events
arrive through `timeline import` from another process while it runs (`--no-poll`), as from a poller.
"""
import fcntl
import json
from pathlib import Path
import os
import pty
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import threading
import time

import pytest
from timeline_testing.events import event
from timeline_testing.waiting import wait_until

ESC = b"\x1b"
ST = ESC + b"\\"
BEL = b"\x07"


class PtyTUI:
    """`timeline tui` on a pty of its own; a thread collects everything it writes."""

    def __init__(self, argv, env, width=100, height=30):
        self.output = bytearray()
        self.lock = threading.Lock()
        pid, fd = pty.fork()
        if pid == 0:  # child
            try:
                # The size is the terminal's before the program starts (a resize during start-up is not
                # what these tests are about).
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
        os.kill(pid, signal.SIGWINCH)
        self.done = False
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        while True:
            try:
                ready, _, _ = select.select([self.fd], [], [], 0.1)
                if ready:
                    chunk = os.read(self.fd, 65536)
                    if not chunk:
                        break
                    with self.lock:
                        self.output += chunk
            except OSError:
                break
        self.done = True

    def bytes(self):
        with self.lock:
            return bytes(self.output)

    def wait_for(self, predicate, timeout=20, message="the TUI output"):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            out = self.bytes()
            if predicate(out):
                return out
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {message}; last bytes: {self.bytes()[-600:]!r}")

    def send(self, data: bytes):
        os.write(self.fd, data)

    def quit(self):
        self.send(b"q")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.thread.join(timeout=5)
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.05)
        self.kill()
        raise AssertionError("the TUI did not quit on q")

    def kill(self):
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        try:
            os.close(self.fd)
        except OSError:
            pass


@pytest.fixture
def feed(timeline_bin, db_path, tmp_path):
    counter = [0]

    def run(*events):
        counter[0] += 1
        path = tmp_path / f"batch-{counter[0]}.jsonl"
        path.write_text("".join(json.dumps(e) + "\n" for e in events))
        result = subprocess.run([timeline_bin, "import", "--db", db_path, str(path)],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
    return run


@pytest.fixture
def tui(timeline_bin, db_path, e2e_env):
    started = []

    def start(*flags, extra_env=None):
        env = {**e2e_env, "TERM": "xterm-256color", **(extra_env or {})}
        program = PtyTUI([timeline_bin, "tui", "--no-poll", "--db", db_path, *flags], env)
        started.append(program)
        program.wait_for(lambda out: b"FOLLOW" in out, message="the first frame")
        return program
    yield start
    for program in started:
        program.kill()


def osc9(text: str) -> bytes:
    return ESC + b"]9;" + text.encode() + ST


SENTINEL_OSC9 = osc9("timeline: sentinel error: sentinel broke") + BEL


def sentinel():
    """A later error of a task of its own: once its notification (SENTINEL_OSC9) is out, alone, everything fed
    before it was observed and nothing else was due (a transition still waiting would have joined its burst)."""
    return event("SENTINEL", "sentinel broke", "error", agent="sentinel")


def test_one_osc9_and_one_bel_per_transition(tui, feed):
    feed(event("T-1", "Deploy started", "in_progress", agent="ci"))
    program = tui("--notify-terminal", "osc9")
    assert program.bytes().count(BEL) == 0
    feed(event("T-1", "Deploy failed", "error", agent="ci"))
    expected = osc9("timeline: ci error: Deploy failed") + BEL
    out = program.wait_for(lambda o: expected in o, message="the OSC 9 notification")
    assert out.count(BEL) == 1
    # The same status again is no new transition; a success is not notified at the default level.
    feed(event("T-1", "Still failing", "error", agent="ci"), event("T-2", "Done", "success", agent="ci"), sentinel())
    out = program.wait_for(lambda o: SENTINEL_OSC9 in o, message="the sentinel's notification, alone")
    assert out.count(BEL) == 2
    assert out.count(ESC + b"]9;") == 2
    assert program.quit() == 0


def test_a_burst_is_one_notification(tui, feed):
    program = tui("--notify-terminal", "osc9")
    feed(event("A", "a broke", "error"), event("B", "b broke", "error"), event("C", "c broke", "error"))
    program.wait_for(lambda o: BEL in o, message="the burst notification")
    feed(sentinel())
    out = program.wait_for(lambda o: SENTINEL_OSC9 in o, message="the sentinel's notification, alone")
    assert osc9("timeline: 3 errors") + BEL in out
    assert out.count(BEL) == 2


def test_backlog_gives_one_summary(tui, feed):
    program = tui("--notify-terminal", "osc9")
    # Events stamped before the viewer started, arriving now (as a queue's backlog would).
    feed(event("A", "a", "error", age=300), event("B", "b", "error", age=200),
         event("C", "c", "warning", age=100), event("D", "d", "in_progress", age=50))
    program.wait_for(lambda o: BEL in o, message="the backlog summary")
    feed(sentinel())
    out = program.wait_for(lambda o: SENTINEL_OSC9 in o, message="the sentinel's notification, alone")
    assert osc9("timeline: while you were away: 2 errors") + BEL in out
    assert out.count(BEL) == 2


def test_all_level_notifies_warnings_and_successes(tui, feed):
    program = tui("--notify-terminal", "osc9", "--notify", "all")
    feed(event("A", "careful", "warning", agent="x"))
    program.wait_for(lambda o: osc9("timeline: x warning: careful") + BEL in o)
    feed(event("A", "made it", "success", agent="x"))
    program.wait_for(lambda o: osc9("timeline: x success: made it") + BEL in o)
    assert program.bytes().count(BEL) == 2


def test_notify_level_from_the_config_file(tui, feed, e2e_env):
    """`notify = "all"` in config.toml acts like `--notify all` (flag > TIMELINE_NOTIFY > file > errors)."""
    config = Path(e2e_env["XDG_CONFIG_HOME"]) / "timeline" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('notify = "all"\n')
    program = tui("--notify-terminal", "osc9")
    feed(event("A", "careful", "warning", agent="x"))
    program.wait_for(lambda o: osc9("timeline: x warning: careful") + BEL in o)


def test_notify_off_is_silent(tui, feed):
    program = tui("--notify-terminal", "osc9", "--notify", "off")
    feed(event("A", "a broke", "error"))
    program.wait_for(lambda o: "]2;timeline · 1 error".encode() in o, message="the title counting the error")
    # Silence has no event to wait for: wait past the burst window (2 s), when a notification would be due.
    time.sleep(2.5)
    assert BEL not in program.bytes()


def test_silence_for_the_task_whose_detail_is_open(tui, feed):
    feed(event("OPEN", "watched task", "in_progress"))
    program = tui("--notify-terminal", "osc9")
    program.wait_for(lambda o: b"watched task" in o)
    program.send(b"\r")  # open the selected (only) task's detail
    program.wait_for(lambda o: b"OPEN" in o, message="the detail view")
    feed(event("OPEN", "watched task broke", "error"))
    program.wait_for(lambda o: "]2;timeline · 1 error".encode() in o, message="the title counting the error")
    # Notified alone: the open task's error did not wait in the same burst.
    feed(event("OTHER", "other task broke", "error"))
    program.wait_for(lambda o: osc9("timeline: agent-1 error: other task broke") + BEL in o)
    out = program.bytes()
    assert out.count(BEL) == 1
    assert b"]9;timeline: agent-1 error: watched" not in out


@pytest.mark.parametrize("flag, expected", [
    ("osc777", ESC + b"]777;notify;timeline: ci error;Deploy failed" + ST + BEL),
    ("osc99", ESC + b"]99;i=timeline:d=0:p=title;timeline: ci error" + ST
     + ESC + b"]99;i=timeline:d=1:p=body;Deploy failed" + ST + BEL),
    ("bell", None),
])
def test_other_sequences(tui, feed, flag, expected):
    program = tui("--notify-terminal", flag)
    feed(event("T", "Deploy failed", "error", agent="ci"))
    # One BEL per notification, after its sequence (the sequences end with ST, never BEL).
    out = program.wait_for(lambda o: BEL in o)
    if expected:
        assert expected in out
    else:
        assert b"]9;" not in out and b"]777;" not in out and b"]99;" not in out
    assert out.count(BEL) == 1


def test_auto_detects_kitty_and_wraps_for_tmux(tui, feed):
    program = tui(extra_env={"KITTY_WINDOW_ID": "1", "TMUX": "/tmp/tmux-0/default,1,0"})
    feed(event("T", "Deploy failed", "error", agent="ci"))
    out = program.wait_for(lambda o: BEL in o)
    inner = (ESC + b"]99;i=timeline:d=0:p=title;timeline: ci error" + ST,
             ESC + b"]99;i=timeline:d=1:p=body;Deploy failed" + ST)
    wrapped = b"".join(ESC + b"Ptmux;" + part.replace(ESC, ESC + ESC) + ST for part in inner)
    assert wrapped + BEL in out
    assert out.count(BEL) == 1


def test_hostile_titles_cannot_end_or_extend_the_sequence(tui, feed):
    program = tui("--notify-terminal", "osc777")
    hostile_agent = "ev;il\x1b\\\x07agent"
    hostile_title = "x\x1b\\\x07\x1b]2;pwned\x07\u009c\u009d;\x1b[2J\ny"
    feed(event("T", hostile_title, "error", agent=hostile_agent))
    out = program.wait_for(lambda o: BEL in o)
    start = out.index(ESC + b"]777;notify;")
    end = out.index(ST, start)
    sequence = out[start:end + 2]
    # Title: semicolons cannot move text into the body; controls and sequences are gone; line break shown as ⏎.
    assert sequence == ESC + b"]777;notify;timeline: ev,ilagent error;" + "x⏎y".encode() + ST
    assert out[end + 2:end + 3] == BEL
    assert out.count(BEL) == 1
    assert b"pwned" not in out


def test_terminal_title_shows_the_fleet_and_is_restored(tui, feed):
    feed(event("R1", "r1", "in_progress"), event("R2", "r2", "in_progress"), event("E", "e", "error"))
    program = tui("--notify-terminal", "none")
    out = program.wait_for(lambda o: ESC + b"]2;" in o, message="the title")
    assert out.startswith(ESC + b"[22;0t") or out.index(ESC + b"[22;0t") < out.index(ESC + b"]2;")
    assert ESC + "]2;timeline · 1 error · 2 running".encode() + ST in out
    feed(event("E", "fixed", "success"))
    program.wait_for(lambda o: ESC + "]2;timeline · 2 running".encode() + ST in o, message="the new title")
    assert program.quit() == 0
    out = program.bytes()
    assert out.rstrip().endswith(ESC + b"[23;0t") or out.rindex(ESC + b"[23;0t") > out.rindex(ESC + b"]2;")


RECORDER = """import json, sys
with open(sys.argv[1], "a") as out:
    out.write(json.dumps({"argv": sys.argv[1:], "stdin": sys.stdin.read()}) + "\\n")
"""


def recorded(path):
    if not os.path.exists(path):
        return []
    return [json.loads(line) for line in open(path) if line.strip()]


def test_notify_command_gets_the_event_json_on_stdin(tui, feed, tmp_path):
    script = tmp_path / "my recorder.py"
    script.write_text(RECORDER)
    log = tmp_path / "log file.jsonl"
    command = f"'{sys.executable}' '{script}' '{log}'"
    program = tui("--notify-terminal", "none", "--notify-command", command)
    hostile = "$(touch /tmp/pwned-by-timeline) `id` ; rm -rf x"
    e = event("T", hostile, "error", agent="ci")
    feed(e)
    calls = wait_until(lambda: recorded(log), timeout=20, message="the notify command's record")
    assert len(calls) == 1
    assert calls[0]["argv"] == [str(log)]
    doc = json.loads(calls[0]["stdin"])
    assert doc["kind"] == "transition" and doc["body"] == hostile and doc["count"] == 1
    assert doc["events"][0]["id"] == e["id"] and doc["events"][0]["title"] == hostile
    assert not os.path.exists("/tmp/pwned-by-timeline")
    assert program.quit() == 0


def test_poll_runs_the_notify_command_headless(timeline_bin, e2e_env, db_path, connection_args, publish, tmp_path):
    script = tmp_path / "recorder.py"
    script.write_text(RECORDER)
    log = tmp_path / "log.jsonl"
    command = f"{sys.executable} {script} {log}"
    stderr = tmp_path / "poll.stderr"
    with open(stderr, "w") as err_file:
        poll = subprocess.Popen([timeline_bin, "poll", "-v", "--db", db_path, *connection_args,
                                 "--notify-command", command], env=e2e_env, stdout=subprocess.DEVNULL, stderr=err_file)
    try:
        # Receiving: its notifier started before the first receive, so the event is live, not backlog.
        wait_until(lambda: "connected: receiving" in stderr.read_text(), timeout=30,
                   message=lambda: f"poll did not start receiving: {stderr.read_text()}")
        publish("nightly build broke", "error", agent_id="builder")
        wait_until(lambda: recorded(log), timeout=30, message="the notify command's record")
    finally:
        poll.send_signal(signal.SIGINT)
        poll.wait(timeout=30)
    err = stderr.read_text()
    calls = recorded(log)
    assert len(calls) == 1, err
    doc = json.loads(calls[0]["stdin"])
    assert doc["title"] == "timeline: builder error" and doc["body"] == "nightly build broke"
    assert doc["events"][0]["status"] == "error"


def test_status_formats_and_exit_codes(run_timeline, feed, db_path):
    result = run_timeline("status", "--db", db_path)
    assert (result.returncode, result.stdout) == (0, "no data yet\n"), "no database is not \"ok\""
    assert run_timeline("status", "--db", db_path, "--format", "tmux").stdout == "#[fg=colour244]no data yet#[default]\n"
    assert json.loads(run_timeline("status", "--db", db_path, "--format", "json").stdout)["database"] is False
    feed(event("R", "r", "in_progress"), event("E", "e", "error"), event("S", "s", "success"))
    result = run_timeline("status", "--db", db_path)
    assert (result.returncode, result.stdout) == (1, "1 error · 1 running\n")
    result = run_timeline("status", "--db", db_path, "--format", "tmux")
    assert result.stdout == "#[fg=red,bold]1 error#[default] · #[fg=cyan]1 running#[default]\n"
    result = run_timeline("status", "--db", db_path, "--format", "json")
    assert json.loads(result.stdout) == {"waiting": 0, "errors": 1, "unread_errors": 1, "running": 1,
                                         "needs_attention": True}
    assert result.returncode == 1
    result = run_timeline("status", "--db", db_path, "--format", "yaml")
    assert result.returncode == 64 and "yaml" in result.stderr


def test_unread_marks_survive_a_restart(tmux, timeline_bin, e2e_env, db_path, feed, run_timeline, tmp_path):
    from timeline_testing.tmux import TerminalProgram

    def start():
        program = TerminalProgram(tmux, [timeline_bin, "tui", "--no-poll", "--db", db_path], e2e_env, tmp_path, 100, 20)
        program.wait_for(lambda s: "FOLLOW" in s and "alpha broke" in s)
        return program

    def row(screen, text):
        return next(line for line in screen.split("\n") if text in line)

    def quit(program):
        program.keys("q")
        program.wait_for(lambda s: TerminalProgram.EXITED_MARK in s)

    feed(event("A", "alpha broke", "error", age=20), event("B", "beta says hi", "info", age=10))
    program = start()
    screen = program.wait_for(lambda s: "• 1 unread error" in s)
    assert "✗•" in row(screen, "alpha broke") and "●•" in row(screen, "beta says hi")
    program.keys("Space")  # B, the newest, is selected
    screen = program.wait_for(lambda s: "●•" not in row(s, "beta says hi"))
    assert "✗•" in row(screen, "alpha broke")
    quit(program)
    assert run_timeline("status", "--db", db_path).returncode == 1

    program = start()
    screen = program.wait_for(lambda s: "• 1 unread error" in s)
    assert "●•" not in row(screen, "beta says hi") and "✗•" in row(screen, "alpha broke")
    program.keys("j", "Enter")
    program.wait_for(lambda s: "alpha broke" in s and "beta says hi" not in s)
    program.keys("Escape")
    program.wait_for(lambda s: "beta says hi" in s and "✗•" not in row(s, "alpha broke") and "unread" not in s)
    quit(program)
    result = run_timeline("status", "--db", db_path)
    assert (result.returncode, result.stdout) == (0, "1 error\n")

    feed(event("C", "gamma broke", "error"), event("D", "delta fine", "info"))
    program = start()
    program.wait_for(lambda s: "• 1 unread error" in s and "●•" in row(s, "delta fine"))
    program.keys("U")
    screen = program.wait_for(lambda s: "•" not in s.split("\n", 1)[1].rsplit("\n", 3)[0] and "unread" not in s)
    quit(program)
    assert run_timeline("status", "--db", db_path).returncode == 0


def test_running_rows_show_elapsed_eta_and_timed_out(tmux, timeline_bin, e2e_env, db_path, feed, tmp_path):
    from timeline_testing.tmux import TerminalProgram
    feed(event("LONG", "long haul starts", "in_progress", age=2 * 3600 + 60),
         event("LONG", "long haul still going", "in_progress", age=30),
         event("ETA", "render", "in_progress", age=300, progress=10),
         event("ETA", "render", "in_progress", age=200, progress=30),
         event("ETA", "render frames", "in_progress", age=100, progress=50))
    program = TerminalProgram(tmux, [timeline_bin, "tui", "--no-poll", "--db", db_path, "--timeout-after", "1h"],
                              e2e_env, tmp_path, 110, 12)
    screen = program.wait_for(lambda s: "long haul still going" in s and "render frames" in s)
    long_row = next(line for line in screen.split("\n") if "long haul" in line)
    eta_row = next(line for line in screen.split("\n") if "render frames" in line)
    assert "timed out" in long_row and "⊘" in long_row
    # 10 → 30 → 50 % over 200 s: 50 % left at 0.2 %/s is 250 s after the last report, 100 s ago ⇒ ~2m left.
    assert "5m · ~2m left" in eta_row
    program.keys("q")
    program.wait_for(lambda s: TerminalProgram.EXITED_MARK in s)


def test_bad_durations_are_refused(run_timeline, db_path):
    for bad in ("ten", "0s", "10", "9999999999w", "1.5h"):
        result = run_timeline("tui", "--no-poll", "--db", db_path, "--stale-after", bad)
        assert result.returncode == 64 and "stale-after" in result.stderr, bad


def test_bad_notify_commands_are_refused(run_timeline, db_path):
    for command, reason in (("   ", "the command is empty"), ("notify 'open", "unclosed single quote")):
        result = run_timeline("tui", "--no-poll", "--db", db_path, "--notify-command", command)
        assert result.returncode == 64 and "--notify-command: " in result.stderr and reason in result.stderr, result.stderr


def test_title_is_restored_on_sigterm_too(tui, feed):
    feed(event("R1", "r1", "in_progress"))
    program = tui("--notify-terminal", "none")
    program.wait_for(lambda o: ESC + "]2;timeline · 1 running".encode() + ST in o, message="the title")
    os.kill(program.pid, signal.SIGTERM)
    _, status = os.waitpid(program.pid, 0)
    program.thread.join(timeout=5)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM
    out = program.bytes()
    assert out.rindex(ESC + b"[23;0t") > out.rindex(ESC + b"]2;")


def test_a_failing_notify_command_is_reported_in_the_status_bar(tmux, timeline_bin, e2e_env, db_path, feed, tmp_path):
    from timeline_testing.tmux import TerminalProgram
    program = TerminalProgram(tmux, [timeline_bin, "tui", "--no-poll", "--db", db_path, "--notify-command", "false"],
                              e2e_env, tmp_path, 100, 12)
    program.wait_for(lambda s: "FOLLOW" in s)
    feed(event("T", "it broke", "error"))
    program.wait_for(lambda s: "notify command exited with status 1" in s)
    program.keys("q")
    program.wait_for(lambda s: TerminalProgram.EXITED_MARK in s)
