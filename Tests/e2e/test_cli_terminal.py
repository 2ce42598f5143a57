"""The CLI on a terminal: --version/-V from the VERSION file (stamped by the build; see test_version_stamp.py), `list` colours (NO_COLOR, --no-color, TERM=dumb) on a real pty,
`import` saying it reads standard input on a terminal, `publish` without a queue exiting 2, and shell
completions of --status values.
"""
from __future__ import annotations

import os
import re
import select
import subprocess
from pathlib import Path

import pytest

from test_tui import Feeder
from timeline_testing.events import event

REPO = Path(__file__).resolve().parents[2]
STATUSES = ["info", "in_progress", "success", "warning", "error", "needs_input"]


def run_on_pty(command: list[str], env: dict[str, str], stdin_pty: bool = False, send: bytes = b"",
               timeout: float = 30) -> tuple[int, bytes, bytes]:
    """Run with stdout on a pty (and stdin too when `stdin_pty`); returns (status, pty output, stderr)."""
    master, slave = os.openpty()
    process = subprocess.Popen(command, env=env, stdout=slave, stderr=subprocess.PIPE,
                               stdin=slave if stdin_pty else subprocess.DEVNULL, close_fds=True)
    os.close(slave)
    output = b""
    if send:
        os.write(master, send)
    try:
        while True:
            ready, _, _ = select.select([master], [], [], timeout)
            if not ready:
                process.kill()
                pytest.fail(f"{command} produced nothing for {timeout}s; output so far: {output!r}")
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
    finally:
        os.close(master)
    status = process.wait(timeout=timeout)
    return status, output, process.stderr.read()


def test_version_and_short_flag_print_the_version_file_stamped_by_the_build(run_timeline):
    version = (REPO / "VERSION").read_text().strip()
    # From a git checkout the build adds the commit (semver build metadata), `.dirty` with local changes.
    stamped = re.compile(re.escape(version) + r"(\+g[0-9a-f]{7,}(\.dirty)?)?")
    for flag in ("--version", "-V"):
        result = run_timeline(flag)
        assert result.returncode == 0, result.stderr
        assert stamped.fullmatch(result.stdout.strip()), result.stdout


@pytest.fixture
def db_with_events(timeline_bin, tmp_path):
    db = tmp_path / "timeline.db"
    Feeder(timeline_bin, db, tmp_path)(event("T-1", "coloured error", "error"), event("T-2", "fine", "success"))
    return db


@pytest.mark.parametrize("setting, coloured", [
    ({}, True), ({"NO_COLOR": "1"}, False), ({"args": ["--no-color"]}, False), ({"TERM": "dumb"}, False),
])
def test_list_colours_follow_no_color_flag_and_dumb_terminals(timeline_bin, e2e_env, db_with_events, setting, coloured):
    env = {**e2e_env, "TERM": "xterm-256color", **{k: v for k, v in setting.items() if k != "args"}}
    status, output, stderr = run_on_pty([timeline_bin, "list", "--db", str(db_with_events), *setting.get("args", [])], env)
    assert status == 0, stderr
    assert b"coloured error" in output
    assert (b"\x1b[" in output) == coloured, output


def test_import_on_a_terminal_says_it_reads_standard_input(timeline_bin, e2e_env, tmp_path):
    db = tmp_path / "timeline.db"
    status, _, stderr = run_on_pty([timeline_bin, "import", "--db", str(db)], e2e_env, stdin_pty=True, send=b"\x04")
    assert status == 0, stderr
    assert b"reading JSON lines from standard input" in stderr and b"Ctrl-D" in stderr
    # From a pipe nothing is said: scripts get only the summary.
    piped = subprocess.run([timeline_bin, "import", "--db", str(db)], input="", env=e2e_env, capture_output=True,
                           text=True, timeout=60)
    assert piped.returncode == 0 and "reading JSON lines" not in piped.stderr


def test_publish_without_a_queue_exits_2_like_publish_event_py(run_timeline, e2e_env):
    env = {k: v for k, v in e2e_env.items() if not k.startswith("TIMELINE_QUEUE")}
    result = run_timeline("publish", "--title", "x", "--status", "info", "--agent-id", "a", env=env)
    assert result.returncode == 2, result.stderr
    assert "No queue given" in result.stderr
    script = subprocess.run([str(REPO / ".venv" / "bin" / "python"), str(REPO / "agent-tool" / "publish_event.py"),
                             "--title", "x", "--status", "info", "--agent-id", "a"], env=env, capture_output=True,
                            text=True, timeout=60)
    assert script.returncode == result.returncode


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completions_offer_status_values(run_timeline, shell):
    result = run_timeline("--generate-completion-script", shell)
    assert result.returncode == 0, result.stderr
    script = result.stdout
    for command in ("list", "publish"):
        assert command in script
    # The value list itself (not the help text, which names the values too), once per command.
    forms = {
        "bash": "__timeline_add_completions -W " + "$'\\n'".join(f"'{s}'" for s in STATUSES),
        "zsh": "___status=(" + " ".join(f"'{s}'" for s in STATUSES) + ")",
        "fish": "-rfka '" + " ".join(STATUSES) + "'",
    }
    assert script.count(forms[shell]) == 2, f"{shell}: no --status value list in\n{script}"
