"""Publish -> stored latency: the time from SendMessage to the event's row being in SQLite.

`timeline poll` (default settings: 2 long polls of 20 s in flight) runs against a fresh queue on the
local server. Events are published one at a time with boto3; after each send the database is watched
read-only (`PRAGMA data_version` every ~0.5 ms, then a lookup of the event id when it changed) until the
row is there. The clock starts before the SendMessage call, so its round trip is included.
Prints median, p90, p99 and max; asserts nothing.

    python bench/latency_bench.py --timeline .build/release/timeline [--endpoint URL] [--samples 250]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

from sqs_bench_support import REGION, child_environment, create_queue, event_payload, percentile, sqs_client


class StoredWatcher:
    """Read-only view of the database that waits for an event id to be stored."""

    def __init__(self, database: Path):
        self.db = sqlite3.connect(f"file:{database}?mode=ro", uri=True, isolation_level=None)
        self.version = None

    def wait_for(self, event_id: str, timeout: float) -> float | None:
        """perf_counter() when the row was seen, or None on timeout."""
        deadline = time.perf_counter() + timeout
        while True:
            version = self.db.execute("PRAGMA data_version").fetchone()[0]
            if version != self.version:
                self.version = version
                if self.db.execute("SELECT 1 FROM events WHERE id = ?", (event_id,)).fetchone():
                    return time.perf_counter()
            if time.perf_counter() > deadline:
                return None
            time.sleep(0.0005)

    def close(self) -> None:
        self.db.close()


def wait_for_file(path: Path, process: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"timeline poll did not create {path} (exit code {process.poll()})")
        time.sleep(0.05)


def run(timeline: str, endpoint: str, samples: int, warmup: int = 10) -> None:
    print(f"== publish -> stored latency: {samples} events published one at a time, `timeline poll` "
          "(2 long polls of 20 s) into SQLite", flush=True)
    client = sqs_client(endpoint)
    queue_url = create_queue(client, "latency")
    directory = Path(tempfile.mkdtemp(prefix="timeline-latency-bench-"))
    database = directory / "timeline.db"
    log = open(directory / "poll.log", "w+")
    poll = subprocess.Popen(
        [timeline, "poll", "--queue-url", queue_url, "--endpoint-url", endpoint, "--region", REGION,
         "--db", str(database)],
        env=child_environment(), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    watcher = None
    try:
        wait_for_file(database, poll, 30)
        watcher = StoredWatcher(database)
        latencies: list[float] = []
        send_times: list[float] = []
        missing = 0
        for n in range(warmup + samples):
            event_id = str(uuid.uuid4())
            body = json.dumps(event_payload(n, event_id))
            started = time.perf_counter()
            client.send_message(QueueUrl=queue_url, MessageBody=body)
            sent = time.perf_counter()
            stored = watcher.wait_for(event_id, timeout=30)
            if n < warmup:
                continue
            if stored is None:
                missing += 1
                continue
            latencies.append(stored - started)
            send_times.append(sent - started)
            time.sleep(random.uniform(0, 0.01))  # do not phase-lock the sends to the pollers
        if not latencies:
            log.seek(0)
            print(f"  no event was stored within 30 s; timeline poll said:\n{log.read()[-1000:]}")
            return
        latencies.sort()
        send_times.sort()
        ms = lambda seconds: seconds * 1000  # noqa: E731
        print(f"  publish -> stored: median {ms(percentile(latencies, 0.5)):.1f} ms, "
              f"p90 {ms(percentile(latencies, 0.9)):.1f} ms, p99 {ms(percentile(latencies, 0.99)):.1f} ms, "
              f"max {ms(latencies[-1]):.1f} ms over {len(latencies)} events"
              + (f" ({missing} not stored within 30 s)" if missing else ""))
        print(f"  of which the SendMessage call itself: median {ms(percentile(send_times, 0.5)):.1f} ms, "
              f"p99 {ms(percentile(send_times, 0.99)):.1f} ms")
    finally:
        if watcher:
            watcher.close()
        if poll.poll() is None:
            poll.send_signal(signal.SIGTERM)
            try:
                poll.wait(timeout=10)
            except subprocess.TimeoutExpired:
                poll.kill()
                poll.wait()
        log.close()
        client.delete_queue(QueueUrl=queue_url)
        shutil.rmtree(directory, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeline", default=str(Path(__file__).resolve().parent.parent / ".build/release/timeline"))
    parser.add_argument("--endpoint", help="a running SQS server (LocalStack); default: start one")
    parser.add_argument("--localstack-python", default=None)
    parser.add_argument("--samples", type=int, default=250)
    args = parser.parse_args()
    if args.endpoint:
        run(args.timeline, args.endpoint, args.samples)
        return
    from localstack_server import DEFAULT_PYTHON, LocalStackServer
    with LocalStackServer(args.localstack_python or DEFAULT_PYTHON) as server:
        run(args.timeline, server.endpoint, args.samples)


if __name__ == "__main__":
    main()
