"""Fixtures for agent-tool tests: a real local SQS server (moto) and a fresh queue per test (the fixtures every
suite shares, from Tests/support/timeline_testing), and an isolated AWS environment (dummy credentials, no user
config files, no instance metadata lookups)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from agent_tool_testing import PUBLISH_SCRIPT, REPO_ROOT, run_script  # noqa: E402

sys.path.insert(0, str(REPO_ROOT / "Tests" / "support"))
from timeline_testing.alone import register_alone_marker, take_turn  # noqa: E402,F401  (autouse)
from timeline_testing.sqs_fixtures import queue, sqs, sqs_endpoint  # noqa: E402,F401  (shared by every suite)

import sqs_server  # noqa: E402  (scripts/, put on sys.path by timeline_testing)


def pytest_configure(config):
    register_alone_marker(config)


# Variables that could make a test depend on the machine it runs on.
_AWS_VARIABLES = (
    "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN", "AWS_PROFILE",
    "AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_SQS",
    "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "TIMELINE_QUEUE_URL", "AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI",
)


@pytest.fixture
def isolated_aws(monkeypatch, tmp_path):
    """This process's AWS settings cleared, pointing at empty config files; returns a clean env dict."""
    for name in _AWS_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "aws-config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "aws-credentials"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")  # no 1 s IMDS probes when credentials lack
    return dict(os.environ)


@pytest.fixture
def aws_env(isolated_aws, monkeypatch):
    """Isolated settings plus dummy credentials and the test region (in this process and as a dict)."""
    for name, value in {**sqs_server.DUMMY_CREDENTIALS, "AWS_REGION": sqs_server.TEST_REGION}.items():
        monkeypatch.setenv(name, value)
    return dict(os.environ)


@pytest.fixture
def run_publish(aws_env):
    """Run `publish_event.py ARGS` with the test environment; returns the CompletedProcess."""

    def run(args: list[str], stdin: bytes | None = None, env: dict[str, str] | None = None):
        return run_script(PUBLISH_SCRIPT, args, env if env is not None else aws_env, stdin)

    return run
