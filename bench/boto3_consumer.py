"""The baseline of the drain benchmark: a plain boto3 consumer, as one would write it in a few lines.

Receives 10 messages at a time (WaitTimeSeconds=1), deletes them with DeleteMessageBatch, and stops at
the first empty receive. Prints how many messages it consumed. Run as its own process so its CPU time
(interpreter and boto3 start-up included, as for `timeline drain`) can be measured.

    python bench/boto3_consumer.py ENDPOINT QUEUE_URL
"""

from __future__ import annotations

import sys

import boto3


def consume(endpoint: str, queue_url: str) -> int:
    client = boto3.client("sqs", endpoint_url=endpoint, region_name="us-east-1")
    consumed = 0
    while True:
        messages = client.receive_message(
            QueueUrl=queue_url, MaxNumberOfMessages=10, WaitTimeSeconds=1).get("Messages", [])
        if not messages:
            return consumed
        entries = [{"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(messages)]
        response = client.delete_message_batch(QueueUrl=queue_url, Entries=entries)
        if response.get("Failed"):
            raise SystemExit(f"DeleteMessageBatch failed: {response['Failed'][:1]}")
        consumed += len(messages)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    print(consume(sys.argv[1], sys.argv[2]))
