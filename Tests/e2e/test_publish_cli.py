"""`timeline publish`: the same payload rules and exit codes as agent-tool/publish_event.py (0 sent, 2 invalid
input with nothing sent, 1 AWS error), against a real local queue."""

from __future__ import annotations

import json


def test_publish_flags_build_a_valid_event_with_defaults(run_timeline, queue, connection_args):
    result = run_timeline("publish", *connection_args, "--title", "Deploy api", "--status", "in_progress",
                          "--agent-id", "deployer", "--progress", "40", "--category", "deploy")
    assert result.returncode == 0, result.stderr
    [message] = queue.receive_all()
    assert message["MessageId"] == result.stdout.strip()
    event = json.loads(message["Body"])
    assert event["title"] == "Deploy api" and event["status"] == "in_progress" and event["progress"] == 40
    assert event["task_id"] == event["id"]  # a one-off event is its own task
    assert event["timestamp"].endswith("Z")


def test_publish_json_sends_the_event_as_given(run_timeline, queue, connection_args):
    body = json.dumps({"id": "e-1", "agent_id": "a", "task_id": "t", "title": "x", "status": "info",
                       "timestamp": "2026-11-22T10:00:00+02:00", "extra": {"kept": True}})
    result = run_timeline("publish", "--json", *connection_args, input=body + "\n")
    assert result.returncode == 0, result.stderr
    [message] = queue.receive_all()
    assert json.loads(message["Body"]) == json.loads(body)


def test_invalid_input_exits_2_with_the_reason_and_sends_nothing(run_timeline, queue, connection_args):
    bad_status = run_timeline("publish", *connection_args, "--title", "x", "--status", "done", "--agent-id", "a")
    assert bad_status.returncode == 2
    assert 'invalid event: status "done" is not one of' in bad_status.stderr
    missing = run_timeline("publish", "--json", *connection_args, input='{"id":"1"}')
    assert missing.returncode == 2
    assert 'invalid event: missing required field "agent_id"' in missing.stderr
    assert queue.depth() == 0


def test_unknown_queue_exits_1_with_a_hint(run_timeline, queue):
    result = run_timeline("publish", "--queue-url", queue.url + "-missing", "--endpoint-url", queue.endpoint,
                          "--region", queue.region, "--title", "x", "--status", "info", "--agent-id", "a")
    assert result.returncode == 1
    assert "does not exist" in result.stderr and "Check the queue URL" in result.stderr


def test_the_agent_id_comes_from_the_flag_else_the_environment_for_publish_and_ask(run_timeline, queue,
                                                                                    connection_args, e2e_env):
    flags = ("--title", "x", "--status", "info")
    sent = run_timeline("publish", *connection_args, *flags, env={**e2e_env, "TIMELINE_AGENT_ID": "from-env"})
    assert sent.returncode == 0, sent.stderr
    flagged = run_timeline("publish", *connection_args, *flags, "--agent-id", "from-flag",
                           env={**e2e_env, "TIMELINE_AGENT_ID": "from-env"})
    assert flagged.returncode == 0, flagged.stderr
    assert sorted(json.loads(m["Body"])["agent_id"] for m in queue.receive_all()) == ["from-env", "from-flag"]
    # Empty counts as unset: nothing is sent, by either command.
    unset = {**e2e_env, "TIMELINE_AGENT_ID": ""}
    refused = run_timeline("publish", *connection_args, *flags, env=unset)
    assert refused.returncode == 2 and 'missing required field "agent_id"' in refused.stderr, refused.stderr
    asked = run_timeline("ask", *connection_args, "--title", "go?", "--reply-queue-url", queue.url, env=unset)
    assert asked.returncode == 2 and 'missing required field "agent_id"' in asked.stderr, asked.stderr
    assert queue.receive_all() == []
