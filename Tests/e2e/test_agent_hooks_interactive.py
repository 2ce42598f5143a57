"""The real Claude Code, interactive in tmux, with hooks installed by `timeline hooks install claude`: its own
permission dialog is shown while the PermissionRequest hook waits, and whichever answer comes first wins.
Answered in `timeline tui` (i, 1, y), the hook's decision closes Claude's dialog and the command runs; answered
in Claude's own dialog first, Claude stops the hook, which withdraws its question ("Answered in the terminal").

Claude Code runs against the fake Messages API (`fake_anthropic.py`) with a temporary HOME whose
`.claude.json` marks onboarding done and the project trusted, as a user's would be after the first start."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest

from test_agent_hooks import CLAUDE, collect, fake_api, hook_env, permission_setup, project  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.skipif(CLAUDE is None, reason="claude-agent-sdk is not installed (make venv)"),
              pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")]

DIALOG = "Do you want to proceed?"


def start_claude(tmux, env: dict[str, str], project: Path) -> str:
    """Claude Code in its own tmux pane, in the default permission mode (it asks before running Bash)."""
    home = Path(env["HOME"])
    (home / ".claude.json").write_text(json.dumps({
        "hasCompletedOnboarding": True, "theme": "dark",
        "customApiKeyResponses": {"approved": [env["ANTHROPIC_API_KEY"][-20:]], "rejected": []},
        "projects": {str(project): {"hasTrustDialogAccepted": True, "allowedTools": []}},
    }))
    pane = tmux.start(["sh", "-c", shlex.join([CLAUDE, "--permission-mode", "default"]) + "; echo CLAUDE-EXITED; sleep 600"],
                      env=env, width=120, height=40, cwd=str(project))
    tmux.wait_for("Claude Code", pane=pane, timeout=30)
    tmux.type("Clean up, please", pane=pane)
    tmux.send_keys("Enter", pane=pane)
    tmux.wait_for(lambda screen: DIALOG in screen and "rm -rf build" in screen, pane=pane, timeout=60)
    return pane


def start_tui(tmux, timeline_bin, env, queue, db_path) -> str:
    command = shlex.join([timeline_bin, "tui", "--queue-url", queue.url, "--endpoint-url", queue.endpoint,
                          "--region", queue.region, "--db", db_path, "--from", "alice@laptop"])
    pane = tmux.start(["sh", "-c", command + "; echo TUI-EXITED; sleep 600"], env=env, width=120, height=34)
    tmux.wait_for("FOLLOW", pane=pane, timeout=20)
    return pane


def test_interactive_claude_is_answered_from_the_tui_and_the_command_runs(
        tmux, timeline_bin, e2e_env, permission_setup, project, queue, db_path, wait_until):
    env, replies, api = permission_setup
    claude = start_claude(tmux, env, project)
    assert (project / "build").exists(), "nothing ran before the answer"

    tui = start_tui(tmux, timeline_bin, e2e_env, queue, db_path)
    tmux.wait_for("1 need you", pane=tui, timeout=30)
    tmux.send_keys("i", pane=tui)
    tmux.wait_for(lambda s: "Allow once" in s and "Deny" in s and "rm -rf build" in s, pane=tui, timeout=15)
    tmux.send_keys("1", pane=tui)
    tmux.wait_for(lambda s: 'Send "Allow once"' in s and f"to queue {replies.name}" in s and "y/N" in s, pane=tui, timeout=10)
    tmux.send_keys("y", pane=tui)
    tmux.wait_for(f'sent "Allow once" to queue {replies.name}', pane=tui, timeout=20)

    # The hook's decision closes Claude's own dialog; the command runs and the turn ends.
    tmux.wait_for(lambda s: DIALOG not in s and "All done" in s, pane=claude, timeout=60)
    wait_until(lambda: not (project / "build").exists(), timeout=10, message="the allowed command ran")
    tmux.wait_for("Allowed from the timeline: Bash rm -rf build", pane=tui, timeout=30)


def test_interactive_claude_answered_in_its_own_dialog_first_withdraws_the_question(
        tmux, permission_setup, project, queue, wait_until):
    env, replies, api = permission_setup
    claude = start_claude(tmux, env, project)
    events: list[dict] = []
    wait_until(collect(queue, events, lambda got: any(e["status"] == "needs_input" and "actions" in e for e in got)),
               timeout=30, message=lambda: f"the question on the timeline; got {[e['title'] for e in events]}")
    tmux.send_keys("1", pane=claude)  # "Yes" in Claude's own dialog: Claude stops the hook (SIGTERM)
    tmux.wait_for(lambda s: DIALOG not in s and "All done" in s, pane=claude, timeout=60)
    wait_until(collect(queue, events, lambda got: any(e["title"] == "Answered in the terminal: Bash rm -rf build"
                                                      for e in got)),
               timeout=30, message=lambda: f"the withdrawn question; got {[e['title'] for e in events]}")
    assert not (project / "build").exists(), "the command ran, allowed in the terminal"
    assert replies.depth() == 0, "nothing was answered from the timeline"
