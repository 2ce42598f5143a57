"""simulate_agents.py: --count produces valid events plus exactly the malformed messages it announces."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections import defaultdict

from agent_tool_testing import SIMULATOR_SCRIPT, run_script
from timeline_event import InvalidEvent, validate


def test_count_gives_valid_events_and_the_announced_malformed_ones(queue, aws_env):
    result = run_script(SIMULATOR_SCRIPT, ["--queue-url", queue.url, "--endpoint-url", queue.endpoint,
                                           "--rate", "0", "--count", "120", "--seed", "7",
                                           "--malformed-rate", "0.1"], aws_env)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    announced = {line.split()[1]: line.split()[2] for line in lines if line.startswith("malformed ")}
    event_ids = {line.split()[1] for line in lines if line.startswith("event ")}
    assert lines[-1] == f"sent {len(event_ids)} events and {len(announced)} malformed messages"
    assert len(event_ids) + len(announced) == 120
    assert announced, "with --malformed-rate 0.1 and 120 messages some must be malformed"

    messages = queue.receive_all()
    assert len(messages) == 120
    valid, refused = {}, {}
    for message in messages:
        try:
            valid[message["MessageId"]] = validate(message["Body"].encode("utf-8"))
        except InvalidEvent as error:
            refused[message["MessageId"]] = error.reason
    assert set(refused) == set(announced)
    assert set(valid) == event_ids

    events = list(valid.values())
    by_task = defaultdict(list)
    for event in events:
        by_task[event["task_id"]].append(event)
    assert len({e["agent_id"] for e in events}) >= 4
    assert {"in_progress", "success"} <= {e["status"] for e in events}
    assert any("\n" in e.get("body", "") for e in events), "some bodies are multi-line"
    for history in by_task.values():  # within a task: progress rises with time, one agent, one title
        history.sort(key=lambda e: e["timestamp"])
        progress = [e["progress"] for e in history if "progress" in e]
        assert progress == sorted(progress)
        assert len({e["agent_id"] for e in history}) == 1
        assert all(e["status"] == "in_progress" for e in history[:-1])


def test_sigterm_stops_cleanly(queue, aws_env):
    process = subprocess.Popen([sys.executable, str(SIMULATOR_SCRIPT), "--queue-url", queue.url,
                                "--endpoint-url", queue.endpoint, "--rate", "20"],
                               env=aws_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first_line = process.stdout.readline()  # wait until it is really sending
        assert first_line.startswith(("event ", "malformed ")), first_line
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, stderr
    assert stdout.strip().splitlines()[-1].startswith("sent ")
    assert "Traceback" not in stderr


def test_ctrl_c_stops_cleanly(queue, aws_env):
    process = subprocess.Popen([sys.executable, str(SIMULATOR_SCRIPT), "--queue-url", queue.url,
                                "--endpoint-url", queue.endpoint, "--rate", "20"],
                               env=aws_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        process.stdout.readline()
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0
    assert "Traceback" not in stderr


def test_duration_ends_the_run(queue, aws_env):
    result = run_script(SIMULATOR_SCRIPT, ["--queue-url", queue.url, "--endpoint-url", queue.endpoint,
                                           "--rate", "10", "--duration", "1"], aws_env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1].startswith("sent ")



def _reply(event, sender="alice@laptop", **answer):
    import json
    import uuid
    return json.dumps({"type": "reply", "id": str(uuid.uuid4()), "in_reply_to": event["id"],
                       "task_id": event["task_id"], "agent_id": event["agent_id"], **answer, "from": sender,
                       "timestamp": "2026-11-22T03:04:05Z"})


def _asker(queue, sqs, clock, ask_every=40.0):
    import json
    import random

    from simulate_agents import Asker

    sent = []
    asker = Asker(sqs, queue.url, lambda event: sent.append(validate(json.dumps(event))) or "m",
                  lambda line: None, random.Random(1), ask_every=ask_every, clock=lambda: clock[0])
    return asker, sent


def _of(agent_id, events):
    return [(e["status"], e["title"]) for e in events if e["agent_id"] == agent_id]


def test_asking_agents_ask_act_on_the_answer_and_acknowledge_messages(queue, sqs):
    clock = [0.0]
    asker, sent = _asker(queue, sqs, clock)
    asker.step()
    [question] = sent
    assert (question["status"], question["title"]) == ("needs_input", "Deploy billing v1.3 to prod?")
    assert [a["id"] for a in question["actions"]] == ["deploy", "cancel"] and question["reply_to"] == queue.url

    sqs.send_message(QueueUrl=queue.url, MessageBody=_reply(question, action="deploy"))
    asker.step()  # the second question is not due yet (2 s later)
    assert [(e["status"], e["title"]) for e in sent[1:]] == [("in_progress", "answered: Deploy by alice@laptop")]
    for _ in range(4):  # the agent carries on with the deploy, one step at a time, then says how it went
        asker.step()
    assert [(e["status"], e["title"], e.get("progress")) for e in sent[2:]] == [
        ("in_progress", "Running 3 migrations", 25), ("in_progress", "Rolling out to 6 pods", 50),
        ("in_progress", "Checking health on 6/6 pods", 75), ("success", "Deployed billing v1.3 to prod", None)]
    assert all(e["task_id"] == question["task_id"] for e in sent[1:])

    clock[0] = 3
    asker.step()
    assert sent[-1]["title"] == "Archive 14 emails?"
    sqs.send_message(QueueUrl=queue.url, MessageBody=_reply(sent[-1], text="what is in them?", sender="bob@host"))
    asker.step()
    assert [(e["status"], e["title"]) for e in sent[-2:]] == [
        ("in_progress", 'answered: "what is in them?" by bob@host'), ("info", 'Noted: "what is in them?"')]

    # a message from the agents view names the agent's latest event, which is no open question
    sqs.send_message(QueueUrl=queue.url, MessageBody=_reply(sent[-1], text="pause after this one"))
    asker.step()
    assert (sent[-1]["status"], sent[-1]["title"]) == ("info", "message from alice@laptop: pause after this one")
    assert queue.depth() == 0


def test_an_answered_agent_carries_on_and_never_asks_the_same_question_again(queue, sqs):
    clock = [0.0]
    asker, sent = _asker(queue, sqs, clock)
    for now in (0, 2, 42):  # every question is asked and waits; the next one would be due at once
        clock[0] = now
        asker.step()
    assert [e["status"] for e in sent] == ["needs_input"] * 3
    question = sent[0]
    clock[0] = 100
    sqs.send_message(QueueUrl=queue.url, MessageBody=_reply(question, action="deploy"))
    asker.step()
    sqs.send_message(QueueUrl=queue.url, MessageBody=_reply(question, action="deploy"))  # delivered twice
    for tick in range(20):  # the next ten seconds
        clock[0] = 100 + tick / 2
        asker.step()
    assert _of("deployer", sent[3:]) == [
        ("in_progress", "answered: Deploy by alice@laptop"), ("in_progress", "Running 3 migrations"),
        ("in_progress", "Rolling out to 6 pods"), ("in_progress", "Checking health on 6/6 pods"),
        ("success", "Deployed billing v1.3 to prod")]
    assert queue.depth() == 0

    clock[0] = 150  # rested: it asks about the next piece of work, not the one answered
    asker.step()
    assert _of("deployer", sent)[-1] == ("needs_input", "Deploy billing v1.4 to prod?")


def test_a_refusal_goes_straight_to_its_outcome(queue, sqs):
    clock = [0.0]
    asker, sent = _asker(queue, sqs, clock)
    asker.step()
    sqs.send_message(QueueUrl=queue.url, MessageBody=_reply(sent[0], action="cancel"))
    asker.step()
    assert _of("deployer", sent[1:]) == [("in_progress", "answered: Cancel by alice@laptop"),
                                         ("info", "Deploy of billing v1.3 cancelled")]
