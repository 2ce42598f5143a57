"""Where to send: queue URL, endpoint and region resolution, and one configured boto3 SQS client.

Kept apart from publish_event.py so the simulator and the tests build clients the same way.
"""

from __future__ import annotations

import os
import re
import sys
from urllib.parse import urlsplit

from typing import Any

# Region in hosts such as sqs.eu-west-1.amazonaws.com or sqs.us-east-1.localhost.localstack.cloud.
_SQS_HOST_REGION = re.compile(r"(?:^|\.)sqs\.([a-z]{2}(?:-[a-z]+)+-\d+)\.")
# Legacy queue hosts: eu-west-1.queue.amazonaws.com.
_LEGACY_HOST_REGION = re.compile(r"^([a-z]{2}(?:-[a-z]+)+-\d+)\.queue\.amazonaws\.com")
_LOCAL_DEFAULT_REGION = "us-east-1"

# Few retries and short connect timeout: a publisher should fail fast and say why.
_CLIENT_OPTIONS = dict(
    retries={"max_attempts": 3, "mode": "standard"},
    connect_timeout=5,
    read_timeout=15,
    user_agent_extra="timeline-agent-tool",
)


class ConfigurationError(Exception):
    """A setting is missing; `hint` says how to provide it."""

    def __init__(self, code: str, message: str, hint: str):
        super().__init__(message)
        self.code = code
        self.hint = hint


def resolve_queue_url(queue_url: str | None) -> str:
    """The explicit queue URL, else `TIMELINE_QUEUE_URL`."""
    url = queue_url or os.environ.get("TIMELINE_QUEUE_URL")
    if not url:
        raise ConfigurationError(
            "NoQueueUrl",
            "no queue URL",
            "pass --queue-url URL or set TIMELINE_QUEUE_URL "
            "(e.g. https://sqs.us-east-1.amazonaws.com/123456789012/timeline)",
        )
    return url


def is_aws_host(host: str) -> bool:
    """True for public AWS endpoints (amazonaws.com and the China partition)."""
    return host.endswith(".amazonaws.com") or host.endswith(".amazonaws.com.cn")


def _configured_endpoint_from_env() -> str | None:
    if os.environ.get("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "").lower() == "true":
        return None
    return os.environ.get("AWS_ENDPOINT_URL_SQS") or os.environ.get("AWS_ENDPOINT_URL") or None


def resolve_endpoint(queue_url: str | None, endpoint_url: str | None) -> str | None:
    """The endpoint to call, or None for boto3's regional default.

    Order: the explicit argument, then `AWS_ENDPOINT_URL_SQS` / `AWS_ENDPOINT_URL`, then the scheme
    and host of a queue URL that is not an AWS host (a local server's queue URL names its server).
    """
    if endpoint_url:
        return endpoint_url
    configured = _configured_endpoint_from_env()
    if configured:
        return configured
    if queue_url:
        parts = urlsplit(queue_url)
        if parts.scheme and parts.hostname and not is_aws_host(parts.hostname):
            return f"{parts.scheme}://{parts.netloc}"
    return None


def region_from_host(host: str | None) -> str | None:
    """The region named by an SQS host name, if any."""
    if not host:
        return None
    match = _SQS_HOST_REGION.search(host) or _LEGACY_HOST_REGION.search(host)
    return match.group(1) if match else None


def resolve_region(region: str | None, queue_url: str | None, endpoint_url: str | None,
                   session: Any) -> str:
    """Explicit region, AWS_REGION, boto3's chain (AWS_DEFAULT_REGION, profile), the queue URL's host,
    or us-east-1 for a local endpoint. (botocore itself reads only AWS_DEFAULT_REGION; AWS_REGION is what
    the other AWS SDKs and `timeline` read, so it is honoured here too.)"""
    if region:
        return region
    if os.environ.get("AWS_REGION"):
        return os.environ["AWS_REGION"]
    if session.region_name:
        return session.region_name
    for url in (queue_url, endpoint_url):
        found = region_from_host(urlsplit(url).hostname) if url else None
        if found:
            return found
    if endpoint_url and not is_aws_host(urlsplit(endpoint_url).hostname or ""):
        return _LOCAL_DEFAULT_REGION
    raise ConfigurationError(
        "NoRegion",
        "no AWS region",
        "set AWS_REGION (or pass --region), or use a queue URL like https://sqs.REGION.amazonaws.com/…",
    )


def _boto3():
    """boto3, imported only when a client is needed (refusing an invalid event stays fast); a clear
    ConfigurationError instead of a traceback when this Python lacks it."""
    try:
        import boto3
    except ImportError as error:
        raise ConfigurationError(
            "NoBoto3",
            f"boto3 is not installed for {sys.executable} ({error})",
            "pip install -r agent-tool/requirements.txt with that Python, or run the tool with the Python that has boto3",
        ) from None
    return boto3


def make_client(queue_url: str | None = None, endpoint_url: str | None = None,
                region: str | None = None):
    """A boto3 SQS client for this queue, with endpoint and region resolved as documented above."""
    boto3 = _boto3()
    from botocore.config import Config

    session = boto3.session.Session()
    endpoint = resolve_endpoint(queue_url, endpoint_url)
    region_name = resolve_region(region, queue_url, endpoint, session)
    return session.client("sqs", region_name=region_name, endpoint_url=endpoint, config=Config(**_CLIENT_OPTIONS))


def resolve_sns_endpoint(endpoint_url: str | None) -> str | None:
    """The SNS endpoint: the explicit argument, then AWS_ENDPOINT_URL_SNS / AWS_ENDPOINT_URL (honouring
    AWS_IGNORE_CONFIGURED_ENDPOINT_URLS), else None for boto3's regional default."""
    if endpoint_url:
        return endpoint_url
    if os.environ.get("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "").lower() == "true":
        return None
    return os.environ.get("AWS_ENDPOINT_URL_SNS") or os.environ.get("AWS_ENDPOINT_URL") or None


def make_sns_client(topic_arn: str, endpoint_url: str | None = None, region: str | None = None):
    """A boto3 SNS client for this topic: region from the argument, the ARN, AWS_REGION, then boto3's chain."""
    boto3 = _boto3()
    from botocore.config import Config

    session = boto3.session.Session()
    parts = topic_arn.split(":")
    arn_region = parts[3] if len(parts) >= 6 and parts[0] == "arn" and parts[2] == "sns" else None
    region_name = region or arn_region or os.environ.get("AWS_REGION") or session.region_name
    if not region_name:
        raise ConfigurationError("NoRegion", "no AWS region",
                                 "set AWS_REGION (or pass --region), or use a topic ARN arn:aws:sns:REGION:ACCOUNT:NAME")
    return session.client("sns", region_name=region_name, endpoint_url=resolve_sns_endpoint(endpoint_url),
                          config=Config(**_CLIENT_OPTIONS))
