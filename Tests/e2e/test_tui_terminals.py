"""Terminals end to end: the real `timeline tui` in tmux under the TERM values people have (tmux-256color,
screen-256color, xterm-256color inside tmux, linux), raw key and mouse bytes, Ctrl-L / Ctrl-Z, bursts, a C
locale, a 20x5 terminal, a refused TERM, and `R` restarting a stopped poller. Waits are bounded polls of the
screen, never timed assertions.
"""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from timeline_testing.tmux import TerminalProgram

from test_tui import Feeder
from timeline_testing.events import event

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (make deps installs it)")

TERMS = ["tmux-256color", "screen-256color", "xterm-256color", "linux"]


@pytest.fixture
def tui_env(tmux, timeline_bin, e2e_env, tmp_path):
    """(feed, start): start(term=..., width=, height=, extra_env=, wait=) runs `timeline tui --no-poll` with TERM."""
    db = tmp_path / "timeline.db"
    feed = Feeder(timeline_bin, db, tmp_path)

    def start(term="tmux-256color", width=100, height=30, extra_env=None, wait="FOLLOW", args=()):
        command = ["env", f"TERM={term}", *[f"{k}={v}" for k, v in (extra_env or {}).items()],
                   timeline_bin, "tui", "--no-poll", "--db", str(db), *args]
        tui = TerminalProgram(tmux, command, e2e_env, tmp_path, width, height)
        if wait:
            tui.wait_for(wait)
        return tui

    return feed, start


def send_bytes(tui: TerminalProgram, data: bytes) -> None:
    """Write raw bytes to the program as if the terminal sent them (tmux send-keys -H)."""
    tui.tmux._tmux("send-keys", "-t", tui.pane, "-H", *[f"{b:02x}" for b in data])


def infos(n):
    return [event(f"T-{i:03d}", f"task number {i:03d}", "info", age=n - i) for i in range(n)]


@pytest.mark.parametrize("term", TERMS)
def test_mouse_and_home_end_sequences_never_become_keys(tui_env, term):
    feed, start = tui_env
    feed(*infos(40))
    tui = start(term=term)
    tui.wait_for("row 1 of 40")
    # SGR wheel-down: moves three rows; before, "5" leaked and toggled the errors-only filter.
    send_bytes(tui, b"\x1b[<65;20;5M")
    screen = tui.wait_for("row 4 of 40")
    assert "No tasks match" not in screen and "BROWSE" in screen
    # X10 wheel-up (what tmux sends when the outer terminal has no SGR mouse): back to the newest.
    send_bytes(tui, b"\x1b[M" + bytes([32 + 64, 33 + 19, 33 + 4]))
    tui.wait_for(lambda s: "row 1 of 40" in s and "FOLLOW" in s)
    # Every Home/End form xterm, tmux, screen, rxvt and the Linux console send.
    for end, home in [(b"\x1b[4~", b"\x1b[1~"), (b"\x1bOF", b"\x1bOH"), (b"\x1b[F", b"\x1b[H"), (b"\x1b[8~", b"\x1b[7~")]:
        send_bytes(tui, end)
        screen = tui.wait_for("row 40 of 40")
        assert "No tasks match" not in screen and "filter" not in screen.split("\n")[0]
        send_bytes(tui, home)
        tui.wait_for(lambda s: "row 1 of 40" in s and "FOLLOW" in s)
    # An unknown sequence is swallowed whole; the key after it still works.
    send_bytes(tui, b"\x1b[99;5~\x1b[?1;2cj")
    screen = tui.wait_for("row 2 of 40")
    assert "No tasks match" not in screen
    # PgDn / PgUp and the Linux console's F1 (help).
    send_bytes(tui, b"\x1b[6~")
    tui.wait_for(lambda s: "row 2 of 40" not in s and "BROWSE" in s)
    send_bytes(tui, b"\x1b[[A")
    tui.wait_for("Keys")


def test_a_burst_of_200_j_moves_200_rows(tui_env):
    feed, start = tui_env
    feed(*infos(300))
    tui = start()
    tui.wait_for("row 1 of 300")
    tui.type("j" * 200)
    tui.wait_for("row 201 of 300")


def test_ctrl_l_repaints_what_another_program_scribbled(tui_env, tmux):
    feed, start = tui_env
    feed(*infos(3))
    tui = start()
    tui.wait_for("task number 002")
    tty = tmux._tmux("display-message", "-p", "-t", tui.pane, "#{pane_tty}").strip()
    with open(tty, "w") as terminal:
        terminal.write("\x1b[5;10HSTRAY-WRITE")
    tui.wait_for("STRAY-WRITE")
    tui.keys("C-l")
    screen = tui.wait_for(lambda s: "STRAY-WRITE" not in s)
    assert "task number 002" in screen


@pytest.mark.parametrize("parent", ["", "sh -c", "make"])
def test_ctrl_z_suspends_and_fg_restores(tmux, timeline_bin, e2e_env, tmp_path, parent):
    feed = Feeder(timeline_bin, tmp_path / "timeline.db", tmp_path)
    feed(*infos(3))
    pane = tmux.start(["bash", "--norc", "--noprofile", "-i"], env={**e2e_env, "PS1": "PROMPT$ "}, width=100, height=30)
    tmux.wait_for("PROMPT$", pane=pane)
    command = f"{timeline_bin} tui --no-poll --db {tmp_path / 'timeline.db'}"
    if parent == "sh -c":  # a parent process in the same process group: it must stop too
        command = f"sh -c '{command}; echo after'"
    elif parent == "make":
        (tmp_path / "Makefile").write_text(f"view:\n\t{command}\n")
        command = f"make -s -C {tmp_path} view"
    tmux.type(command, pane=pane)
    tmux.send_keys("Enter", pane=pane)
    tmux.wait_for("task number 002", pane=pane)
    tmux.send_keys("C-z", pane=pane)
    screen = tmux.wait_for(lambda s: "Stopped" in s and "PROMPT$" in s, pane=pane)
    assert "FOLLOW" not in screen
    tmux.type("fg", pane=pane)
    tmux.send_keys("Enter", pane=pane)
    screen = tmux.wait_for(lambda s: "task number 002" in s and "FOLLOW" in s, pane=pane, stable=True)
    tmux.send_keys("j", pane=pane)
    tmux.wait_for("row 2 of 3", pane=pane)
    tmux.send_keys("q", pane=pane)
    tmux.wait_for(lambda s: s.rstrip().endswith("PROMPT$"), pane=pane)


@pytest.mark.parametrize("locale", [{"LANG": "C", "LC_ALL": "C"}, {"LC_ALL": "C"}, {"LANG": "", "LC_ALL": ""}])
def test_c_locale_draws_ascii_glyphs(tui_env, locale):
    feed, start = tui_env
    feed(event("T-1", "erreur 部署 déployé 👍🏽 " + "x" * 120, "error"), event("T-2", "fine", "success", age=5),
         event("T-3", "warned", "warning", age=9))
    tui = start(extra_env={**locale, "NO_COLOR": "1"})
    screen = tui.wait_for("fine")
    assert "locale is not UTF-8" in screen
    lines = screen.split("\n")
    error_line = lines[tui.row_of("erreur", screen)]
    # New tasks are unread: the status glyph is followed by the unread marker's stand-in (`&` for `•`).
    assert error_line.startswith(" x&") and "?" in error_line and error_line.rstrip().endswith("...")
    assert lines[tui.row_of("fine", screen)].startswith(" +&")
    assert lines[tui.row_of("warned", screen)].startswith(" !&")
    assert all(ord(c) < 128 for c in screen), screen


def test_tiny_terminal_keeps_mode_and_help_and_help_scrolls(tui_env):
    feed, start = tui_env
    feed(*infos(3))
    tui = start(width=20, height=5)
    screen = tui.wait_for("? help")
    assert "FOLLOW" in screen
    tui.keys("?")
    first = tui.wait_for("Keys")
    tui.keys("j")
    tui.keys("j")
    scrolled = tui.wait_for(lambda s: "Keys" in s and s != first)
    assert scrolled != first
    tui.keys("x")
    tui.wait_for(lambda s: "Keys" not in s and "? help" in s)


@pytest.mark.parametrize("term", ["dumb", "", "no-such-terminal-xyz", None])
def test_unusable_term_is_refused_with_the_fix(tmux, timeline_bin, e2e_env, tmp_path, term):
    prefix = ["env", "-u", "TERM"] if term is None else ["env", f"TERM={term}"]
    tui = TerminalProgram(tmux, [*prefix, timeline_bin, "tui", "--no-poll", "--db", str(tmp_path / "t.db")],
                          e2e_env, tmp_path)
    screen = tui.wait_for(TerminalProgram.EXITED_MARK)
    assert tui.exit_file.read_text().strip() == "2"
    assert "TERM" in screen and "timeline list" in screen
    message = [line for line in screen.split("\n") if "timeline tui:" in line]
    assert len(message) == 1 or "set TERM" in screen
    assert tui.before.read_text() == tui.after.read_text()


def test_r_restarts_a_stopped_poller_and_bang_shows_the_message(tmux, timeline_bin, e2e_env, tmp_path, sqs,
                                                               sqs_endpoint):
    import sqs_server
    name = sqs_server.unique_queue_name("restart")
    url = f"{sqs_endpoint.rstrip('/')}/123456789012/{name}"
    command = [timeline_bin, "tui", "--queue-url", url, "--endpoint-url", sqs_endpoint, "--region",
               sqs_server.TEST_REGION, "--db", str(tmp_path / "timeline.db")]
    tui = TerminalProgram(tmux, command, e2e_env, tmp_path, 100, 30)
    screen = tui.wait_for("stopped", timeout=30)
    status = screen.rstrip("\n").split("\n")[-1]
    assert "! details" in status and "R retry" in status, status
    assert "Polling stopped: queue" in screen and "R retries" in screen  # the empty state says why
    tui.keys("!")
    screen = tui.wait_for("Poller")
    assert "does not exist" in screen and "R restarts polling" in screen
    tui.keys("x")
    tui.wait_for(lambda s: "Poller" not in s)
    sqs.create_queue(QueueName=name)
    try:
        tui.keys("R")
        screen = tui.wait_for(lambda s: "connected" in s or "receiving" in s, timeout=30)
        assert "stopped" not in screen.split("\n")[-2]
    finally:
        try:
            sqs.delete_queue(QueueUrl=sqs.get_queue_url(QueueName=name)["QueueUrl"])
        except Exception:  # noqa: BLE001 - the server may be gone already
            pass


def test_emoji_sequences_leave_no_stray_cells_after_resize(tui_env):
    feed, start = tui_env
    feed(event("T-1", "family 👨‍👩‍👧‍👦 thumbs 👍🏽 flag 🇯🇵 END-MARK", "info", agent="emoji"),
         event("T-2", "plain row below", "success", age=3))
    tui = start(width=100, height=12)
    first = tui.wait_for("END-MARK")
    for width, height in [(70, 10), (100, 12), (64, 9), (100, 12)]:
        tui.resize(width, height)
        screen = tui.wait_for(lambda s: "END-MARK" in s and "plain row below" in s)
        assert "WJ" not in screen and "\ufffd" not in screen
        line = screen.split("\n")[tui.row_of("END-MARK", screen)]
        assert "family 👨" in line and "thumbs 👍" in line, line
        # The text after the emoji is where it belongs: as far from the title's start as on the first frame.
        first_line = first.split("\n")[tui.row_of("END-MARK", first)]
        assert line.index("END-MARK") - line.index("family") == first_line.index("END-MARK") - first_line.index("family")


@pytest.mark.parametrize("sizes", [[(60, 12), (140, 40), (80, 20)], [(120, 35), (50, 10), (100, 30), (70, 16)]])
def test_resizes_during_start_up_end_in_one_whole_frame(tui_env, sizes):
    """The window changes size while the viewer starts (before and around its first frame): the last size
    gets a whole frame, the header on the top row and FOLLOW in the status bar, with no key pressed."""
    feed, start = tui_env
    feed(*[event(f"T-{i}", f"start-up row {i}", age=100 - i) for i in range(40)])
    tui = start(width=100, height=30, wait=None)
    for width, height in sizes:
        tui.resize(width, height)
    width, height = sizes[-1]

    def whole(screen: str) -> bool:
        lines = screen.rstrip("\n").split("\n")
        return (len(lines) == height and "timeline" in lines[0] and "FOLLOW" in lines[-1]
                and "start-up row 39" in lines[1] and all(len(line) <= width for line in lines))

    screen = tui.wait_for(whole, timeout=15)
    lines = screen.rstrip("\n").split("\n")
    assert sum("start-up row" in line for line in lines) == height - 2, screen
