"""End-to-end test of `timeline export --format backup` and its restore by `timeline import`: a database with
everything the viewer knows (events polled from a real local SQS server, so their delivery facts exist; an
imported event; rejected messages; marks; read state; a reply sent over SQS) restores into a new file with the
same content in every table, and importing the backup again changes nothing."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from sqs_helpers import make_event, send

#: Every table's content, store-local numbers (arrival sequences, timeline row ids) left out: records refer
#: to each other by event and task id, and rows are listed in arrival order.
TABLES = {
    # The payload as stored: the row's columns plus its template (shared or in the row).
    "events": "SELECT id, id_key, agent_id, task_id, title, body, status, category, ts_us, progress,"
              " coalesce(payload_template, (SELECT template FROM payload_shapes s WHERE s.id = payload_shape)),"
              " message_id, received_us, sent_us, receive_count FROM events ORDER BY seq",
    "timeline": "SELECT t.task_id, e.id, t.ts_us, t.status, t.agent_id, t.category, t.event_count,"
                " t.indexed_seq IS t.seq FROM timeline t JOIN events e ON e.seq = t.seq ORDER BY t.task_id",
    "history": "SELECT t.task_id, e.id FROM events e JOIN timeline t ON t.row_id = e.task_row ORDER BY e.seq",
    "rejected": "SELECT raw_body, message_id, reason, received_us FROM rejected ORDER BY seq",
    "marks": "SELECT task_id, marked_us FROM marks ORDER BY task_id",
    "replies": "SELECT id, in_reply_to, task_id, agent_id, action, text, sender, ts_us, label, destination_kind,"
               " destination, state, detail, updated_us FROM replies ORDER BY seq",
    # Read state as the viewer shows it (the unread rule of TimelineStore's ReadState).
    "unread": "SELECT t.task_id, t.seq > MAX(COALESCE((SELECT r.seq FROM read_marks r WHERE r.task_row = t.row_id), 0),"
              " COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'read_all_seq'), 0))"
              " FROM timeline t ORDER BY t.task_id",
    "search": "SELECT t.task_id FROM search JOIN timeline t ON t.row_id = search.rowid"
              " WHERE search MATCH 'deploy' ORDER BY t.task_id",
}


def content(path: Path) -> dict[str, list[tuple]]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return {name: db.execute(sql).fetchall() for name, sql in TABLES.items()}


@pytest.fixture
def reply_queue(make_queue):
    return make_queue()


def test_a_backup_restores_every_table_and_a_second_import_changes_nothing(
        queue, reply_queue, sqs, run_timeline, tmp_path):
    source = tmp_path / "source.db"
    queue_args = ["--queue-url", queue.url, "--endpoint-url", queue.endpoint, "--region", queue.region]
    for event in [make_event("build started", "in_progress", task_id="build-1", progress=10),
                  make_event("build failed", "error", task_id="build-1", body="exit 2", offset=1),
                  make_event("tests green", "success", task_id="tests-1"),
                  make_event("Deploy billing?", "needs_input", task_id="deploy-1", agent_id="deployer",
                             actions=[{"id": "deploy", "label": "Deploy"}], reply_to=reply_queue.url),
                  # a clock an hour ahead: ordered at its arrival, which the restore must keep
                  make_event("clock ahead", "info", task_id="ahead-1", offset=3900)]:
        send(queue, event)
    queue.send_raw("not json \x1b[2J")
    # One receive that does not delete: the poll that stores them is the second (ApproximateReceiveCount 2).
    sqs.receive_message(QueueUrl=queue.url, MaxNumberOfMessages=10, VisibilityTimeout=0)
    drained = run_timeline("drain", *queue_args, "--db", str(source))
    assert drained.returncode == 0, drained.stderr
    imported = tmp_path / "old.jsonl"
    imported.write_text(json.dumps(make_event("docs written", "success", task_id="docs-1")) + "\n{broken\n")
    assert run_timeline("import", "--db", str(source), str(imported)).returncode == 0
    assert run_timeline("mark", "--db", str(source), "build-1", "deploy-1").returncode == 0
    replied = run_timeline("reply", "deploy-1", "--action", "deploy", "--from", "alice@laptop", "--db", str(source),
                           "--endpoint-url", queue.endpoint, "--region", queue.region)
    assert replied.returncode == 0, replied.stderr
    # What `U` and reading a task in the TUI write, written here directly: the source's kept counts do not
    # follow (the restored file's do, checked below).
    with sqlite3.connect(source) as db:
        # The watermark covers build-1's error and tests-1 in whichever order the queue delivered them.
        db.execute("UPDATE meta SET value = (SELECT max(seq) FROM events WHERE task_id IN ('tests-1', 'build-1'))"
                   " WHERE key = 'read_all_seq'")
        db.execute("INSERT INTO read_marks (task_row, seq) SELECT row_id, seq FROM timeline WHERE task_id = 'deploy-1'")

    before = content(source)
    assert all(before[name] for name in TABLES), {name: rows for name, rows in before.items() if not rows}
    assert sorted(row[1] is None for row in before["rejected"]) == [False, True]  # from SQS, from the import
    polled = [row for row in before["events"] if row[11] is not None]  # with an SQS message id
    assert len(polled) == 5 and all(row[13] is not None and row[14] in (1, 2) for row in polled)
    assert any(row[14] == 2 for row in polled)
    [ahead] = [row for row in before["events"] if row[3] == "ahead-1"]
    assert ahead[8] < ahead[13] + 120_000_000  # ordered at its SentTimestamp, not its claim
    unread = dict(before["unread"])
    assert (unread["tests-1"], unread["deploy-1"], unread["docs-1"]) == (0, 0, 1)

    backup = tmp_path / "backup.jsonl"
    exported = run_timeline("export", "--db", str(source), "--format", "backup", "-o", str(backup))
    assert exported.returncode == 0, exported.stderr
    lines = backup.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0]) == {"format": "timeline-backup", "version": 1}
    assert "\x1b" not in backup.read_text(encoding="utf-8")

    restored = tmp_path / "restored.db"
    first = run_timeline("import", "--db", str(restored), str(backup))
    assert first.returncode == 0, first.stderr
    assert "6 events (0 already stored), 2 rejected messages, 2 marks" in first.stdout
    assert content(restored) == before
    # The restore keeps the kept counts: build-1's error is read through the watermark, deploy-1 waits.
    fleet = run_timeline("status", "--db", str(restored), "--format", "json")
    assert json.loads(fleet.stdout) == {"waiting": 1, "errors": 1, "unread_errors": 0, "running": 0,
                                        "needs_attention": True}, fleet.stderr

    again = run_timeline("import", "--db", str(restored), str(backup))
    assert again.returncode == 0, again.stderr
    assert "0 events (6 already stored), 0 rejected messages, 0 marks, 0 read marks, 0 replies added" in again.stdout
    assert content(restored) == before
    second_backup = run_timeline("export", "--db", str(restored), "--format", "backup")
    assert second_backup.stdout.splitlines() == lines


def test_plain_json_lines_stay_the_events_exactly_as_received(run_timeline, tmp_path):
    source = tmp_path / "source.db"
    payload = '{"id":"e-1","agent_id":"a","task_id":"t","title":"x","status":"info","timestamp":"2027-01-15T08:00:00Z","future":[1]}'
    (tmp_path / "in.jsonl").write_text(payload + "\n")
    assert run_timeline("import", "--db", str(source), str(tmp_path / "in.jsonl")).returncode == 0
    exported = run_timeline("export", "--db", str(source), "--format", "jsonl")
    assert exported.stdout == payload + "\n"


def test_a_backup_takes_no_selection_and_a_broken_backup_line_stops_the_restore(run_timeline, tmp_path):
    refused = run_timeline("export", "--db", str(tmp_path / "x.db"), "--format", "backup", "--marked")
    assert refused.returncode != 0 and "covers the whole database" in refused.stderr
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"format":"timeline-backup","version":1}\n{"record":"mark","task_id":"T","marked_us":1}\n'
                      '{"record":"mark"}\n')
    result = run_timeline("import", "--db", str(tmp_path / "y.db"), str(broken))
    assert result.returncode != 0 and 'line 3: not a backup record: "task_id" is missing' in result.stderr
    assert run_timeline("mark", "--db", str(tmp_path / "y.db")).stdout.split() == ["T"]  # the record before it
    newer = tmp_path / "newer.jsonl"
    newer.write_text('{"format":"timeline-backup","version":2}\n')
    result = run_timeline("import", "--db", str(tmp_path / "z.db"), str(newer))
    assert result.returncode != 0 and "format version 2" in result.stderr
    assert not (tmp_path / "z.db").exists()


def test_a_rejected_line_kept_at_the_import_limit_restores_whole(run_timeline, tmp_path):
    source, restored = tmp_path / "source.db", tmp_path / "restored.db"
    giant = tmp_path / "giant.jsonl"
    giant.write_bytes(b'{"id":"' + b"x" * (17 << 20) + b'"}\n')  # past the 16 MiB line limit: kept cut, rejected
    assert run_timeline("import", "--db", str(source), str(giant), timeout=120).returncode == 0
    backup = tmp_path / "backup.jsonl"
    assert run_timeline("export", "--db", str(source), "--format", "backup", "-o", str(backup), timeout=120).returncode == 0
    result = run_timeline("import", "--db", str(restored), str(backup), timeout=120)
    assert result.returncode == 0, result.stderr
    assert content(restored)["rejected"] == content(source)["rejected"]
    assert len(content(restored)["rejected"][0][0]) == 16 << 20
