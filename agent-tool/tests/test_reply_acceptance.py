"""The reply acceptance rule against the examples shared with Swift's ReplyAcceptanceTests."""

import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from agent_reply import parse_reply  # noqa: E402
from reply_acceptance import (AllowlistProblem, AskedQuestion, ReplyAcceptance, ReplyRefused,  # noqa: E402
                              SenderAllowlist)

FOLDER = os.path.join(HERE, "..", "..", "schema", "examples", "reply-acceptance")
NAMES = sorted(name[:-5] for name in os.listdir(FOLDER) if name.endswith(".json"))


def _outcome(example):
    q = example["question"]
    question = AskedQuestion(q["event_id"], q["task_id"], q["agent_id"], frozenset(q["actions"]), q.get("accepts_text"))
    try:
        allowlist = SenderAllowlist.parse(example["reply_senders"])
    except AllowlistProblem as problem:
        return "allowlist: " + problem.reason
    rule = ReplyAcceptance(question, allowlist, required=example["senders_required"], seen_reply_ids=set(example["seen"]))
    reply = parse_reply(json.dumps(example["reply"]))
    try:
        assert rule.check(reply, example["sender"]) is reply
        return "accepted"
    except ReplyRefused as refusal:
        return refusal.reason


def test_there_are_enough_examples():
    assert len(NAMES) >= 20


@pytest.mark.parametrize("name", NAMES)
def test_shared_example(name):
    with open(os.path.join(FOLDER, name + ".json"), encoding="utf-8") as handle:
        example = json.load(handle)
    assert _outcome(example) == example["expect"]


def test_a_reply_id_counts_once_even_when_the_first_was_refused():
    rule = ReplyAcceptance(AskedQuestion("e1", "t1", "a1", frozenset({"yes"})))
    forged = parse_reply(json.dumps({"type": "reply", "id": "r1", "in_reply_to": "e1", "task_id": "t1", "agent_id": "a1",
                                     "action": "rm-rf-prod", "from": "x", "timestamp": "2026-01-01T00:00:00Z"}))
    with pytest.raises(ReplyRefused) as refused:
        rule.check(forged, None)
    assert refused.value.kind == "action_not_offered"
    reused = parse_reply(json.dumps({"type": "reply", "id": "r1", "in_reply_to": "e1", "task_id": "t1", "agent_id": "a1",
                                     "action": "yes", "from": "x", "timestamp": "2026-01-01T00:00:00Z"}))
    with pytest.raises(ReplyRefused) as refused:
        rule.check(reused, None)
    assert refused.value.kind == "replayed"
