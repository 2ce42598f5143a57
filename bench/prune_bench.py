"""`make bench` part `prune`: `timeline prune` of 90 % of a large history while the real TUI runs beside it.

The history (TIMELINE_BENCH_PRUNE_EVENTS, default 10,000,000; 1,000,000 for a try) is the hook-scale mix of
`realistic_mix.py` spread evenly over 100 days, stored once with `timeline import` and kept under
`.build/bench/` per schema version (reused by later runs; each run prunes a copy, written to disk and read once
before the run, so neither the kernel's write-back of the copy nor a cold page cache is in the figures). `timeline tui --no-poll`
runs on the copy in tmux; `timeline prune --older-than 10d` then deletes ~90 % of it. While it runs the TUI is probed without
pause: End, then Home (each needs the store: the oldest, then the newest rows), the clock stopped when the
screen shows the other end. Figures: prune wall and CPU, the probes' latencies before and during the prune
(none over 50 ms is the target), and the file's bytes (database + WAL) before and after. Each slow probe says
what it was made of: the viewer's CPU time and its threads' time runnable but waiting for a core
(/proc/PID/task/*/schedstat), and the tmux server's; the rest is waiting on something else (a lock, the disk,
the probe's own tmux round trip). Asserts nothing.

    python bench/prune_bench.py --timeline .build/release/timeline
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent
sys.path.insert(0, str(REPO_ROOT / "Tests" / "support"))
from timeline_testing.tmux import Tmux  # noqa: E402

import realistic_mix  # noqa: E402
from scale_bench import schema_version  # noqa: E402
from sqs_bench_support import child_environment, loop_wakeups, percentile  # noqa: E402

CACHE = REPO_ROOT / ".build" / "bench"
HISTORY_DAYS = 100
PRUNE_AGE = "10d"  # 90 % of 100 evenly spread days
FRAME_TARGET_MS = 50


def file_bytes(database: Path) -> int:
    """The database and its write-ahead log."""
    return sum(p.stat().st_size for p in (database, Path(f"{database}-wal")) if p.exists())


def built_history(timeline: str, events: int) -> Path:
    """The history database of `events` events, built with `timeline import` unless already cached (per
    schema version: a binary that writes another schema builds its own)."""
    database = CACHE / f"prune-history-{events}-v{schema_version(timeline)}.db"
    if database.exists():
        return database
    CACHE.mkdir(parents=True, exist_ok=True)
    partial = database.with_suffix(".partial")
    for stale in (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm")):
        stale.unlink(missing_ok=True)
    started = time.monotonic()
    process = subprocess.Popen([timeline, "import", "--quiet", "--db", str(partial), "-"], stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=child_environment())
    assert process.stdin is not None
    now = time.time_ns() // 1000
    span = HISTORY_DAYS * 86_400_000_000
    for line in realistic_mix.lines(events, seed=3, stamp=lambda n: now - span + span * n // events):
        process.stdin.write((line + "\n").encode())
    process.stdin.close()
    if process.wait() != 0:
        raise RuntimeError(f"timeline import failed: {process.stderr.read().decode(errors='replace')[-500:]}")
    settle(partial)
    partial.rename(database)
    for leftover in (Path(f"{partial}-wal"), Path(f"{partial}-shm")):  # empty after the checkpoint
        leftover.unlink(missing_ok=True)
    print(f"  built {events:,} events with `timeline import` in {time.monotonic() - started:.0f} s "
          f"({file_bytes(database) / 2**20:,.0f} MiB)", flush=True)
    return database


def settle(database: Path) -> None:
    """Writes the WAL back into the database file, so the file alone is the whole database."""
    with sqlite3.connect(database) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


POSITION = re.compile(r"row ([\d,]+) of ([\d,]+)")


def at_end(screen: str) -> bool:
    """BROWSE on the oldest row: the status bar says "row N of N"."""
    position = POSITION.search(screen)
    return "BROWSE" in screen and position is not None and position.group(1) == position.group(2)


def at_start(screen: str) -> bool:
    """FOLLOW on the newest row: the status bar says "row 1 of …"."""
    position = POSITION.search(screen)
    return "FOLLOW" in screen and position is not None and position.group(1) == "1"


def scheduling(pids: list[int]) -> tuple[float, float]:
    """Seconds on a CPU, and seconds runnable but waiting for one, of every thread of `pids` so far
    (/proc/PID/task/*/schedstat): what a probe's latency was made of besides waiting on something else."""
    on_cpu = waiting = 0
    for pid in pids:
        for stat in Path(f"/proc/{pid}/task").glob("*/schedstat"):
            try:
                fields = stat.read_text().split()
            except OSError:
                continue
            on_cpu += int(fields[0])
            waiting += int(fields[1])
    return on_cpu / 1e9, waiting / 1e9


class Probe:
    """One key's latency, and what the viewer and the tmux server did meanwhile (seconds)."""

    def __init__(self, latency: float, viewer: tuple[float, float], terminal: tuple[float, float]):
        self.latency = latency
        self.viewer_cpu, self.viewer_waiting = viewer
        self.terminal_cpu, self.terminal_waiting = terminal

    def __str__(self) -> str:
        return (f"{self.latency * 1000:.0f} ms (viewer: {self.viewer_cpu * 1000:.0f} ms on a CPU, "
                f"{self.viewer_waiting * 1000:.0f} ms waiting for one; tmux: {self.terminal_cpu * 1000:.0f} + "
                f"{self.terminal_waiting * 1000:.0f} ms)")


def probe(tmux: Tmux, key: str, arrived: Callable[[str], bool], timeout: float = 30) -> float | None:
    """Seconds from pressing `key` until the screen shows where the key goes (`arrived`), or None."""
    started = time.perf_counter()
    tmux.send_keys(key)
    deadline = started + timeout
    while time.perf_counter() < deadline:
        if arrived(tmux.capture()):
            return time.perf_counter() - started
    return None


class Prober:
    """Alternates End and Home in the TUI, keeping every latency. Each key counts as answered when the
    status bar shows its destination (not merely any change: a half-drawn frame is no answer)."""

    def __init__(self, tmux: Tmux):
        self.tmux = tmux
        self.viewer = tmux._pane_pids[0]  # the pane's process is the TUI itself
        self.terminal = int(Path(f"/proc/{self.viewer}/stat").read_text().rsplit(")", 1)[1].split()[1])
        deadline = time.perf_counter() + 30
        while not at_start(tmux.capture()) and time.perf_counter() < deadline:
            pass

    def key(self, key: str, arrived: Callable[[str], bool]) -> Probe | None:
        viewer, terminal = scheduling([self.viewer]), scheduling([self.terminal])
        took = probe(self.tmux, key, arrived)
        if took is None:
            return None
        viewer_after, terminal_after = scheduling([self.viewer]), scheduling([self.terminal])
        return Probe(took, (viewer_after[0] - viewer[0], viewer_after[1] - viewer[1]),
                     (terminal_after[0] - terminal[0], terminal_after[1] - terminal[1]))

    def once(self) -> Probe | None:
        """End then Home: the slower of the two, or None when either was not answered."""
        took = self.key("End", at_end)
        back = self.key("Home", at_start) if took is not None else None
        if took is None or back is None:
            return None
        return took if took.latency >= back.latency else back


def viewer_sample(pid: int) -> tuple[float, int]:
    """The viewer's CPU seconds (all threads) and its loop's wake-ups so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0, 0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), loop_wakeups(pid)


def spread(values: list[float]) -> str:
    ordered = sorted(values)
    return (f"median {percentile(ordered, 0.5) * 1000:.1f} ms, p99 {percentile(ordered, 0.99) * 1000:.1f} ms, "
            f"worst {ordered[-1] * 1000:.1f} ms")


def run(timeline: str, events: int) -> None:
    print(f"== prune of 90 % of {events:,} events (older than {PRUNE_AGE} of {HISTORY_DAYS} days) beside "
          f"`timeline tui --no-poll` in tmux (targets: <= 60 s, no TUI probe over {FRAME_TARGET_MS} ms, "
          "the file shrinks)", flush=True)
    source = built_history(timeline, events)
    print(f"  machine: load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (other work slows every "
          "figure; the probe's own tmux round trip is in the 'before' figure)", flush=True)
    folder = Path(tempfile.mkdtemp(prefix="timeline-prune-bench-", dir=CACHE))
    database = folder / "prune.db"
    shutil.copyfile(source, database)
    copied = os.open(database, os.O_RDONLY)  # on disk first: not gigabytes written back during the prune
    os.fsync(copied)
    os.close(copied)
    with open(database, "rb") as cached:  # and in the page cache, as a history in use is
        while cached.read(1 << 24):
            pass
    env = {**child_environment(), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    tmux = Tmux()
    prune = None
    try:
        tmux.start([timeline, "tui", "--no-poll", "--db", str(database)], env=env, width=120, height=40)
        tmux.wait_for("FOLLOW", timeout=120)
        prober = Prober(tmux)
        viewer = prober.viewer
        baseline = [p.latency for p in (prober.once() for _ in range(20)) if p is not None]
        bytes_before = file_bytes(database)
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        viewer_before = viewer_sample(viewer)
        prune = subprocess.Popen([timeline, "prune", "--older-than", PRUNE_AGE, "--db", str(database)],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True)
        during: list[float] = []
        slow: list[tuple[float, Probe]] = []  # (seconds into the prune, probe) of probes over the target
        missed = 0
        while prune.poll() is None:
            probe_started = time.perf_counter()
            took = prober.once()
            if took is None:
                missed += 1
            else:
                during.append(took.latency)
                if took.latency * 1000 > FRAME_TARGET_MS:
                    slow.append((probe_started - started, took))
        wall = time.perf_counter() - started
        viewer_after = viewer_sample(viewer)
        output = prune.stdout.read().strip() if prune.stdout else ""
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime - usage.ru_utime + after.ru_stime - usage.ru_stime
        print(f"  prune said: {output}", flush=True)
        print(f"  machine at the end: load average {os.getloadavg()[0]:.1f}", flush=True)
        print(f"  prune 90 % of {events:,} events: {wall:.1f} s wall, {cpu:.1f} s CPU, exit {prune.returncode} "
              "(target <= 60 s)", flush=True)
        deleted = re.search(r"Deleted (\d+) events", output)
        if deleted and int(deleted[1]) > 0:
            per_event = 1e6 / int(deleted[1])
            print(f"  per deleted event: {wall * per_event:.1f} us wall, {cpu * per_event:.1f} us CPU "
                  "(times the events to prune: the figure for another size)", flush=True)
        print(f"  viewer during the prune (probed without pause): "
              f"{(viewer_after[0] - viewer_before[0]) / wall * 100:.0f} % of a core, "
              f"{(viewer_after[1] - viewer_before[1]) / wall:.0f} loop wake-ups/s", flush=True)
        print(f"  file: {bytes_before / 2**20:,.1f} MiB -> {file_bytes(database) / 2**20:,.1f} MiB "
              "(database + WAL; target: shrinks)", flush=True)
        if baseline:
            print(f"  TUI probe (End/Home to screen) before the prune: {spread(baseline)} over {len(baseline)}",
                  flush=True)
        if during:
            over = sum(1 for t in during if t * 1000 > FRAME_TARGET_MS)
            print(f"  TUI probe during the prune: {spread(during)}, {over} of {len(during)} over "
                  f"{FRAME_TARGET_MS} ms" + (f", {missed} not answered within 30 s" if missed else "")
                  + f" (target: none over {FRAME_TARGET_MS} ms)", flush=True)
        if slow:
            middle = len(slow) // 2
            print(f"  the slow probes' medians: viewer on a CPU "
                  f"{sorted(p.viewer_cpu for _, p in slow)[middle] * 1000:.0f} ms, its threads waiting for one "
                  f"{sorted(p.viewer_waiting for _, p in slow)[middle] * 1000:.0f} ms (summed over threads), tmux "
                  f"{sorted(p.terminal_cpu + p.terminal_waiting for _, p in slow)[middle] * 1000:.0f} ms",
                  flush=True)
        worst = sorted(slow, key=lambda pair: -pair[1].latency)[:8]
        if worst:
            print("  slowest probes (seconds into the prune: latency, and what the viewer and tmux did meanwhile):",
                  flush=True)
            for at, took in sorted(worst, key=lambda pair: pair[0]):
                print(f"    {at:.1f} s: {took}", flush=True)
    finally:
        if prune is not None and prune.poll() is None:
            prune.send_signal(signal.SIGTERM)
            prune.wait()
        tmux.kill()
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeline", default=str(REPO_ROOT / ".build/release/timeline"))
    args = parser.parse_args()
    only = os.environ.get("TIMELINE_BENCH_ONLY")
    if only and "prune" not in {p.strip().lower() for p in only.split(",")}:
        return
    if shutil.which("tmux") is None:
        print("the prune bench needs tmux (make deps installs it)")
        return
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # the `finally` stops what was started
    run(str(Path(args.timeline).resolve()), int(os.environ.get("TIMELINE_BENCH_PRUNE_EVENTS", "10000000")))


if __name__ == "__main__":
    main()
