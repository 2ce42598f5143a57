"""Helpers of the agent-tool tests: paths and running the scripts (queues: Tests/support/timeline_testing)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

AGENT_TOOL = Path(__file__).resolve().parent.parent
REPO_ROOT = AGENT_TOOL.parent
PUBLISH_SCRIPT = AGENT_TOOL / "publish_event.py"
SIMULATOR_SCRIPT = AGENT_TOOL / "simulate_agents.py"


def run_script(script: Path, args: list[str], env: dict[str, str], stdin: bytes | None = None,
               timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run an agent-tool script with the test interpreter; text output."""
    completed = subprocess.run(
        [sys.executable, str(script), *args], input=stdin, env=env, capture_output=True, timeout=timeout,
    )
    return subprocess.CompletedProcess(
        completed.args, completed.returncode,
        completed.stdout.decode("utf-8", errors="replace"), completed.stderr.decode("utf-8", errors="replace"),
    )
