"""SNS fan-out (`timeline setup`, publishing to a topic), FIFO queues and 1 MiB messages: the real binary and
agent-tool against a real local server (moto delivers SNS to SQS)."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path

import sqs_server
from sqs_helpers import StoreView, make_event

REPO_ROOT = Path(__file__).resolve().parents[2]
PUBLISH_SCRIPT = REPO_ROOT / "agent-tool" / "publish_event.py"


def _sns(endpoint: str):
    import boto3

    return boto3.client("sns", endpoint_url=endpoint, region_name=sqs_server.TEST_REGION,
                        aws_access_key_id="test", aws_secret_access_key="test")


def _setup(run_timeline, endpoint: str, topic: str, queue: str, *extra: str):
    return run_timeline("setup", "--topic", topic, "--queue", queue, "--endpoint-url", endpoint, *extra)


def _export(output: str, name: str) -> str:
    for line in output.splitlines():
        if line.strip().startswith(f"export {name}="):
            return line.strip().split("=", 1)[1]
    raise AssertionError(f"no `export {name}=` line in:\n{output}")


def _drain(run_timeline, queue_url: str, endpoint: str, db: str):
    result = run_timeline("drain", "--queue-url", queue_url, "--endpoint-url", endpoint, "--db", db, timeout=90)
    assert result.returncode == 0, result.stderr
    return result


def test_setup_is_idempotent_and_wires_dead_letters_retention_and_raw_delivery(run_timeline, sqs, sqs_endpoint):
    topic, queue = f"fan-{uuid.uuid4().hex[:8]}", f"viewer-{uuid.uuid4().hex[:8]}"
    dry = _setup(run_timeline, sqs_endpoint, topic, queue, "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "would create" in dry.stdout and "nothing was changed" in dry.stdout
    assert not any(arn.endswith(":" + topic) for arn in
                   (t["TopicArn"] for t in _sns(sqs_endpoint).list_topics()["Topics"])), "a dry run created the topic"

    first = _setup(run_timeline, sqs_endpoint, topic, queue)
    assert first.returncode == 0, first.stderr
    assert first.stdout.count("(created") == 4, first.stdout
    queue_url = _export(first.stdout, "TIMELINE_QUEUE_URL")
    topic_arn = _export(first.stdout, "TIMELINE_TOPIC_ARN")
    assert '"sns:Publish"' in first.stdout and "sqs:ReceiveMessage" in first.stdout

    attributes = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["All"])["Attributes"]
    assert attributes["MessageRetentionPeriod"] == "1209600"
    redrive = json.loads(attributes["RedrivePolicy"])
    assert int(redrive["maxReceiveCount"]) == 5 and redrive["deadLetterTargetArn"].endswith(":" + queue + "-dlq")
    policy = json.loads(attributes["Policy"])
    assert topic_arn in json.dumps(policy) and "sqs:SendMessage" in json.dumps(policy)
    dlq_url = sqs.get_queue_url(QueueName=queue + "-dlq")["QueueUrl"]
    assert sqs.get_queue_attributes(QueueUrl=dlq_url, AttributeNames=["MessageRetentionPeriod"])[
        "Attributes"]["MessageRetentionPeriod"] == "1209600"
    subscriptions = _sns(sqs_endpoint).list_subscriptions_by_topic(TopicArn=topic_arn)["Subscriptions"]
    assert len(subscriptions) == 1
    assert _sns(sqs_endpoint).get_subscription_attributes(SubscriptionArn=subscriptions[0]["SubscriptionArn"])[
        "Attributes"]["RawMessageDelivery"] == "true"

    second = _setup(run_timeline, sqs_endpoint, topic, queue)
    assert second.returncode == 0, second.stderr
    assert "created" not in second.stdout and "updated" not in second.stdout, second.stdout
    assert second.stdout.count("(exists") == 4
    assert len(_sns(sqs_endpoint).list_subscriptions_by_topic(TopicArn=topic_arn)["Subscriptions"]) == 1

    # A queue whose retention someone changed is put back, and only that is reported.
    sqs.set_queue_attributes(QueueUrl=queue_url, Attributes={"MessageRetentionPeriod": "345600"})
    third = _setup(run_timeline, sqs_endpoint, topic, queue)
    assert "updated MessageRetentionPeriod" in third.stdout, third.stdout


def test_two_viewers_on_one_topic_each_store_every_event(run_timeline, e2e_env, sqs, sqs_endpoint, tmp_path):
    topic = f"fleet-{uuid.uuid4().hex[:8]}"
    viewers = {}
    for name in ("alice", "bob"):
        queue = f"{name}-{uuid.uuid4().hex[:8]}"
        result = _setup(run_timeline, sqs_endpoint, topic, queue)
        assert result.returncode == 0, result.stderr
        viewers[name] = _export(result.stdout, "TIMELINE_QUEUE_URL")
    topic_arn = _export(result.stdout, "TIMELINE_TOPIC_ARN")
    # A third subscriber without raw delivery: SNS wraps each event in its envelope.
    wrapped_url = sqs.create_queue(QueueName=f"wrapped-{uuid.uuid4().hex[:8]}")["QueueUrl"]
    wrapped_arn = sqs.get_queue_attributes(QueueUrl=wrapped_url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    _sns(sqs_endpoint).subscribe(TopicArn=topic_arn, Protocol="sqs", Endpoint=wrapped_arn)
    viewers["wrapped"] = wrapped_url

    ids, printed = [], []
    for i in range(3):  # through `timeline publish` (its SNS Publish is signed by our own SigV4)
        event_id = f"swift-{i}-{uuid.uuid4().hex[:6]}"
        sent = run_timeline("publish", "--topic-arn", topic_arn, "--endpoint-url", sqs_endpoint, "--title",
                            f"from swift {i}", "--status", "info", "--agent-id", "swift", "--id", event_id)
        assert sent.returncode == 0, sent.stderr
        ids.append(event_id)
        printed.append(sent.stdout.strip())
    env = {**e2e_env, "TIMELINE_TOPIC_ARN": topic_arn, "AWS_ENDPOINT_URL_SNS": sqs_endpoint}
    for i in range(3):  # through publish_event.py, the topic from the environment
        event_id = f"python-{i}-{uuid.uuid4().hex[:6]}"
        sent = subprocess.run([sys.executable, str(PUBLISH_SCRIPT), "--title", f"from python {i}", "--status",
                               "success", "--agent-id", "python", "--id", event_id],
                              env=env, capture_output=True, text=True, timeout=60)
        assert sent.returncode == 0, sent.stderr
        ids.append(event_id)
        printed.append(sent.stdout.strip())

    sns_message_ids = {}
    for name, url in viewers.items():
        db = str(tmp_path / f"{name}.db")
        _drain(run_timeline, url, sqs_endpoint, db)
        view = StoreView(db)
        assert sorted(view.event_ids()) == sorted(ids), name
        assert view.rejected() == [], name
        sns_message_ids[name] = sorted(row[0] for row in view._rows("SELECT message_id FROM events"))
    # Unwrapped envelopes keep SNS's message id: the one each publisher printed.
    assert sns_message_ids["wrapped"] == sorted(printed)


def test_fifo_queue_gets_group_and_deduplication_ids_and_round_trips(run_timeline, e2e_env, sqs, sqs_endpoint,
                                                                     tmp_path):
    name = f"fifo-{uuid.uuid4().hex[:8]}.fifo"
    url = sqs.create_queue(QueueName=name, Attributes={"FifoQueue": "true"})["QueueUrl"]
    long_task = "task/" + "ü" * 100  # not a valid group id as it is: sent hashed
    events = [make_event(f"step {i}", "in_progress", task_id="deploy-1" if i % 2 else long_task,
                         offset=i * 0.001) for i in range(6)]
    for i, event in enumerate(events):
        if i % 2:
            args = ["publish", "--json", "--queue-url", url, "--endpoint-url", sqs_endpoint]
            sent = run_timeline(*args, input=json.dumps(event))
        else:
            sent = subprocess.run([sys.executable, str(PUBLISH_SCRIPT), "--json", "--queue-url", url,
                                   "--endpoint-url", sqs_endpoint], input=json.dumps(event), env=e2e_env,
                                  capture_output=True, text=True, timeout=60)
        assert sent.returncode == 0, sent.stderr
    # The same event again: dropped by SQS (deduplication id = event id).
    again = run_timeline("publish", "--json", "--queue-url", url, "--endpoint-url", sqs_endpoint,
                         input=json.dumps(events[1]))
    assert again.returncode == 0, again.stderr

    received = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, AttributeNames=["All"],
                                   VisibilityTimeout=0)["Messages"]
    assert len(received) == 6
    import hashlib
    hashed = hashlib.sha256(long_task.encode()).hexdigest()
    for message in received:
        body = json.loads(message["Body"])
        group = message["Attributes"]["MessageGroupId"]
        assert group == ("deploy-1" if body["task_id"] == "deploy-1" else hashed)
        assert message["Attributes"]["MessageDeduplicationId"] == body["id"]

    db = str(tmp_path / "fifo.db")
    _drain(run_timeline, url, sqs_endpoint, db)
    assert sorted(StoreView(db).event_ids()) == sorted(e["id"] for e in events)
    assert StoreView(db).current_titles() == {"deploy-1": "step 5", long_task: "step 4"}


def test_a_900_kb_body_round_trips_byte_for_byte(run_timeline, e2e_env, sqs, sqs_endpoint, tmp_path):
    url = sqs.create_queue(QueueName=f"big-{uuid.uuid4().hex[:8]}",
                           Attributes={"MaximumMessageSize": "1048576"})["QueueUrl"]
    body = "".join(f"line {i:06d} ünïcødé ✓ {'x' * 40}\n" for i in range(15_000))[:900_000]
    assert len(body.encode()) >= 900_000
    title = "big report " + "T" * 1000
    event = make_event(title, "success", task_id="big")
    event["body"] = body
    sent = subprocess.run([sys.executable, str(PUBLISH_SCRIPT), "--json", "--queue-url", url, "--endpoint-url",
                           sqs_endpoint], input=json.dumps(event, ensure_ascii=False), env=e2e_env,
                          capture_output=True, text=True, timeout=60)
    assert sent.returncode == 0, sent.stderr
    db = str(tmp_path / "big.db")
    _drain(run_timeline, url, sqs_endpoint, db)
    stored = StoreView(db)._rows("SELECT body FROM events")
    assert stored == [(body,)]
    for command in (["history", "big"], ["list"]):
        whole = run_timeline(*command, "--db", db, "--json")
        assert whole.returncode == 0, whole.stderr
        assert json.loads(whole.stdout.splitlines()[0])["body"] == body
        assert json.loads(whole.stdout.splitlines()[0])["title"] == title
        # The table (not a terminal here) cuts the long title; the body is never in it.
        table = run_timeline(*command, "--db", db)
        assert table.returncode == 0, table.stderr
        rows = table.stdout.splitlines()[1:]
        assert len(rows) == 1 and "big report TTT" in rows[0] and rows[0].endswith("…")
        assert len(rows[0]) < 260


def test_doctor_explains_the_queue_attributes_dead_letters_and_redeliveries(run_timeline, sqs, sqs_endpoint,
                                                                            tmp_path):
    suffix = uuid.uuid4().hex[:8]
    dlq_url = sqs.create_queue(QueueName=f"dead-{suffix}.fifo", Attributes={"FifoQueue": "true"})["QueueUrl"]
    dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq_url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    for i in range(2):
        sqs.send_message(QueueUrl=dlq_url, MessageBody=f"dead {i}", MessageGroupId="g", MessageDeduplicationId=f"d{i}")
    url = sqs.create_queue(QueueName=f"doctor-{suffix}.fifo", Attributes={
        "FifoQueue": "true", "MaximumMessageSize": "262144", "MessageRetentionPeriod": "345600",
        "VisibilityTimeout": "45", "KmsMasterKeyId": "alias/timeline",
        "RedrivePolicy": json.dumps({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": 7}),
    })["QueueUrl"]
    # An event received twice and not deleted: the third receive (the drain) stores it with count 3.
    event = make_event("flaky", "warning", task_id="flaky-task")
    sqs.send_message(QueueUrl=url, MessageBody=json.dumps(event), MessageGroupId="flaky-task",
                     MessageDeduplicationId=event["id"])
    for _ in range(2):
        assert len(sqs.receive_message(QueueUrl=url, VisibilityTimeout=0).get("Messages", [])) == 1
    db = str(tmp_path / "doctor.db")
    _drain(run_timeline, url, sqs_endpoint, db)
    # At least 3: on a loaded machine the server once counted one more receive before the drain stored it
    # (4); SQS calls the count approximate.
    [(count, has_sent_time)] = StoreView(db)._rows("SELECT receive_count, sent_us IS NOT NULL FROM events")
    assert count >= 3 and has_sent_time == 1

    result = run_timeline("doctor", "--queue-url", url, "--endpoint-url", sqs_endpoint, "--db", db)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = {line[2:16].strip(): line[17:] for line in result.stdout.splitlines() if len(line) > 17}
    assert lines["retention"].startswith("4 days: how long events wait while no viewer runs (the SQS default")
    assert lines["visibility"].startswith("45 s:")
    assert lines["max size"].startswith("256 KiB per message ⚠ larger events are refused by SQS")
    assert lines["dead letters"] == f"after 7 receives to dead-{suffix}.fifo ⚠ 2 messages waiting there: " \
                                    "events that failed 7 times"
    assert lines["type"].startswith("FIFO (deduplication by event id)")
    assert lines["encryption"].startswith("SSE-KMS with alias/timeline")
    assert lines["redelivered"].startswith("⚠ 1 stored event was received 3+ times")
    assert f"flaky-task ({count}×)" in lines["redelivered"]


def test_fifo_fan_out_keeps_one_task_in_order(run_timeline, sqs, sqs_endpoint, tmp_path):
    suffix = uuid.uuid4().hex[:8]
    result = _setup(run_timeline, sqs_endpoint, f"fleet-{suffix}.fifo", f"viewer-{suffix}.fifo")
    assert result.returncode == 0, result.stderr
    assert f"viewer-{suffix}-dlq.fifo" in result.stdout
    topic_arn, queue_url = _export(result.stdout, "TIMELINE_TOPIC_ARN"), _export(result.stdout, "TIMELINE_QUEUE_URL")
    assert sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["FifoQueue"])["Attributes"]["FifoQueue"] == "true"
    for i in range(4):
        sent = run_timeline("publish", "--topic-arn", topic_arn, "--endpoint-url", sqs_endpoint, "--title", f"step {i}",
                            "--status", "in_progress", "--agent-id", "a", "--task-id", "tâche longue", "--id", f"s{i}")
        assert sent.returncode == 0, sent.stderr
    db = str(tmp_path / "fifo-fan.db")
    _drain(run_timeline, queue_url, sqs_endpoint, db)
    # Arrival order (seq) is publishing order: one group per task.
    assert [row[0] for row in StoreView(db)._rows("SELECT id FROM events ORDER BY seq")] == ["s0", "s1", "s2", "s3"]
    mixed = _setup(run_timeline, sqs_endpoint, f"fleet-{suffix}.fifo", f"standard-{suffix}")
    assert mixed.returncode != 0 and "FIFO topic (.fifo) needs a FIFO queue" in mixed.stderr
