"""Drain benchmark: `timeline drain` against a plain boto3 consumer on the same LocalStack.

For each run a fresh queue is filled with N valid events (SendMessageBatch from several threads; not
timed in the figures), then drained by one process whose wall time and CPU seconds (user + system) are
measured. `timeline drain` runs once per `--concurrency` value; afterwards the database must hold N
events and the queue must be empty. Targets: timeline wall <= boto3 wall, timeline CPU <= 1/5 of boto3's.
Prints figures; asserts nothing (a run that did not drain everything is reported as such).

    python bench/drain_bench.py --timeline .build/release/timeline [--endpoint URL] [--events 10000]
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sqs_bench_support import (REGION, Measured, child_environment, create_queue, fill_queue,
                               queue_depth, run_measured, sqs_client)

HERE = Path(__file__).resolve().parent


@dataclass
class DrainRun:
    label: str
    measured: Measured
    consumed: int
    left_in_queue: int
    fill_seconds: float
    note: str = ""

    @property
    def complete(self) -> bool:
        return self.measured.returncode == 0 and self.left_in_queue == 0


def stored_events(database: Path) -> int:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        return db.execute("SELECT count(*) FROM events").fetchone()[0]


def drain_with_timeline(timeline: str, endpoint: str, events: int, concurrency: int) -> DrainRun:
    client = sqs_client(endpoint)
    queue_url = create_queue(client, f"drain-timeline-c{concurrency}")
    directory = Path(tempfile.mkdtemp(prefix="timeline-drain-bench-"))
    try:
        fill = fill_queue(endpoint, queue_url, events)
        database = directory / "timeline.db"
        measured = run_measured(
            [timeline, "drain", "--queue-url", queue_url, "--endpoint-url", endpoint, "--region", REGION,
             "--db", str(database), "--concurrency", str(concurrency)],
            child_environment())
        stored = stored_events(database) if database.exists() else 0
        note = measured.stdout.strip().splitlines()[-1] if measured.stdout.strip() else measured.stderr.strip()[-300:]
        return DrainRun(f"timeline drain --concurrency {concurrency}", measured, stored,
                        queue_depth(client, queue_url), fill, note)
    finally:
        client.delete_queue(QueueUrl=queue_url)
        shutil.rmtree(directory, ignore_errors=True)


def drain_with_boto3(endpoint: str, events: int) -> DrainRun:
    client = sqs_client(endpoint)
    queue_url = create_queue(client, "drain-boto3")
    try:
        fill = fill_queue(endpoint, queue_url, events)
        measured = run_measured([sys.executable, str(HERE / "boto3_consumer.py"), endpoint, queue_url],
                                child_environment())
        consumed = int(measured.stdout.strip() or 0) if measured.returncode == 0 else 0
        return DrainRun("boto3 consumer (receive 10, delete batch)", measured, consumed,
                        queue_depth(client, queue_url), fill, measured.stderr.strip()[-300:])
    finally:
        client.delete_queue(QueueUrl=queue_url)


def describe(run: DrainRun, events: int) -> str:
    m = run.measured
    state = "ok" if run.complete and run.consumed == events else (
        f"INCOMPLETE: exit {m.returncode}, {run.consumed} stored/consumed, {run.left_in_queue} left in queue"
        + (f" ({run.note})" if run.note else ""))
    return (f"  {run.label:<42} wall {m.wall:6.2f} s  CPU {m.cpu:6.2f} s (user {m.user:.2f}, sys {m.system:.2f})"
            f"  {events / m.wall:7.0f} msg/s  [{state}]")


def run(timeline: str, endpoint: str, events: int, concurrencies: list[int]) -> None:
    print(f"== drain bench: {events:,} messages from LocalStack SQS at {endpoint}"
          " (targets: timeline wall <= boto3 wall, timeline CPU <= 1/5 of boto3 CPU)", flush=True)
    # A warm-up drain so that both sides meet a warmed-up server (LocalStack loads code lazily).
    drain_with_timeline(timeline, endpoint, min(events, 200), concurrencies[0])
    timeline_runs: list[DrainRun] = []
    baseline = None
    for index, concurrency in enumerate(concurrencies):
        result = drain_with_timeline(timeline, endpoint, events, concurrency)
        timeline_runs.append(result)
        print(describe(result, events) + f"  (queue filled in {result.fill_seconds:.1f} s)", flush=True)
        if index == 0:  # the baseline between the default and the other settings: same server state
            baseline = drain_with_boto3(endpoint, events)
            print(describe(baseline, events) + f"  (queue filled in {baseline.fill_seconds:.1f} s)", flush=True)
    assert baseline is not None
    b = baseline.measured
    print("  ratios timeline / boto3 (wall: target <= 1.00; CPU: target <= 0.20):")
    for result in timeline_runs:
        m = result.measured
        print(f"    {result.label:<40} wall {m.wall / b.wall:5.2f}   CPU {m.cpu / b.cpu:5.3f}"
              f"  (boto3 uses {b.cpu / m.cpu if m.cpu else float('inf'):.1f}x the CPU)")
    complete = [r for r in timeline_runs if r.complete]
    if complete:
        best = min(complete, key=lambda r: r.measured.wall)
        print(f"  fastest: {best.label} ({best.measured.wall:.2f} s wall)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeline", default=str(Path(__file__).resolve().parent.parent / ".build/release/timeline"))
    parser.add_argument("--endpoint", help="a running LocalStack; default: start one")
    parser.add_argument("--localstack-python", default=None)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--concurrency", default="4,1,2,8", help="comma-separated; the first is compared first")
    args = parser.parse_args()
    concurrencies = [int(c) for c in args.concurrency.split(",")]
    if args.endpoint:
        run(args.timeline, args.endpoint, args.events, concurrencies)
        return
    from localstack_server import DEFAULT_PYTHON, LocalStackServer
    with LocalStackServer(args.localstack_python or DEFAULT_PYTHON) as server:
        run(args.timeline, server.endpoint, args.events, concurrencies)


if __name__ == "__main__":
    main()
