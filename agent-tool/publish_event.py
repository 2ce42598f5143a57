#!/usr/bin/env python3
"""Publish one timeline status event to SQS — as a command or as a module.

Command:
    python publish_event.py --title "Deployment started" --status in_progress --agent-id deployer
    echo '{"id": …}' | python publish_event.py --json

Module:
    from publish_event import publish_event, task
    publish_event("Deployment started", "in_progress", "deployer", progress=10)
    with task("Deploy api", agent_id="deployer", category="deploy") as t:
        t.progress(40, "migrating")
    reply = ask("Deploy billing v1.3 to prod?", [("deploy", "Deploy"), ("cancel", "Cancel")], agent_id="deployer")

Ask a human from a shell (prints the chosen action id, or the text):
    python publish_event.py --ask --title "Deploy billing v1.3 to prod?" --action deploy:Deploy --action cancel:Cancel

Events are validated with the same rules as the viewer (timeline_event.validate) before they are sent.
Exit codes: 0 sent (the SQS message id is printed), 2 invalid input, 1 AWS or network error;
with --ask: 0 answered, 3 no answer before --timeout.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Mapping

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:  # so `python path/to/publish_event.py` finds its sibling modules
    sys.path.insert(0, _HERE)

from aws_errors import PublishError, describe_aws_error  # noqa: E402
from sqs_connection import ConfigurationError, make_client, make_sns_client, resolve_queue_url  # noqa: E402
from fifo_keys import fifo_parameters  # noqa: E402
from timeline_event import InvalidEvent, validate  # noqa: E402
from event_builder import format_timestamp, new_event  # noqa: E402
from long_task import Task  # noqa: E402
from agent_reply import NoAnswer, Reply, ask, receive_messages  # noqa: E402
from terminal_text import escaped  # noqa: E402

__all__ = [
    "publish_event", "publish_json", "publish_to_topic", "send_raw_message", "new_event", "format_timestamp",
    "task", "Task", "InvalidEvent", "PublishError", "ConfigurationError", "make_client", "make_sns_client",
    "ask", "receive_messages", "Reply", "NoAnswer",
]


def _sqs_safe(text: str) -> bool:
    """SQS accepts only #x9 #xA #xD, #x20–#xD7FF, #xE000–#xFFFD and #x10000–#x10FFFF."""
    for ch in text:
        code = ord(ch)
        if code in (0x9, 0xA, 0xD) or 0x20 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD or code >= 0x10000:
            continue
        return False
    return True


def _aws_call(call, **parameters) -> dict:
    """One AWS call; known AWS failures become PublishError."""
    try:
        return call(**parameters)
    except Exception as error:  # botocore raises many unrelated classes; map the known ones
        described = describe_aws_error(error)
        if described is None:
            raise
        raise described from error


def publish_to_topic(body: str, topic_arn: str, *, event: Mapping[str, Any] | None = None,
                     endpoint_url: str | None = None, region: str | None = None, client: Any = None) -> str:
    """Publish a message body to an SNS topic (fan-out: one queue per viewer); returns SNS's message id.

    On a `.fifo` topic, `event` gives the group (task id) and deduplication (event id) ids.
    """
    sns = client or make_sns_client(topic_arn, endpoint_url, region)
    extra = fifo_parameters(topic_arn, dict(event)) if event is not None else {}
    return _aws_call(sns.publish, TopicArn=topic_arn, Message=body, **extra)["MessageId"]


def send_raw_message(body: str, *, queue_url: str | None = None, endpoint_url: str | None = None,
                     client: Any = None, event: Mapping[str, Any] | None = None) -> str:
    """Send a message body exactly as given, without validation; returns the SQS message id.

    For tests and the simulator's deliberately malformed messages. AWS failures raise PublishError.
    On a `.fifo` queue, `event` gives the group (task id) and deduplication (event id) ids.
    """
    url = resolve_queue_url(queue_url)
    sqs = client or make_client(url, endpoint_url)
    extra = fifo_parameters(url, dict(event)) if event is not None else {}
    try:
        response = sqs.send_message(QueueUrl=url, MessageBody=body, **extra)
    except Exception as error:  # botocore raises many unrelated classes; map the known ones
        described = describe_aws_error(error)
        if described is None:
            raise
        raise described from error
    return response["MessageId"]


def publish_json(raw: bytes | str, *, queue_url: str | None = None, endpoint_url: str | None = None,
                 client: Any = None, topic_arn: str | None = None) -> str:
    """Validate a whole event given as JSON text and send it unchanged; returns the SQS message id.

    Raises InvalidEvent (with the same reason the viewer would give) before anything is sent.
    """
    # surrogatepass: a lone surrogate in a str becomes bytes the validator reports as invalid UTF-8
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else bytes(raw)
    event = validate(data)
    text = data.decode("utf-8")
    if not _sqs_safe(text):  # e.g. a literal U+FFFF inside a string: send the same event escaped
        text = json.dumps(event, ensure_ascii=True, separators=(",", ":"))
    if topic_arn:
        return publish_to_topic(text, topic_arn, event=event, endpoint_url=endpoint_url, client=client)
    return send_raw_message(text, queue_url=queue_url, endpoint_url=endpoint_url, client=client, event=event)


def publish_dict(event: Mapping[str, Any], *, queue_url: str | None = None,
                 endpoint_url: str | None = None, client: Any = None, topic_arn: str | None = None) -> str:
    """Validate and send a complete event dict; returns the SQS (or, to a topic, SNS) message id."""
    text = json.dumps(dict(event), ensure_ascii=False, separators=(",", ":"))
    return publish_json(text, queue_url=queue_url, endpoint_url=endpoint_url, client=client, topic_arn=topic_arn)


def publish_event(title: str, status: str, agent_id: str, *, task_id: str | None = None,
                  body: str | None = None, category: str | None = None, progress: float | None = None,
                  id: str | None = None, timestamp: str | None = None,  # noqa: A002 (payload name)
                  queue_url: str | None = None, endpoint_url: str | None = None,
                  client: Any = None, topic_arn: str | None = None) -> str:
    """Build (defaults: new UUID id, task_id = id, timestamp = now), validate and send one event.

    Returns the SQS message id. With `topic_arn` it publishes to that SNS topic (fan-out to several
    viewers) and returns SNS's message id; `client` is then an SNS client (make_sns_client). Raises InvalidEvent on a bad event (nothing is sent), PublishError on
    AWS or network failures, ConfigurationError when no queue URL or region can be found.
    Pass `client` (from make_client) to reuse one connection for many events.
    """
    event = new_event(title, status, agent_id, task_id=task_id, body=body, category=category,
                      progress=progress, id=id, timestamp=timestamp)
    return publish_dict(event, queue_url=queue_url, endpoint_url=endpoint_url, client=client, topic_arn=topic_arn)


def task(title: str, agent_id: str, *, category: str | None = None, task_id: str | None = None,
         body: str | None = None, queue_url: str | None = None, endpoint_url: str | None = None,
         client: Any = None) -> Task:
    """A context manager reporting a long task under one task_id (see long_task.Task).

    `with task(...) as t:` sends in_progress; `t.progress(40, "migrating")` updates; a normal exit sends
    success, an exception sends error with its message (and is re-raised); `t.finish("warning", …)`
    picks another outcome. One client is created for the whole task unless `client` is given.
    """
    url = resolve_queue_url(queue_url)
    sqs = client or make_client(url, endpoint_url)

    def send(event: dict[str, Any]) -> str:
        return publish_dict(event, queue_url=url, client=sqs)

    return Task(title, agent_id, send, category=category, task_id=task_id, body=body)


# ---------------------------------------------------------------------------------------------------
# Command line

_EVENT_FLAGS = ("title", "status", "agent_id", "task_id", "body", "category", "progress", "id", "timestamp")


def _progress_value(text: str) -> int | float | str:
    """A number (int when integral, so `40` stays `40`); anything else is left for validation."""
    try:
        number = float(text)
    except ValueError:
        return text
    return int(number) if number.is_integer() and "." not in text and "e" not in text.lower() else number


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="publish_event.py",
        description="Publish one timeline status event to an SQS queue and print its message id.",
        epilog="Exit codes: 0 sent (or answered, with --ask), 2 invalid input, 1 AWS or network error, "
               "3 no answer before --timeout (--ask).",
    )
    event = parser.add_argument_group("event (ignored with --json)")
    event.add_argument("--title", help="one-line summary (required)")
    event.add_argument("--status", help="info, in_progress, success, warning, error or needs_input (required)")
    event.add_argument("--agent-id", default=os.environ.get("TIMELINE_AGENT_ID") or None,
                       help="which agent sends this (required; default: $TIMELINE_AGENT_ID)")
    event.add_argument("--task-id", help="events with the same task id update one timeline row "
                                         "(default: the event id)")
    event.add_argument("--body", help="details; may be long and multi-line")
    event.add_argument("--category", help="free text for filtering, e.g. deploy, code-review")
    event.add_argument("--progress", type=_progress_value, help="0-100, drawn as a progress bar")
    event.add_argument("--id", help="unique event id (default: a new UUID)")
    event.add_argument("--timestamp", help="ISO 8601 with Z or an offset (default: now, UTC)")
    parser.add_argument("--json", action="store_true", help="read one whole event (JSON) from stdin")
    asking = parser.add_argument_group("asking a human (--ask)")
    asking.add_argument("--ask", action="store_true",
                        help="publish a needs_input question, wait for the answer, print the action id (or text)")
    asking.add_argument("--action", dest="actions", action="append", default=[], metavar="ID:LABEL",
                        help="a button, e.g. deploy:Deploy (repeatable, 1-6; none: a text reply is expected)")
    asking.add_argument("--reply-queue-url", help="queue the answer comes back on (default: $TIMELINE_REPLY_QUEUE_URL)")
    asking.add_argument("--timeout", type=float, default=600, help="seconds to wait for the answer (default 600)")
    parser.add_argument("--queue-url", help="queue URL (default: $TIMELINE_QUEUE_URL)")
    parser.add_argument("--topic-arn", help="publish to this SNS topic instead (fan-out to several viewers; "
                                            "default: $TIMELINE_TOPIC_ARN unless --queue-url is given)")
    parser.add_argument("--endpoint-url", help="SQS endpoint for local servers "
                                               "(default: $AWS_ENDPOINT_URL_SQS, $AWS_ENDPOINT_URL)")
    parser.add_argument("--region", help="AWS region (default: boto3's chain, then the queue URL)")
    return parser


def _one_line(text: str) -> str:
    """Keep a reason on one line without changing it otherwise."""
    return str(text).replace("\r", "\\r").replace("\n", "\\n")


def main(argv: list[str] | None = None) -> int:
    """Entry point of the command; returns the exit code."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.ask:
        return _ask_main(args)
    try:
        if args.json:
            given = [f"--{name.replace('_', '-')}" for name in _EVENT_FLAGS
                     if getattr(args, name) is not None and getattr(args, name) != parser.get_default(name)]
            if given:
                print(f"invalid event: {', '.join(given)} cannot be combined with --json", file=sys.stderr)
                return 2
            payload = sys.stdin.buffer.read()
        else:
            event = new_event(args.title, args.status, args.agent_id, task_id=args.task_id, body=args.body,
                              category=args.category, progress=args.progress, id=args.id,
                              timestamp=args.timestamp)
            # surrogateescape: bytes of an argument that were not UTF-8 reach the validator unchanged
            payload = json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogateescape")
        validate(payload)  # refuse bad input before looking for a queue or credentials
        topic_arn = args.topic_arn or (None if args.queue_url else os.environ.get("TIMELINE_TOPIC_ARN") or None)
        if topic_arn:
            client = make_sns_client(topic_arn, args.endpoint_url, args.region)
            message_id = publish_json(payload, topic_arn=topic_arn, client=client)
        else:
            queue_url = resolve_queue_url(args.queue_url)
            client = make_client(queue_url, args.endpoint_url, args.region)
            message_id = publish_json(payload, queue_url=queue_url, client=client)
    except InvalidEvent as error:
        print(f"invalid event: {_one_line(error.reason)}", file=sys.stderr)
        return 2
    except ConfigurationError as error:
        print(f"error: {error.code}: {error}", file=sys.stderr)
        print(f"hint: {error.hint}", file=sys.stderr)
        return 2 if error.code == "NoQueueUrl" else 1
    except PublishError as error:
        print(f"error: {error.code}: {_one_line(str(error))}", file=sys.stderr)
        print(f"hint: {error.hint}", file=sys.stderr)
        return 1
    print(message_id)
    return 0


def _ask_main(args: argparse.Namespace) -> int:
    """`--ask`: print the answer; 0 answered, 3 timeout, 2 invalid input, 1 AWS error."""
    actions = []
    for spec in args.actions:
        action_id, colon, label = spec.partition(":")
        if not colon:
            print(f"invalid event: --action {spec!r} must be ID:LABEL, e.g. deploy:Deploy", file=sys.stderr)
            return 2
        actions.append((action_id, label))
    if args.json or args.status or args.progress is not None:
        print("invalid event: --ask cannot be combined with --json, --status or --progress", file=sys.stderr)
        return 2
    if not args.timeout > 0:
        print("invalid event: --timeout must be more than 0 seconds", file=sys.stderr)
        return 2
    try:
        queue_url = resolve_queue_url(args.queue_url)
        client = make_client(queue_url, args.endpoint_url, args.region)
        reply = ask(args.title, actions, agent_id=args.agent_id, body=args.body, task_id=args.task_id,
                    category=args.category, reply_queue_url=args.reply_queue_url, timeout=args.timeout,
                    queue_url=queue_url, endpoint_url=args.endpoint_url, client=client)
    except InvalidEvent as error:
        print(f"invalid event: {_one_line(error.reason)}", file=sys.stderr)
        return 2
    except ConfigurationError as error:
        print(f"error: {error.code}: {error}", file=sys.stderr)
        print(f"hint: {error.hint}", file=sys.stderr)
        return 2 if error.code in ("NoQueueUrl", "NoReplyQueueUrl", "InvalidReplySenders") else 1
    except PublishError as error:
        print(f"error: {error.code}: {_one_line(str(error))}", file=sys.stderr)
        print(f"hint: {error.hint}", file=sys.stderr)
        return 1
    except NoAnswer as error:
        print(f"error: {error}", file=sys.stderr)
        return 3
    print(escaped(reply.action if reply.action is not None else reply.text))  # nothing raw reaches a terminal
    return 0


if __name__ == "__main__":
    sys.exit(main())
