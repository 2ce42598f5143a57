"""The reply acceptance rule, mirroring Swift's `ReplyAcceptance` and `SenderAllowlist` (TimelineCore) with
the same reasons (shared examples: schema/examples/reply-acceptance).

A reply is accepted when it answers this question, for its agent and task, with an offered action (or text
where text was asked for), from an allowed SQS `SenderId`, and its reply id was not seen before. Every reply to
the question is remembered, accepted or not, so a reply id counts once.

`TIMELINE_REPLY_SENDERS`: comma-separated SenderIds: an IAM user id (`AIDA...`), a role id with a session
(`AROA...:session`), a role id alone (`AROA...`: any session of that role) or an account id (12 digits:
messages sent as that account itself). `timeline doctor` prints the SenderId a viewer sends with.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Iterable

from timeline_event import quote

__all__ = ["AskedQuestion", "ReplyRefused", "SenderAllowlist", "AllowlistProblem", "ReplyAcceptance",
           "NO_ALLOWLIST_REASON", "allowlist_from_environment"]

_ENTRY = re.compile(r"[A-Z0-9]{1,128}(:[A-Za-z0-9_+=,.@-]{2,64})?")

NO_ALLOWLIST_REASON = (
    "no reply sender allowlist: set TIMELINE_REPLY_SENDERS (or reply_senders in the config file) to the "
    "SenderIds allowed to answer; `timeline doctor` prints this viewer's SenderId")


class AllowlistProblem(ValueError):
    """A reply sender allowlist that is not a list of SenderIds; `reason` says which entry and why."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class ReplyRefused(Exception):
    """A reply to this question that the rule refused; `kind` names the check, `reason` says why."""

    def __init__(self, kind: str, reason: str):
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


@dataclass(frozen=True)
class AskedQuestion:
    """What a reply must match: the event asked, its task and agent, the offered action ids."""

    event_id: str
    task_id: str
    agent_id: str
    offered_actions: frozenset
    accepts_text: bool | None = None  # None: only when no actions were offered

    @property
    def takes_text(self) -> bool:
        return (not self.offered_actions) if self.accepts_text is None else self.accepts_text


def _entry_problem(entry: str) -> str | None:
    if _ENTRY.fullmatch(entry):
        return None
    return ("%s is not a SenderId: use an IAM user id (AIDA…), a role id (AROA…, or AROA…:session) or an "
            "account id (12 digits)" % quote(entry))


@dataclass(frozen=True)
class SenderAllowlist:
    """Who may answer (see the module documentation for the entry forms)."""

    entries: tuple

    def __post_init__(self):
        if not self.entries:
            raise AllowlistProblem("the reply sender allowlist is empty")
        for entry in self.entries:
            problem = _entry_problem(entry)
            if problem is not None:
                raise AllowlistProblem(problem)

    @classmethod
    def parse(cls, value: str | None) -> "SenderAllowlist | None":
        """A TIMELINE_REPLY_SENDERS value: comma-separated, spaces around entries ignored; None when blank."""
        if value is None:
            return None
        entries = [part.strip(" \t") for part in value.split(",")]
        if all(not entry for entry in entries):
            return None
        if any(not entry for entry in entries):
            raise AllowlistProblem("the reply sender allowlist has an empty entry (two commas in a row?)")
        return cls(tuple(entries))

    def allows(self, sender_id: str | None) -> bool:
        """An exact match, or a role id entry and a session of that role."""
        if not sender_id:
            return False
        return any(entry == sender_id or (":" not in entry and entry.startswith("AROA")
                                          and sender_id.startswith(entry + ":"))
                   for entry in self.entries)


def allowlist_from_environment(given: Iterable[str] | str | None = None) -> SenderAllowlist | None:
    """`allowed_senders=` (a list or a comma-separated string), else TIMELINE_REPLY_SENDERS, else None."""
    if given is not None:
        return SenderAllowlist.parse(given if isinstance(given, str) else ",".join(given))
    return SenderAllowlist.parse(os.environ.get("TIMELINE_REPLY_SENDERS"))


@dataclass
class ReplyAcceptance:
    """The rule for one question. `check(reply, sender_id)` returns the reply or raises ReplyRefused; a reply
    to another question raises ReplyRefused with kind "not_this_question" (leave it for its owner)."""

    question: AskedQuestion
    allowed_senders: SenderAllowlist | None = None
    required: bool = False  # no allowlist: refuse every reply (grants of commands)
    seen_reply_ids: set = field(default_factory=set)

    def check(self, reply, sender_id: str | None):
        q = self.question
        if reply.in_reply_to != q.event_id:
            raise ReplyRefused("not_this_question", "the reply answers another question (%s)" % quote(reply.in_reply_to))
        first_time = reply.id not in self.seen_reply_ids
        self.seen_reply_ids.add(reply.id)
        if self.allowed_senders is not None:
            if not self.allowed_senders.allows(sender_id):
                if sender_id is None:
                    raise ReplyRefused("sender_not_allowed", "the reply has no SenderId and a reply sender allowlist is set")
                raise ReplyRefused("sender_not_allowed", "sender %s is not in the reply sender allowlist" % quote(sender_id))
        elif self.required:
            raise ReplyRefused("no_allowlist", NO_ALLOWLIST_REASON)
        if not first_time:
            raise ReplyRefused("replayed", "reply id %s was already seen" % quote(reply.id))
        if reply.agent_id != q.agent_id:
            raise ReplyRefused("other_agent", "the reply is for another agent (%s)" % quote(reply.agent_id))
        if reply.task_id != q.task_id:
            raise ReplyRefused("other_task", "the reply is for another task (%s)" % quote(reply.task_id))
        if reply.action is not None:
            if reply.action not in q.offered_actions:
                raise ReplyRefused("action_not_offered", "action %s was not offered" % quote(reply.action))
        elif not q.takes_text:
            raise ReplyRefused("text_not_accepted", "a text reply to a question that offered only actions")
        return reply
