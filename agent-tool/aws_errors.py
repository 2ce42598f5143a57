"""Turning botocore failures into one PublishError with the AWS error code and a hint that fixes it.

Messages are scrubbed of anything that looks like a credential before they are shown.
"""

from __future__ import annotations

import os
import re


_IAM_POINTER = "see the send-only IAM policy in docs/agents.md"

CREDENTIALS_HINT = (
    "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (plus AWS_SESSION_TOKEN for temporary keys), "
    "or AWS_PROFILE naming a profile in ~/.aws/credentials or ~/.aws/config, or run on a host with an "
    "IAM role"
)

_HINTS_BY_CODE = {
    "AWS.SimpleQueueService.NonExistentQueue":
        "the queue does not exist there: check the queue URL (--queue-url / TIMELINE_QUEUE_URL) "
        "and the region (AWS_REGION) it was created in",
    "AccessDenied":
        f"these credentials may not send to this queue: the agent needs sqs:SendMessage on the queue ARN; "
        f"{_IAM_POINTER}",
    "InvalidClientTokenId":
        "the access key is not known to AWS: check AWS_ACCESS_KEY_ID / the profile's credentials",
    "SignatureDoesNotMatch":
        "the secret key does not match the access key: check AWS_SECRET_ACCESS_KEY / the profile",
    "ExpiredToken":
        "the temporary credentials have expired: refresh them (e.g. `aws sso login --profile NAME`)",
    "RequestExpired":
        "the request was signed too long ago: check this machine's clock",
    "KMS.AccessDenied":
        "the queue is encrypted with a KMS key these credentials may not use: grant kms:GenerateDataKey "
        "and kms:Decrypt on that key",
}
_CODE_ALIASES = {
    "QueueDoesNotExist": "AWS.SimpleQueueService.NonExistentQueue",
    "AccessDeniedException": "AccessDenied",
    "UnrecognizedClientException": "InvalidClientTokenId",
    "IncompleteSignature": "SignatureDoesNotMatch",
    "ExpiredTokenException": "ExpiredToken",
    "KmsAccessDenied": "KMS.AccessDenied",
}

_XML_CODE = re.compile(r"<Code>([^<]+)</Code>")
_XML_MESSAGE = re.compile(r"<Message>([^<]*)</Message>")
_ACCESS_KEY_ID = re.compile(r"\b(?:AKIA|ASIA|AROA|AIDA)[A-Z0-9]{12,}\b")


class PublishError(Exception):
    """Sending failed. `code` is the AWS error code (or a local one such as NoCredentials)."""

    def __init__(self, code: str, message: str, hint: str):
        super().__init__(message)
        self.code = code
        self.hint = hint


def scrub(text: str) -> str:
    """Remove access key ids and the configured secret values from a message."""
    text = _ACCESS_KEY_ID.sub("<access-key-id>", text)
    for name in ("AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN", "AWS_ACCESS_KEY_ID"):
        secret = os.environ.get(name)
        if secret and len(secret) >= 4:
            text = text.replace(secret, "<redacted>")
    return text


def hint_for_code(code: str) -> str:
    """The hint for an AWS error code; a generic one for codes without a specific fix."""
    canonical = _CODE_ALIASES.get(code, code)
    if canonical in _HINTS_BY_CODE:
        return _HINTS_BY_CODE[canonical]
    if canonical.startswith("KMS."):
        return _HINTS_BY_CODE["KMS.AccessDenied"]
    return "see the AWS error code above; `timeline doctor` checks the queue, region and credentials"


def describe_aws_error(error: BaseException) -> PublishError | None:
    """A PublishError for a known botocore failure, or None if `error` is not one."""
    from botocore.exceptions import (
        ClientError,
        ConnectionError as BotocoreConnectionError,
        HTTPClientError,
        NoCredentialsError,
        NoRegionError,
        PartialCredentialsError,
        ProfileNotFound,
        SSOTokenLoadError,
        TokenRetrievalError,
        UnauthorizedSSOTokenError,
    )

    if isinstance(error, ClientError):
        details = error.response.get("Error", {})
        code = str(details.get("Code") or "Unknown")
        message = str(details.get("Message") or error)
        status = error.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
        if message.lstrip().startswith("<"):  # an XML error body (e.g. a 403 from a proxy or moto's IAM)
            code_match, message_match = _XML_CODE.search(message), _XML_MESSAGE.search(message)
            if code_match:
                code = code_match.group(1)
            message = message_match.group(1) if message_match else f"HTTP {status}"
        if (code == "Unknown" or code.isdigit()) and status == 403:
            code = "AccessDenied"
        return PublishError(code, scrub(message), hint_for_code(code))
    if isinstance(error, (NoCredentialsError, PartialCredentialsError)):
        return PublishError("NoCredentials", "no AWS credentials found", CREDENTIALS_HINT)
    if isinstance(error, (SSOTokenLoadError, UnauthorizedSSOTokenError, TokenRetrievalError)):
        return PublishError("ExpiredToken", scrub(str(error)),
                            "the SSO session has expired or is missing: run `aws sso login --profile NAME`")
    if isinstance(error, ProfileNotFound):
        return PublishError("ProfileNotFound", scrub(str(error)),
                            "AWS_PROFILE names a profile that is not in ~/.aws/config or ~/.aws/credentials")
    if isinstance(error, NoRegionError):
        return PublishError("NoRegion", "no AWS region",
                            "set AWS_REGION (or pass --region), or use a queue URL with the region in it")
    if isinstance(error, (BotocoreConnectionError, HTTPClientError)):
        return PublishError("EndpointUnreachable", scrub(str(error)),
                            "the SQS endpoint did not answer: check --endpoint-url / AWS_ENDPOINT_URL_SQS, "
                            "the network and any proxy settings")
    return None
