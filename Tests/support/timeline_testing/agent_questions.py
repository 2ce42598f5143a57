"""A hooked agent's question read from the event queue, the reply sent to it, and the process that waits for it.

    start_hook(bin, agent, payload, env)   `timeline hook AGENT` with the payload on its stdin (closed)
    ended(process)                         a `with` block after which the process is not left running
    output_of(process, timeout)            its (stdout, stderr) once it exits; killed if it does not in time
    question_on(queue, events, wait_until) the first question (needs_input with actions) received into `events`
    reply_body(question, action=|text=)    a reply document answering it
"""

from __future__ import annotations

import json
import subprocess
import uuid
from contextlib import contextmanager


def start_hook(timeline_bin: str, agent: str, payload: dict, env: dict[str, str]) -> subprocess.Popen[str]:
    hook = subprocess.Popen([timeline_bin, "hook", agent], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    hook.stdin.write(json.dumps(payload))
    hook.stdin.close()
    hook.stdin = None  # closed: communicate() must not flush it
    return hook


@contextmanager
def ended(process: subprocess.Popen[str]):
    """Kills the process if it still runs when the block ends (a failing test leaves nothing behind)."""
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()


def output_of(process: subprocess.Popen[str], timeout: float = 60) -> tuple[str, str]:
    """Waits `timeout` seconds for the process to exit; its output."""
    with ended(process):
        return process.communicate(timeout=timeout)


def collect(queue, events: list[dict], until):
    """A check for `wait_until`: receives into `events` (each message once) until `until(events)` holds."""
    def check() -> bool:
        events.extend(json.loads(m["Body"]) for m in queue.receive_all())
        return until(events)
    return check


def is_question(event: dict) -> bool:
    return event["status"] == "needs_input" and "actions" in event


def question_on(queue, events: list[dict], wait_until) -> dict:
    wait_until(collect(queue, events, lambda got: any(is_question(e) for e in got)),
               timeout=30, message=lambda: f"the question; got {[e['title'] for e in events]}")
    return next(e for e in events if is_question(e))


def reply_body(question: dict, **answer) -> str:
    return json.dumps({"type": "reply", "id": str(uuid.uuid4()), "in_reply_to": question["id"],
                       "task_id": question["task_id"], "agent_id": question["agent_id"], **answer,
                       "from": "alice@laptop", "timestamp": "2026-11-22T03:04:05Z"})
