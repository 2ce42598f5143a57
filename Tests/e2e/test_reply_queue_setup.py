"""`timeline setup --reply-queue`: a reply queue only the named principals may send to (policy read back from
the server), idempotent, no redrive policy, the export lines for the agent; the caller's own identity (STS
GetCallerIdentity) by default; and `timeline doctor` prints the viewer's SenderId."""

from __future__ import annotations

import json
import uuid


def _export(output: str, name: str) -> str:
    for line in output.splitlines():
        if line.strip().startswith(f"export {name}="):
            return line.strip().split("=", 1)[1]
    raise AssertionError(f"no `export {name}=` line in:\n{output}")


def _principals(sqs, url):
    attributes = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
    assert "RedrivePolicy" not in attributes
    allow, deny = json.loads(attributes["Policy"])["Statement"]
    assert (allow["Effect"], allow["Action"], deny["Effect"], deny["Principal"]) == (
        "Allow", "sqs:SendMessage", "Deny", "*")
    assert allow["Resource"] == deny["Resource"] == attributes["QueueArn"]
    assert deny["Condition"]["ArnNotEquals"]["aws:PrincipalArn"] == allow["Principal"]["AWS"]
    return allow["Principal"]["AWS"]


def test_setup_reply_queue_with_named_senders_is_idempotent(run_timeline, sqs, sqs_endpoint):
    name = f"agent-replies-{uuid.uuid4().hex[:8]}"
    alice, viewer = "arn:aws:iam::123456789012:user/alice", "arn:aws:sts::123456789012:assumed-role/viewer/bob"
    args = ["setup", "--reply-queue", name, "--reply-sender", alice, "--reply-sender", viewer,
            "--endpoint-url", sqs_endpoint]
    dry = run_timeline(*args, "--dry-run")
    assert dry.returncode == 0 and "would create" in dry.stdout, dry.stderr
    assert "QueueUrls" not in sqs.list_queues(QueueNamePrefix=name)

    first = run_timeline(*args)
    assert first.returncode == 0, first.stderr
    url = _export(first.stdout, "TIMELINE_REPLY_QUEUE_URL")
    assert url.endswith("/" + name) and "(created" in first.stdout
    assert "TIMELINE_REPLY_SENDERS=SENDER_ID" in first.stdout and "timeline doctor" in first.stdout
    assert _principals(sqs, url) == [alice, "arn:aws:iam::123456789012:role/viewer"]

    second = run_timeline(*args)
    assert second.returncode == 0 and "(exists, unchanged)" in second.stdout, second.stdout + second.stderr

    only_alice = run_timeline("setup", "--reply-queue", name, "--reply-sender", alice, "--endpoint-url", sqs_endpoint)
    assert only_alice.returncode == 0 and "(updated Policy" in only_alice.stdout, only_alice.stdout
    assert _principals(sqs, url) == [alice]


def _iam_user_keys(endpoint):
    """Access keys of a new IAM user on the local server (its STS then says who they are)."""
    import boto3

    import sqs_server

    iam = boto3.client("iam", endpoint_url=endpoint, region_name=sqs_server.TEST_REGION,
                       aws_access_key_id="test", aws_secret_access_key="test")
    user = f"viewer-{uuid.uuid4().hex[:8]}"
    iam.create_user(UserName=user)
    key = iam.create_access_key(UserName=user)["AccessKey"]
    return user, {"AWS_ACCESS_KEY_ID": key["AccessKeyId"], "AWS_SECRET_ACCESS_KEY": key["SecretAccessKey"]}


def test_setup_reply_queue_defaults_to_the_callers_identity(run_timeline, e2e_env, sqs, sqs_endpoint):
    name = f"agent-replies-{uuid.uuid4().hex[:8]}"
    user, keys = _iam_user_keys(sqs_endpoint)
    env = {**e2e_env, **keys, "AWS_ENDPOINT_URL_STS": sqs_endpoint}
    result = run_timeline("setup", "--reply-queue", name, "--endpoint-url", sqs_endpoint, env=env)
    assert result.returncode == 0, result.stderr
    [principal] = _principals(sqs, _export(result.stdout, "TIMELINE_REPLY_QUEUE_URL"))
    assert principal.startswith("arn:aws:iam::") and principal.endswith(":user/" + user)
    senders = _export(result.stdout, "TIMELINE_REPLY_SENDERS")
    assert senders and "SENDER_ID" not in senders

    doctor = run_timeline("doctor", "--queue-url", _export(result.stdout, "TIMELINE_REPLY_QUEUE_URL"),
                          "--endpoint-url", sqs_endpoint, env=env)
    assert "sender id" in doctor.stdout and f"TIMELINE_REPLY_SENDERS={senders}" in doctor.stdout, doctor.stdout


def test_setup_reply_queue_refuses_what_is_not_an_iam_arn(run_timeline, sqs_endpoint):
    bad = run_timeline("setup", "--reply-queue", "x-replies", "--reply-sender", "AIDAEXAMPLE", "--endpoint-url",
                       sqs_endpoint)
    assert bad.returncode != 0 and "is not an IAM ARN" in bad.stderr
    local = run_timeline("setup", "--reply-queue", "x-replies", "--endpoint-url", sqs_endpoint)
    assert local.returncode != 0 and "--reply-sender" in local.stderr
