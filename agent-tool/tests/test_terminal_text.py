"""terminal_text.escaped mirrors Swift's DisplayText.escaped (shared cases: schema/examples/escaped-text.json):
what `publish_event.py --ask` prints."""

import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from terminal_text import escaped  # noqa: E402

with open(os.path.join(HERE, "..", "..", "schema", "examples", "escaped-text.json"), encoding="utf-8") as handle:
    CASES = json.load(handle)["cases"]


@pytest.mark.parametrize("text, shown", CASES)
def test_escaped(text, shown):
    assert escaped(text) == shown
