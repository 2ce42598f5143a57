"""Bounded waits and storage failures through the real binary: `drain --give-up-after` against an endpoint
that refuses or never answers, `poll --store-give-up-after` on a disk that fills up, `import` of a file
with a UTF-8 byte-order mark."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
import uuid

import pytest

from sqs_helpers import make_event, send
from timeline_testing.tmpfs import Tmpfs, needs_tmpfs


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def drain_args(endpoint: str, db: str, give_up: int) -> list[str]:
    return ["drain", "--queue-url", f"{endpoint}/000000000000/q", "--endpoint-url", endpoint,
            "--region", "us-east-1", "--db", db, "--give-up-after", str(give_up)]


def test_drain_against_a_refused_endpoint_says_why_and_gives_up(run_timeline, db_path):
    result = run_timeline(*drain_args(f"http://127.0.0.1:{closed_port()}", db_path, 2), timeout=60)
    assert result.returncode == 1, result.stderr
    assert "gave up after" in result.stderr and "without a successful request" in result.stderr, result.stderr
    assert "Connection refused" in result.stderr or "connect" in result.stderr.lower(), result.stderr


def test_drain_against_a_black_hole_times_out_says_so_and_gives_up(run_timeline, db_path):
    # Accepts connections (the kernel's backlog) but never answers.
    with socket.socket() as hole:
        hole.bind(("127.0.0.1", 0))
        hole.listen(64)
        endpoint = f"http://127.0.0.1:{hole.getsockname()[1]}"
        result = run_timeline(*drain_args(endpoint, db_path, 2), timeout=90)
    assert result.returncode == 1, result.stderr
    assert "gave up after" in result.stderr, result.stderr
    assert "timed out" in result.stderr, result.stderr


def test_import_accepts_a_utf8_byte_order_mark(run_timeline, db_path, tmp_path):
    first = make_event("with a BOM before it", task_id="bom-1")
    second = make_event("second line", task_id="bom-2")
    path = tmp_path / "events.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + (json.dumps(first) + "\n" + json.dumps(second) + "\n").encode())
    result = run_timeline("import", str(path), "--db", db_path)
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(db_path) as db:
        assert db.execute("SELECT count(*) FROM events").fetchone()[0] == 2
        assert db.execute("SELECT count(*) FROM rejected").fetchone()[0] == 0


def test_import_lists_rejected_lines_by_number_across_batches(run_timeline, db_path, tmp_path):
    # Batches of 3 stored lines: rejected and blank lines fall on both sides of batch boundaries, and one
    # task's events span batches (the later one wins).
    lines = []
    for n in range(20):
        if n % 4 == 1:
            lines.append('{"broken": ' + str(n))
        elif n % 7 == 3:
            lines.append("   ")
        else:
            lines.append(json.dumps(make_event(f"batched {n}", task_id=f"b-{n % 3}", offset=n)))
    path = tmp_path / "events.jsonl"
    path.write_text("\n".join(lines) + "\n")
    result = run_timeline("import", str(path), "--db", db_path, "--batch-size", "3")
    assert result.returncode == 0, result.stderr
    rejected = [n + 1 for n in range(20) if n % 4 == 1]
    blank = [n + 1 for n in range(20) if n % 7 == 3 and n % 4 != 1]
    listed = [line.split(":")[0] for line in result.stderr.splitlines() if "rejected:" in line]
    assert listed == [f"line {n}" for n in rejected], result.stderr
    stored = 20 - len(rejected) - len(blank)
    assert (f"Imported 20 lines from {path}: 3 inserted, {stored - 3} replaced, 0 kept older, 0 duplicates, "
            f"{len(rejected)} rejected, {len(blank)} blank skipped.") in result.stdout, result.stdout
    with sqlite3.connect(db_path) as db:
        assert db.execute("SELECT count(*) FROM events").fetchone()[0] == stored
        assert db.execute("SELECT count(*) FROM rejected").fetchone()[0] == len(rejected)
        winners = db.execute("SELECT e.title FROM timeline t JOIN events e ON e.seq = t.seq ORDER BY t.task_id").fetchall()
        assert [title for (title,) in winners] == ["batched 18", "batched 19", "batched 14"]



@needs_tmpfs
def test_poll_on_a_disk_that_fills_holds_messages_says_why_and_exits_1(timeline_bin, e2e_env, queue, tmp_path):
    disk = Tmpfs(2048)
    try:
        db = os.path.join(disk.path, "timeline.db")
        log_path = tmp_path / "poll.log"
        with open(log_path, "w") as log:
            process = subprocess.Popen(
                [timeline_bin, "poll", "-v", "--queue-url", queue.url, "--endpoint-url", queue.endpoint,
                 "--region", queue.region, "--db", db, "--store-give-up-after", "4"],
                env=e2e_env, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.time() + 30
            while "connected: receiving" not in log_path.read_text() and time.time() < deadline:
                time.sleep(0.1)
            assert "connected: receiving" in log_path.read_text(), log_path.read_text()
            filler = disk.fill()
            events = [make_event(f"full disk {i}", task_id=f"fd-{i}", body="y" * 1500) for i in range(8)]
            for event in events:
                send(queue, event)
            code = process.wait(timeout=90)
        finally:
            if process.poll() is None:
                process.kill()
        log = log_path.read_text()
        assert code == 1, log
        assert "not stored, held and retried" in log, log
        assert "gave up after" in log and "failing to store events" in log, log
        assert "full" in log, log
        # Space returns: everything is still in the queue and is stored once, with few receives.
        os.remove(filler)
        received = queue.client.receive_message(QueueUrl=queue.url, MaxNumberOfMessages=10, WaitTimeSeconds=1,
                                                VisibilityTimeout=0, AttributeNames=["ApproximateReceiveCount"])
        counts = [int(m["Attributes"]["ApproximateReceiveCount"]) for m in received.get("Messages", [])]
        assert counts and max(counts) <= 3, counts  # at most: held once, handed back, and this peek
        drained = subprocess.run(
            [timeline_bin, "drain", "--queue-url", queue.url, "--endpoint-url", queue.endpoint,
             "--region", queue.region, "--db", db], env=e2e_env, capture_output=True, text=True, timeout=120)
        assert drained.returncode == 0, drained.stderr
        with sqlite3.connect(db) as store:
            ids = [row[0] for row in store.execute("SELECT id FROM events")]
        assert sorted(ids) == sorted(event["id"] for event in events)
    finally:
        disk.unmount()


@needs_tmpfs
def test_a_log_left_on_a_read_only_file_system_is_named_and_a_writable_copy_reads_it(run_timeline, tmp_path):
    """A database whose writer stopped before folding its write-ahead log in, on a file system that is then
    read-only (a snapshot or a backup copied without its -shm, a disk remounted read-only): SQLite cannot
    read the log without making a -shm, so the message says that and how to get at the events."""
    disk = Tmpfs(4096)
    try:
        db = os.path.join(disk.path, "timeline.db")
        lines = [json.dumps(make_event("folded in", task_id="ro-1")), json.dumps(make_event("in the log", task_id="ro-2"))]
        assert run_timeline("import", "--db", db, "-", input=lines[0] + "\n").returncode == 0
        # Another connection holds a read snapshot while the second event is stored, so the import cannot fold
        # the log in (it waits out its busy timeout), then stops without closing: the event is only in the log.
        holding = ("import os, sqlite3, sys\n"
                   f"db = sqlite3.connect({db!r}, isolation_level=None)\n"
                   "db.execute('BEGIN')\n"
                   "db.execute('SELECT count(*) FROM events').fetchone()\n"
                   "print('holding', flush=True)\n"
                   "sys.stdin.read()\n"
                   "os._exit(0)\n")
        holder = subprocess.Popen([sys.executable, "-c", holding], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True)
        try:
            assert holder.stdout.readline().strip() == "holding"
            stored = run_timeline("import", "--db", db, "-", input=lines[1] + "\n")
            assert stored.returncode == 0, stored.stderr
        finally:
            holder.stdin.close()
            holder.wait(timeout=30)
        assert os.path.getsize(db + "-wal") > 0
        # The log and the database as a snapshot would hold them: no -shm, then read-only.
        copy_dir = tmp_path / "copy"
        copy_dir.mkdir()
        for suffix in ("", "-wal"):
            with open(db + suffix, "rb") as source, open(copy_dir / ("timeline.db" + suffix), "wb") as target:
                target.write(source.read())
        if os.path.exists(db + "-shm"):
            os.remove(db + "-shm")
        subprocess.run(["mount", "-o", "remount,ro", disk.path], check=True, capture_output=True)

        for command in (["list", "--db", db], ["status", "--db", db]):
            result = run_timeline(*command)
            assert result.returncode == 2, (command, result.stdout, result.stderr)
            assert "file system is read-only" in result.stderr, result.stderr
            assert "-wal" in result.stderr and "copy the database" in result.stderr, result.stderr
            assert "Check that the directory exists" not in result.stderr, result.stderr
        # What the message says works: a writable copy of the database and its log reads every event.
        listed = run_timeline("list", "--db", str(copy_dir / "timeline.db"))
        assert listed.returncode == 0, listed.stderr
        assert "folded in" in listed.stdout and "in the log" in listed.stdout, listed.stdout
    finally:
        disk.unmount()


def test_import_killed_midway_leaves_a_valid_database_and_a_rerun_completes_it(timeline_bin, e2e_env, run_timeline,
                                                                              db_path, tmp_path):
    total, tasks = 40_000, 2_000
    malformed = {n for n in range(total) if n % 997 == 0}
    path = tmp_path / "events.jsonl"
    with path.open("w") as out:
        for n in range(total):
            if n in malformed:
                out.write('{"not an event": ' + str(n) + "\n")
            else:
                out.write(json.dumps(make_event(f"import kill {n}", task_id=f"k-{n % tasks}", offset=n)) + "\n")
    process = subprocess.Popen([timeline_bin, "import", str(path), "--db", db_path, "--batch-size", "2000", "--quiet"],
                               env=e2e_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # Killed (no chance to clean up) once the first batches are committed, while the rest goes on.
        deadline = time.monotonic() + 120
        while process.poll() is None and time.monotonic() < deadline:
            try:
                with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=5) as db:
                    if db.execute("SELECT count(*) FROM events").fetchone()[0] > 0:
                        break
            except sqlite3.OperationalError:
                pass   # not created (or not migrated) yet
            time.sleep(0.02)
        process.kill()
    finally:
        process.wait()
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        db.execute("INSERT INTO search (search) VALUES ('integrity-check')")

    rerun = run_timeline("import", str(path), "--db", db_path, "--quiet", timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        db.execute("INSERT INTO search (search) VALUES ('integrity-check')")
        # Nothing lost, nothing twice (event ids are idempotent); every malformed line kept with its reason.
        assert db.execute("SELECT count(*) FROM events").fetchone()[0] == total - len(malformed)
        assert db.execute("SELECT count(DISTINCT raw_body) FROM rejected WHERE reason != ''").fetchone()[0] == len(malformed)
        # Newest wins per task, and the full-text index holds exactly the winners.
        assert db.execute("SELECT count(*) FROM timeline").fetchone()[0] == tasks
        assert db.execute("SELECT count(*) FROM timeline WHERE indexed_seq IS NOT seq").fetchone()[0] == 0
        winner = db.execute("SELECT e.title FROM timeline t JOIN events e ON e.seq = t.seq "
                            "WHERE t.task_id = 'k-1999'").fetchone()[0]
        assert winner == f"import kill {total - 1}"
        assert db.execute("SELECT count(*) FROM search WHERE search MATCH '\"import kill 39999\"'").fetchone()[0] == 1
        assert db.execute("SELECT count(*) FROM search WHERE search MATCH '\"import kill 5\"'").fetchone()[0] == 0
        assert db.execute("SELECT count(*) FROM search WHERE search MATCH '\"import kill 3\"'").fetchone()[0] == tasks
