"""MessageGroupId / MessageDeduplicationId for FIFO queues and topics (same rule as Swift `FIFOKeys`).

group = task id (one task's updates stay in order), deduplication = event id. SQS allows 1-128
characters from [!-~]; an id that fits is sent as is, any other as the hex SHA-256 of its UTF-8 bytes.
"""

from __future__ import annotations

import hashlib


def is_fifo(queue_url_or_topic_arn: str) -> bool:
    """True for a `.fifo` queue URL or topic ARN."""
    return queue_url_or_topic_arn.endswith(".fifo")


def fifo_key(identifier: str) -> str:
    """`identifier` as SQS accepts it for a group or deduplication id."""
    data = identifier.encode("utf-8", "surrogatepass")
    if 1 <= len(data) <= 128 and all(0x21 <= b <= 0x7E for b in data):
        return identifier
    return hashlib.sha256(data).hexdigest()


def fifo_parameters(destination: str, event: dict) -> dict:
    """The FIFO parameters for sending `event` to `destination` ({} for standard queues and topics)."""
    if not is_fifo(destination):
        return {}
    return {"MessageGroupId": fifo_key(event["task_id"]), "MessageDeduplicationId": fifo_key(event["id"])}
