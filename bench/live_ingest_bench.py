"""The store's live write path without SQS: what `timeline poll` pays per event to store, index and merge, on the
traffic of many fleets at once, and what the rows still waiting for the full-text index cost a search.

The mix is that of `fleet_publisher.py`: `--fleets` streams of the `realistic_mix` (200 agents each, seeded as
the publishers seed theirs), interleaved as publishers at equal rates interleave them, so 10 fleets are 2,000
tasks running at once and nearly every event changes a row the full-text index already holds. TimelineBench
(`TIMELINE_LIVE_INGEST_MIX`) stores the first events as history, the rest in commits of `--commit` at `--rate`
events a second, and prints the process's CPU per live event (the background merges and checkpoints
included), then a few searches with the rows still waiting for the index and with none. Asserts nothing.

    python bench/live_ingest_bench.py [--bench .build/release/TimelineBench] [--fleets 10] [--events 20000]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import realistic_mix  # noqa: E402

REPO_ROOT = HERE.parent


def write_mix(path: Path, fleets: int, events: int) -> None:
    """`events` lines: `fleets` streams of the mix, one line of each in turn."""
    per_fleet = -(-events // fleets)
    streams = [realistic_mix.lines(per_fleet, seed=1_000 + index) for index in range(fleets)]
    with path.open("w") as out:
        for group in zip(*streams):
            out.write("\n".join(group) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", default=str(REPO_ROOT / ".build/release/TimelineBench"))
    parser.add_argument("--fleets", type=int, default=10)
    parser.add_argument("--history", type=int, default=1, help="events stored as history first")
    parser.add_argument("--events", type=int, default=20_000, help="live events")
    parser.add_argument("--rate", type=int, default=1_000)
    parser.add_argument("--commit", type=int, default=40, help="events per commit (a poller's group commit)")
    args = parser.parse_args()
    only = os.environ.get("TIMELINE_BENCH_ONLY")
    if only and "live" not in {p.strip().lower() for p in only.split(",")}:
        return
    print(f"== live ingest: {args.fleets} fleets of the mix ({200 * args.fleets:,} agents), {args.events:,} events "
          f"at {args.rate:,}/s in commits of {args.commit}, store only (no SQS)", flush=True)
    with tempfile.TemporaryDirectory(prefix="timeline-live-") as folder:
        mix = Path(folder) / "mix.jsonl"
        write_mix(mix, args.fleets, args.history + args.events)
        env = {**os.environ, "TMPDIR": folder, "TIMELINE_LIVE_INGEST_MIX": str(mix),
               "TIMELINE_LIVE_INGEST_HISTORY": str(args.history), "TIMELINE_LIVE_INGEST_EVENTS": str(args.events),
               "TIMELINE_LIVE_INGEST_RATE": str(args.rate), "TIMELINE_LIVE_INGEST_COMMIT": str(args.commit)}
        sys.exit(subprocess.run([args.bench], env=env).returncode)


if __name__ == "__main__":
    main()
