"""What `timeline tui` writes to its terminal when the list moves: newest first, each arrival shifts the rows
below it, and the shift must cost a scroll, not a repaint of every row (a terminal multiplexer parses all
of it). The bytes are taken from the pane with `tmux pipe-pane`, as the terminal receives them.
"""
import shutil
import subprocess

import pytest
from timeline_testing.events import event
from timeline_testing.tmux import TerminalProgram

from test_tui import Feeder

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (make deps installs it)")

WIDTH, HEIGHT = 100, 30


def test_an_arrival_at_the_top_scrolls_the_rows_below_instead_of_rewriting_them(tmux, timeline_bin, e2e_env,
                                                                                  tmp_path, wait_until):
    db = tmp_path / "timeline.db"
    feed = Feeder(timeline_bin, db, tmp_path)
    # Hours old: their relative times do not change while the test runs.
    feed(*[event(f"T-{n:02d}", f"steady task number {n:02d} with a title long enough to fill its column",
                 "success", agent=f"agent-{n % 7}", category="build", age=7200 + 60 * n) for n in range(40)])
    tui = TerminalProgram(tmux, [timeline_bin, "tui", "--no-poll", "--db", str(db)], e2e_env, tmp_path,
                          WIDTH, HEIGHT)
    tui.wait_for(lambda s: "steady task number 00" in s and "row 1 of 40" in s)
    output = tmp_path / "pane-output"
    tmux._tmux("pipe-pane", "-o", "-t", tui.pane, f"cat >> {output}")
    wait_until(output.exists, message="tmux did not start piping the pane")

    feed(event("T-new", "the newest arrival", "info", agent="agent-new", category="build", age=3600))
    screen = tui.wait_for(lambda s: "the newest arrival" in s and "row 1 of 41" in s)
    lines = screen.split("\n")
    assert tui.row_of("the newest arrival", screen) < tui.row_of("steady task number 00", screen)
    # Every row below moved down one line (the last one off the screen).
    assert sum("steady task number" in line for line in lines) >= HEIGHT - 6
    # tmux shows the frame once it has read it, and hands the same bytes to the pipe: wait until they stop
    # coming (ncurses writes only what differs from what the terminal shows, so no text to look for).
    sizes = []
    wait_until(lambda: (sizes.append(output.stat().st_size), len(sizes) >= 3 and sizes[-1] == sizes[-3] > 0)[1],
               message="the frame did not reach the pipe")
    written = sizes[-1]
    # A repaint of the moved rows is more than (HEIGHT - 4) * WIDTH bytes; a scroll (ncurses moves the rows
    # with a scroll region), the new row, the one that lost the selection and the status line are a few hundred.
    assert written < 8 * WIDTH, f"{written} bytes written for one arrival: {output.read_bytes()!r}"


@pytest.mark.skipif(shutil.which("strace") is None, reason="needs strace")
def test_a_frame_reaches_the_terminal_in_one_write(tmux, timeline_bin, e2e_env, tmp_path, wait_until):
    """ncurses flushes after every cursor jump; the frame is gathered and written at once, so a multiplexer
    parses it once and a busy machine cannot spread it over many scheduler slices."""
    db = tmp_path / "timeline.db"
    feed = Feeder(timeline_bin, db, tmp_path)
    feed(*[event(f"T-{n:02d}", f"steady task {n:02d}", "success", agent=f"agent-{n % 7}", age=7200 + 60 * n)
           for n in range(40)])
    tui = TerminalProgram(tmux, [timeline_bin, "tui", "--no-poll", "--db", str(db)], e2e_env, tmp_path,
                          WIDTH, HEIGHT)
    tui.wait_for(lambda s: "steady task 00" in s and "row 1 of 40" in s)
    trace = tmp_path / "writes"
    # -y names each descriptor's file: only writes that reach the terminal (a /dev/pts path) count.
    tracer = subprocess.Popen(["strace", "-qq", "-y", "-e", "trace=write", "-e", "signal=none", "-o", str(trace),
                               "-p", str(tui.pid())], stderr=subprocess.PIPE)
    try:
        wait_until(lambda: trace.exists() or tracer.poll() is not None, message="strace did not start")
        if tracer.poll() is not None:
            pytest.skip(f"strace cannot attach here: {tracer.stderr.read().decode(errors='replace').strip()}")
        # Selecting the next row repaints two rows and the status line: several cursor jumps.
        tui.keys("j")
        tui.wait_for(lambda s: "row 2 of 40" in s)
        wait_until(lambda: "write(1</dev/pts" in trace.read_text(), message="no frame written")
    finally:
        tracer.terminate()
        tracer.wait()
    writes = [line for line in trace.read_text().splitlines() if line.startswith("write(1</dev/pts")]
    # One for the frame (a second only if a tick's frame happened to land meanwhile); ncurses alone makes
    # one per cursor jump (7 here).
    assert 1 <= len(writes) <= 2, writes
