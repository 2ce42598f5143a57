"""publish_event as a module, and the long-task helper, against a real local SQS server."""

from __future__ import annotations

import json

import pytest

import sqs_server

from publish_event import InvalidEvent, make_client, publish_event, task


def events_of(queue, messages=None) -> list[dict]:
    """The events now in the queue (or in `messages`), oldest timestamp first."""
    messages = queue.receive_all() if messages is None else messages
    events = [json.loads(message["Body"]) for message in messages]
    return sorted(events, key=lambda event: event["timestamp"])


def test_module_round_trip_returns_message_id(queue, aws_env):
    message_id = publish_event("Review PR #12", "warning", "code-reviewer", task_id="pr-12",
                               body="2 comments\n- naming\n- tests", category="code-review", progress=55.5,
                               queue_url=queue.url, endpoint_url=queue.endpoint)
    [message] = queue.receive_all()
    assert message["MessageId"] == message_id
    event = json.loads(message["Body"])
    assert {k: event[k] for k in ("title", "status", "agent_id", "task_id", "body", "category", "progress")} == {
        "title": "Review PR #12", "status": "warning", "agent_id": "code-reviewer", "task_id": "pr-12",
        "body": "2 comments\n- naming\n- tests", "category": "code-review", "progress": 55.5,
    }
    assert event["id"] != event["task_id"]


def test_one_client_for_many_events(queue, aws_env):
    client = make_client(queue.url, queue.endpoint)
    ids = [publish_event(f"step {n}", "info", "a", task_id="t", queue_url=queue.url, client=client)
           for n in range(3)]
    assert len(set(ids)) == 3
    assert sorted(m["MessageId"] for m in queue.receive_all()) == sorted(ids)


def test_queue_url_from_environment(queue, aws_env, monkeypatch):
    monkeypatch.setenv("TIMELINE_QUEUE_URL", queue.url)
    monkeypatch.setenv("AWS_ENDPOINT_URL", queue.endpoint)
    publish_event("env", "info", "a")
    assert [e["title"] for e in events_of(queue)] == ["env"]


def test_invalid_event_raises_before_sending(queue, aws_env):
    with pytest.raises(InvalidEvent) as caught:
        publish_event("t", "finished", "a", queue_url=queue.url, endpoint_url=queue.endpoint)
    assert '"finished"' in caught.value.reason
    assert queue.depth() == 0


def test_task_success_sequence(queue, aws_env):
    with task("Deploy api", agent_id="deployer", category="deploy", queue_url=queue.url,
              endpoint_url=queue.endpoint) as t:
        t.progress(40, "migrating")
        t.progress(80)
    messages = queue.receive_all()
    events = events_of(queue, messages)
    assert [(e["status"], e.get("progress"), e.get("body")) for e in events] == [
        ("in_progress", None, None), ("in_progress", 40, "migrating"), ("in_progress", 80, None),
        ("success", 100, None),
    ]
    assert {e["task_id"] for e in events} == {t.task_id}
    assert t.task_id == events[0]["id"]
    assert len({e["id"] for e in events}) == 4
    assert all(e["title"] == "Deploy api" and e["category"] == "deploy" and e["agent_id"] == "deployer"
               for e in events)
    assert sorted(t.message_ids) == sorted(m["MessageId"] for m in messages)


def test_task_timestamps_strictly_increase_even_when_fast(queue, aws_env):
    with task("Burst", agent_id="a", task_id="burst-1", queue_url=queue.url, endpoint_url=queue.endpoint) as t:
        for percent in range(10, 100, 10):
            t.progress(percent)
    events = events_of(queue)
    stamps = [e["timestamp"] for e in events]
    assert len(stamps) == 11
    assert all(earlier < later for earlier, later in zip(stamps, stamps[1:])), stamps
    assert {e["task_id"] for e in events} == {"burst-1"}
    assert [e["status"] for e in events] == ["in_progress"] * 10 + ["success"]


def test_task_error_on_exception_reraises_with_message(queue, aws_env):
    class MigrationFailed(RuntimeError):
        pass

    with pytest.raises(MigrationFailed, match="column users.email is locked"):
        with task("Migrate db", agent_id="data-pipeline", task_id="migrate-7", queue_url=queue.url,
                  endpoint_url=queue.endpoint) as t:
            t.progress(30, "copying rows")
            raise MigrationFailed("column users.email is locked")
    events = events_of(queue)
    assert [e["status"] for e in events] == ["in_progress", "in_progress", "error"]
    assert events[-1]["body"].startswith("MigrationFailed: column users.email is locked\n")
    assert "Traceback" in events[-1]["body"]
    assert {e["task_id"] for e in events} == {"migrate-7"}


def test_task_finish_with_warning_sends_nothing_more(queue, aws_env):
    with task("Flaky suite", agent_id="test-runner", queue_url=queue.url, endpoint_url=queue.endpoint) as t:
        t.finish("warning", "3 flaky tests retried")
    events = events_of(queue)
    assert [(e["status"], e.get("body")) for e in events] == [
        ("in_progress", None), ("warning", "3 flaky tests retried")]


def test_task_exception_survives_when_error_event_cannot_be_sent(sqs, aws_env):
    url = sqs.create_queue(QueueName=sqs_server.unique_queue_name("agent-tool-vanishing"))["QueueUrl"]
    with pytest.raises(ZeroDivisionError) as caught:
        with task("Doomed", agent_id="a", queue_url=url, endpoint_url=sqs.meta.endpoint_url):
            sqs.delete_queue(QueueUrl=url)
            1 / 0
    assert any("error event could not be published" in note for note in caught.value.__notes__)


def test_datetime_timestamp_is_formatted_in_utc(queue, aws_env):
    from datetime import datetime, timedelta, timezone

    moment = datetime(2026, 11, 22, 12, 30, 5, 250_000, tzinfo=timezone(timedelta(hours=2)))
    publish_event("t", "info", "a", timestamp=moment, queue_url=queue.url, endpoint_url=queue.endpoint)
    assert events_of(queue)[0]["timestamp"] == "2026-11-22T10:30:05.250Z"


def test_lone_surrogate_is_refused_as_invalid_utf8(queue, aws_env):
    with pytest.raises(InvalidEvent) as caught:
        publish_event("bad \ud800 title", "info", "a", queue_url=queue.url, endpoint_url=queue.endpoint)
    assert caught.value.reason.startswith("message is not valid UTF-8")
    assert queue.depth() == 0
