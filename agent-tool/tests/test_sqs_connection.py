"""Queue URL, endpoint and region resolution (pure functions plus boto3's own configuration chain)."""

from __future__ import annotations

import boto3
import pytest

from sqs_connection import (
    ConfigurationError,
    make_client,
    region_from_host,
    resolve_endpoint,
    resolve_queue_url,
    resolve_region,
)

AWS_QUEUE = "https://sqs.eu-west-1.amazonaws.com/123456789012/timeline"
LOCAL_QUEUE = "http://127.0.0.1:4566/000000000000/timeline"


@pytest.mark.parametrize("host, region", [
    ("sqs.eu-west-1.amazonaws.com", "eu-west-1"),
    ("sqs.us-gov-west-1.amazonaws.com", "us-gov-west-1"),
    ("sqs.cn-north-1.amazonaws.com.cn", "cn-north-1"),
    ("ap-southeast-2.queue.amazonaws.com", "ap-southeast-2"),
    ("sqs.us-east-1.localhost.localstack.cloud", "us-east-1"),
    ("127.0.0.1", None),
    ("queue.amazonaws.com", None),
    (None, None),
])
def test_region_from_host(host, region):
    assert region_from_host(host) == region


def test_queue_url_from_argument_then_environment(isolated_aws, monkeypatch):
    with pytest.raises(ConfigurationError) as caught:
        resolve_queue_url(None)
    assert caught.value.code == "NoQueueUrl" and "TIMELINE_QUEUE_URL" in caught.value.hint
    monkeypatch.setenv("TIMELINE_QUEUE_URL", AWS_QUEUE)
    assert resolve_queue_url(None) == AWS_QUEUE
    assert resolve_queue_url(LOCAL_QUEUE) == LOCAL_QUEUE


def test_endpoint_order(isolated_aws, monkeypatch):
    assert resolve_endpoint(AWS_QUEUE, None) is None  # boto3's regional default
    assert resolve_endpoint(LOCAL_QUEUE, None) == "http://127.0.0.1:4566"
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://generic:1")
    assert resolve_endpoint(LOCAL_QUEUE, None) == "http://generic:1"
    monkeypatch.setenv("AWS_ENDPOINT_URL_SQS", "http://sqs-specific:2")
    assert resolve_endpoint(LOCAL_QUEUE, None) == "http://sqs-specific:2"
    assert resolve_endpoint(LOCAL_QUEUE, "http://flag:3") == "http://flag:3"
    monkeypatch.setenv("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true")
    assert resolve_endpoint(AWS_QUEUE, None) is None


def test_region_order(isolated_aws, monkeypatch, tmp_path):
    session = boto3.session.Session()
    assert resolve_region(None, AWS_QUEUE, None, session) == "eu-west-1"
    assert resolve_region(None, LOCAL_QUEUE, "http://127.0.0.1:4566", session) == "us-east-1"
    assert resolve_region("ap-south-1", AWS_QUEUE, None, session) == "ap-south-1"
    with pytest.raises(ConfigurationError) as caught:
        resolve_region(None, "https://example.com/123/q", "https://sqs.amazonaws.com", session)
    assert caught.value.code == "NoRegion"

    monkeypatch.setenv("AWS_REGION", "sa-east-1")
    assert resolve_region(None, AWS_QUEUE, None, boto3.session.Session()) == "sa-east-1"

    monkeypatch.delenv("AWS_REGION")
    (tmp_path / "aws-config").write_text("[profile agents]\nregion = ca-central-1\n")
    monkeypatch.setenv("AWS_PROFILE", "agents")
    assert resolve_region(None, AWS_QUEUE, None, boto3.session.Session()) == "ca-central-1"


def test_make_client_uses_resolved_endpoint_and_region(isolated_aws):
    client = make_client(AWS_QUEUE)
    assert client.meta.region_name == "eu-west-1"
    assert client.meta.endpoint_url == "https://sqs.eu-west-1.amazonaws.com"
    local = make_client(LOCAL_QUEUE)
    assert (local.meta.region_name, local.meta.endpoint_url) == ("us-east-1", "http://127.0.0.1:4566")
