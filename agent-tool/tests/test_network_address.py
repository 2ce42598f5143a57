"""The address rules against the shared examples (schema/examples/network-addresses.json), mirroring
Swift's NetworkAddressTests."""

import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import network_address  # noqa: E402
from event_interaction import is_allowed_webhook  # noqa: E402

with open(os.path.join(HERE, "..", "..", "schema", "examples", "network-addresses.json"), encoding="utf-8") as _f:
    EXAMPLES = json.load(_f)
HOSTS = EXAMPLES["hosts"]
ADDRESSES = EXAMPLES["addresses"]


@pytest.mark.parametrize("example", HOSTS, ids=[e["host"] for e in HOSTS])
def test_loopback_is_numeric_127_or_bracketed_one_or_localhost_only(example):
    assert network_address.is_loopback_host(example["host"]) is example["loopback"]
    assert is_allowed_webhook("http://%s/hook" % example["host"]) is example["loopback"]


@pytest.mark.parametrize("example", HOSTS, ids=[e["host"] for e in HOSTS])
def test_webhook_hosts_follow_the_examples(example):
    strict = network_address.webhook_host_refusal(example["host"], allow_private=False)
    lenient = network_address.webhook_host_refusal(example["host"], allow_private=True)
    if example["webhook"] == "allowed":
        assert strict is None and lenient is None, strict
    elif example["webhook"] == "private":
        assert strict is not None and lenient is None, lenient
    else:
        assert strict is not None and lenient is not None


@pytest.mark.parametrize("example", ADDRESSES, ids=[e["address"] for e in ADDRESSES])
def test_connected_addresses_have_their_scope(example):
    assert network_address.scope(example["address"]) == example["scope"]


def test_the_examples_cover_every_form():
    kinds = {e["webhook"] for e in HOSTS}
    assert kinds == {"allowed", "private", "refused"} and len(HOSTS) > 40
    assert {e["scope"] for e in ADDRESSES} == {"loopback", "private", "link-local", "reserved", "public", None}
