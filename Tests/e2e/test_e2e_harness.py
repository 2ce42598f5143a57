"""The end-to-end harness itself (conftest.py): tmux panes, capture with colours, resize, clean-up, queues."""

from __future__ import annotations

import sys

PRINT_SIZE_ON_RESIZE = r"""
import os, signal, sys, time
def show(*_):
    size = os.get_terminal_size()
    sys.stdout.write(f"\x1b[2J\x1b[Hsize {size.columns}x{size.lines} \x1b[31mred\x1b[0m 部署 🚀\n")
    sys.stdout.flush()
signal.signal(signal.SIGWINCH, show)
show()
sys.stdin.readline()
print("got line, bye")
sys.exit(3)
"""


def test_tmux_start_capture_colours_resize_and_exit_status(tmux, e2e_env):
    tmux.start([sys.executable, "-c", PRINT_SIZE_ON_RESIZE], env=e2e_env, width=80, height=24)
    screen = tmux.wait_for("size 80x24")
    assert "部署 🚀" in screen
    assert "\x1b[31m" not in screen
    coloured = tmux.capture(colours=True)
    assert "\x1b[31mred" in coloured
    tmux.resize(60, 12)
    tmux.wait_for("size 60x12")
    assert tmux.size() == (60, 12)
    assert tmux.exit_status() is None
    tmux.send_keys("hello", "Enter")
    assert tmux.wait_exit() == 3
    assert "got line, bye" in tmux.capture()


def test_kill_stops_programs_that_ignore_hangup(tmux, e2e_env, process_alive):
    session = tmux
    session.start([sys.executable, "-c",
                   "import signal, time; signal.signal(signal.SIGHUP, signal.SIG_IGN); print('up', flush=True); "
                   "time.sleep(600)"], env=e2e_env)
    session.wait_for("up")
    pid = session._pane_pids[0]
    assert process_alive(pid)
    session.kill()
    assert not process_alive(pid)


def test_queue_and_publish_round_trip(queue, publish):
    message_id = publish("harness check", "info", task_id="harness-1")
    [message] = queue.receive_all()
    assert message["MessageId"] == message_id
    assert queue.depth() == 1
