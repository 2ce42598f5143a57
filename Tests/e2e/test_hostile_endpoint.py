"""Every command that talks to SQS, against a spoofed endpoint that puts terminal control sequences in every
string it returns: nothing reaches stdout or stderr raw (DESIGN.md invariant 7)."""

from __future__ import annotations

import pytest

from hostile_server import HostileServer, is_inert

COMMANDS = [
    ["publish", "--title", "t", "--status", "info", "--agent-id", "a"],
    ["doctor"],
    ["poll"],
    ["drain", "--give-up-after", "5"],
    ["publish", "--title", "t", "--status", "info", "--agent-id", "a", "--queue", "named"],
]


@pytest.mark.parametrize("style", ["json", "xml"])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:1] + c[-2:]))
def test_nothing_from_a_hostile_endpoint_reaches_the_terminal_raw(run_timeline, db_path, style, command):
    with HostileServer(style) as server:
        queue = ["--queue-url", f"{server.endpoint}/000000000000/q"] if "--queue" not in command else []
        result = run_timeline(*command, *queue, "--endpoint-url", server.endpoint, "--region", "us-east-1",
                              *(["--db", db_path] if command[0] in ("poll", "drain", "doctor") else []),
                              timeout=60)
    output = result.stdout + result.stderr
    assert output.strip(), f"{command}: said nothing"
    assert is_inert(output), f"{command} printed raw control characters: {output!r}"
    # The words themselves are kept, only made safe: the user still sees what the server said.
    assert "Evil" in output or "MessageId" in output or "GetQueueUrl" in output, output
    if command[0] in ("poll", "drain"):
        assert result.returncode == 1, output
