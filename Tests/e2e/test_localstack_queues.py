"""FIFO queues, SNS fan-out and 900 KB messages against LocalStack (in host mode, from `.venv-localstack`).

Run by `make test-localstack` (it creates the LocalStack venv, which needs Python 3.13): not part of
`make test`, which must pass on a fresh clone without it. Skipped unless TIMELINE_TEST_LOCALSTACK=1; with it
set, a missing LocalStack is a failure, not a skip."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from sqs_helpers import StoreView, make_event

REPO_ROOT = Path(__file__).resolve().parents[2]
PUBLISH_SCRIPT = REPO_ROOT / "agent-tool" / "publish_event.py"

pytestmark = pytest.mark.skipif(os.environ.get("TIMELINE_TEST_LOCALSTACK") != "1",
                                reason="LocalStack tests run with `make test-localstack`")


@pytest.fixture(scope="module")
def localstack():
    sys.path.insert(0, str(REPO_ROOT / "bench"))
    from localstack_server import LocalStackServer

    with LocalStackServer(REPO_ROOT / ".venv-localstack" / "bin" / "python", services="sqs,sns") as server:
        yield server.endpoint


@pytest.fixture
def ls_env(e2e_env, localstack):
    return {**e2e_env, "AWS_ENDPOINT_URL": localstack}


def _clients(endpoint: str):
    import boto3

    options = dict(endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="test",
                   aws_secret_access_key="test")
    return boto3.client("sqs", **options), boto3.client("sns", **options)


def _run(args, env, stdin=None):
    return subprocess.run(args, env=env, input=stdin, capture_output=True, text=True, timeout=90)


def test_fifo_round_trip_with_group_and_deduplication_ids(timeline_bin, ls_env, localstack, tmp_path):
    sqs, _ = _clients(localstack)
    url = sqs.create_queue(QueueName=f"ls-{uuid.uuid4().hex[:8]}.fifo", Attributes={"FifoQueue": "true"})["QueueUrl"]
    long_task = "tâche " * 30
    events = [make_event(f"step {i}", "in_progress", task_id=long_task, offset=i * 0.001) for i in range(4)]
    for i, event in enumerate(events):
        command = [timeline_bin, "publish", "--json", "--queue-url", url] if i % 2 else \
            [sys.executable, str(PUBLISH_SCRIPT), "--json", "--queue-url", url]
        sent = _run(command, ls_env, json.dumps(event))
        assert sent.returncode == 0, sent.stderr
    assert _run([timeline_bin, "publish", "--json", "--queue-url", url], ls_env, json.dumps(events[0])).returncode == 0
    peeked = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, AttributeNames=["All"], VisibilityTimeout=0)
    assert len(peeked["Messages"]) == 4, "the resent event was deduplicated by its event id"
    assert {m["Attributes"]["MessageGroupId"] for m in peeked["Messages"]} == {
        hashlib.sha256(long_task.encode()).hexdigest()}
    db = str(tmp_path / "ls.db")
    drained = _run([timeline_bin, "drain", "--queue-url", url, "--db", db], ls_env)
    assert drained.returncode == 0, drained.stderr
    assert [r[0] for r in StoreView(db)._rows("SELECT title FROM events ORDER BY seq")] == [
        "step 0", "step 1", "step 2", "step 3"]


def test_900_kb_body_round_trips(timeline_bin, ls_env, localstack, tmp_path):
    sqs, _ = _clients(localstack)
    url = sqs.create_queue(QueueName=f"ls-big-{uuid.uuid4().hex[:8]}",
                           Attributes={"MaximumMessageSize": "1048576"})["QueueUrl"]
    event = make_event("big", "success", task_id="big")
    event["body"] = "report line\n" * 74_000 + "ünïcødé ✓ " * 1_000  # about 900 KB of UTF-8
    sent = _run([timeline_bin, "publish", "--json", "--queue-url", url], ls_env, json.dumps(event, ensure_ascii=False))
    assert sent.returncode == 0, sent.stderr
    db = str(tmp_path / "big.db")
    assert _run([timeline_bin, "drain", "--queue-url", url, "--db", db], ls_env).returncode == 0
    assert StoreView(db)._rows("SELECT body FROM events") == [(event["body"],)]


def test_two_viewers_through_setup_each_store_every_event(timeline_bin, ls_env, localstack, tmp_path):
    topic = f"ls-fleet-{uuid.uuid4().hex[:8]}"
    urls = []
    for viewer in ("alice", "bob"):
        setup = _run([timeline_bin, "setup", "--topic", topic, "--queue", f"{topic}-{viewer}"], ls_env)
        assert setup.returncode == 0, setup.stderr
        urls.append(next(l.split("=", 1)[1] for l in setup.stdout.splitlines() if "TIMELINE_QUEUE_URL=" in l))
        again = _run([timeline_bin, "setup", "--topic", topic, "--queue", f"{topic}-{viewer}"], ls_env)
        assert "created" not in again.stdout and "updated" not in again.stdout, again.stdout
    topic_arn = next(l.split("=", 1)[1] for l in setup.stdout.splitlines() if "TIMELINE_TOPIC_ARN=" in l)
    ids = [f"ev-{i}" for i in range(3)]
    for event_id in ids:
        sent = _run([timeline_bin, "publish", "--topic-arn", topic_arn, "--title", event_id, "--status", "info",
                     "--agent-id", "a", "--id", event_id], ls_env)
        assert sent.returncode == 0, sent.stderr
    for i, url in enumerate(urls):
        db = str(tmp_path / f"v{i}.db")
        assert _run([timeline_bin, "drain", "--queue-url", url, "--db", db], ls_env).returncode == 0
        assert sorted(StoreView(db).event_ids()) == ids
