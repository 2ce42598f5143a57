"""Agents that ask a human and wait: `ask(...)` and `receive_messages(...)` (exported by `publish_event`).

    reply = ask("Deploy billing v1.3 to prod?", [("deploy", "Deploy"), ("cancel", "Cancel")], agent_id="deployer")
    if reply.action == "deploy": ...
    for message in receive_messages(agent_id="deployer"):   # text sent from the viewer's agents view
        print(message.text, "from", message.sender)

`ask` publishes a `needs_input` event with `actions` and `reply_to`, long-polls the reply queue for the reply
to that event that the acceptance rule accepts (`reply_acceptance`: offered action, this task and agent, a
reply id once, an allowed SenderId), deletes it (refused replies to it are deleted and reported; others'
are released for their owner, and receives that found only those are spaced out), publishes a
follow-up `in_progress` event ("answered: Deploy by alice@laptop") and returns the reply. On timeout it
publishes a `warning` ("no answer in 10m") and raises `NoAnswer`. Replies follow `schema/reply.schema.json`
and are read with the rules of Swift's `Reply.parse` (`parse_reply`).
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Sequence

from aws_errors import describe_aws_error
from event_builder import new_event
from event_timestamps import timestamp_problem
from event_interaction import ACTION_ID
from reply_acceptance import (AllowlistProblem, AskedQuestion, ReplyAcceptance, ReplyRefused,
                              allowlist_from_environment)
from sqs_connection import ConfigurationError, make_client
from terminal_text import escaped
from timeline_event import InvalidEvent, checked_string, quote, read_object

__all__ = ["ask", "receive_messages", "Reply", "NoAnswer", "InvalidReply", "parse_reply", "resolve_reply_queue_url",
           "duration_text"]

TEXT_BYTES = 4_096
ID_BYTES = 256


class NoAnswer(TimeoutError):
    """No reply came before the timeout (a `warning` event says so on the timeline)."""


class InvalidReply(ValueError):
    """A message on the reply queue that is not a reply document; `reason` says why."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Reply:
    """A human's answer: `action` (an action id) or `text`, and who sent it (`sender`, e.g. alice@laptop)."""

    id: str
    in_reply_to: str
    task_id: str
    agent_id: str
    action: str | None
    text: str | None
    sender: str
    timestamp: str


def parse_reply(body: str | bytes) -> Reply:
    """Reads one reply document (schema/reply.schema.json) with the rules and reasons of Swift's `Reply.parse`;
    raises InvalidReply with the first problem."""
    try:
        members = dict(read_object(body))

        def string(name: str, required: bool = True, limit: int = ID_BYTES):
            if name not in members:
                if required:
                    raise InvalidReply('missing required field "%s"' % name)
                return None
            return checked_string(name, members[name], limit)

        kind = string("type")
        if kind != "reply":
            raise InvalidReply('field "type" must be "reply", got %s' % quote(kind))
        fields = {name: string(name) for name in ("id", "in_reply_to", "task_id", "agent_id")}
        action = string("action", required=False, limit=64)
        if action is not None and not ACTION_ID.fullmatch(action):
            raise InvalidReply('field "action" must be 1-64 characters of a-z 0-9 _ . -, got %s' % quote(action))
        text = string("text", required=False, limit=TEXT_BYTES)
        if action is None and text is None:
            raise InvalidReply('a reply needs "action" or "text"')
        if action is not None and text is not None:
            raise InvalidReply('a reply has "action" or "text", not both')
        sender = string("from")
        stamp = string("timestamp")
        problem = timestamp_problem(stamp)[1]
        if problem is not None:
            raise InvalidReply('field "timestamp" %s: %s' % (problem, quote(stamp)))
    except InvalidEvent as error:
        raise InvalidReply(error.reason) from None
    return Reply(action=action, text=text, sender=sender, timestamp=stamp, **fields)


def resolve_reply_queue_url(given: str | None) -> str:
    """The reply queue: the argument, else TIMELINE_REPLY_QUEUE_URL; else a ConfigurationError saying how."""
    url = given or os.environ.get("TIMELINE_REPLY_QUEUE_URL")
    if not url:
        raise ConfigurationError(
            "NoReplyQueueUrl", "no reply queue URL",
            "pass reply_queue_url= (--reply-queue-url) or set TIMELINE_REPLY_QUEUE_URL; create one with "
            "`timeline setup --reply-queue AGENT-replies` or `aws sqs create-queue --queue-name AGENT-replies` "
            "(one per agent or per host)")
    return url


def duration_text(seconds: float) -> str:
    """600 -> "10m", 90 -> "1m30s", 45 -> "45s", 5400 -> "1h30m": largest units first, zero parts left
    out, the form durations are typed in (as `timeline ask` writes it: DurationText.text)."""
    left = max(0, int(seconds))
    if left == 0:
        return "0s"
    parts = []
    for letter, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        if left >= size:
            parts.append("%d%s" % (left // size, letter))
            left %= size
    return "".join(parts)


def _action_dicts(actions: Iterable[Any]) -> list[dict[str, Any]]:
    out = []
    for action in actions:
        if isinstance(action, dict):
            out.append(dict(action))
        else:
            action_id, label = action
            out.append({"id": action_id, "label": label})
    return out


def _aws(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except Exception as error:  # botocore raises many unrelated classes; map the known ones
        described = describe_aws_error(error)
        if described is None:
            raise
        raise described from error


class OthersBackoff:
    """The wait before the next receive after one that found only others' replies: doubling from `first` up to
    `limit`; back to no wait after an empty receive or one with a reply to this question (as Swift's)."""

    def __init__(self, first: float = 0.25, limit: float = 4.0):
        self.first, self.limit, self.current = first, limit, 0.0

    def next(self, received_only_others: bool) -> float:
        self.current = min(self.limit, self.current * 2 or self.first) if received_only_others else 0.0
        return self.current


def _wait_for_reply(sqs: Any, queue_url: str, acceptance: ReplyAcceptance, timeout: float,
                    clock: Callable[[], float], sleep: Callable[[float], None] = time.sleep,
                    on_refused: Callable[[Reply, ReplyRefused], None] | None = None) -> Reply | None:
    """Long-polls until a reply that `acceptance` accepts arrives (deleted, returned) or `timeout` passes (None).

    A reply to this question that the rule refuses is deleted and reported (`on_refused`, default: stderr,
    escaped); anything else is released at once for its owner, and receives that found only others' replies
    are spaced out (`OthersBackoff`), so a shared queue is not polled in a tight loop.
    """
    report = on_refused or _report_refused
    deadline = clock() + timeout
    backoff = OthersBackoff()
    delay = 0.0
    while True:
        if delay > 0:
            sleep(max(0.0, min(delay, deadline - clock())))
        remaining = deadline - clock()
        if remaining <= 0:
            return None
        answer = _aws(lambda: sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=10,
                                                  MessageSystemAttributeNames=["SenderId"],
                                                  WaitTimeSeconds=max(0, min(20, int(remaining + 0.999)))))
        messages = answer.get("Messages", [])
        found = None
        others = []
        for message in messages:
            try:
                reply = parse_reply(message["Body"])
            except InvalidReply:
                others.append(message)
                continue
            if found is not None:  # answered: a second reply to it is dropped, others' are left alone
                if reply.in_reply_to == acceptance.question.event_id:
                    _delete_quietly(sqs, queue_url, message)
                else:
                    others.append(message)
                continue
            try:
                found = acceptance.check(reply, (message.get("Attributes") or {}).get("SenderId") or None)
                _aws(lambda: sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=message["ReceiptHandle"]))
            except ReplyRefused as refusal:
                if refusal.kind == "not_this_question":
                    others.append(message)
                else:
                    _delete_quietly(sqs, queue_url, message)  # not deleted: it comes back and is refused as seen
                    report(reply, refusal)
        for message in others:  # visible again at once for its owner
            try:
                sqs.change_message_visibility(QueueUrl=queue_url, ReceiptHandle=message["ReceiptHandle"],
                                              VisibilityTimeout=0)
            except Exception:  # noqa: BLE001 - it becomes visible again by itself anyway
                pass
        if found is not None:
            return found
        delay = backoff.next(bool(others) and len(others) == len(messages))


def _delete_quietly(sqs: Any, queue_url: str, message: dict) -> None:
    try:
        sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=message["ReceiptHandle"])
    except Exception:  # noqa: BLE001
        pass


def _report_refused(reply: Reply, refusal: ReplyRefused) -> None:
    sys.stderr.write("refused reply %s from %s: %s\n" % (escaped(reply.id), escaped(reply.sender), escaped(refusal.reason)))


def ask(title: str, actions: Sequence[Any], *, agent_id: str | None = None, body: str | None = None,
        task_id: str | None = None, reply_queue_url: str | None = None, timeout: float = 600,
        category: str | None = None, queue_url: str | None = None, endpoint_url: str | None = None,
        client: Any = None, reply_client: Any = None, clock: Callable[[], float] = time.monotonic,
        allowed_senders: Iterable[str] | str | None = None, sleep: Callable[[float], None] = time.sleep,
        on_refused: Callable[[Reply, ReplyRefused], None] | None = None) -> Reply:
    """Ask a human and wait for the answer; returns the Reply (`.action`, `.text`, `.sender`).

    `actions`: (id, label) pairs or action dicts ({"id", "label", "style", "url"}); empty for a text reply.
    Only a reply to this question, for its agent and task, with an offered action (text only when no actions
    are offered), seen once, is accepted; with `allowed_senders` (SQS SenderIds, default
    TIMELINE_REPLY_SENDERS) only from those senders. Other replies to it are deleted and reported on stderr
    (`on_refused`); replies to other questions are left for their owner.
    Raises NoAnswer after `timeout` seconds (a `warning` event is published first), InvalidEvent for a bad
    question (nothing is sent), ConfigurationError without a reply queue or with an invalid allowlist,
    PublishError on AWS errors.
    """
    from publish_event import publish_dict, resolve_queue_url  # the module that exports ask()

    agent = agent_id or os.environ.get("TIMELINE_AGENT_ID")
    replies = resolve_reply_queue_url(reply_queue_url)
    try:
        allowlist = allowlist_from_environment(allowed_senders)
    except AllowlistProblem as problem:
        raise ConfigurationError("InvalidReplySenders", "invalid reply sender allowlist: " + problem.reason,
                                 "set TIMELINE_REPLY_SENDERS to comma-separated SenderIds (`timeline doctor` prints "
                                 "a viewer's)") from None
    extra: dict[str, Any] = {"reply_to": replies}
    if actions:
        extra["actions"] = _action_dicts(actions)
    event = new_event(title, "needs_input", agent, task_id=task_id, body=body, category=category, extra=extra)
    events_url = resolve_queue_url(queue_url)
    sqs = client or make_client(events_url, endpoint_url)
    publish_dict(event, queue_url=events_url, client=sqs)  # validates first: raises InvalidEvent, sends nothing
    reply_sqs = reply_client or (sqs if replies == events_url else make_client(replies, endpoint_url))
    question = AskedQuestion(event["id"], event["task_id"], event["agent_id"],
                             frozenset(a["id"] for a in extra.get("actions", [])))
    reply = _wait_for_reply(reply_sqs, replies, ReplyAcceptance(question, allowlist), timeout, clock, sleep, on_refused)
    labels = {a["id"]: a.get("label", a["id"]) for a in extra.get("actions", [])}
    if reply is None:
        follow = new_event("no answer in %s" % duration_text(timeout), "warning", agent, task_id=event["task_id"],
                           body=title, category=category)
        publish_dict(follow, queue_url=events_url, client=sqs)
        raise NoAnswer("no answer in %s to %r" % (duration_text(timeout), title))
    what = labels.get(reply.action, reply.action) if reply.action is not None else '"%s"' % _short(reply.text)
    follow = new_event("answered: %s by %s" % (what, reply.sender), "in_progress", agent, task_id=event["task_id"],
                       body=title, category=category)
    publish_dict(follow, queue_url=events_url, client=sqs)
    return reply



def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def receive_messages(*, agent_id: str | None = None, reply_queue_url: str | None = None,
                     endpoint_url: str | None = None, client: Any = None, wait_seconds: int = 20,
                     timeout: float | None = None, clock: Callable[[], float] = time.monotonic,
                     sleep: Callable[[float], None] = time.sleep) -> Iterator[Reply]:
    """Yields text messages sent to this agent from the viewer (agents view `r`, `timeline reply --text`).

    Each is deleted once yielded. Action replies (`ask` waits for those) and messages for other agents are
    left on the queue. A text reply to a question this agent is waiting for in `ask` at the same time may be
    taken here: run `ask` and `receive_messages` of one agent one after the other, or use two reply queues.
    Receives that found only others' messages are spaced out (`OthersBackoff`). Runs until `timeout` seconds
    pass (None: forever).
    """
    agent = agent_id or os.environ.get("TIMELINE_AGENT_ID")
    url = resolve_reply_queue_url(reply_queue_url)
    sqs = client or make_client(url, endpoint_url)
    deadline = None if timeout is None else clock() + timeout
    backoff = OthersBackoff()
    delay = 0.0
    while deadline is None or clock() < deadline:
        if delay > 0:
            sleep(delay if deadline is None else max(0.0, min(delay, deadline - clock())))
        wait = wait_seconds if deadline is None else max(0, min(wait_seconds, int(deadline - clock() + 0.999)))
        answer = _aws(lambda: sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=wait))
        messages = answer.get("Messages", [])
        released = 0
        for message in messages:
            try:
                reply = parse_reply(message["Body"])
            except InvalidReply:
                reply = None
            if reply is not None and reply.text is not None and reply.action is None \
                    and (agent is None or reply.agent_id == agent):
                _aws(lambda: sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"]))
                yield reply
            else:
                released += 1
                try:
                    sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"],
                                                  VisibilityTimeout=0)
                except Exception:  # noqa: BLE001
                    pass
        delay = backoff.next(released > 0 and released == len(messages))  # only others': do not spin on them
