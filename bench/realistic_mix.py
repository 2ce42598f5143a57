"""The realistic mix of agent events every hook-scale bench uses (scale, sustained, prune): JSON lines on
stdout, deterministic for a seed.

200 agents (`agent-0` … `agent-199`) each run tasks one after another, 20 events per task: a start, 18 steps
with `progress` while the task runs, and an end (mostly `success`, some `error`, `warning` or `needs_input`).
Titles are a few words, bodies 5–40 words from a working vocabulary, categories from a short list; ids are
random UUID-shaped hex. Events of different agents interleave in time, as a fleet's do.

    python bench/realistic_mix.py --events 1000000 [--seed 7] [--skip 0] > events.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from datetime import datetime, timezone

AGENTS = 200
EVENTS_PER_TASK = 20
CATEGORIES = ["deploy", "code-review", "tests", "email", "billing", "migration", "docs", "infra", "triage", "release"]
VERBS = ["Deploy", "Review", "Refactor", "Migrate", "Test", "Triage", "Draft", "Fix", "Upgrade", "Audit", "Index", "Sync"]
OBJECTS = ["billing service", "api gateway", "login flow", "search index", "nightly build", "invoice emails",
           "schema v12", "payment retries", "docs site", "release notes", "cache layer", "user export"]
WORDS = ("the a to of and in for on with build test deploy billing service api request queue worker retry timeout "
         "error success database index migration schema commit branch review change file line function call user "
         "email invoice payment cache latency p99 rollout canary staging production cluster node pod config secret "
         "token check lint format merge conflict rebase pipeline step job artifact upload download log trace metric "
         "alert incident ticket customer report export import batch stream event handler parser render widget").split()
START_MICROS = 1_767_225_600_000_000  # 2026-01-01T00:00:00Z


def iso(micros: int, _cache: dict[int, str] = {}) -> str:
    """ISO 8601 with milliseconds (the second's text is cached: consecutive events share it)."""
    seconds, rest = divmod(micros, 1_000_000)
    text = _cache.get(seconds)
    if text is None:
        _cache.clear()
        text = _cache[seconds] = datetime.fromtimestamp(seconds, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    return f"{text}.{rest // 1000:03d}Z"


def events(count: int, seed: int):
    """Yields `count` payloads (dicts) of the mix, in publication order."""
    rng = random.Random(seed)
    # Per agent: its current task (id, category, title) and how many events it has published of it.
    tasks: list[tuple[str, str, str, int]] = [("", "", "", EVENTS_PER_TASK)] * AGENTS
    clock = START_MICROS
    for _ in range(count):
        clock += rng.randrange(1_000, 200_000)
        agent = rng.randrange(AGENTS)
        task_id, category, title, done = tasks[agent]
        if done == EVENTS_PER_TASK:
            task_id = "task-%032x" % rng.getrandbits(128)
            category = rng.choice(CATEGORIES)
            title = f"{rng.choice(VERBS)} {rng.choice(OBJECTS)}"
            done = 0
        done += 1
        tasks[agent] = (task_id, category, title, done)
        if done == EVENTS_PER_TASK:
            status = rng.choices(["success", "error", "warning", "needs_input"], [80, 10, 6, 4])[0]
        elif done == 1:
            status = "info"
        else:
            status = "in_progress"
        payload = {
            "id": "%08x-%04x-4%03x-%04x-%012x" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(12),
                                                  0x8000 | rng.getrandbits(14), rng.getrandbits(48)),
            "agent_id": f"agent-{agent}",
            "task_id": task_id,
            "title": title if status != "in_progress" else f"{title}: step {done}",
            "body": " ".join(rng.choices(WORDS, k=rng.randint(5, 40))),
            "status": status,
            "category": category,
            "timestamp": iso(clock),
        }
        if status == "in_progress":
            payload["progress"] = round(100 * (done - 1) / (EVENTS_PER_TASK - 1))
        yield payload


def lines(count: int, seed: int, stamp=None):
    """`count` JSON lines (no newline) of the mix; `stamp(index)` (microseconds since the epoch), when given,
    replaces the mix's own clock (a history spread over days, or events published now)."""
    encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
    for index, payload in enumerate(events(count, seed)):
        if stamp is not None:
            payload["timestamp"] = iso(stamp(index))
        yield encode(payload)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, required=True)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--skip", type=int, default=0, help="generate but do not print the first N (resume a series)")
    args = parser.parse_args()
    out = sys.stdout
    dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
    for index, payload in enumerate(events(args.skip + args.events, args.seed)):
        if index >= args.skip:
            out.write(dumps(payload) + "\n")


if __name__ == "__main__":
    main()
