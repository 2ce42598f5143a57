"""publish_event.py as a command, against a real local SQS server."""

from __future__ import annotations

import json
import re
import uuid
from datetime import datetime, timedelta, timezone

UUID_PATTERN = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
TIMESTAMP_PATTERN = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


def only_message(queue):
    messages = queue.receive_all()
    assert len(messages) == 1, messages
    return messages[0]


def test_flags_round_trip_every_field(queue, run_publish):
    body = "line one\nline two — ünïcödé 🚀\n\ttabbed"
    result = run_publish([
        "--queue-url", queue.url, "--endpoint-url", queue.endpoint,
        "--title", "Deployment started", "--status", "in_progress", "--agent-id", "deployer",
        "--task-id", "deploy-42", "--body", body, "--category", "deploy", "--progress", "40",
        "--id", "evt-1", "--timestamp", "2026-01-02T03:04:05+02:00",
    ])
    assert result.returncode == 0, result.stderr
    message = only_message(queue)
    assert result.stdout.strip() == message["MessageId"]
    assert json.loads(message["Body"]) == {
        "id": "evt-1", "agent_id": "deployer", "task_id": "deploy-42", "title": "Deployment started",
        "status": "in_progress", "timestamp": "2026-01-02T03:04:05+02:00", "body": body,
        "category": "deploy", "progress": 40,
    }


def test_defaults_new_uuid_task_id_equals_id_and_now(queue, run_publish):
    before = datetime.now(timezone.utc) - timedelta(seconds=1)
    result = run_publish(["--queue-url", queue.url, "--endpoint-url", queue.endpoint,
                          "--title", "Nightly tests", "--status", "info", "--agent-id", "test-runner"])
    after = datetime.now(timezone.utc) + timedelta(seconds=1)
    assert result.returncode == 0, result.stderr
    event = json.loads(only_message(queue)["Body"])
    assert UUID_PATTERN.match(event["id"]), event["id"]
    assert event["task_id"] == event["id"]
    assert TIMESTAMP_PATTERN.match(event["timestamp"]), event["timestamp"]
    sent_at = datetime.strptime(event["timestamp"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)
    assert before <= sent_at <= after
    assert set(event) == {"id", "agent_id", "task_id", "title", "status", "timestamp"}


def test_two_runs_get_distinct_ids(queue, run_publish):
    for _ in range(2):
        args = ["--queue-url", queue.url, "--endpoint-url", queue.endpoint,
                "--title", "t", "--status", "success", "--agent-id", "a"]
        assert run_publish(args).returncode == 0
    ids = {json.loads(m["Body"])["id"] for m in queue.receive_all()}
    assert len(ids) == 2


def test_queue_and_endpoint_from_environment(queue, run_publish, aws_env):
    env = {**aws_env, "TIMELINE_QUEUE_URL": queue.url, "AWS_ENDPOINT_URL_SQS": queue.endpoint}
    result = run_publish(["--title", "from env", "--status", "info", "--agent-id", "a"], env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(only_message(queue)["Body"])["title"] == "from env"


def test_explicit_endpoint_flag_wins_over_environment(queue, run_publish, aws_env):
    env = {**aws_env, "AWS_ENDPOINT_URL_SQS": "http://127.0.0.1:9", "AWS_ENDPOINT_URL": "http://127.0.0.1:9"}
    result = run_publish(["--queue-url", queue.url, "--endpoint-url", queue.endpoint,
                          "--title", "flag wins", "--status", "info", "--agent-id", "a"], env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(only_message(queue)["Body"])["title"] == "flag wins"


def test_local_queue_url_alone_names_its_server_and_region_defaults(queue, run_publish, isolated_aws):
    # No endpoint, no region anywhere: the local queue URL names the server, and the region falls back to
    # us-east-1 (where the test queue lives).
    env = {**isolated_aws, "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test"}
    result = run_publish(["--queue-url", queue.url, "--title", "url only", "--status", "info",
                          "--agent-id", "a"], env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(only_message(queue)["Body"])["title"] == "url only"


def test_json_from_stdin_is_sent_unchanged_with_unknown_fields(queue, run_publish):
    raw = json.dumps({
        "id": str(uuid.uuid4()), "agent_id": "code-reviewer", "task_id": "pr-7", "title": "Review PR #7 ✅",
        "status": "success", "timestamp": "2026-11-22T01:02:03Z", "x_custom": {"nested": [1, 2]},
    }, ensure_ascii=False)
    result = run_publish(["--json", "--queue-url", queue.url, "--endpoint-url", queue.endpoint],
                         stdin=raw.encode("utf-8"))
    assert result.returncode == 0, result.stderr
    message = only_message(queue)
    assert message["Body"] == raw
    assert result.stdout.strip() == message["MessageId"]


def test_json_cannot_be_mixed_with_event_flags(queue, run_publish):
    result = run_publish(["--json", "--title", "x", "--queue-url", queue.url, "--endpoint-url", queue.endpoint],
                         stdin=b"{}")
    assert result.returncode == 2
    assert result.stderr.strip() == "invalid event: --title cannot be combined with --json"
    assert queue.depth() == 0


def test_invalid_flags_exit_2_with_reason_and_send_nothing(queue, run_publish):
    result = run_publish(["--queue-url", queue.url, "--endpoint-url", queue.endpoint,
                          "--title", "x", "--status", "done", "--agent-id", "a"])
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("invalid event: ") and '"done"' in lines[0], lines
    assert result.stdout == ""
    assert queue.depth() == 0


def test_missing_title_is_reported_by_validation(queue, run_publish):
    result = run_publish(["--queue-url", queue.url, "--endpoint-url", queue.endpoint,
                          "--status", "info", "--agent-id", "a"])
    assert result.returncode == 2
    assert result.stderr.startswith("invalid event: ") and "title" in result.stderr
    assert queue.depth() == 0


def test_no_queue_url_is_a_usage_error(run_publish):
    result = run_publish(["--title", "x", "--status", "info", "--agent-id", "a"])
    assert result.returncode == 2
    assert "NoQueueUrl" in result.stderr and "TIMELINE_QUEUE_URL" in result.stderr



def test_argument_bytes_that_are_not_utf8_are_refused(queue, aws_env):
    import os
    import subprocess
    import sys

    from agent_tool_testing import PUBLISH_SCRIPT

    result = subprocess.run([sys.executable, os.fsencode(PUBLISH_SCRIPT), b"--queue-url", queue.url.encode(),
                             b"--endpoint-url", queue.endpoint.encode(), b"--title", b"caf\xe9",
                             b"--status", b"info", b"--agent-id", b"a"], env=aws_env, capture_output=True)
    assert result.returncode == 2
    assert result.stderr.decode().startswith("invalid event: message is not valid UTF-8 (byte 0xE9")
    assert queue.depth() == 0


def test_agent_id_from_environment(queue, run_publish, aws_env):
    env = {**aws_env, "TIMELINE_AGENT_ID": "nightly-bot"}
    result = run_publish(["--queue-url", queue.url, "--endpoint-url", queue.endpoint,
                          "--title", "t", "--status", "info"], env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(only_message(queue)["Body"])["agent_id"] == "nightly-bot"
    with_json = run_publish(["--json", "--queue-url", queue.url, "--endpoint-url", queue.endpoint], env=env,
                            stdin=json.dumps({"id": "j1", "agent_id": "from-json", "task_id": "t", "title": "t",
                                              "status": "info", "timestamp": "2026-11-22T00:00:00Z"}).encode())
    assert with_json.returncode == 0, with_json.stderr
