"""The SQS fixtures of every suite: a real local server (moto), a boto3 client, fresh queues.

    sqs_endpoint  session  TIMELINE_TEST_SQS_ENDPOINT, else a moto server on 127.0.0.1 (free port) for the session
    sqs           session  boto3 SQS client for it (dummy credentials, us-east-1)
    queue         test     a fresh queue (LocalQueue), deleted afterwards
    make_queue    test     make_queue(**attributes) -> LocalQueue with SQS attributes, deleted afterwards
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

import sqs_server


@dataclass
class LocalQueue:
    """A queue on the local server, with helpers to send raw bodies and look at what is there."""

    name: str
    url: str
    endpoint: str
    client: Any
    region: str = sqs_server.TEST_REGION

    def send_raw(self, body: str) -> str:
        """Send a body as is (e.g. a malformed message); returns the message id."""
        return self.client.send_message(QueueUrl=self.url, MessageBody=body)["MessageId"]

    def depth(self) -> int:
        """Visible plus in-flight messages, from GetQueueAttributes."""
        attributes = self.client.get_queue_attributes(
            QueueUrl=self.url,
            AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
        )["Attributes"]
        return int(attributes["ApproximateNumberOfMessages"]) + int(
            attributes["ApproximateNumberOfMessagesNotVisible"])

    def receive_all(self) -> list[dict[str, Any]]:
        """Every message now visible (received once, hidden for a minute afterwards, not deleted)."""
        messages: list[dict[str, Any]] = []
        while batch := self.client.receive_message(QueueUrl=self.url, MaxNumberOfMessages=10,
                                                   VisibilityTimeout=60, WaitTimeSeconds=0).get("Messages"):
            messages.extend(batch)
        return messages


def create_queue(sqs: Any, endpoint: str, prefix: str = "test", **attributes: str) -> LocalQueue:
    """A new queue with a unique name on the server at `endpoint`."""
    name = sqs_server.unique_queue_name(prefix)
    url = sqs.create_queue(QueueName=name, Attributes=attributes)["QueueUrl"]
    return LocalQueue(name=name, url=url, endpoint=endpoint, client=sqs)


def delete_quietly(queue: LocalQueue) -> None:
    """Delete the queue; a test may have stopped the server on purpose."""
    try:
        queue.client.delete_queue(QueueUrl=queue.url)
    except Exception:
        pass


@pytest.fixture(scope="session")
def sqs_endpoint():
    """The local SQS endpoint (TIMELINE_TEST_SQS_ENDPOINT, or a moto server started for this session)."""
    with sqs_server.local_sqs_endpoint() as endpoint:
        yield endpoint


@pytest.fixture(scope="session")
def sqs(sqs_endpoint):
    return sqs_server.sqs_client(sqs_endpoint)


@pytest.fixture
def queue(sqs, sqs_endpoint):
    """A fresh, empty queue for one test; deleted afterwards."""
    created = create_queue(sqs, sqs_endpoint)
    yield created
    delete_quietly(created)


@pytest.fixture
def make_queue(sqs, sqs_endpoint):
    """make_queue(**attributes) -> LocalQueue: a fresh queue with SQS attributes (e.g. VisibilityTimeout="3"),
    deleted after the test. A short visibility timeout brings back quickly the messages an abandoned long
    poll took (a killed poller, a killed proxy: the server still answers the orphaned request)."""
    created: list[LocalQueue] = []

    def create(**attributes: str) -> LocalQueue:
        created.append(create_queue(sqs, sqs_endpoint, **attributes))
        return created[-1]

    yield create
    for each in created:
        delete_quietly(each)
