"""The hook-scale event mix shared by the sustained-ingest and prune benchmarks: what a fleet of coding agents
publishes when every tool call is an event.

200 agents each run one task at a time; a task is 20 events (started, 18 tool calls in progress with a rising
`progress`, then success, warning or error); titles name a tool call, bodies are 5–40 words. Event `n` of a
stream belongs to agent `n % agents`, so the agents' tasks interleave as they would live. Lines are built
with plain string formatting (every word is JSON-safe ASCII): fast enough to generate 10 million lines.

    python bench/event_mix.py --events 1000000 --days 100 > history.jsonl   # a history for `timeline import`
"""

from __future__ import annotations

import argparse
import random
import sys
import time

AGENTS = 200
EVENTS_PER_TASK = 20
WORDS = ("the build test file module config change review deploy cache index query request response error "
         "warning retry timeout branch commit merge diff patch schema migration service handler parser token "
         "queue worker log trace metric latency memory disk network user session permission lint format "
         "coverage fixture snapshot release tag version dependency package import export").split()
TOOLS = ["Bash", "Edit", "Read", "Write", "Grep", "Glob", "WebFetch", "Task"]
TARGETS = ["Sources/App/main.swift", "README.md", "src/server/handler.py", "tests/test_api.py", "Makefile",
           "swift test --filter Store", "npm run lint", "git diff --stat", "docs/guide.md", "config/app.toml"]
CATEGORIES = ["code-review", "ci", "deploy", "migration", "refactor"]
ENDINGS = ["success", "success", "success", "warning", "error"]


def iso(micros: int) -> str:
    """ISO 8601 UTC with microseconds, as agents publish it."""
    seconds, fraction = divmod(micros, 1_000_000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{fraction:06d}Z"


class EventMix:
    """Event `n` of a reproducible stream (`seed` keeps two streams' ids and tasks apart)."""

    def __init__(self, seed: int = 0, agents: int = AGENTS):
        self.seed = seed
        self.agents = agents
        self.random = random.Random(seed)
        self.bodies = [" ".join(self.random.choice(WORDS) for _ in range(self.random.randint(5, 40)))
                       for _ in range(997)]

    def line(self, n: int, micros: int) -> str:
        """One JSON line (no newline) for event `n` stamped `micros` since the epoch."""
        agent = n % self.agents
        step = (n // self.agents) % EVENTS_PER_TASK
        task = n // (self.agents * EVENTS_PER_TASK)
        if step == 0:
            status, title, progress = "info", f"Started task {task} on agent {agent}", ""
        elif step == EVENTS_PER_TASK - 1:
            status = ENDINGS[(task + agent) % len(ENDINGS)]
            title, progress = f"Finished task {task}: {status}", ""
        else:
            status = "in_progress"
            title = f"{TOOLS[(n // 7) % len(TOOLS)]} {TARGETS[(n // 3) % len(TARGETS)]}"
            progress = f',"progress":{step * 100 // EVENTS_PER_TASK}'
        return (f'{{"id":"{self.seed:08x}-0000-4000-8000-{n:012x}","agent_id":"agent-{agent:03d}",'
                f'"task_id":"s{self.seed}-a{agent:03d}-t{task}","title":"{title}",'
                f'"body":"{self.bodies[n % len(self.bodies)]}","status":"{status}",'
                f'"category":"{CATEGORIES[agent % len(CATEGORIES)]}","timestamp":"{iso(micros)}"{progress}}}')


def history(events: int, days: float, seed: int = 0, now_micros: int | None = None):
    """`events` lines spread evenly over the last `days` days, oldest first (UTF-8 bytes with newlines)."""
    now = now_micros if now_micros is not None else time.time_ns() // 1000
    span = int(days * 86_400_000_000)
    mix = EventMix(seed)
    for n in range(events):
        yield (mix.line(n, now - span + span * n // max(1, events)) + "\n").encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--days", type=float, default=100.0, help="the history spans this many days up to now")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    out = sys.stdout.buffer
    for line in history(args.events, args.days, args.seed):
        out.write(line)


if __name__ == "__main__":
    main()
