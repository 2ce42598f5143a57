"""Live ingest cost: CPU and bytes written per event by `timeline poll` under steady traffic, paired A/B.

A few `fleet_publisher.py` processes send the `realistic_mix` fleet at a steady rate (SendMessageBatch, 10 events
a call) to a LocalStack queue that one `timeline poll` consumes into a new database. The poller's CPU
(utime+stime from /proc) and its `write_bytes` (/proc/PID/io: the WAL and checkpoints) are read from just before
the load starts until every event sent is stored, then divided by the events stored. This is the ingest write
path of the live viewer (receive, parse, store, delete) without the drawing.

With `--baseline OTHER_BINARY` the two binaries run in turn, round after round (A B A B ...), each on its own
queue and database of the same LocalStack, and the ratio A/B is taken per round: pairing keeps the ratio
meaningful while the machine's load drifts. Prints figures; asserts nothing.

    python bench/ingest_cpu_bench.py --timeline .build/release/timeline --baseline /tmp/timeline-main \\
        --rate 400 --seconds 20 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from localstack_server import DEFAULT_PYTHON, LocalStackServer  # noqa: E402
from sqs_bench_support import REGION, child_environment, create_queue, sqs_client  # noqa: E402
from process_figures import process_cpu, stored_events, write_bytes  # noqa: E402



def one_run(timeline: str, endpoint: str, rate: float, seconds: float, publishers: int) -> dict:
    """One `timeline poll` on a new queue and database under `rate` events/s for `seconds`."""
    client = sqs_client(endpoint, pool=2)
    queue_url = create_queue(client, "ingestcost")
    folder = Path(tempfile.mkdtemp(prefix="timeline-ingestcost-"))
    db = folder / "ingest.db"
    env = child_environment()
    poll = subprocess.Popen(
        [timeline, "poll", "--queue-url", queue_url, "--endpoint-url", endpoint, "--region", REGION, "--db", str(db)],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    workers: list[subprocess.Popen[str]] = []
    try:
        assert poll.stderr is not None
        if "polling" not in poll.stderr.readline():
            raise RuntimeError("timeline poll did not start")
        publisher_env = {**child_environment(), "PYTHONPATH": str(HERE)}
        for index in range(publishers):
            workers.append(subprocess.Popen(
                [sys.executable, str(HERE / "fleet_publisher.py"), "--endpoint", endpoint, "--queue-url", queue_url,
                 "--index", str(index), "--publishers", str(publishers), "--rate", str(rate / publishers),
                 "--seconds", str(seconds), "--batch", "10", "--seed", str(int(time.time()))],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=publisher_env))
        for worker in workers:
            assert worker.stdout is not None
            if worker.stdout.readline().strip() != "ready":
                raise RuntimeError("a publisher did not start")
        start = time.time() + 0.5
        for worker in workers:
            assert worker.stdin is not None
            worker.stdin.write(f"{start}\n")
            worker.stdin.close()
        time.sleep(max(0.0, start - time.time()))
        cpu0, io0, wall0 = process_cpu(poll.pid), write_bytes(poll.pid), time.monotonic()
        sent = 0
        for worker in workers:
            out = worker.stdout.read() if worker.stdout else ""
            worker.wait(timeout=120)
            sent += json.loads(out.strip().splitlines()[-1])["sent"]
        deadline = time.monotonic() + 120
        while stored_events(db) < sent and time.monotonic() < deadline:
            time.sleep(0.1)
        cpu1, io1, wall1 = process_cpu(poll.pid), write_bytes(poll.pid), time.monotonic()
        stored = stored_events(db)
        return {"sent": sent, "stored": stored, "cpu": cpu1 - cpu0, "bytes": io1 - io0, "wall": wall1 - wall0}
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.terminate()
                worker.wait()
        poll.send_signal(signal.SIGTERM)
        try:
            poll.wait(timeout=30)
        except subprocess.TimeoutExpired:
            poll.kill()
            poll.wait()
        shutil.rmtree(folder, ignore_errors=True)


def describe(name: str, run: dict) -> str:
    per = max(run["stored"], 1)
    return (f"{name}: {run['stored']:,}/{run['sent']:,} events in {run['wall']:.1f} s, CPU {run['cpu']:.2f} s = "
            f"{1000 * run['cpu'] / per:.3f} ms/event, written {run['bytes'] / per / 1024:.1f} KiB/event")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeline", required=True, help="binary A")
    parser.add_argument("--baseline", help="binary B, run in turn with A")
    parser.add_argument("--localstack-python", default=str(DEFAULT_PYTHON))
    parser.add_argument("--rate", type=float, default=400)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--publishers", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    binaries = [("A", str(Path(args.timeline).resolve()))]
    if args.baseline:
        binaries.append(("B", str(Path(args.baseline).resolve())))
    print(f"== live ingest cost: {args.rate:,.0f} events/s for {args.seconds:.0f} s into `timeline poll`, "
          f"{args.rounds} rounds", flush=True)
    ratios: list[float] = []
    per_event: dict[str, list[float]] = {name: [] for name, _ in binaries}
    with LocalStackServer(args.localstack_python) as server:
        for round_index in range(args.rounds):
            runs = {}
            for name, binary in binaries:
                runs[name] = one_run(binary, server.endpoint, args.rate, args.seconds, args.publishers)
                per_event[name].append(runs[name]["cpu"] / max(runs[name]["stored"], 1))
                print(f"  round {round_index + 1} " + describe(name, runs[name]), flush=True)
            if "B" in runs:
                ratios.append(per_event["A"][-1] / max(per_event["B"][-1], 1e-9))
    for name, values in per_event.items():
        print(f"  {name}: CPU per event median {1000 * statistics.median(values):.3f} ms "
              f"(min {1000 * min(values):.3f}, max {1000 * max(values):.3f})", flush=True)
    if ratios:
        print(f"  A/B CPU per event, paired: median {statistics.median(ratios):.2f} "
              f"(min {min(ratios):.2f}, max {max(ratios):.2f})", flush=True)
    print(f"  machine: load average {os.getloadavg()[0]:.1f} at the end ({os.cpu_count()} cores)", flush=True)


if __name__ == "__main__":
    main()
