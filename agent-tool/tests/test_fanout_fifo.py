"""Publishing to SNS topics and FIFO queues from the module (against the local server: moto serves both)."""

from __future__ import annotations

import hashlib
import json
import uuid

import boto3
import pytest

import sqs_server
from fifo_keys import fifo_key, fifo_parameters
from publish_event import ConfigurationError, make_sns_client, publish_event


def test_fifo_key_keeps_valid_ids_and_hashes_the_rest():
    assert fifo_key("deploy-42/step:1") == "deploy-42/step:1"
    assert fifo_key("a" * 128) == "a" * 128
    assert fifo_key("a" * 129) == hashlib.sha256(b"a" * 129).hexdigest()
    assert fifo_key("tâche") == hashlib.sha256("tâche".encode()).hexdigest()
    assert fifo_key("has space") != "has space"
    assert fifo_parameters("https://sqs.x.amazonaws.com/1/q", {"id": "e", "task_id": "t"}) == {}
    assert fifo_parameters("https://sqs.x.amazonaws.com/1/q.fifo", {"id": "e", "task_id": "t"}) == {
        "MessageGroupId": "t", "MessageDeduplicationId": "e"}


def test_module_publishes_to_a_topic_and_to_a_fifo_queue(aws_env, sqs, sqs_endpoint):
    sns = boto3.client("sns", endpoint_url=sqs_endpoint, region_name=sqs_server.TEST_REGION,
                       aws_access_key_id="test", aws_secret_access_key="test")
    topic = sns.create_topic(Name=f"mod-{uuid.uuid4().hex[:8]}")["TopicArn"]
    queue = sqs.create_queue(QueueName=f"mod-{uuid.uuid4().hex[:8]}")["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=queue, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    sns.subscribe(TopicArn=topic, Protocol="sqs", Endpoint=arn, Attributes={"RawMessageDelivery": "true"})
    client = make_sns_client(topic, sqs_endpoint)
    message_id = publish_event("via topic", "info", "mod", id="t-1", topic_arn=topic, client=client)
    assert message_id
    bodies = [json.loads(m["Body"]) for m in sqs.receive_message(QueueUrl=queue, WaitTimeSeconds=1)["Messages"]]
    assert [b["id"] for b in bodies] == ["t-1"]

    fifo = sqs.create_queue(QueueName=f"mod-{uuid.uuid4().hex[:8]}.fifo", Attributes={"FifoQueue": "true"})["QueueUrl"]
    publish_event("step", "in_progress", "mod", task_id="job 7", id="f-1", queue_url=fifo, client=sqs)
    message = sqs.receive_message(QueueUrl=fifo, AttributeNames=["All"])["Messages"][0]
    assert message["Attributes"]["MessageGroupId"] == hashlib.sha256(b"job 7").hexdigest()
    assert message["Attributes"]["MessageDeduplicationId"] == "f-1"


def test_the_topic_region_comes_from_its_arn(aws_env, monkeypatch):
    monkeypatch.delenv("AWS_REGION", raising=False)
    client = make_sns_client("arn:aws:sns:ap-south-1:123456789012:t", "http://127.0.0.1:1")
    assert client.meta.region_name == "ap-south-1"
    with pytest.raises(ConfigurationError) as raised:
        make_sns_client("not-an-arn", "http://127.0.0.1:1")
    assert raised.value.code == "NoRegion"
