"""`make demo` (scripts/demo.sh) with the real binary: in a terminal it shows the simulated fleet in the TUI
and quitting stops everything; without a terminal it runs a short variant and exits. Nothing is left running."""

from __future__ import annotations

import os
import re
import socket
import subprocess
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
DEMO = REPO_ROOT / "scripts" / "demo.sh"
FLEET = ("deployer", "code-reviewer", "test-runner", "doc-writer", "data-pipeline", "security-scanner")


def demo_env(timeline_bin: str) -> dict[str, str]:
    env = {**os.environ, "TIMELINE_BIN": timeline_bin, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    env.pop("NO_COLOR", None)
    return env


def started_processes(text: str) -> tuple[str, list[int], str]:
    """(endpoint, [server pid, simulator pid, Claude Code session pid], temp dir) from the lines demo.sh prints."""
    server = re.search(r"local SQS server (http://127\.0\.0\.1:\d+) \(pid (\d+)\)", text)
    simulator = re.search(r"simulated agents (?:running )?\(pid (\d+)", text)
    claude = re.search(r"Claude Code session (?:running )?\((?:claude:\S+, )?pid (\d+)", text)
    workdir = re.search(r"removed (\S+)", text)
    assert server and simulator and claude and workdir, text
    return server.group(1), [int(server.group(2)), int(simulator.group(1)), int(claude.group(1))], workdir.group(1)


def hooks_of(workdir: str) -> list[int]:
    """Processes still running with the demo's hook state directory (its `timeline hook claude` runs)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and f"XDG_STATE_HOME={workdir}/state".encode() in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def port_closed(endpoint: str) -> bool:
    host, port = endpoint.removeprefix("http://").split(":")
    with socket.socket() as sock:
        sock.settimeout(1)
        return sock.connect_ex((host, int(port))) != 0


@pytest.mark.alone  # a whole simulated fleet and a real Claude Code session on two cores
def test_demo_without_a_terminal_runs_a_short_variant_and_leaves_nothing(timeline_bin, process_alive):
    result = subprocess.run([str(DEMO)], cwd=REPO_ROOT, env=demo_env(timeline_bin), stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "stdout is not a terminal" in result.stdout
    shown = [agent for agent in FLEET if agent in result.stdout]
    assert len(shown) >= 3, result.stdout  # `timeline list` printed the fleet's tasks
    # an agent asked, the demo answered it over the reply queue, and the agent acted on the answer
    assert "needs_input deployer" in result.stdout and 'sent "Deploy" to queue agent-replies' in result.stdout
    assert "answered: Deploy by " in result.stdout and "Deployed billing v1.3 to prod" in result.stdout
    # a Claude Code session through the real hook: its row asks for permission, the answer reaches the hook
    assert re.search(r"needs_input claude@\S+ +claude:demo-4f1c +Waiting for you: Bash rm -rf build", result.stdout), \
        result.stdout
    assert 'sent "Allow once" to queue claude-replies' in result.stdout
    assert '"decision":{"behavior":"allow"}' in result.stdout
    assert "Allowed from the timeline: Bash rm -rf build" in result.stdout and "Done: Fixed the rounding" in result.stdout
    endpoint, pids, workdir = started_processes(result.stdout)
    assert not any(process_alive(pid) for pid in pids) and not hooks_of(workdir)
    assert port_closed(endpoint)
    assert not Path(workdir).exists()


def answer_with_the_first_action(tmux, buttons, label, queue_name):
    """`i` shows the buttons, `1` picks the first, whose confirmation names it and the reply queue, `y` sends it;
    then back to following the newest."""
    tmux.send_keys("i")
    tmux.wait_for(buttons, timeout=20)
    tmux.send_keys("1")
    tmux.wait_for(lambda screen: f'Send "{label}"' in screen and f"to queue {queue_name} (account " in screen
                  and screen.rstrip().endswith("y/N"), timeout=10)
    tmux.send_keys("y")
    tmux.wait_for(f'sent "{label}" to queue {queue_name}', timeout=20)
    tmux.send_keys("Escape", "f")


@pytest.mark.alone  # a whole simulated fleet in the TUI: its counts and waits are bounded in time
def test_demo_in_a_terminal_shows_the_fleet_and_q_stops_everything(tmux, timeline_bin, process_alive):
    tmux.start([str(DEMO)], env=demo_env(timeline_bin), width=140, height=40, cwd=str(REPO_ROOT))
    tmux.wait_for(lambda screen: sum(agent in screen for agent in FLEET) >= 3, timeout=60)
    # The Claude Code session asks first (it has waited longest): i, a digit, y allow it through the real hook.
    tmux.wait_for("Waiting for you: Bash rm -rf build", timeout=60)
    answer_with_the_first_action(tmux, "[1 Allow once]", "Allow once", "claude-replies")
    tmux.wait_for("Done: Fixed the rounding in cart.ts", timeout=60)  # the session went on after the answer
    # A newcomer answers a waiting agent: i, a digit, y — and the agent acts on it.
    tmux.wait_for("need you", timeout=60)
    answer_with_the_first_action(tmux, "[1 Deploy] [2 Cancel]", "Deploy", "agent-replies")
    tmux.wait_for("Deployed billing v1.3 to prod", timeout=60)
    tmux.send_keys("q")
    assert tmux.wait_exit(timeout=60) == 0
    after = tmux.capture()  # the lines demo.sh printed after the TUI gave the screen back
    endpoint, pids, workdir = started_processes(after)
    assert not any(process_alive(pid) for pid in pids) and not hooks_of(workdir)
    assert "got the decision:" in after and '"behavior":"allow"' in after
    assert port_closed(endpoint)
    assert not Path(workdir).exists()
