"""ask() accepts only the authentic reply: forged replies (an action never offered, another task's or agent's,
a replayed reply id, text to a buttons-only question, a sender outside the allowlist) are deleted and
reported, the right reply is still taken after them, a shared reply queue is not polled in a tight loop, and
two agents waiting on one queue both get their replies."""

from __future__ import annotations

import json
import threading
import uuid

import pytest

import sqs_server
from agent_reply import NoAnswer
from publish_event import ask, receive_messages
from sqs_connection import ConfigurationError
from timeline_event import validate

MOTO_SENDER = "AIDAIT2UOQQY3AUEKVGXU"  # the SenderId moto gives every message


@pytest.fixture
def replies(sqs):
    url = sqs.create_queue(QueueName=sqs_server.unique_queue_name("replies"))["QueueUrl"]
    yield url
    sqs.delete_queue(QueueUrl=url)


def reply_body(event_id, task_id, agent_id, reply_id=None, **answer):
    return json.dumps({"type": "reply", "id": reply_id or str(uuid.uuid4()), "in_reply_to": event_id,
                       "task_id": task_id, "agent_id": agent_id, **answer, "from": "mallory@evil",
                       "timestamp": "2026-11-22T03:04:05Z"})


def asking(queue, sqs, replies, actions, **kwargs):
    """Starts ask() in a thread; returns (question event, result dict, thread, refused list)."""
    result, refused = {}, []

    def agent():
        try:
            result["reply"] = ask("Deploy?", actions, agent_id=kwargs.pop("agent_id", "deployer"), task_id="deploy",
                                  reply_queue_url=replies, timeout=kwargs.pop("timeout", 30), queue_url=queue.url,
                                  client=sqs, reply_client=sqs, on_refused=lambda r, why: refused.append(why.reason),
                                  **kwargs)
        except Exception as error:  # noqa: BLE001 - the test looks at it
            result["error"] = error

    thread = threading.Thread(target=agent)
    thread.start()
    for _ in range(100):
        found = [validate(m["Body"]) for m in queue.receive_all()]
        found = [e for e in found if e["status"] == "needs_input"]
        if found:
            return found[0], result, thread, refused
    raise AssertionError("no question published")


def test_forged_replies_are_refused_and_the_right_one_is_still_taken(queue, sqs, replies):
    question, result, thread, refused = asking(queue, sqs, replies, [("deploy", "Deploy"), ("cancel", "Cancel")])
    q = question["id"]
    forged = [
        reply_body(q, "deploy", "deployer", reply_id="r-1", action="rm-rf-prod"),
        reply_body(q, "other-task", "deployer", action="deploy"),
        reply_body(q, "deploy", "intruder", action="deploy"),
        reply_body(q, "deploy", "deployer", text="deploy"),
    ]
    for body in forged:
        sqs.send_message(QueueUrl=replies, MessageBody=body)
    for _ in range(100):  # wait until all four were refused before the replay and the right one
        if len(refused) >= 4:
            break
        thread.join(0.1)
    sqs.send_message(QueueUrl=replies, MessageBody=reply_body(q, "deploy", "deployer", reply_id="r-1", action="deploy"))
    for _ in range(100):
        if len(refused) >= 5:
            break
        thread.join(0.1)
    sqs.send_message(QueueUrl=replies, MessageBody=reply_body(q, "deploy", "deployer", action="cancel"))
    thread.join(30)
    assert result.get("reply") is not None and result["reply"].action == "cancel", result
    assert sorted(refused) == sorted([
        'action "rm-rf-prod" was not offered', 'the reply is for another task ("other-task")',
        'the reply is for another agent ("intruder")', "a text reply to a question that offered only actions",
        'reply id "r-1" was already seen'])
    assert sqs.receive_message(QueueUrl=replies, WaitTimeSeconds=0).get("Messages") is None, "forged replies deleted"


def test_a_sender_outside_the_allowlist_is_refused(queue, sqs, replies):
    question, result, thread, refused = asking(queue, sqs, replies, [("deploy", "Deploy")], timeout=3,
                                               allowed_senders=["AIDAONLYTHEVIEWER01"])
    sqs.send_message(QueueUrl=replies, MessageBody=reply_body(question["id"], "deploy", "deployer", action="deploy"))
    thread.join(30)
    assert isinstance(result.get("error"), NoAnswer)
    assert refused == ['sender "%s" is not in the reply sender allowlist' % MOTO_SENDER]


def test_an_allowed_sender_is_accepted_from_the_environment(queue, sqs, replies, monkeypatch):
    monkeypatch.setenv("TIMELINE_REPLY_SENDERS", "AIDAOTHER0000000001, " + MOTO_SENDER)
    question, result, thread, refused = asking(queue, sqs, replies, [("deploy", "Deploy")])
    sqs.send_message(QueueUrl=replies, MessageBody=reply_body(question["id"], "deploy", "deployer", action="deploy"))
    thread.join(30)
    assert result["reply"].action == "deploy" and refused == []


def test_an_invalid_allowlist_sends_nothing(queue, sqs, replies, monkeypatch):
    monkeypatch.setenv("TIMELINE_REPLY_SENDERS", "arn:aws:iam::123456789012:user/alice")
    with pytest.raises(ConfigurationError, match="is not a SenderId"):
        ask("Deploy?", [("deploy", "Deploy")], agent_id="a", reply_queue_url=replies, queue_url=queue.url,
            client=sqs, reply_client=sqs, timeout=1)
    assert queue.receive_all() == []


class CountingReceives:
    """Counts ReceiveMessage calls of a boto3 client."""

    def __init__(self, client):
        self.count = 0
        client.meta.events.register("before-call.sqs.ReceiveMessage", self._seen)

    def _seen(self, **_):
        self.count += 1


def test_only_others_replies_on_the_queue_do_not_make_a_tight_loop(queue, sqs, replies):
    counter = CountingReceives(sqs)
    sqs.send_message(QueueUrl=replies, MessageBody=reply_body("someone-elses-question", "t", "other", action="yes"))
    with pytest.raises(NoAnswer):
        ask("Deploy?", [("deploy", "Deploy")], agent_id="deployer", reply_queue_url=replies, timeout=5,
            queue_url=queue.url, client=sqs, reply_client=sqs)
    # Without backing off this is hundreds (each receive returns the released reply at once); with it at most
    # one receive per 0.25, 0.5, 1, 2, 4 s.
    assert 2 <= counter.count <= 8, counter.count
    [left] = sqs.receive_message(QueueUrl=replies, WaitTimeSeconds=1, AttributeNames=["ApproximateReceiveCount"])["Messages"]
    assert 2 <= int(left["Attributes"]["ApproximateReceiveCount"]) <= 9, "released for its owner, counted slowly"


def test_two_agents_waiting_on_one_queue_both_get_their_replies(queue, sqs, replies):
    first, first_result, first_thread, _ = asking(queue, sqs, replies, [("yes", "Yes")], agent_id="one")
    second, second_result, second_thread, _ = asking(queue, sqs, replies, [("no", "No")], agent_id="two")
    sqs.send_message(QueueUrl=replies, MessageBody=reply_body(second["id"], "deploy", "two", action="no"))
    sqs.send_message(QueueUrl=replies, MessageBody=reply_body(first["id"], "deploy", "one", action="yes"))
    first_thread.join(30)
    second_thread.join(30)
    assert first_result["reply"].action == "yes" and second_result["reply"].action == "no"


def test_receive_messages_does_not_spin_on_others_messages(sqs, replies):
    counter = CountingReceives(sqs)
    sqs.send_message(QueueUrl=replies, MessageBody=reply_body("e1", "t", "someone-else", text="not for you"))
    assert list(receive_messages(agent_id="indexer", reply_queue_url=replies, client=sqs, wait_seconds=1,
                                 timeout=5)) == []
    assert 2 <= counter.count <= 8, counter.count
