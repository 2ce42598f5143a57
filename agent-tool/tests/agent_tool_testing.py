"""Helpers shared by the agent-tool tests (paths, a queue wrapper, running the scripts)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

AGENT_TOOL = Path(__file__).resolve().parent.parent
REPO_ROOT = AGENT_TOOL.parent
PUBLISH_SCRIPT = AGENT_TOOL / "publish_event.py"
SIMULATOR_SCRIPT = AGENT_TOOL / "simulate_agents.py"


@dataclass
class LocalQueue:
    """A queue on the local server, with helpers to look at what was sent."""

    name: str
    url: str
    endpoint: str
    client: Any
    received: list[dict[str, Any]] = field(default_factory=list)

    def receive_all(self) -> list[dict[str, Any]]:
        """Every message now in the queue (received once, hidden for a minute, not deleted)."""
        messages: list[dict[str, Any]] = []
        while True:
            answer = self.client.receive_message(QueueUrl=self.url, MaxNumberOfMessages=10,
                                                 VisibilityTimeout=60, WaitTimeSeconds=0)
            batch = answer.get("Messages", [])
            if not batch:
                return messages
            messages.extend(batch)

    def depth(self) -> int:
        """Visible plus in-flight messages, from GetQueueAttributes."""
        attributes = self.client.get_queue_attributes(
            QueueUrl=self.url,
            AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
        )["Attributes"]
        return int(attributes["ApproximateNumberOfMessages"]) + int(
            attributes["ApproximateNumberOfMessagesNotVisible"])


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
