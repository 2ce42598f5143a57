"""What bounds the store's write path, part by part: the bulk import of the realistic mix, and the live
path's small commits, each run with one part of the schema or of the settings removed.

    python bench/write_parts_bench.py [--timeline .build/release/timeline] [--mix FILE] [--rounds 1]
                                      [--only part,part] [--live-events 6000] [--skip-import] [--skip-live]
    python bench/write_parts_bench.py --pages [--timeline ...] [--mix FILE] [--live-events 6000]

Import: every part is imported from a fresh file whose schema has that part removed (an index dropped, the
full-text index replaced by a table that ignores writes, a larger batch, or a pragma
swapped), between two baseline imports; its ratio is taken against the mean of those two neighbours, so a
machine whose speed drifts moves both alike. Live: the first events of the mix are imported once; each part
then gets a copy of that file, with the part removed, and the last `--live-events` events are imported in
commits of 12 (a viewer's group commit under 400 events/s), counting the bytes written to the WAL.

`--pages` writes the exact figure behind both: every WAL page the import's batches, its final search
indexing, and the live commits write, by the b-tree (table or index) it belongs to. It does not depend on the
machine's load; the times do: quote CPU and WAL figures, and wall figures only from an idle machine. The live
commits are imports of 12 lines, which leave search indexing to the end (a viewer's poller indexes up to
`TimelineStore.searchIndexRowsPerIngest` rows at a time once enough wait): the live figures hold no full-text
index writes.

Bytes are counted by `write_parts_shim.c` (LD_PRELOAD: every write to `*-wal` and `*.db`; it also swaps SQL
text, for parts that change a query: without `event_ids` the duplicate check is skipped, which the
product may never do). The shim is built with `cc` into a temporary directory. Not part of `make test` or
`make bench`: on an idle machine about 30 s per import of 1,000,000 events, all parts, one round, about 20
minutes (`--only` picks parts).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_MIX = Path("/work/scratch/mix1m.jsonl")

FIND_STORED = ("SELECT 1 FROM event_ids_recent k JOIN events e ON e.seq = k.seq WHERE k.id_key = ?1 AND e.id = ?2\n"
               "UNION ALL\n"
               "SELECT 1 FROM event_ids k JOIN events e ON e.seq = k.seq WHERE k.id_key = ?1 AND e.id = ?2\n"
               "LIMIT 1")
ADD_IDS = ("INSERT INTO event_ids_recent (id_key, seq)\n"
           "SELECT id_key, seq FROM events WHERE seq BETWEEN ?1 AND ?2 ORDER BY id_key, seq")
NOTHING = "SELECT 1 WHERE ?1 IS NULL AND ?2 IS NULL"
NEXT_ROW = ("SELECT max(coalesce((SELECT max(row_id) FROM timeline), 0), "
            "coalesce((SELECT max(task_row) FROM events), 0))")
INSERT_EVENT = ("INSERT INTO events (id, agent_id, task_id, title, body, status, category, ts_us, progress, payload_shape,\n"
                "                      payload_template, message_id, received_us, id_key, task_row, sent_us, receive_count)\n"
                "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)")
OPEN_PRAGMAS = "PRAGMA synchronous = NORMAL; PRAGMA temp_store = FILE; PRAGMA cache_size = -4096"


@dataclass
class Part:
    """One part removed: SQL run on the file before the import, SQL the binary runs swapped, import flags."""

    name: str
    what: str
    sql: list[str] = field(default_factory=list)
    subst: dict[str, str] = field(default_factory=dict)
    flags: list[str] = field(default_factory=list)
    live: bool = True


PARTS = [
    Part("event_ids", "the id index's lookups and writes skipped (lower bound: the product may never skip them)",
         subst={FIND_STORED: NOTHING, ADD_IDS: NOTHING}),
    Part("duplicate_lookup", "the duplicate check's query skipped, its index kept (the most an in-memory filter"
         " of stored keys could save)", subst={FIND_STORED: NOTHING}),
    Part("events_task_order", "index events(task_row, ts_us) dropped",
         ["DROP INDEX events_task_order"], {NEXT_ROW: "SELECT coalesce((SELECT max(row_id) FROM timeline), 0)"}),
    Part("timeline_order", "index timeline(ts_us DESC, seq DESC, status) dropped", ["DROP INDEX timeline_order"]),
    Part("timeline_status_seq", "index timeline(status, seq) dropped", ["DROP INDEX timeline_status_seq"]),
    Part("timeline_agent", "index timeline(agent_id, status, category) dropped", ["DROP INDEX timeline_agent"]),
    Part("timeline_category", "index timeline(category, status) dropped", ["DROP INDEX timeline_category"]),
    Part("timeline_unindexed", "partial index timeline(row_id) WHERE indexed_seq IS NOT seq dropped",
         ["DROP INDEX timeline_unindexed"]),
    Part("search_index", "full-text index writes ignored (the rows are still read and marked indexed)",
         ["DROP TABLE search",
          "CREATE TABLE search (search, rank, title, body, agent_id, task_id, category)",
          "CREATE TRIGGER search_ignore BEFORE INSERT ON search BEGIN SELECT RAISE(IGNORE); END"]),
    Part("batch_200k", "--batch-size 200000 instead of 50000", flags=["--batch-size", "200000"], live=False),
    Part("sync_off", "PRAGMA synchronous = OFF (lower bound)",
         subst={OPEN_PRAGMAS: OPEN_PRAGMAS.replace("NORMAL", "OFF")}),
    Part("journal_off", "PRAGMA journal_mode = OFF and synchronous = OFF (lower bound)",
         ["PRAGMA journal_mode = DELETE"],
         {OPEN_PRAGMAS: OPEN_PRAGMAS.replace("NORMAL", "OFF"), "PRAGMA journal_mode = WAL": "PRAGMA journal_mode = OFF"},
         live=False),
    Part("all_timeline_extras", "every timeline index above dropped, search writes ignored",
         ["DROP INDEX timeline_order", "DROP INDEX timeline_status_seq", "DROP INDEX timeline_agent",
          "DROP INDEX timeline_category", "DROP INDEX timeline_unindexed"]
         + ["DROP TABLE search",
            "CREATE TABLE search (search, rank, title, body, agent_id, task_id, category)",
            "CREATE TRIGGER search_ignore BEFORE INSERT ON search BEGIN SELECT RAISE(IGNORE); END"]),
]
BASELINE = Part("baseline", "the schema as it is")


@dataclass
class Run:
    wall: float
    cpu: float
    rss_mib: float
    wal_bytes: int
    db_bytes: int
    load: float


def build_shim(directory: Path) -> Path:
    shim = directory / "shim.so"
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", str(shim), str(HERE / "write_parts_shim.c"), "-ldl", "-lpthread"],
                   check=True)
    return shim


def remove_part(db: Path, part: Part) -> None:
    connection = sqlite3.connect(db, isolation_level=None)
    try:
        for statement in part.sql:
            connection.execute(statement)
    finally:
        connection.close()


def run_import(timeline: str, shim: Path, work: Path, db: Path, source: Path, part: Part, extra: list[str]) -> Run:
    stats = work / "shim-stats"
    stats.unlink(missing_ok=True)
    subst = work / "subst"
    subst.write_bytes(b"".join(k.encode() + b"\0" + v.encode() + b"\0" for k, v in part.subst.items()))
    env = dict(os.environ, LD_PRELOAD=str(shim), TL_SHIM_STATS=str(stats), TL_SHIM_SUBST=str(subst))
    load = os.getloadavg()[0]
    start = time.monotonic()
    process = subprocess.Popen([timeline, "import", "--db", str(db), "--quiet", *part.flags, *extra, str(source)],
                               stdout=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - start
    if status != 0:
        raise SystemExit(f"import failed for {part.name}: status {status}")
    figures = dict(item.split("=") for item in stats.read_text().split())
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, int(figures["wal_bytes"]),
               int(figures["db_bytes"]), load)


def page_owners(db: Path) -> dict[int, str]:
    """The b-tree (table or index) each page of `db` belongs to now (`dbstat`); FTS5's shadow tables are one."""
    connection = sqlite3.connect(db)
    try:
        owners = {}
        for name, page in connection.execute("SELECT name, pageno FROM dbstat"):
            owners[page] = "search (FTS5 segments)" if name in ("search_data", "search_idx") else name
        return owners
    finally:
        connection.close()


def frames_by_owner(frames: Path, owners: dict[int, str], first: int, last: int) -> tuple[dict[str, int], int]:
    """Pages written to the WAL by commits `first`..`last` (0-based, inclusive), per b-tree; and the commits."""
    counts: dict[str, int] = {}
    commit = 0
    with open(frames) as lines:
        for line in lines:
            page, ends = line.split()
            if first <= commit <= last:
                owner = owners.get(int(page), "freed since" if int(page) > 1 else "header")
                counts[owner] = counts.get(owner, 0) + 1
            if ends == "1":
                commit += 1
    return counts, min(commit, last + 1) - first


def pages_table(timeline: str, shim: Path, work: Path, mix: Path, live_events: int) -> None:
    """Which b-tree each page a commit writes belongs to: the import's batches and its final search indexing,
    and the live path's commits of 12."""
    lines = sum(1 for _ in open(mix, "rb"))
    batches = -(-lines // 50_000)
    frames = work / "frames"
    os.environ["TL_SHIM_FRAMES"] = str(frames)
    try:
        db = fresh_file(timeline, work, "pages")
        run = run_import(timeline, shim, work, db, mix, BASELINE, [])
        owners = page_owners(db)
        ingest, ingest_commits = frames_by_owner(frames, owners, 0, batches - 1)
        flush, flush_commits = frames_by_owner(frames, owners, batches, 1 << 40)
        base_lines, tail_lines = split_mix(work, mix, live_events)
        live = fresh_file(timeline, work, "live-pages")
        subprocess.run([timeline, "import", "--db", str(live), "--quiet", str(base_lines)], check=True,
                       stdout=subprocess.DEVNULL)
        run_import(timeline, shim, work, live, tail_lines, BASELINE, ["--batch-size", "12"])
        live_owners = page_owners(live)
        commits = live_events // 12
        small, small_commits = frames_by_owner(frames, live_owners, 0, commits - 1)
    finally:
        del os.environ["TL_SHIM_FRAMES"]
    print(f"\n## WAL pages by b-tree ({run.wal_bytes / 2**20:,.0f} MiB of WAL for the import)")
    print(f"b-tree | import: pages per batch of 50,000 ({ingest_commits} batches) | import: final search indexing"
          f" ({flush_commits} commits) | live: pages per commit of 12 ({small_commits} commits)")
    print("--- | --- | --- | ---")
    names = sorted(set(ingest) | set(flush) | set(small), key=lambda n: -(ingest.get(n, 0) + flush.get(n, 0)))
    for name in names + ["total"]:
        pick = (lambda c: sum(c.values())) if name == "total" else (lambda c: c.get(name, 0))
        print(f"{name} | {pick(ingest) / max(ingest_commits, 1):,.0f} | {pick(flush):,} | "
              f"{pick(small) / max(small_commits, 1):.1f}")


def split_mix(work: Path, mix: Path, live_events: int) -> tuple[Path, Path]:
    """The mix but its last `live_events` lines, and those lines."""
    base_lines = work / "live-base.jsonl"
    tail_lines = work / "live-tail.jsonl"
    if not base_lines.exists():
        with open(mix, "rb") as source:
            all_lines = source.readlines()
        base_lines.write_bytes(b"".join(all_lines[:-live_events]))
        tail_lines.write_bytes(b"".join(all_lines[-live_events:]))
    return base_lines, tail_lines


def fresh_file(timeline: str, work: Path, name: str) -> Path:
    db = work / f"{name}.db"
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    empty = work / "empty.jsonl"
    empty.write_text("")
    subprocess.run([timeline, "import", "--db", str(db), "--quiet", str(empty)], check=True, stdout=subprocess.DEVNULL)
    return db


def import_table(timeline: str, shim: Path, work: Path, mix: Path, parts: list[Part], rounds: int) -> None:
    lines = sum(1 for _ in open(mix, "rb"))
    print(f"## Import: {lines:,} events of the mix, fresh file each run ({mix})")
    print("part | what | events/s base | events/s without | wall ratio (without/base) | CPU s base -> without"
          " | CPU ratio | WAL MiB base -> without | load")
    print("--- | --- | --- | --- | --- | --- | --- | --- | ---")

    def one(part: Part) -> Run:
        db = fresh_file(timeline, work, "import")
        remove_part(db, part)
        return run_import(timeline, shim, work, db, mix, part, [])

    previous = one(BASELINE)
    for part in parts * rounds:
        removed = one(part)
        following = one(BASELINE)
        base_wall = (previous.wall + following.wall) / 2
        base_cpu = (previous.cpu + following.cpu) / 2
        base_wal = (previous.wal_bytes + following.wal_bytes) / 2
        print(f"{part.name} | {part.what} | {lines / base_wall:,.0f} | {lines / removed.wall:,.0f} | "
              f"{removed.wall / base_wall:.3f} | {base_cpu:.1f} -> {removed.cpu:.1f} | {removed.cpu / base_cpu:.3f} | "
              f"{base_wal / 2**20:,.0f} -> {removed.wal_bytes / 2**20:,.0f} | {removed.load:.2f}", flush=True)
        previous = following


def live_table(timeline: str, shim: Path, work: Path, mix: Path, parts: list[Part], live_events: int) -> None:
    base_lines, tail_lines = split_mix(work, mix, live_events)
    base = fresh_file(timeline, work, "live-base")
    subprocess.run([timeline, "import", "--db", str(base), "--quiet", str(base_lines)], check=True, stdout=subprocess.DEVNULL)
    print(f"\n## Live: {live_events:,} events in commits of 12 onto a file of the mix's other events")
    print("part | WAL KiB/event base | without | WAL pages/commit base -> without | CPU ms/event base -> without | load")
    print("--- | --- | --- | --- | --- | ---")
    commits = live_events / 12

    def one(part: Part) -> Run:
        db = work / "live.db"
        for suffix in ("", "-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)
        shutil.copyfile(base, db)
        remove_part(db, part)
        return run_import(timeline, shim, work, db, tail_lines, part, ["--batch-size", "12"])

    previous = one(BASELINE)
    for part in (p for p in parts if p.live):
        removed = one(part)
        following = one(BASELINE)
        wal = (previous.wal_bytes + following.wal_bytes) / 2
        cpu = (previous.cpu + following.cpu) / 2
        print(f"{part.name} | {wal / live_events / 1024:.1f} | {removed.wal_bytes / live_events / 1024:.1f} | "
              f"{wal / 8192 / commits:.1f} -> {removed.wal_bytes / 8192 / commits:.1f} pages | "
              f"{cpu / live_events * 1000:.3f} -> {removed.cpu / live_events * 1000:.3f} | {removed.load:.2f}", flush=True)
        previous = following


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timeline", default=".build/release/timeline")
    parser.add_argument("--mix", type=Path, default=DEFAULT_MIX)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--only", default="", help="comma-separated part names")
    parser.add_argument("--live-events", type=int, default=6_000)
    parser.add_argument("--skip-import", action="store_true")
    parser.add_argument("--skip-live", action="store_true")
    parser.add_argument("--pages", action="store_true", help="only the table of WAL pages by b-tree (one import)")
    parser.add_argument("--work", type=Path, help="directory for the files (default: a temporary one)")
    args = parser.parse_args()
    if not args.mix.exists():
        raise SystemExit(f"{args.mix}: missing (python bench/realistic_mix.py writes it)")
    parts = [p for p in PARTS if not args.only or p.name in args.only.split(",")]
    timeline = str(Path(args.timeline).resolve())
    with tempfile.TemporaryDirectory(dir=args.work) as directory:
        work = Path(directory)
        shim = build_shim(work)
        print(f"timeline {timeline}, {os.cpu_count()} cores, load at start {os.getloadavg()[0]:.2f}")
        if args.pages:
            pages_table(timeline, shim, work, args.mix, args.live_events)
            return
        if not args.skip_import:
            import_table(timeline, shim, work, args.mix, parts, args.rounds)
        if not args.skip_live:
            live_table(timeline, shim, work, args.mix, parts, args.live_events)


if __name__ == "__main__":
    sys.exit(main())
