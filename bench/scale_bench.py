"""`make bench`'s scale part: the store at 10,000,000 events of the realistic mix (`realistic_mix.py`), each
figure printed beside its target and its 50,000-event twin. Asserts nothing.

The databases are built once under `.build/scale/` by `timeline import`, in segments of 1,000,000 events
(each segment's import rate is a figure: the rate must hold all the way), and reused while the schema
version is unchanged (the file name carries it). Figures: database bytes per byte of the events' JSON;
import rate per segment; whole-process reads (`timeline list --limit 50`: first page, qualifiers, search;
`timeline status`), median of 5, with the peak RSS of all of them; the viewer's reads (`TimelineBench` with
TIMELINE_SCALE_READS_DB, CPU time: first frame, header counts, a page down and a reload half-way down the list, End,
the worst search keystroke and its counts), one process per database.

    python bench/scale_bench.py --timeline .build/release/timeline [--events 10000000] [--twin 50000]
        [--viewer-bench .build/release/TimelineBench]

TIMELINE_BENCH_ONLY: runs only when it names `scale` (or is unset); TIMELINE_BENCH_SCALE_EVENTS overrides --events.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import realistic_mix  # noqa: E402

SEGMENT = 1_000_000
# The reads, each a whole `timeline` process: (figure name, arguments after the command and --db).
READS = [
    ("first page", ["list", "--limit", "50"]),
    ("qualifiers", ["list", "--limit", "50", "status:error agent:agent-7 -category:email"]),
    ("search", ["list", "--limit", "50", "deploy billing"]),
    ("status", ["status"]),
]
RUNS = 5


def schema_version(timeline: str) -> int:
    """The schema version this binary writes (read from a database it creates)."""
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "probe.db")
        empty = os.path.join(directory, "empty.jsonl")
        Path(empty).write_text("")
        subprocess.run([timeline, "import", "--db", path, empty], check=True, capture_output=True)
        return sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0]


def build(timeline: str, path: Path, events: int) -> dict:
    """Imports `events` of the mix into a new database at `path`, a segment at a time; returns its facts."""
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    facts = {"events": events, "json_bytes": 0, "segments": []}
    generator = realistic_mix.events(events, seed=7)
    encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
    chunk_path = path.parent / (path.name + ".segment.jsonl")
    done = 0
    while done < events:
        size = min(SEGMENT, events - done)
        with open(chunk_path, "w", encoding="utf-8") as chunk:
            for _ in range(size):
                chunk.write(encode(next(generator)) + "\n")
        facts["json_bytes"] += chunk_path.stat().st_size - size  # without the newlines
        start = time.monotonic()
        subprocess.run([timeline, "import", "--db", str(path), "--quiet", str(chunk_path)], check=True,
                       stdout=subprocess.DEVNULL)
        seconds = time.monotonic() - start
        facts["segments"].append({"from": done, "to": done + size, "seconds": seconds})
        done += size
        print(f"  imported {done:,} events: this segment {size / seconds:,.0f} events/s", flush=True)
    chunk_path.unlink(missing_ok=True)
    return facts


def database(timeline: str, directory: Path, events: int, version: int) -> tuple[Path, dict]:
    """The database of `events` for this schema version: reused when built before, else built now."""
    path = directory / f"scale-{events}-v{version}.db"
    facts_path = Path(str(path) + ".facts.json")
    if path.exists() and facts_path.exists():
        print(f"-- reusing {path} ({events:,} events, schema {version})", flush=True)
        return path, json.loads(facts_path.read_text())
    for stale in directory.glob(f"scale-{events}-v*.db*"):  # other schema versions' files: gigabytes each
        if not stale.name.startswith(path.name):
            stale.unlink()
    print(f"-- building {path} ({events:,} events, schema {version})", flush=True)
    facts = build(timeline, path, events)
    facts_path.write_text(json.dumps(facts))
    return path, facts


def run_read(timeline: str, path: Path, arguments: list[str]) -> tuple[float, int]:
    """One whole process: (wall milliseconds, peak RSS in KiB)."""
    start = time.monotonic()
    process = subprocess.Popen([timeline, arguments[0], "--db", str(path), *arguments[1:]],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "NO_COLOR": "1"})
    _, _, usage = os.wait4(process.pid, 0)
    return (time.monotonic() - start) * 1000, usage.ru_maxrss


def measure(timeline: str, path: Path, facts: dict) -> dict:
    figures = {"events": facts["events"]}
    size = sum(Path(str(path) + suffix).stat().st_size for suffix in ("", "-wal") if Path(str(path) + suffix).exists())
    figures["bytes_ratio"] = size / facts["json_bytes"]
    figures["bytes"] = size
    rates = [(s["to"] - s["from"]) / s["seconds"] for s in facts["segments"]]
    figures["import_min"] = min(rates)
    figures["import_last"] = rates[-1]
    peak = 0
    for name, arguments in READS:
        run_read(timeline, path, arguments)  # warm the OS page cache
        times = []
        for _ in range(RUNS):
            wall, rss = run_read(timeline, path, arguments)
            times.append(wall)
            peak = max(peak, rss)
        figures[name] = statistics.median(times)
    figures["peak_rss_mib"] = peak / 1024
    return figures


# The viewer's figures (`TimelineBench`, TIMELINE_SCALE_READS_DB), in the order printed.
VIEWER_READS = ["first frame", "counts", "scroll", "reload far down", "end", "search keystroke", "search counts"]


def viewer_reads(bench: str, path: Path) -> dict:
    """The viewer's figures for the database at `path` (one `TimelineBench` process; its last line is JSON)."""
    done = subprocess.run([bench], env={**os.environ, "TIMELINE_SCALE_READS_DB": str(path)},
                          check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def print_viewer_reads(large: dict, small: dict, n: str, t: str) -> None:
    for name in VIEWER_READS:
        ratio = large[name] / max(small[name], 0.001)
        print(f"scale viewer {name} (CPU): {large[name]:.1f} ms at {n}, {small[name]:.1f} ms at {t}, ratio {ratio:.2f}"
              f" (target <= 1.5)")
    exact = "search exact counts"
    if exact in large and exact in small:
        print(f"scale viewer {exact} (CPU, information: the count lane after the first counts): {large[exact]:.1f} ms"
              f" at {n}, {small[exact]:.1f} ms at {t}")
    print(f"scale viewer position of the far-down rows: row {large['position'] + 1:,.0f} at {n},"
          f" {small['position'] + 1:,.0f} at {t}; counting it to the top (CPU; what each reload there would read"
          f" without the cap): {large['uncapped position count']:.1f} ms at {n}, {small['uncapped position count']:.1f} ms at {t}")
    print(f"scale viewer peak RSS (of TimelineBench, not of `timeline tui`): {large['peak rss mib']:.1f} MiB at {n},"
          f" {small['peak rss mib']:.1f} MiB at {t}; load average {large['load']:.2f} and {small['load']:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timeline", required=True)
    parser.add_argument("--events", type=int, default=int(os.environ.get("TIMELINE_BENCH_SCALE_EVENTS", 10_000_000)))
    parser.add_argument("--twin", type=int, default=50_000)
    parser.add_argument("--dir", default=".build/scale")
    parser.add_argument("--viewer-bench", help="TimelineBench binary (default: beside --timeline)")
    parser.add_argument("--viewer-only", action="store_true", help="only the viewer's figures")
    args = parser.parse_args()
    only = os.environ.get("TIMELINE_BENCH_ONLY")
    if only and "scale" not in {p.strip().lower() for p in only.split(",")}:
        return
    directory = Path(args.dir)
    directory.mkdir(parents=True, exist_ok=True)
    version = schema_version(args.timeline)
    print(f"== scale: {args.events:,} events of the realistic mix (twin: {args.twin:,})", flush=True)
    n, t = f"{args.events:,}", f"{args.twin:,}"
    bench = args.viewer_bench or str(Path(args.timeline).parent / "TimelineBench")
    large_path, large_facts = database(args.timeline, directory, args.events, version)
    small_path, small_facts = database(args.timeline, directory, args.twin, version)
    if Path(bench).exists():
        print_viewer_reads(viewer_reads(bench, large_path), viewer_reads(bench, small_path), n, t)
    else:
        print(f"scale viewer: no {bench} (build TimelineBench for the viewer's figures)")
    if args.viewer_only:
        return
    large = measure(args.timeline, large_path, large_facts)
    small = measure(args.timeline, small_path, small_facts)
    print(f"scale database bytes per JSON byte: {large['bytes_ratio']:.2f}x at {n} ({large['bytes'] / 2**20:,.0f} MiB),"
          f" {small['bytes_ratio']:.2f}x at {t} (target <= 1.2x)")
    print(f"scale bulk import: slowest segment {large['import_min']:,.0f} events/s, last {large['import_last']:,.0f}"
          f" events/s at {n}; {small['import_min']:,.0f} events/s at {t} (target >= 100,000 events/s)")
    for name, _ in READS:
        ratio = large[name] / small[name]
        print(f"scale read {name} (whole process): {large[name]:.1f} ms at {n}, {small[name]:.1f} ms at {t},"
              f" ratio {ratio:.2f} (target <= 1.5)")
    print(f"scale peak RSS of the reads: {large['peak_rss_mib']:.1f} MiB at {n}, {small['peak_rss_mib']:.1f} MiB at {t}"
          f" (target <= 24 MiB)")


if __name__ == "__main__":
    main()
