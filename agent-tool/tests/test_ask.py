"""ask() and receive_messages() against a real local queue: only the agent's own reply is taken, others are
left for their owner, a timeout publishes a warning and raises NoAnswer, a missing reply queue says how to
make one, and bad questions send nothing."""

from __future__ import annotations

import json
import threading
import uuid

import pytest

import sqs_server
from agent_reply import NoAnswer, parse_reply
from publish_event import InvalidEvent, ask, receive_messages
from sqs_connection import ConfigurationError
from timeline_event import validate


@pytest.fixture
def replies(sqs):
    url = sqs.create_queue(QueueName=sqs_server.unique_queue_name("replies"))["QueueUrl"]
    yield url
    sqs.delete_queue(QueueUrl=url)


def reply_body(event_id, task_id="t", agent_id="a", **answer):
    return json.dumps({"type": "reply", "id": str(uuid.uuid4()), "in_reply_to": event_id, "task_id": task_id,
                       "agent_id": agent_id, **answer, "from": "alice@laptop", "timestamp": "2026-11-22T03:04:05Z"})


def events_in(queue):
    return [validate(m["Body"]) for m in queue.receive_all()]


def test_ask_takes_only_its_own_reply_and_leaves_the_others(queue, sqs, replies):
    sqs.send_message(QueueUrl=replies, MessageBody=reply_body("someone-elses-question", action="yes"))
    result = {}

    def agent():
        result["reply"] = ask("Archive 14 emails?", [("yes", "Yes"), {"id": "no", "label": "No", "style": "danger"}],
                              agent_id="mailer", task_id="archive", reply_queue_url=replies, timeout=30,
                              queue_url=queue.url, client=sqs, reply_client=sqs)

    thread = threading.Thread(target=agent)
    thread.start()
    question = None
    for _ in range(50):
        found = [e for e in events_in(queue) if e["status"] == "needs_input"]
        if found:
            question = found[0]
            break
    assert question is not None
    assert question["actions"] == [{"id": "yes", "label": "Yes"}, {"id": "no", "label": "No", "style": "danger"}]
    assert question["reply_to"] == replies and question["task_id"] == "archive"
    sqs.send_message(QueueUrl=replies, MessageBody=reply_body(question["id"], "archive", "mailer", action="no"))
    thread.join(30)
    assert result["reply"].action == "no" and result["reply"].sender == "alice@laptop"
    [left] = sqs.receive_message(QueueUrl=replies, WaitTimeSeconds=1)["Messages"]
    assert parse_reply(left["Body"]).in_reply_to == "someone-elses-question"


def test_no_answer_publishes_a_warning_and_raises(queue, sqs, replies):
    with pytest.raises(NoAnswer, match="no answer in 1s"):
        ask("Deploy?", [("deploy", "Deploy")], agent_id="deployer", task_id="d", reply_queue_url=replies,
            timeout=1, queue_url=queue.url, client=sqs, reply_client=sqs)
    events = sorted(events_in(queue), key=lambda e: e["timestamp"])
    assert [(e["status"], e["title"]) for e in events] == [("needs_input", "Deploy?"), ("warning", "no answer in 1s")]
    assert {e["task_id"] for e in events} == {"d"}


def test_without_a_reply_queue_the_error_says_how_to_make_one(queue, sqs, monkeypatch):
    monkeypatch.delenv("TIMELINE_REPLY_QUEUE_URL", raising=False)
    with pytest.raises(ConfigurationError) as caught:
        ask("Deploy?", [("deploy", "Deploy")], agent_id="a", queue_url=queue.url, client=sqs)
    assert "TIMELINE_REPLY_QUEUE_URL" in caught.value.hint and "create-queue" in caught.value.hint
    assert queue.receive_all() == []


def test_a_malformed_question_is_refused_with_the_viewers_reason_and_nothing_is_sent(queue, sqs, replies):
    with pytest.raises(InvalidEvent) as caught:
        ask("Deploy?", [("Deploy Now", "Deploy")], agent_id="a", reply_queue_url=replies, queue_url=queue.url,
            client=sqs, reply_client=sqs, timeout=1)
    assert caught.value.reason == 'field "actions[0].id" must be 1-64 characters of a-z 0-9 _ . -, got "Deploy Now"'
    assert queue.receive_all() == []


def test_receive_messages_yields_text_for_this_agent_only(sqs, replies):
    sqs.send_message(QueueUrl=replies, MessageBody=reply_body("e1", agent_id="indexer", text="pause"))
    sqs.send_message(QueueUrl=replies, MessageBody=reply_body("e2", agent_id="other", text="not for you"))
    sqs.send_message(QueueUrl=replies, MessageBody=reply_body("e3", agent_id="indexer", action="yes"))
    messages = list(receive_messages(agent_id="indexer", reply_queue_url=replies, client=sqs, wait_seconds=1,
                                     timeout=3))
    assert [m.text for m in messages] == ["pause"]
    left = []
    for _ in range(3):
        left += sqs.receive_message(QueueUrl=replies, MaxNumberOfMessages=10, WaitTimeSeconds=1).get("Messages", [])
    assert sorted(parse_reply(m["Body"]).in_reply_to for m in left) == ["e2", "e3"]
