"""`make bench`'s SQS part: one LocalStack for the drain benchmark and the publish -> stored latency.

LocalStack is started on a free port and always stopped at the end (also on Ctrl-C and SIGTERM).
Environment: TIMELINE_BENCH_DRAIN_EVENTS (default 10000), TIMELINE_BENCH_DRAIN_CONCURRENCY (default
"4,1,2,8": timeline drain --concurrency values, the default first), TIMELINE_BENCH_LATENCY_SAMPLES (250),
TIMELINE_BENCH_ONLY (comma-separated: drain, latency; other parts are ignored here).

    python bench/sqs_benches.py --timeline .build/release/timeline --localstack-python .venv-localstack/bin/python
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time

import drain_bench
import latency_bench
from localstack_server import DEFAULT_PYTHON, LocalStackServer

PARTS = {"drain", "latency"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeline", required=True)
    parser.add_argument("--localstack-python", default=str(DEFAULT_PYTHON))
    args = parser.parse_args()
    only = os.environ.get("TIMELINE_BENCH_ONLY")
    parts = PARTS & {p.strip().lower() for p in only.split(",")} if only else PARTS
    if not parts:
        return
    events = int(os.environ.get("TIMELINE_BENCH_DRAIN_EVENTS", "10000"))
    concurrencies = [int(c) for c in os.environ.get("TIMELINE_BENCH_DRAIN_CONCURRENCY", "4,1,2,8").split(",")]
    samples = int(os.environ.get("TIMELINE_BENCH_LATENCY_SAMPLES", "250"))

    # SIGTERM ends the run through the `with` block, so LocalStack is stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    started = time.monotonic()
    server = LocalStackServer(args.localstack_python)
    with server:
        print(f"LocalStack SQS up at {server.endpoint} in {time.monotonic() - started:.1f} s", flush=True)
        if "drain" in parts:
            drain_bench.run(args.timeline, server.endpoint, events, concurrencies)
        if "latency" in parts:
            latency_bench.run(args.timeline, server.endpoint, samples)


if __name__ == "__main__":
    main()
