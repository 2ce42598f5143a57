"""AWS-side failures: exit 1 with the AWS error code and a hint that says how to fix it."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import sqs_server
from agent_tool_testing import PUBLISH_SCRIPT
from aws_errors import PublishError, describe_aws_error
from publish_event import publish_event

EVENT_FLAGS = ["--title", "t", "--status", "info", "--agent-id", "a"]


def test_unknown_queue_exit_1_with_code_and_hint(queue, run_publish):
    missing = queue.url.rsplit("/", 1)[0] + "/no-such-queue"
    result = run_publish(["--queue-url", missing, "--endpoint-url", queue.endpoint, *EVENT_FLAGS])
    assert result.returncode == 1
    error_line, hint_line = result.stderr.strip().splitlines()
    assert error_line.startswith("error: AWS.SimpleQueueService.NonExistentQueue: "), error_line
    assert hint_line.startswith("hint: ") and "queue URL" in hint_line and "region" in hint_line
    assert result.stdout == ""


def test_no_credentials_exit_1_with_hint(queue, run_publish, isolated_aws):
    result = run_publish(["--queue-url", queue.url, "--endpoint-url", queue.endpoint, *EVENT_FLAGS],
                         env=isolated_aws)
    assert result.returncode == 1
    error_line, hint_line = result.stderr.strip().splitlines()
    assert error_line == "error: NoCredentials: no AWS credentials found"
    assert "AWS_ACCESS_KEY_ID" in hint_line and "AWS_PROFILE" in hint_line
    assert queue.depth() == 0


def test_unreachable_endpoint_exit_1(run_publish):
    closed = f"http://127.0.0.1:{sqs_server.free_port()}"
    result = run_publish(["--queue-url", f"{closed}/123456789012/q", "--endpoint-url", closed, *EVENT_FLAGS])
    assert result.returncode == 1
    error_line, hint_line = result.stderr.strip().splitlines()
    assert error_line.startswith("error: EndpointUnreachable: ")
    assert "--endpoint-url" in hint_line


def test_secret_never_printed(queue, run_publish, aws_env):
    secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYSECRETKEY"
    env = {**aws_env, "AWS_ACCESS_KEY_ID": "AKIAIOSFODNN7EXAMPLE", "AWS_SECRET_ACCESS_KEY": secret}
    missing = queue.url.rsplit("/", 1)[0] + "/no-such-queue"
    result = run_publish(["--queue-url", missing, "--endpoint-url", queue.endpoint, *EVENT_FLAGS], env=env)
    assert result.returncode == 1
    assert secret not in result.stderr + result.stdout
    assert "AKIAIOSFODNN7EXAMPLE" not in result.stderr + result.stdout


def test_module_raises_publish_error_with_code(queue, aws_env):
    missing = queue.url.rsplit("/", 1)[0] + "/no-such-queue"
    with pytest.raises(PublishError) as caught:
        publish_event("t", "info", "a", queue_url=missing, endpoint_url=queue.endpoint)
    assert caught.value.code == "AWS.SimpleQueueService.NonExistentQueue"


def test_unrelated_exceptions_are_not_described():
    assert describe_aws_error(ValueError("nope")) is None


def _policy_blocks() -> dict[str, str]:
    """The JSON policies in docs/agents.md, by the name in the `<!-- policy: NAME -->` marker before them."""
    text = (sqs_server.REPO_ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    return dict(re.findall(r"<!-- policy: ([\w-]+) -->\s*```json\n(.*?)```", text, flags=re.S))


# The tests of `iam_checked_queue` (a module fixture: a moto server of its own) share one worker under
# pytest-xdist (`--dist loadgroup`), so that one server is started, not one per worker.
IAM_SERVER_GROUP = pytest.mark.xdist_group("iam-checked-queue")


@pytest.fixture(scope="module")
def iam_checked_queue():
    """A queue on an IAM-enforcing moto server plus keys for an agent and a viewer with the documented policies."""
    import boto3

    policies = _policy_blocks()
    users = (("agent", "agent-send-only"), ("viewer", "viewer-receive-delete"), ("peeker", "viewer-peek"))
    setup_calls = 1 + 3 * len(users)  # create_queue, then per user: create_user, create_access_key, put_user_policy
    with sqs_server.MotoServer(extra_env={"INITIAL_NO_AUTH_ACTION_COUNT": str(setup_calls)}) as server:
        admin = dict(endpoint_url=server.endpoint, region_name="us-east-1",
                     aws_access_key_id="admin", aws_secret_access_key="admin")
        name = "timeline-iam"
        url = boto3.client("sqs", **admin).create_queue(QueueName=name)["QueueUrl"]
        iam = boto3.client("iam", **admin)
        keys = {}
        for user, policy_name in users:
            iam.create_user(UserName=user)
            key = iam.create_access_key(UserName=user)["AccessKey"]
            document = (policies[policy_name].replace("REGION", "us-east-1")
                        .replace("ACCOUNT_ID", "123456789012").replace("QUEUE_NAME", name))
            iam.put_user_policy(UserName=user, PolicyName=policy_name, PolicyDocument=document)
            keys[user] = (key["AccessKeyId"], key["SecretAccessKey"])
        yield server.endpoint, url, keys


def _client_for(endpoint, key):
    import boto3

    return boto3.client("sqs", endpoint_url=endpoint, region_name="us-east-1",
                        aws_access_key_id=key[0], aws_secret_access_key=key[1])


@IAM_SERVER_GROUP
def test_readme_agent_policy_sends_but_cannot_receive(iam_checked_queue, run_publish, aws_env):
    endpoint, url, keys = iam_checked_queue
    env = {**aws_env, "AWS_ACCESS_KEY_ID": keys["agent"][0], "AWS_SECRET_ACCESS_KEY": keys["agent"][1]}
    sent = run_publish(["--queue-url", url, "--endpoint-url", endpoint, *EVENT_FLAGS], env=env)
    assert sent.returncode == 0, sent.stderr
    with pytest.raises(Exception) as caught:
        _client_for(endpoint, keys["agent"]).receive_message(QueueUrl=url)
    described = describe_aws_error(caught.value)
    assert described is not None and described.code == "AccessDenied"


@IAM_SERVER_GROUP
def test_readme_viewer_policy_receives_and_deletes_but_cannot_send(iam_checked_queue, run_publish, aws_env):
    endpoint, url, keys = iam_checked_queue
    _client_for(endpoint, keys["agent"]).send_message(QueueUrl=url, MessageBody="for the viewer")
    viewer = _client_for(endpoint, keys["viewer"])
    viewer.get_queue_attributes(QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages"])
    messages = viewer.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=1)["Messages"]
    assert messages
    for message in messages:
        viewer.change_message_visibility(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"],
                                         VisibilityTimeout=0)
        viewer.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
    env = {**aws_env, "AWS_ACCESS_KEY_ID": keys["viewer"][0], "AWS_SECRET_ACCESS_KEY": keys["viewer"][1]}
    refused = run_publish(["--queue-url", url, "--endpoint-url", endpoint, *EVENT_FLAGS], env=env)
    assert refused.returncode == 1
    error_line, hint_line = refused.stderr.strip().splitlines()
    assert error_line.startswith("error: AccessDenied: ")
    assert "sqs:SendMessage" in hint_line and "IAM policy" in hint_line


@IAM_SERVER_GROUP
def test_readme_peek_policy_receives_but_cannot_delete(iam_checked_queue):
    endpoint, url, keys = iam_checked_queue
    _client_for(endpoint, keys["agent"]).send_message(QueueUrl=url, MessageBody="for the peeker")
    peeker = _client_for(endpoint, keys["peeker"])
    peeker.get_queue_attributes(QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages"])
    messages = peeker.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=1)["Messages"]
    assert messages
    peeker.change_message_visibility(QueueUrl=url, ReceiptHandle=messages[0]["ReceiptHandle"], VisibilityTimeout=0)
    with pytest.raises(Exception) as caught:
        peeker.delete_message(QueueUrl=url, ReceiptHandle=messages[0]["ReceiptHandle"])
    described = describe_aws_error(caught.value)
    assert described is not None and described.code == "AccessDenied"


def test_readme_reply_queue_policies_let_agents_read_and_viewers_send_replies_only():
    """The agent reads (and deletes) its replies but cannot send to the reply queue; the viewer sends
    replies but cannot read them."""
    import boto3

    policies = _policy_blocks()
    users = (("asker", "agent-reply-queue"), ("answerer", "viewer-send-replies"))
    with sqs_server.MotoServer(extra_env={"INITIAL_NO_AUTH_ACTION_COUNT": str(1 + 3 * len(users))}) as server:
        admin = dict(endpoint_url=server.endpoint, region_name="us-east-1",
                     aws_access_key_id="admin", aws_secret_access_key="admin")
        name = "deployer-replies"
        url = boto3.client("sqs", **admin).create_queue(QueueName=name)["QueueUrl"]
        iam = boto3.client("iam", **admin)
        keys = {}
        for user, policy_name in users:
            iam.create_user(UserName=user)
            key = iam.create_access_key(UserName=user)["AccessKey"]
            document = (policies[policy_name].replace("REGION", "us-east-1")
                        .replace("ACCOUNT_ID", "123456789012").replace("REPLY_QUEUE_NAME", name))
            iam.put_user_policy(UserName=user, PolicyName=policy_name, PolicyDocument=document)
            keys[user] = (key["AccessKeyId"], key["SecretAccessKey"])
        viewer, agent = _client_for(server.endpoint, keys["answerer"]), _client_for(server.endpoint, keys["asker"])
        viewer.send_message(QueueUrl=url, MessageBody='{"type":"reply"}')
        [message] = agent.receive_message(QueueUrl=url, WaitTimeSeconds=1)["Messages"]
        agent.change_message_visibility(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"], VisibilityTimeout=0)
        agent.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
        for forbidden in (lambda: agent.send_message(QueueUrl=url, MessageBody="x"),
                          lambda: viewer.receive_message(QueueUrl=url)):
            with pytest.raises(Exception) as caught:
                forbidden()
            described = describe_aws_error(caught.value)
            assert described is not None and described.code == "AccessDenied"


def test_a_python_without_boto3_gets_a_clear_error_not_a_traceback(aws_env):
    # `-S` leaves site-packages out, so this interpreter cannot import boto3 (checked first).
    assert subprocess.run([sys.executable, "-S", "-c", "import boto3"], capture_output=True).returncode != 0
    result = subprocess.run(
        [sys.executable, "-S", str(PUBLISH_SCRIPT), "--queue-url", "http://127.0.0.1:9/123456789012/q", *EVENT_FLAGS],
        env=aws_env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    error_line, hint_line = result.stderr.strip().splitlines()
    assert error_line.startswith("error: NoBoto3: boto3 is not installed for "), error_line
    assert "pip install -r agent-tool/requirements.txt" in hint_line
    assert result.stdout == ""
