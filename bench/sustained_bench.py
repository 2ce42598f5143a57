"""`make bench` part `sustained`: hook-scale live ingest into the real `timeline tui` for minutes.

50 publisher processes (`fleet_publisher.py`) send 1,000 events a second in total, the `realistic_mix` fleet
(200 agents, 20 events a task, bodies of 5–40 words, progress on running events), to a LocalStack queue that
`timeline tui` polls in tmux (120x40). They send with SendMessageBatch, 10 events a call (100 calls a second
in all): LocalStack accepts only about 120 single SendMessage calls a second on this machine, a ceiling of the
server, not of the viewer, which is what this bench measures (TIMELINE_BENCH_SUSTAINED_BATCH=1 sends one
SendMessage per event, as hooks do). The offered rate (events the publishers tried to send) is printed beside
the accepted one (events the server took). Meanwhile:
  - a probe task, pinned in the TUI (`P`) so its row stays on screen however fast the list scrolls, gets a
    new title every ~0.5 s; publish -> on screen is the time from before its SendMessage until the viewer
    wrote the frame that shows it: a tmux control client (`pane_output.py`) dates each of the pane's
    outputs, and the screen is captured after each output, not in a busy loop that would take a core from
    the viewer. Each probe is broken into parts, each measured on its own: publish -> the server's
    `SentTimestamp`; -> the viewer's `received_us` (taken as its ingest starts); -> the first write to the
    WAL after it (inotify, `wal_writes.py`); -> the frame; and the capture's own delay. The stored times
    are read from the database (read-only) after the run;
  - the queue's depth (visible + in flight) is read every second; the backlog in seconds is that depth over
    the publish rate;
  - the TUI's CPU (utime+stime from /proc) is taken over the whole load; LocalStack's and the publishers'
    beside it, since on a small machine they bound what the viewer can show.
  - the viewer's CPU per event stored, its bytes written per event (/proc/PID/io: the WAL and checkpoints), its
    peak RSS, and the tmux server's CPU (what drawing costs the terminal).
Targets: backlog under 2 s, publish -> on screen p99 <= 100 ms, viewer CPU <= 30 % of a core.
With `--baseline OTHER_BINARY` the two binaries run in turn, round after round (A B A B ...), each on its own
queue and database of the same LocalStack, and the ratio A/B of CPU per event is taken per round: pairing keeps
it meaningful while the machine's load drifts (`--rounds`, default 1). `--perf-dir DIR` records each viewer
with `perf record -g` over the load (DIR/NAME-ROUND.data); it attaches to the running viewer, and its samples
covered only about half of the viewer's CPU on a loaded machine: compare shares, not totals.
TIMELINE_BENCH_SUSTAINED_SECONDS (default 300), TIMELINE_BENCH_SUSTAINED_RATE (1000),
TIMELINE_BENCH_SUSTAINED_PUBLISHERS (50), TIMELINE_BENCH_SUSTAINED_BATCH (10 events a call),
TIMELINE_BENCH_SUSTAINED_CONCURRENCY (2, the viewer's default long polls while the queue is quiet; it adds
receive workers, up to 8, while receives come back full). Prints figures beside targets; asserts nothing.

    python bench/sustained_bench.py --timeline .build/release/timeline --localstack-python .venv-localstack/bin/python
    python bench/sustained_bench.py --timeline .build/release/timeline --baseline /tmp/timeline-main --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent
sys.path.insert(0, str(REPO_ROOT / "Tests" / "support"))
from timeline_testing.tmux import Tmux  # noqa: E402

from realistic_mix import iso  # noqa: E402
from fleet_publisher import RawSQS  # noqa: E402
from localstack_server import DEFAULT_PYTHON, LocalStackServer  # noqa: E402
from sqs_bench_support import REGION, child_environment, loop_wakeups, percentile, sqs_client  # noqa: E402
from pane_output import PaneOutput, Shown  # noqa: E402
from wal_writes import WALWrites  # noqa: E402
from process_figures import peak_rss_kib, process_cpu, process_tree_cpu, stored_events, write_bytes  # noqa: E402

PROBE_TASK = "sustained-probe"
PROBE_TIMEOUT = 10.0


@dataclass
class Probe:
    """One probe: its title, when its publish call started (wall clock) and when it was shown."""
    title: str
    published_at: float
    shown: Shown


# The parts of publish -> on screen, in order, each measured on its own (their percentiles need not add up).
PARTS = [
    ("publish -> sent", "the publish call until the server's SentTimestamp (ms resolution): HTTP and the server"),
    ("sent -> received", "SentTimestamp until the viewer's `received_us` (taken as its ingest starts): queue wait, "
                         "long poll, gathering a backlog, the group-commit window"),
    ("received -> WAL", "until the first write to the WAL after it: building the transaction (or a merge's write)"),
    ("WAL -> output", "until the pane's program wrote the frame showing it: notification, store check, reload, "
                      "frame slot, draw"),
    ("output -> seen", "until the bench's capture showed it (its resolution; not counted in the total)"),
    ("publish -> output", "the total: publish -> on screen"),
]


def breakdown(probes: list[Probe], db: Path, wal: WALWrites) -> dict[str, list[float]]:
    """Each probe's parts (seconds, see PARTS), from the stored `sent_us`/`received_us` (read-only) and the
    WAL's and the pane's write times; printed as median, p90, p99. A probe missing a time is left out."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as connection:
        stored = {title: (sent, received) for title, sent, received in connection.execute(
            "SELECT title, sent_us, received_us FROM events WHERE task_id = ?", (PROBE_TASK,))}
    parts: dict[str, list[float]] = {name: [] for name, _ in PARTS}
    spreads = []
    for probe in probes:
        if probe.title not in stored or stored[probe.title][0] is None:
            continue
        sent, received = stored[probe.title][0] / 1e6, stored[probe.title][1] / 1e6
        written = wal.first_at_or_after(received)
        if written is None:
            continue
        for name, value in [("publish -> sent", sent - probe.published_at), ("sent -> received", received - sent),
                            ("received -> WAL", written - received), ("WAL -> output", probe.shown.output_at - written),
                            ("output -> seen", probe.shown.seen_at - probe.shown.output_at),
                            ("publish -> output", probe.shown.output_at - probe.published_at)]:
            parts[name].append(value)
        spreads.append(probe.shown.spread)
    if not spreads:
        print("  breakdown: no probe with every time", flush=True)
        return parts
    print(f"  publish -> on screen, part by part ({len(spreads)} probes; ms: median / p90 / p99):", flush=True)
    for name, meaning in PARTS:
        ordered = sorted(parts[name])
        print(f"    {name:<18} {1000 * percentile(ordered, 0.5):7.1f} {1000 * percentile(ordered, 0.9):7.1f} "
              f"{1000 * percentile(ordered, 0.99):7.1f}   {meaning}", flush=True)
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as connection:
        waits = sorted(received - sent for sent, received in connection.execute(
            "SELECT sent_us, received_us FROM events WHERE sent_us IS NOT NULL"))
    if waits:
        print(f"    {'sent -> received':<18} {percentile(waits, 0.5) / 1000:7.1f} {percentile(waits, 0.9) / 1000:7.1f} "
              f"{percentile(waits, 0.99) / 1000:7.1f}   the same over every event stored ({len(waits):,})", flush=True)
    ordered = sorted(spreads)
    print(f"    (the frame that drew a probe is known to {1000 * percentile(ordered, 0.99):.1f} ms at p99: outputs between "
          "the last capture without it and the first with it; the later one is counted)", flush=True)
    return parts


def probe_event(title: str) -> str:
    return json.dumps({"id": str(uuid.uuid4()), "agent_id": "probe-agent", "task_id": PROBE_TASK, "title": title,
                       "status": "in_progress", "timestamp": iso(time.time_ns() // 1000)})


class DepthSampler(threading.Thread):
    """Reads the queue's depth (visible + in flight) every second until stopped."""

    def __init__(self, endpoint: str, queue_url: str):
        super().__init__(daemon=True)
        self.client = sqs_client(endpoint, pool=1)
        self.queue_url = queue_url
        self.samples: list[tuple[float, int]] = []
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(1.0):
            try:
                attributes = self.client.get_queue_attributes(
                    QueueUrl=self.queue_url,
                    AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
                )["Attributes"]
            except Exception:  # noqa: BLE001  (a missed sample is a gap, not a failure of the run)
                continue
            self.samples.append((time.monotonic(), int(attributes["ApproximateNumberOfMessages"])
                                 + int(attributes["ApproximateNumberOfMessagesNotVisible"])))


def run(timeline: str, server: LocalStackServer, seconds: float, rate: float, publishers: int,
        concurrency: int, batch: int, perf_output: Path | None = None) -> dict:
    """One viewer under the load on a new queue and database; prints its figures and returns them."""
    print(f"== sustained live ingest: {publishers} publishers, {rate:,.0f} events/s ({batch} a call) for {seconds:.0f} s into "
          f"`timeline tui --concurrency {concurrency}` in tmux on LocalStack (targets: backlog < 2 s, publish -> on screen p99 <= 100 ms, "
          "viewer CPU <= 30 % of a core)", flush=True)
    folder = Path(tempfile.mkdtemp(prefix="timeline-sustained-bench-"))
    env = {**child_environment(), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    tmux = Tmux()
    workers: list[subprocess.Popen[str]] = []
    sampler = None
    perf = None
    output: PaneOutput | None = None
    wal: WALWrites | None = None
    try:
        client = sqs_client(server.endpoint)
        queue_url = client.create_queue(QueueName=f"sustained-{uuid.uuid4().hex[:10]}")["QueueUrl"]
        raw = RawSQS(server.endpoint, queue_url)
        tmux.start([timeline, "tui", "--queue-url", queue_url, "--endpoint-url", server.endpoint,
                    "--region", REGION, "--db", str(folder / "sustained.db"), "--concurrency", str(concurrency)],
                   env=env, width=120, height=40)
        tmux.wait_for("No events yet", timeout=60)
        # Pin the probe task (it is the only row, so selected) so it stays on screen under load.
        raw.send(probe_event("probe start"))
        tmux.wait_for("probe start", timeout=30)
        tmux.send_keys("P")
        tmux.wait_for("pinned", timeout=10)
        output = PaneOutput(tmux)
        output.start()
        wal = WALWrites(folder / "sustained.db-wal")
        wal.start()
        viewer = tmux._pane_pids[0]  # `exec env -i ... timeline`: the pane's process is the TUI itself
        # The server alone: the viewer is its pane's process, a child of it.
        tmux_server = int(tmux._tmux("display-message", "-p", "#{pid}").strip())

        publisher_env = {**child_environment(), "PYTHONPATH": str(HERE)}
        for index in range(publishers):
            workers.append(subprocess.Popen(
                [sys.executable, str(HERE / "fleet_publisher.py"), "--endpoint", server.endpoint,
                 "--queue-url", queue_url, "--index", str(index), "--publishers", str(publishers),
                 "--rate", str(rate / publishers), "--seconds", str(seconds), "--batch", str(batch)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=publisher_env))
        for worker in workers:  # every publisher ready (Python started, connection made) before the clock starts
            assert worker.stdout is not None
            if worker.stdout.readline().strip() != "ready":
                raise RuntimeError(f"a publisher did not start: {worker.stderr.read() if worker.stderr else ''}")
        start = time.time() + 1.0
        for worker in workers:
            assert worker.stdin is not None
            worker.stdin.write(f"{start}\n")
            worker.stdin.close()
        sampler = DepthSampler(server.endpoint, queue_url)
        sampler.start()
        time.sleep(max(0.0, start - time.time()))
        cpu0, wall0, wakes0 = process_tree_cpu(viewer), time.monotonic(), loop_wakeups(viewer)
        bytes0, tmux_cpu0, stored0 = write_bytes(viewer), process_cpu(tmux_server), stored_events(folder / "sustained.db")
        if perf_output is not None:
            perf = subprocess.Popen(["perf", "record", "-F", "499", "-g", "-p", str(viewer), "-o", str(perf_output)],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        server_cpu0 = process_tree_cpu(server._process.pid) if server._process else 0.0
        latencies: list[float] = []
        probes: list[Probe] = []
        missing = 0
        n = 0
        while time.time() < start + seconds:
            title = f"probe {n:05d} {uuid.uuid4().hex[:8]}"
            published_at = time.time()
            raw.send(probe_event(title))
            shown = output.shown_at(title, PROBE_TIMEOUT)
            if shown is None:
                missing += 1
            else:
                latencies.append(shown.output_at - published_at)
                probes.append(Probe(title, published_at, shown))
            n += 1
            time.sleep(random.uniform(0.3, 0.7))
        cpu1, wall1, wakes1 = process_tree_cpu(viewer), time.monotonic(), loop_wakeups(viewer)
        bytes1, tmux_cpu1, stored1 = write_bytes(viewer), process_cpu(tmux_server), stored_events(folder / "sustained.db")
        if perf is not None:
            perf.send_signal(signal.SIGINT)
            perf.wait(timeout=60)
            perf = None
        server_cpu1 = process_tree_cpu(server._process.pid) if server._process else 0.0
        results = []
        for worker in workers:
            out = worker.stdout.read() if worker.stdout else ""
            err = worker.stderr.read() if worker.stderr else ""
            worker.wait(timeout=120)
            try:
                results.append(json.loads(out.strip().splitlines()[-1]))
            except (ValueError, IndexError):
                print(f"  a publisher failed: {err.strip()[-300:]}", flush=True)
        drained_at = None
        settle_deadline = time.monotonic() + 120
        while time.monotonic() < settle_deadline:
            if sampler.samples and sampler.samples[-1][0] > wall1 and sampler.samples[-1][1] == 0:
                drained_at = sampler.samples[-1][0]
                break
            time.sleep(0.5)
        sampler.stopped.set()
        report(results, latencies, missing, sampler.samples, wall0, wall1, drained_at,
               cpu1 - cpu0, server_cpu1 - server_cpu0, seconds, rate, wakes1 - wakes0)
        parts = breakdown(probes, folder / "sustained.db", wal)
        stored = max(stored1 - stored0, 1)
        figures = {"cpu_per_event": (cpu1 - cpu0) / stored, "stored": stored1 - stored0, "wall": wall1 - wall0,
                   "cpu": cpu1 - cpu0, "tmux_cpu_per_event": (tmux_cpu1 - tmux_cpu0) / stored,
                   "bytes_per_event": (bytes1 - bytes0) / stored, "wakes": (wakes1 - wakes0) / (wall1 - wall0),
                   "rss_kib": peak_rss_kib(viewer),
                   "p99": percentile(sorted(latencies + [PROBE_TIMEOUT] * missing), 0.99) if latencies or missing else 0.0,
                   "parts": parts}
        print(f"  per event stored ({figures['stored']:,} in {figures['wall']:.0f} s): viewer CPU "
              f"{1000 * figures['cpu_per_event']:.3f} ms (target: <= 0.3 ms), tmux server CPU "
              f"{1000 * figures['tmux_cpu_per_event']:.3f} ms, written {figures['bytes_per_event'] / 1024:.1f} KiB; "
              f"viewer peak RSS {figures['rss_kib'] / 1024:.1f} MiB", flush=True)
        return figures
    finally:
        if perf is not None:
            perf.send_signal(signal.SIGINT)
            perf.wait(timeout=60)
        for worker in workers:
            if worker.poll() is None:
                worker.terminate()
                worker.wait()
        if sampler is not None:
            sampler.stopped.set()
        if output is not None:
            output.stop()
        if wal is not None:
            wal.stop()
        tmux.kill()
        shutil.rmtree(folder, ignore_errors=True)


def report(results: list[dict], latencies: list[float], missing: int, depths: list[tuple[float, int]],
           wall0: float, wall1: float, drained_at: float | None, viewer_cpu: float, server_cpu: float,
           seconds: float, rate: float, wakeups: int) -> None:
    wall = wall1 - wall0
    offered = sum(r["offered"] for r in results)
    sent = sum(r["sent"] for r in results)
    failed = sum(r["failed"] for r in results)
    calls = sum(r["calls"] for r in results)
    late = max((r["worst_late"] for r in results), default=0.0)
    publisher_cpu = sum(r["cpu"] for r in results)
    duration = max((r["seconds"] for r in results), default=seconds)
    achieved = sent / duration
    print(f"  published: offered {offered / duration:,.0f}/s ({rate:,.0f}/s asked), accepted {achieved:,.0f}/s: "
          f"{sent:,} events in {calls:,} calls, {failed} refused, worst publisher lateness {late:.2f} s", flush=True)
    during = [depth for at, depth in depths if wall0 <= at <= wall1]
    if during:
        ordered = sorted(during)
        per_second = max(achieved, 1.0)
        print(f"  backlog: queue depth median {percentile(ordered, 0.5):,}, p99 {percentile(ordered, 0.99):,}, "
              f"max {ordered[-1]:,} messages = max {ordered[-1] / per_second:.2f} s of publishing (about the age of the "
              "oldest message)"
              + (f"; drained {drained_at - wall1:.1f} s after the load stopped" if drained_at else
                 "; not drained within 120 s after the load stopped")
              + " (target: < 2 s)", flush=True)
        last_depth = during[-1]  # at the end of the load
        drained = f", {last_depth / (drained_at - wall1):,.0f}/s while draining after it" if drained_at and last_depth else ""
        print(f"  viewer intake (what it took off the queue): {max(0, sent - last_depth) / wall:,.0f}/s during the load"
              f"{drained}", flush=True)
    if latencies or missing:
        ordered = sorted(latencies + [PROBE_TIMEOUT] * missing)  # a probe never shown counts as the timeout
        ms = lambda s: s * 1000  # noqa: E731
        print(f"  sustained on-screen latency (publish -> the frame showing it): median {ms(percentile(ordered, 0.5)):.1f} ms, "
              f"p90 {ms(percentile(ordered, 0.9)):.1f} ms, p99 {ms(percentile(ordered, 0.99)):.1f} ms, "
              f"max {ms(ordered[-1]):.1f} ms over {len(ordered)} probes"
              + (f" ({missing} not shown within {PROBE_TIMEOUT:.0f} s, counted as {PROBE_TIMEOUT:.0f} s)" if missing else "")
              + " (target: p99 <= 100 ms)", flush=True)
    print(f"  sustained viewer CPU: {100 * viewer_cpu / wall:.1f} % of a core over {wall:.0f} s "
          f"(target: <= 30 %); its loop woke {wakeups / wall:,.0f} times a second", flush=True)
    print(f"  machine: load average {os.getloadavg()[0]:.1f} at the end ({os.cpu_count()} cores)", flush=True)
    print(f"  beside it: LocalStack {100 * server_cpu / wall:.0f} %, publishers {100 * publisher_cpu / wall:.0f} % "
          f"of a core (the machine has {os.cpu_count()} cores)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeline", default=str(REPO_ROOT / ".build/release/timeline"))
    parser.add_argument("--localstack-python", default=str(DEFAULT_PYTHON))
    parser.add_argument("--baseline", help="binary B, run in turn with --timeline (A)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--perf-dir", help="record each viewer with perf into this folder")
    args = parser.parse_args()
    only = os.environ.get("TIMELINE_BENCH_ONLY")
    if only and "sustained" not in {p.strip().lower() for p in only.split(",")}:
        return
    if shutil.which("tmux") is None:
        print("the sustained bench needs tmux (make deps installs it)")
        return
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # the `finally` and `with` stop what was started
    binaries = [("A", str(Path(args.timeline).resolve()))]
    if args.baseline:
        binaries.append(("B", str(Path(args.baseline).resolve())))
    perf_dir = Path(args.perf_dir) if args.perf_dir else None
    if perf_dir is not None:
        perf_dir.mkdir(parents=True, exist_ok=True)
    figures: dict[str, list[dict]] = {name: [] for name, _ in binaries}
    ratios: list[float] = []
    with LocalStackServer(args.localstack_python) as server:
        for round_index in range(args.rounds):
            for name, binary in binaries:
                print(f"-- round {round_index + 1}, {name}: {binary}", flush=True)
                figures[name].append(run(
                    binary, server, float(os.environ.get("TIMELINE_BENCH_SUSTAINED_SECONDS", "300")),
                    float(os.environ.get("TIMELINE_BENCH_SUSTAINED_RATE", "1000")),
                    int(os.environ.get("TIMELINE_BENCH_SUSTAINED_PUBLISHERS", "50")),
                    int(os.environ.get("TIMELINE_BENCH_SUSTAINED_CONCURRENCY", "2")),
                    int(os.environ.get("TIMELINE_BENCH_SUSTAINED_BATCH", "10")),
                    perf_dir / f"{name}-{round_index + 1}.data" if perf_dir else None))
            if len(binaries) > 1:
                ratios.append(figures["A"][-1]["cpu_per_event"] / max(figures["B"][-1]["cpu_per_event"], 1e-9))
    if args.rounds > 1 or len(binaries) > 1:
        for name, runs in figures.items():
            median = lambda key: statistics.median(r[key] for r in runs)  # noqa: E731
            print(f"  {name}: median over {len(runs)} rounds: viewer CPU {1000 * median('cpu_per_event'):.3f} ms/event, "
                  f"tmux {1000 * median('tmux_cpu_per_event'):.3f} ms/event, written {median('bytes_per_event') / 1024:.1f} "
                  f"KiB/event, wakes {median('wakes'):.0f}/s, p99 {1000 * median('p99'):.0f} ms, "
                  f"peak RSS {median('rss_kib') / 1024:.1f} MiB", flush=True)
            for part, _ in PARTS:
                print(f"    {part:<18} p99 per round: "
                      + ", ".join(f"{1000 * percentile(sorted(r['parts'][part]), 0.99):.0f}" if r["parts"][part] else "-"
                                  for r in runs) + " ms", flush=True)
        if ratios:
            print(f"  A/B viewer CPU per event, paired: median {statistics.median(ratios):.2f} "
                  f"(per round: {', '.join(f'{r:.2f}' for r in ratios)})", flush=True)


if __name__ == "__main__":
    main()
