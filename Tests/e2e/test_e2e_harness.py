"""The end-to-end harness itself (conftest.py): tmux panes, capture with colours, resize, clean-up, queues."""

from __future__ import annotations

import os
import socket
import sys

import pytest

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


ALONE_SUITE_CONFTEST = """
from timeline_testing.alone import register_alone_marker, take_turn  # noqa: F401
def pytest_configure(config):
    register_alone_marker(config)
"""

ALONE_SUITE_TESTS = """
import os, time, pytest
def spend(name):
    started = time.monotonic()
    time.sleep(0.8)
    with open(os.environ["SPANS"], "a") as spans:
        spans.write(f"{name} {started} {time.monotonic()}\\n")
@pytest.mark.parametrize("n", range(3))
def test_beside_before(n):
    spend(f"before-{n}")
@pytest.mark.alone
def test_alone():
    spend("alone")
@pytest.mark.parametrize("n", range(3))
def test_beside_after(n):
    spend(f"after-{n}")
"""


def test_an_alone_test_runs_while_no_other_test_does_and_the_others_run_side_by_side(tmp_path):
    """The `alone` marker under pytest-xdist (Tests/support/timeline_testing/alone.py), in a suite of its own."""
    import os
    import subprocess
    from pathlib import Path

    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "conftest.py").write_text(ALONE_SUITE_CONFTEST)
    (suite / "test_spans.py").write_text(ALONE_SUITE_TESTS)
    spans = tmp_path / "spans"
    support = Path(__file__).resolve().parents[1] / "support"
    env = {**os.environ, "SPANS": str(spans), "PYTHONPATH": str(support)}
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "2", "-p", "no:cacheprovider",
                             "--basetemp", str(tmp_path / "basetemp"), str(suite)],
                            cwd=suite, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    runs = {name: (float(start), float(end)) for name, start, end in
            (line.split() for line in spans.read_text().splitlines())}
    assert len(runs) == 7, runs

    def overlap(a, b):
        return a[0] < b[1] and b[0] < a[1]

    alone = runs.pop("alone")
    assert not [name for name, span in runs.items() if overlap(span, alone)], (alone, runs)
    beside = list(runs.values())
    assert any(overlap(a, b) for i, a in enumerate(beside) for b in beside[i + 1:]), runs  # it did run in parallel


def test_a_local_sqs_server_that_does_not_start_says_why_and_leaves_nothing_running():
    import sqs_server

    late = sqs_server.MotoServer()
    with pytest.raises(RuntimeError, match=r"did not answer within 0s"):
        late.start(timeout=0)
    assert late.pid is None and not os.path.exists(late._log.name)

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        clash = sqs_server.MotoServer(port=taken.getsockname()[1])
        with pytest.raises(RuntimeError, match=r"exited at start:\n(.|\n)*[Aa]ddress already in use"):
            clash.start(timeout=60)
    assert clash.pid is None
