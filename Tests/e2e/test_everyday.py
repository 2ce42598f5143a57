"""End-to-end tests of everyday use: the config file (precedence, invalid files), the query language in
`list` and in the TUI on one database, named views, marks, export (JSON lines round-trip, Markdown golden),
prune and retention, `make install` into a temporary PREFIX, the systemd unit, the light theme.

The real binary ($TIMELINE_BIN, else .build/release/timeline, else .build/debug/timeline), real SQLite files.
"""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import time
from datetime import datetime, timedelta, timezone
from functools import partial
from pathlib import Path

import pytest
from timeline_testing.events import event as shared_event

ROOT = Path(__file__).resolve().parents[2]
GOLDENS = Path(__file__).resolve().parent / "goldens"
NOW = datetime.now(timezone.utc)


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# This file's events: by "builder", five minutes before NOW, with an empty body, unless a call says otherwise.
event = partial(shared_event, agent="builder", now=NOW, age=timedelta(minutes=5), body="")


def write_jsonl(path: Path, events: list[dict]) -> Path:
    path.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events), encoding="utf-8")
    return path


@pytest.fixture
def config_file(e2e_env) -> Path:
    path = Path(e2e_env["XDG_CONFIG_HOME"]) / "timeline" / "config.toml"
    path.parent.mkdir(parents=True)
    return path


def config_lines(output: str) -> dict[str, str]:
    """`timeline config` output: setting name -> the rest of its line."""
    return {line.split(None, 1)[0]: line.split(None, 1)[1] for line in output.splitlines() if line.strip()}


# ------------------------------------------------------------------------------------------ config file


def test_precedence_is_flag_then_environment_then_file_then_default(run_timeline, e2e_env, config_file, tmp_path):
    env = {k: v for k, v in e2e_env.items() if k not in ("AWS_REGION", "AWS_DEFAULT_REGION")}
    config_file.write_text('queue_url = "http://127.0.0.1:9/000000000000/q"\nregion = "eu-west-3"\n'
                           'db = "~/from-file.db"\nprofile = "filed"\ntheme = "light"\nretention = "30d"\n')
    shown = run_timeline("config", env=env)
    assert shown.returncode == 0, shown.stderr
    lines = config_lines(shown.stdout)
    where = f"(from config file {config_file})"
    assert lines["region"] == f"eu-west-3  {where}"
    assert lines["db"] == f"{env['HOME']}/from-file.db  {where}"
    assert lines["profile"] == f"filed  {where}"
    assert lines["retention"] == f"30d  {where}"
    assert lines["theme"].startswith("light → light")
    assert lines["queue"] == f"http://127.0.0.1:9/000000000000/q  {where}"
    # The environment beats the file ...
    env_over = {**env, "AWS_REGION": "ap-south-1", "TIMELINE_DB": str(tmp_path / "env.db"), "AWS_PROFILE": "envp",
                "TIMELINE_RETENTION": "7d", "TIMELINE_THEME": "dark"}
    lines = config_lines(run_timeline("config", env=env_over).stdout)
    assert lines["region"] == "ap-south-1  (from AWS_REGION)"
    assert lines["db"] == f"{tmp_path / 'env.db'}  (from TIMELINE_DB)"
    assert lines["profile"] == "envp  (from AWS_PROFILE)"
    assert lines["retention"] == "7d  (from TIMELINE_RETENTION)"
    assert lines["theme"] == "dark → dark  (from TIMELINE_THEME)"
    # ... and flags beat both.
    lines = config_lines(run_timeline("config", "--region", "us-west-2", "--db", str(tmp_path / "flag.db"),
                                      "--profile", "flagp", "--retention", "1d", "--theme", "light", env=env_over).stdout)
    assert lines["region"] == "us-west-2  (from --region)"
    assert lines["db"] == f"{tmp_path / 'flag.db'}  (from --db)"
    assert lines["profile"] == "flagp  (from --profile)"
    assert lines["retention"] == "1d  (from --retention)"
    # Without the file: defaults.
    config_file.unlink()
    lines = config_lines(run_timeline("config", env=env).stdout)
    assert lines["db"] == f"{env['XDG_DATA_HOME']}/timeline/timeline.db  (from default)"
    assert lines["retention"] == "off  (from not set)"
    assert lines["queue"].startswith("not configured")


def test_reply_identity_from_config_file_then_environment(run_timeline, e2e_env, config_file):
    """`from` (who replies are from): TIMELINE_FROM > the config file > user@host."""
    lines = config_lines(run_timeline("config").stdout)
    assert lines["from"].endswith("(from default)") and "@" in lines["from"]
    config_file.write_text('from = "alice@lab"\n')
    lines = config_lines(run_timeline("config").stdout)
    assert lines["from"] == f"alice@lab  (from config file {config_file})"
    lines = config_lines(run_timeline("config", env={**e2e_env, "TIMELINE_FROM": "bob@ci"}).stdout)
    assert lines["from"] == "bob@ci  (from TIMELINE_FROM)"
    config_file.write_text('from = ""\n')
    bad = run_timeline("config")
    assert bad.returncode != 0 and "from" in bad.stderr


def test_attention_settings_in_the_config_file_are_checked(run_timeline, config_file):
    """`notify`, `stale_after` and `timeout_after` (the attention flags) are config keys, validated like the rest."""
    config_file.write_text('notify = "all"\nstale_after = "90s"\ntimeout_after = "2h"\n')
    assert run_timeline("config").returncode == 0
    for text, key in [('notify = "loud"\n', "notify"), ('stale_after = "soon"\n', "stale_after"),
                      ('timeout_after = "0h"\n', "timeout_after")]:
        config_file.write_text(text)
        bad = run_timeline("config")
        assert bad.returncode != 0 and key in bad.stderr and "Fix" in bad.stderr, bad.stderr


def test_the_file_setting_is_used_not_just_shown(run_timeline, e2e_env, config_file, tmp_path):
    """`db` from the file is where import writes and list reads; the environment still wins."""
    config_file.write_text(f'db = "{tmp_path / "filed.db"}"\n')
    source = write_jsonl(tmp_path / "in.jsonl", [event("T-1", "stored where the file says", id="ev-1")])
    assert run_timeline("import", str(source)).returncode == 0
    assert (tmp_path / "filed.db").exists()
    assert "stored where the file says" in run_timeline("list").stdout
    other = run_timeline("list", env={**e2e_env, "TIMELINE_DB": str(tmp_path / "missing.db")})
    assert "No database at" in other.stderr and str(tmp_path / "missing.db") in other.stderr


def test_secrets_are_masked(run_timeline, e2e_env, config_file):
    secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY-CONFIG-SECRET"
    config_file.write_text('queue_url = "http://127.0.0.1:9/000000000000/q"\n'
                           'endpoint_url = "http://user:hunter2-pass@127.0.0.1:4566"\n')
    shown = run_timeline("config", env={**e2e_env, "AWS_ACCESS_KEY_ID": "AKIACONFIGTEST1234", "AWS_SECRET_ACCESS_KEY": secret})
    assert shown.returncode == 0, shown.stderr
    assert secret not in shown.stdout + shown.stderr and "hunter2" not in shown.stdout
    assert "AKIACONFIGTEST1234" not in shown.stdout and "1234  (from environment variables)" in shown.stdout
    assert "http://****@127.0.0.1:4566" in shown.stdout
    # Queue URLs with credentials in them, in every command that shows where events go.
    config_file.write_text('queue_urls = ["http://127.0.0.1:9/000000000000/q", '
                           '"http://qu:queue-secret@127.0.0.1:9/000000000000/q2"]\n')
    listed = run_timeline("config", env=e2e_env)
    assert "queue-secret" not in listed.stdout + listed.stderr and "http://****@127.0.0.1:9/000000000000/q2" in listed.stdout
    config_file.write_text('queue_url = "http://qu:queue-secret@127.0.0.1:9/000000000000/q"\n')
    status = run_timeline("hooks", "status", env=e2e_env)
    assert "queue-secret" not in status.stdout + status.stderr
    assert "publishes to: http://****@127.0.0.1:9/000000000000/q (from config file" in status.stdout, status.stdout


@pytest.mark.parametrize("text, location, words", [
    ('region = "eu-west-1"\nregoin = "eu-west-1"\n', ":2: key \"regoin\": unknown setting", "known settings"),
    ('theme = "pink"\n', ":1: key \"theme\"", 'use "dark", "light" or "auto"'),
    ('retention = 30\n', ":1: key \"retention\": has a value of type integer", "a duration such as \"30d\""),
    ('\n\nregion = \n', ":3: not valid TOML", "key = \"value\""),
    ('[views.errs]\nquery = "status:nope"\n', ":2: key \"views.errs.query\": unknown status", "correct the query"),
])
def test_invalid_config_is_an_error_naming_line_key_and_fix(run_timeline, config_file, text, location, words):
    config_file.write_text(text)
    for command in (["list"], ["config"], ["doctor"], ["export", "--format", "jsonl"]):
        result = run_timeline(*command)
        assert result.returncode != 0, command
        output = result.stdout + result.stderr
        assert f"{config_file}{location}" in output, (command, output)
        assert "Fix: " in output and words in output, (command, output)
        assert "Fatal error" not in output and "Traceback" not in output
    # `config path` still answers: it is how to find the broken file.
    path = run_timeline("config", "path")
    assert path.returncode == 0 and path.stdout.strip() == str(config_file)


def test_bad_environment_values_are_errors_too(run_timeline, e2e_env):
    result = run_timeline("config", env={**e2e_env, "TIMELINE_THEME": "pink"})
    assert result.returncode == 2 and result.stderr.startswith("error: ")
    assert "TIMELINE_THEME=pink is not one of dark, light, auto" in result.stderr


# ------------------------------------------------------------------------------------------ queries


QUERY_EVENTS = [
    event("T-01", "T-01 deploy web", "error", agent="builder", category="deploy", age=timedelta(minutes=3), id="ev-1"),
    event("T-02", "T-02 dry run of deploy", "error", agent="builder", category="deploy", age=timedelta(minutes=20), id="ev-2"),
    event("T-03", "T-03 ping", "info", agent="heartbeat", age=timedelta(minutes=1), id="ev-3"),
    event("T-04", "T-04 review docs", "success", agent="reviewer", category="code review", age=timedelta(hours=3), id="ev-4"),
    event("T-05", "T-05 migrate db", "in_progress", agent="builder", category="deploy", age=timedelta(days=3), id="ev-5"),
    event("T-06", "T-06 flaky test", "warning", agent="tester", body="a dry run of the suite", age=timedelta(days=10), id="ev-6"),
    event("T-07", "T-07 Straße bauen", "info", agent="tester", age=timedelta(minutes=50), id="ev-7"),
]
QUERY_FORMS = {
    "deploy": {"T-01", "T-02", "T-05"},
    '"dry run"': {"T-02", "T-06"},
    '-"dry run"': {"T-01", "T-03", "T-04", "T-05", "T-07"},
    "status:error,warning": {"T-01", "T-02", "T-06"},
    "-status:info": {"T-01", "T-02", "T-04", "T-05", "T-06"},
    "agent:build": {"T-01", "T-02", "T-05"},
    "-agent:heartbeat": {"T-01", "T-02", "T-04", "T-05", "T-06", "T-07"},
    'category:"code review"': {"T-04"},
    "-category:deploy": {"T-03", "T-04", "T-06", "T-07"},
    "task:T-0 -task:T-07": {"T-01", "T-02", "T-03", "T-04", "T-05", "T-06"},
    "since:30m": {"T-01", "T-02", "T-03"},
    "since:1d until:1h": {"T-04"},
    f"until:{(NOW - timedelta(days=2)).strftime('%Y-%m-%d')}": {"T-05", "T-06"},
    "straße": {"T-07"},
    'deploy -agent:heartbeat status:error -"dry run" since:1h': {"T-01"},
}


@pytest.fixture
def query_db(run_timeline, tmp_path) -> str:
    db = str(tmp_path / "query.db")
    result = run_timeline("import", "--db", db, str(write_jsonl(tmp_path / "q.jsonl", QUERY_EVENTS)))
    assert result.returncode == 0, result.stderr
    return db


def listed(run_timeline, db: str, *query: str) -> set[str]:
    result = run_timeline("list", "--db", db, "--json", *query)
    assert result.returncode == 0, result.stderr
    return {json.loads(line)["task_id"] for line in result.stdout.splitlines()}


def test_every_query_form_in_list(run_timeline, query_db):
    for form, expected in QUERY_FORMS.items():
        assert listed(run_timeline, query_db, form) == expected, form
    # The words of a query may also come as separate arguments (after --: a leading - is not an option).
    assert listed(run_timeline, query_db, "--", "deploy", "-agent:heartbeat", "-status:in_progress") == {"T-01", "T-02"}
    bad = run_timeline("list", "--db", query_db, "since:soon")
    assert bad.returncode != 0 and "since:soon is not a time" in bad.stderr
    # A mistyped option is not searched for.
    typo = run_timeline("list", "--db", query_db, "--limt", "5")
    assert typo.returncode != 0 and "Unknown option --limt" in typo.stderr
    typo = run_timeline("export", "--db", query_db, "--format", "csv", "--makred")
    assert typo.returncode != 0 and "Unknown option --makred" in typo.stderr


def test_every_query_form_gives_the_same_tasks_in_the_tui(timeline_bin, query_db, tmux, e2e_env):
    tmux.start([timeline_bin, "tui", "--no-poll", "--db", query_db], env={**e2e_env, "NO_COLOR": "1"},
               width=120, height=30)
    tmux.wait_for("T-01 deploy web")
    for form, expected in QUERY_FORMS.items():
        tmux.send_keys("/")
        tmux.send_keys("C-u")
        tmux.type(" " + form)  # a leading space: tmux would read a leading - as a flag
        tmux.send_keys("Enter")

        def shown(screen: str) -> bool:
            body = screen.split("\n")[1:-2]  # between the header and the status bar
            return {task for task in (f"T-0{i}" for i in range(1, 8)) if any(f"{task} " in line for line in body)} == expected

        tmux.wait_for(shown, timeout=10)
    tmux.send_keys("q")
    assert tmux.wait_exit() == 0


def test_named_views_in_list(run_timeline, query_db, config_file):
    config_file.write_text('[views.prod-errors]\nquery = "status:error category:deploy"\n'
                           '[views.quiet]\nquery = "-agent:heartbeat -status:info"\n')
    assert listed(run_timeline, query_db, "--view", "prod-errors") == {"T-01", "T-02"}
    assert listed(run_timeline, query_db, "--view", "prod-errors", '-"dry run"') == {"T-01"}
    assert listed(run_timeline, query_db, "--view", "quiet") == {"T-01", "T-02", "T-04", "T-05", "T-06"}
    missing = run_timeline("list", "--db", query_db, "--view", "nope")
    assert missing.returncode == 1 and 'no view named "nope"' in missing.stderr and "prod-errors, quiet" in missing.stderr


# ------------------------------------------------------------------------------------------ export


def history_of(run_timeline, db: str, task: str) -> list[dict]:
    result = run_timeline("history", "--db", db, "--json", task)
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_jsonl_export_round_trips_through_import(run_timeline, tmp_path):
    events = [
        event("A", "start", "in_progress", progress=10, age=timedelta(minutes=9), extra_field={"kept": [1, 2]}, id="ev-1"),
        event("A", "half", "in_progress", progress=50.5, age=timedelta(minutes=5), id="ev-2"),
        event("A", "late but older", "info", age=timedelta(minutes=30), id="ev-3"),  # kept in history, not the row
        event("B", "ünïcode ✓ 日本 \u202e bidi", "warning", body="line 1\n\tline 2 \"quoted\", comma", category="x,y", id="ev-4"),
        event("C", "same second", "info", age=timedelta(minutes=1), id="ev-5"),
        event("C", "same second, arrived later", "success", age=timedelta(minutes=1), id="ev-6"),
    ]
    source = tmp_path / "source.db"
    assert run_timeline("import", "--db", str(source), str(write_jsonl(tmp_path / "in.jsonl", events))).returncode == 0
    exported = tmp_path / "export.jsonl"
    result = run_timeline("export", "--db", str(source), "--format", "jsonl", "--output", str(exported))
    assert result.returncode == 0, result.stderr
    assert "Exported 6 events of 3 tasks" in result.stderr
    assert oct(exported.stat().st_mode & 0o777) == "0o600"
    copy = tmp_path / "copy.db"
    assert run_timeline("import", "--db", str(copy), str(exported)).returncode == 0
    for task in ("A", "B", "C"):
        before, after = history_of(run_timeline, str(source), task), history_of(run_timeline, str(copy), task)
        for rows in (before, after):
            for row in rows:
                row.pop("seq", None), row.pop("received_at", None)
        assert before == after, task
    strip = lambda out: [{k: v for k, v in json.loads(l).items() if k not in ("seq", "received_at")} for l in out.splitlines()]
    assert strip(run_timeline("list", "--db", str(source), "--json").stdout) == \
        strip(run_timeline("list", "--db", str(copy), "--json").stdout)
    # The raw payloads (unknown fields included) come back byte for byte.
    again = run_timeline("export", "--db", str(copy), "--format", "jsonl")
    assert sorted(again.stdout.splitlines()) == sorted(exported.read_text(encoding="utf-8").splitlines())
    assert '"extra_field": {"kept": [1, 2]}' in exported.read_text(encoding="utf-8")


def test_export_selects_by_query_task_and_marks(run_timeline, query_db):
    def tasks(*args: str) -> list[str]:
        result = run_timeline("export", "--db", query_db, "--format", "jsonl", *args)
        assert result.returncode == 0, result.stderr
        return [json.loads(line)["task_id"] for line in result.stdout.splitlines()]

    assert tasks("status:error") == ["T-01", "T-02"]
    assert tasks("--task", "T-04", "--task", "T-06") == ["T-04", "T-06"]
    assert tasks("--marked") == []
    assert run_timeline("mark", "--db", query_db, "T-05", "T-03").returncode == 0
    assert run_timeline("mark", "--db", query_db).stdout.split() == ["T-03", "T-05"]
    assert tasks("--marked") == ["T-03", "T-05"]
    assert tasks("--marked", "agent:builder") == ["T-05"]
    assert run_timeline("mark", "--db", query_db, "--remove", "T-03").returncode == 0
    assert tasks("--marked") == ["T-05"]
    unknown = run_timeline("mark", "--db", query_db, "T-99")
    assert unknown.returncode == 1 and 'no task "T-99"' in unknown.stderr


def test_csv_export_quotes_fields(run_timeline, tmp_path):
    db = str(tmp_path / "csv.db")
    events = [event("B", 'say "hi", then leave', body="two\nlines", progress=40, category="a,b", id="ev-1")]
    assert run_timeline("import", "--db", db, str(write_jsonl(tmp_path / "c.jsonl", events))).returncode == 0
    import csv
    import io
    out = run_timeline("export", "--db", db, "--format", "csv").stdout
    rows = list(csv.reader(io.StringIO(out, newline="")))
    assert rows[0] == ["id", "task_id", "agent_id", "status", "category", "title", "body", "progress", "timestamp", "seq"]
    assert rows[1][:8] == ["ev-1", "B", "builder", "info", "a,b", 'say "hi", then leave', "two\nlines", "40"]


def test_csv_export_neutralizes_formulas_and_escapes(run_timeline, tmp_path):
    db = str(tmp_path / "formula.db")
    events = [event("F", '=HYPERLINK("http://attacker.example","open")', body="@SUM(A1)\x1b[2J", category="-1+2", id="ev-1")]
    assert run_timeline("import", "--db", db, str(write_jsonl(tmp_path / "f.jsonl", events))).returncode == 0
    import csv
    import io
    out = run_timeline("export", "--db", db, "--format", "csv").stdout
    assert "\x1b" not in out
    row = list(csv.reader(io.StringIO(out, newline="")))[1]
    assert row[4] == "'-1+2"
    assert row[5] == "'=HYPERLINK(\"http://attacker.example\",\"open\")"
    assert row[6] == "'@SUM(A1)\\u001B[2J"
    exact = run_timeline("export", "--db", db, "--format", "jsonl").stdout
    assert json.loads(exact)["title"].startswith("=HYPERLINK") and json.loads(exact)["body"] == "@SUM(A1)\x1b[2J"


def test_markdown_report_matches_the_golden_file(run_timeline, tmp_path):
    base = datetime(2026, 11, 20, 9, 0, tzinfo=timezone.utc)
    events = [
        {"id": "m1", "agent_id": "deployer", "task_id": "deploy-42", "title": "Deploy api to prod", "status": "in_progress",
         "timestamp": iso(base), "progress": 10, "category": "deploy", "body": "Rolling out v1.4.2\n\n- step 1\n- step 2"},
        {"id": "m2", "agent_id": "deployer", "task_id": "deploy-42", "title": "Deploy api to prod: canary *ok*",
         "status": "in_progress", "timestamp": iso(base + timedelta(minutes=5)), "progress": 60, "category": "deploy"},
        {"id": "m3", "agent_id": "deployer", "task_id": "deploy-42", "title": "Deployed api | v1.4.2", "status": "success",
         "timestamp": iso(base + timedelta(minutes=9)), "progress": 100, "category": "deploy",
         "body": "All pods healthy.\x1b[31m (escape removed)"},
        {"id": "m4", "agent_id": "reviewer", "task_id": "pr-7", "title": "Review #7 needs changes", "status": "warning",
         "timestamp": iso(base - timedelta(hours=1))},
    ]
    db = str(tmp_path / "md.db")
    assert run_timeline("import", "--db", db, str(write_jsonl(tmp_path / "m.jsonl", events))).returncode == 0
    report = run_timeline("export", "--db", db, "--format", "markdown")
    assert report.returncode == 0, report.stderr
    golden = GOLDENS / "export-report.md"
    if not golden.exists():
        golden.write_text(report.stdout, encoding="utf-8")
        pytest.fail(f"recorded {golden}: check it and run again")
    assert report.stdout == golden.read_text(encoding="utf-8")
    assert "\x1b" not in report.stdout


# ------------------------------------------------------------------------------------------ prune


def test_prune_keeps_what_it_must(run_timeline, tmp_path):
    db = tmp_path / "prune.db"
    old, older = timedelta(days=40), timedelta(days=50)
    events = [
        # A: entirely old -> removed whole (with its mark).
        event("A", "a1", age=older, id="ev-1"), event("A", "a2", age=old, id="ev-2"),
        # B: old history, recent newest event -> only the old events go.
        event("B", "b1", age=older, id="ev-3"), event("B", "b2", age=old, id="ev-4"), event("B", "b3 recent", age=timedelta(days=1), id="ev-5"),
        # C: newest event old but the task still running -> kept whole with --keep-running.
        event("C", "c1", "in_progress", age=older, id="ev-6"), event("C", "c2 still running", "in_progress", age=old, id="ev-7"),
        # D: recent -> untouched.
        event("D", "d1", age=timedelta(hours=1), id="ev-8"),
    ]
    # Bulk filler so reclaiming space is visible: old events of many tasks.
    filler = [event(f"F-{i}", "filler", body="x" * 2000, age=old, id=f"ev-{100 + i}") for i in range(400)]
    assert run_timeline("import", "--db", str(db), str(write_jsonl(tmp_path / "p.jsonl", events + filler))).returncode == 0
    assert run_timeline("import", "--db", str(db), "--quiet", str(write_jsonl(tmp_path / "bad.jsonl", [{"nope": 1}]))).returncode == 0
    assert run_timeline("mark", "--db", str(db), "A", "B").returncode == 0
    with sqlite3.connect(db) as connection:  # the rejected message arrived 60 days ago
        connection.execute("UPDATE rejected SET received_us = received_us - 60 * 86400 * 1000000")
    size_before = db.stat().st_size
    result = run_timeline("prune", "--db", str(db), "--older-than", "30d", "--keep-running")
    assert result.returncode == 0, result.stderr
    assert "Deleted 404 events (401 whole tasks) and 1 rejected messages" in result.stdout
    assert db.stat().st_size < size_before / 2
    tasks = {json.loads(l)["task_id"]: json.loads(l) for l in run_timeline("list", "--db", str(db), "--json").stdout.splitlines()}
    assert set(tasks) == {"B", "C", "D"}
    assert tasks["B"]["event_count"] == 1 and tasks["B"]["title"] == "b3 recent"
    assert tasks["C"]["event_count"] == 2
    assert [e["title"] for e in history_of(run_timeline, str(db), "C")] == ["c2 still running", "c1"]
    assert run_timeline("mark", "--db", str(db)).stdout.split() == ["B"]
    assert "No rejected" in run_timeline("rejected", "--db", str(db)).stdout + run_timeline("rejected", "--db", str(db)).stderr
    # The search index forgot the removed tasks and still finds the kept ones.
    assert listed(run_timeline, str(db), "filler") == set()
    assert listed(run_timeline, str(db), "still running") == {"C"}
    # Without --keep-running the running task's old history goes too (it is older than the cutoff).
    assert run_timeline("prune", "--db", str(db), "--older-than", "30d").returncode == 0
    assert listed(run_timeline, str(db)) == {"B", "D"}
    bad = run_timeline("prune", "--db", str(db), "--older-than", "30 days")
    assert bad.returncode != 0 and "--older-than takes" in bad.stderr


def test_poll_prunes_once_a_day_with_retention(run_timeline, timeline_bin, e2e_env, queue, connection_args, tmp_path):
    db = tmp_path / "retention.db"
    events = [event("OLD", "old", age=timedelta(days=10), id="ev-1"), event("NEW", "new", age=timedelta(minutes=1), id="ev-2")]
    assert run_timeline("import", "--db", str(db), str(write_jsonl(tmp_path / "r.jsonl", events))).returncode == 0
    process = subprocess.Popen([timeline_bin, "poll", *connection_args, "--db", str(db), "--retention", "7d"],
                               env=e2e_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while listed(run_timeline, str(db)) != {"NEW"}:
            assert time.monotonic() < deadline, "retention did not prune"
            time.sleep(0.2)
    finally:
        process.terminate()
        _, stderr = process.communicate(timeout=30)
    assert "retention: deleted 1 events (1 whole tasks)" in stderr
    with sqlite3.connect(db) as connection:
        (last,) = connection.execute("SELECT value FROM meta WHERE key = 'app.retention.last_prune_us'").fetchone()
    assert abs(int(last) / 1e6 - time.time()) < 120
    # Within the day: a restart does not prune again (an old event imported now stays).
    assert run_timeline("import", "--db", str(db), str(write_jsonl(tmp_path / "r2.jsonl", [event("OLD2", "old", age=timedelta(days=10), id="ev-3")]))).returncode == 0
    log = tmp_path / "poll2.log"
    with log.open("w") as sink:
        process = subprocess.Popen([timeline_bin, "poll", *connection_args, "--db", str(db), "--retention", "7d"],
                                   env=e2e_env, stdout=subprocess.DEVNULL, stderr=sink, text=True)
        try:
            deadline = time.monotonic() + 20
            while "retention: last pruned" not in log.read_text():
                assert time.monotonic() < deadline, f"no retention decision logged: {log.read_text()}"
                time.sleep(0.2)
        finally:
            process.terminate()
            process.wait(timeout=30)
    assert "retention: deleted" not in log.read_text() and "next prune within a day" in log.read_text()
    assert listed(run_timeline, str(db)) == {"NEW", "OLD2"}


def test_doctor_shows_database_size_events_and_oldest_event(run_timeline, tmp_path, config_file):
    db = str(tmp_path / "doc.db")
    config_file.write_text('retention = "90d"\n')
    events = [event("A", "a", age=timedelta(days=3), id="ev-1"), event("B", "b", age=timedelta(hours=1), id="ev-2")]
    assert run_timeline("import", "--db", db, str(write_jsonl(tmp_path / "d.jsonl", events))).returncode == 0
    out = run_timeline("doctor", "--db", db, "--queue-url", "http://127.0.0.1:9/000000000000/q").stdout
    assert f"database       {db}" in out and "KiB, 2 events, 2 tasks, 0 rejected" in out
    oldest = (NOW - timedelta(days=3)).strftime("%Y-%m-%d %H:%M")
    assert f"history        oldest event {oldest}" in out and "(3d ago); retention 90d (from config file" in out
    assert f"config file    {config_file}" in out


# ------------------------------------------------------------------------------------------ installs


def test_make_install_puts_every_file_where_it_belongs(tmp_path):
    if not (ROOT / ".build/release/timeline").exists():
        pytest.skip("no release build (make build)")
    prefix = tmp_path / "prefix"
    result = subprocess.run(["make", "-C", str(ROOT), "install", f"PREFIX={prefix}"], capture_output=True, text=True,
                            timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    binary = prefix / "bin/timeline"
    assert os.access(binary, os.X_OK)
    assert subprocess.run([str(binary), "--help"], capture_output=True, text=True).returncode == 0
    man = (prefix / "share/man/man1/timeline.1").read_text()
    assert man.startswith('.\\" "Generated by swift-argument-parser"')
    for command in ("tui", "poll", "export", "prune", "config", "list", "mark"):
        assert f".It Em {command}" in man, command
    assert "--older-than" in man and "--keep-running" in man
    if shutil.which("man"):
        rendered = subprocess.run(["man", "-l", str(prefix / "share/man/man1/timeline.1")], capture_output=True,
                                  text=True, env={**os.environ, "MANWIDTH": "100", "PAGER": "cat"})
        assert "timeline" in rendered.stdout and "export" in rendered.stdout
    bash = (prefix / "share/bash-completion/completions/timeline").read_text()
    assert "complete" in bash and "export" in bash
    assert (prefix / "share/zsh/site-functions/_timeline").read_text().startswith("#compdef timeline")
    assert "complete -c 'timeline'" in (prefix / "share/fish/vendor_completions.d/timeline.fish").read_text()
    if shutil.which("bash"):
        check = subprocess.run(["bash", "-n", str(prefix / "share/bash-completion/completions/timeline")])
        assert check.returncode == 0


def test_systemd_unit_verifies(tmp_path, timeline_bin):
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed here: the unit's syntax is not checked on this machine")
    home = tmp_path / "home"
    (home / ".local/bin").mkdir(parents=True)
    (home / ".local/bin/timeline").symlink_to(timeline_bin)
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    unit = tmp_path / "timeline-poll.service"
    shutil.copy(ROOT / "contrib/timeline-poll.service", unit)
    env = {**os.environ, "HOME": str(home), "XDG_RUNTIME_DIR": str(runtime)}
    result = subprocess.run(["systemd-analyze", "verify", "--man=no", "--user", str(unit)], capture_output=True,
                            text=True, env=env, timeout=60)
    if "Failed to initialize manager" in result.stderr or "Failed to connect" in result.stderr:
        pytest.skip(f"systemd-analyze cannot run a user manager here: {result.stderr.strip()}")
    assert result.returncode == 0 and result.stderr.strip() == "", result.stderr
    text = unit.read_text()
    assert "Restart=on-failure" in text and "EnvironmentFile=-%h/.config/timeline/poll.env" in text
    assert "ExecStart=%h/.local/bin/timeline poll" in text
    # A broken copy is caught (the check can fail).
    broken = tmp_path / "broken.service"
    broken.write_text(text.replace("Restart=on-failure", "Restart=sometimes"))
    result = subprocess.run(["systemd-analyze", "verify", "--man=no", "--user", str(broken)], capture_output=True,
                            text=True, env=env, timeout=60)
    assert "restart specifier" in result.stderr


def test_light_theme_from_flag_config_and_colorfgbg(timeline_bin, query_db, tmux, e2e_env, config_file):
    light_info, dark_info = "38;5;25m", "38;5;39m"

    def info_colour(extra_env: dict, args: list[str]) -> str:
        pane = tmux.start([timeline_bin, "tui", "--no-poll", "--db", query_db, *args], env={**e2e_env, **extra_env})
        screen = tmux.wait_for("T-03 ping", pane=pane, colours=True)
        tmux.send_keys("q", pane=pane)
        return "light" if light_info in screen else "dark" if dark_info in screen else "none"

    assert info_colour({}, []) == "dark"
    assert info_colour({"COLORFGBG": "0;15"}, []) == "light"
    assert info_colour({"COLORFGBG": "15;0"}, []) == "dark"
    assert info_colour({"COLORFGBG": "0;15"}, ["--theme", "dark"]) == "dark"
    assert info_colour({}, ["--theme", "light"]) == "light"
    config_file.write_text('theme = "light"\n')
    assert info_colour({}, []) == "light"
    assert info_colour({"TIMELINE_THEME": "dark"}, []) == "dark"


# ------------------------------------------------------------------------------------------ TUI marks and views


def start_tui(tmux, timeline_bin, db, env, cwd):
    tmux.start([timeline_bin, "tui", "--no-poll", "--db", db], env={**env, "NO_COLOR": "1"}, width=120, height=30,
               cwd=str(cwd))


def row_line(screen: str, title: str) -> str:
    return next(line for line in screen.split("\n") if title in line)


def test_marks_survive_a_restart_and_quote_jumps_to_them(timeline_bin, query_db, tmux, e2e_env, tmp_path, run_timeline):
    start_tui(tmux, timeline_bin, query_db, e2e_env, tmp_path)
    tmux.wait_for("T-01 deploy web")
    tmux.send_keys("j")             # T-03 ping is the newest; j selects T-01
    tmux.send_keys("m")
    tmux.send_keys("j", "j")        # down to T-07 (50m ago)
    tmux.send_keys("m")
    screen = tmux.wait_for(lambda s: row_line(s, "T-07 Straße").startswith("*"))
    assert row_line(screen, "T-01 deploy web").startswith("*")
    assert not row_line(screen, "T-02 dry run").startswith("*")
    tmux.send_keys("q")
    assert tmux.wait_exit() == 0
    assert run_timeline("mark", "--db", query_db).stdout.split() == ["T-01", "T-07"]
    tmux.kill()
    # A new TUI shows the same marks; ' goes from the top to the first mark below, then the next.
    again = type(tmux)()
    try:
        start_tui(again, timeline_bin, query_db, e2e_env, tmp_path)
        screen = again.wait_for("T-01 deploy web")
        assert row_line(screen, "T-01 deploy web").startswith("*") and row_line(screen, "T-07 Straße").startswith("*")
        again.send_keys("'")
        again.wait_for(lambda s: "row 2 of 7" in s)
        again.send_keys("'")
        again.wait_for(lambda s: "row 4 of 7" in s)
        again.send_keys("/")
        again.type("is:marked")
        again.send_keys("Enter")
        again.wait_for(lambda s: "T-02" not in s and "T-01 deploy web" in s and "T-07 Straße" in s)
        again.send_keys("q")
        assert again.wait_exit() == 0
    finally:
        again.kill()


def test_views_save_apply_pick_and_come_back_at_start(timeline_bin, query_db, tmux, e2e_env, tmp_path, run_timeline,
                                                       config_file):
    config_file.write_text("# my config\n[views.builders]\nquery = \"agent:build\"\n")
    start_tui(tmux, timeline_bin, query_db, e2e_env, tmp_path)
    tmux.wait_for("T-01 deploy web")
    tmux.send_keys("/")
    tmux.type("status:error")
    tmux.send_keys("Enter")
    tmux.wait_for(lambda s: "T-04" not in s)
    tmux.send_keys(":")
    tmux.type("save errs")
    tmux.send_keys("Enter")
    tmux.wait_for("saved view errs in")
    text = config_file.read_text()
    assert text.startswith("# my config\n") and '[views.errs]\nquery = "status:error"' in text
    assert listed(run_timeline, query_db, "--view", "errs") == {"T-01", "T-02"}
    # The picker applies another view.
    tmux.send_keys("v")
    tmux.wait_for("Views · ⏎ apply")
    tmux.send_keys("k", "Enter")  # errs is selected (active); k moves to builders
    screen = tmux.wait_for(lambda s: "[builders] filter: agent:build" in s and "T-05 migrate" in s)
    assert "T-03 ping" not in screen
    tmux.send_keys("q")
    assert tmux.wait_exit() == 0
    tmux.kill()
    # The last view comes back at the next start.
    again = type(tmux)()
    try:
        start_tui(again, timeline_bin, query_db, e2e_env, tmp_path)
        # The header comes with the first frame; the rows once the window is loaded.
        screen = again.wait_for(lambda s: "[builders] filter: agent:build" in s and "T-05 migrate" in s)
        assert "T-03 ping" not in screen and "T-04" not in screen
        again.send_keys(":")
        again.type("view errs")
        again.send_keys("Enter")
        again.wait_for(lambda s: "[errs] filter: status:error" in s and "T-05" not in s)
        again.send_keys(":")
        again.type("view nope")
        again.send_keys("Enter")
        again.wait_for("no view nope; views: builders, errs")
        again.send_keys("q")
        assert again.wait_exit() == 0
    finally:
        again.kill()


def test_x_exports_the_selected_task_to_the_current_directory(timeline_bin, query_db, tmux, e2e_env, tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    start_tui(tmux, timeline_bin, query_db, e2e_env, work)
    tmux.wait_for("T-01 deploy web")
    tmux.send_keys("j", "x")
    screen = tmux.wait_for("exported T-01 to ")
    files = list(work.glob("timeline-T-01-*.md"))
    assert len(files) == 1, files
    assert str(files[0])[:40] in screen
    report = files[0].read_text()
    assert report.startswith("# Task T-01\n") and "## T-01: T-01 deploy web" in report and "**error**" in report
    assert oct(files[0].stat().st_mode & 0o777) == "0o600"
    tmux.send_keys("x")  # a second export never replaces the first
    tmux.wait_for(lambda s: len(list(work.glob("timeline-T-01-*.md"))) == 2)
    tmux.send_keys("q")
    assert tmux.wait_exit() == 0


def test_a_fifo_or_a_link_as_the_database_is_refused_at_once(run_timeline, tmp_path):
    fifo = tmp_path / "fifo.db"
    os.mkfifo(fifo)
    for command in ("status", "list"):
        result = run_timeline(command, "--db", str(fifo), timeout=30)
        assert result.returncode != 0 and "is a FIFO, not a database file" in result.stderr, result.stderr
    target = tmp_path / "someone-elses-file"
    target.write_text("")
    link = tmp_path / "link.db"
    link.symlink_to(target)
    result = run_timeline("import", "--db", str(link), str(write_jsonl(tmp_path / "e.jsonl", [event("L", "x", id="ev-1")])))
    assert result.returncode != 0 and "is a symbolic link" in result.stderr, result.stderr
    assert target.read_text() == ""


def test_a_config_file_others_can_write_is_flagged_and_a_huge_one_refused(run_timeline, e2e_env, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('region = "eu-west-1"\n')
    config.chmod(0o666)
    env = dict(e2e_env, TIMELINE_CONFIG=str(config))
    result = run_timeline("config", "show", env=env)
    assert "can be written by other users" in result.stderr and "chmod go-w" in result.stderr, result.stderr
    config.chmod(0o600)
    assert "can be written" not in run_timeline("config", "show", env=env).stderr
    with open(config, "a") as handle:
        handle.write("#" * (2 * 1024 * 1024) + "\n")
    result = run_timeline("list", "--db", str(tmp_path / "x.db"), env=env, timeout=30)
    assert result.returncode != 0 and "byte limit of a config file" in result.stderr, result.stderr


def test_history_finds_a_task_by_the_cut_id_list_prints_or_a_unique_beginning(run_timeline, tmp_path):
    db = str(tmp_path / "ids.db")
    events = [event("deploy-billing-service-v1.3-canary", "canary", id="ev-1"), event("deploy-billing-service-v1.3-prod", "prod", id="ev-2"),
              event("nightly-backup-of-the-warehouse", "backup", id="ev-3")]
    assert run_timeline("import", "--db", db, str(write_jsonl(tmp_path / "ids.jsonl", events))).returncode == 0
    listed = run_timeline("list", "--db", db, "--no-color").stdout
    cut = next(word for line in listed.splitlines() for word in line.split() if word.startswith("nightly-") and word.endswith("…"))
    found = run_timeline("history", "--db", db, "--json", cut)
    assert found.returncode == 0 and json.loads(found.stdout.splitlines()[0])["task_id"] == "nightly-backup-of-the-warehouse"
    assert json.loads(run_timeline("history", "--db", db, "--json", "nightly").stdout.splitlines()[0])["title"] == "backup"
    ambiguous = run_timeline("history", "--db", db, "deploy-billing")
    assert ambiguous.returncode == 1 and "begins more than one task id" in ambiguous.stderr
    assert '"deploy-billing-service-v1.3-canary"' in ambiguous.stderr
    assert run_timeline("history", "--db", db, "nothing-like-it").returncode == 1


@pytest.mark.parametrize("args, meant", [(["lsit"], "list"), (["hsitory", "x"], "history"), (["list", "--limt", "3"], "--limit"),
                                         (["list", "--lmit=3"], "--limit"), (["poll", "--queue-ulr", "x"], "--queue-url")])
def test_a_mistyped_subcommand_or_option_gets_a_did_you_mean(run_timeline, args, meant):
    result = run_timeline(*args)
    assert result.returncode != 0 and f"Did you mean '{meant}'?" in result.stderr, result.stderr


def test_no_did_you_mean_for_a_word_unlike_any(run_timeline):
    result = run_timeline("frobnicate")
    assert result.returncode != 0 and "Did you mean" not in result.stderr
