"""Each agent's answerable prompt through the real `timeline hook AGENT` against the local SQS server: the
hook publishes the question, a reply on the reply queue answers it, and the hook prints the decision the
agent documents (Claude Code's AskUserQuestion, Codex CLI's PermissionRequest, Cursor's
beforeShellExecution, opencode's permission.asked through timeline's plugin). Forged replies grant nothing;
without an answer in time the agent gets nothing (or Cursor's "ask")."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import time
import uuid
from pathlib import Path

import pytest
from timeline_testing.agent_questions import collect, ended, output_of, question_on, reply_body, start_hook

FIXTURES = Path(__file__).resolve().parents[1] / "AgentHooksTests" / "Fixtures"
MOTO_SENDER = "AIDAIT2UOQQY3AUEKVGXU"  # the SenderId moto gives every message


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text())


@pytest.fixture
def prompt_env(e2e_env, queue, make_queue, tmp_path):
    replies = make_queue()
    env = {**e2e_env, "XDG_STATE_HOME": str(tmp_path / "state"), "TIMELINE_QUEUE_URL": queue.url,
           "AWS_ENDPOINT_URL_SQS": queue.endpoint, "TIMELINE_REPLY_QUEUE_URL": replies.url,
           "TIMELINE_REPLY_SENDERS": MOTO_SENDER, "TIMELINE_HOOK_WAIT": "60s"}
    return env, replies


def finish(hook, timeout: float = 60) -> str:
    """The hook's stdout once it exits 0 (a hook never fails its agent)."""
    out, _ = output_of(hook, timeout)
    assert hook.returncode == 0
    return out


def test_claude_ask_user_question_gets_the_chosen_label(timeline_bin, prompt_env, queue, wait_until):
    env, replies = prompt_env
    payload = fixture("claude/PreToolUse-AskUserQuestion.json")
    hook = start_hook(timeline_bin, "claude", payload, env)
    events: list[dict] = []
    question = question_on(queue, events, wait_until)
    assert [(a["id"], a["label"]) for a in question["actions"]] == [("option-1", "Postgres"), ("option-2", "SQLite")]
    assert question["reply_to"] == replies.url
    # Forged first: another question's id, an option never offered, a text answer; then the real one.
    replies.send_raw(reply_body({**question, "id": str(uuid.uuid4())}, action="option-1"))
    replies.send_raw(reply_body(question, action="option-3"))
    replies.send_raw(reply_body(question, text="MySQL"))
    replies.send_raw(reply_body(question, action="option-2"))
    output = json.loads(finish(hook))["hookSpecificOutput"]
    assert (output["hookEventName"], output["permissionDecision"]) == ("PreToolUse", "allow")
    assert output["updatedInput"]["answers"] == {"Which database should the service use?": "SQLite"}
    assert output["updatedInput"]["questions"] == payload["tool_input"]["questions"]
    wait_until(collect(queue, events, lambda got: any(e["title"].startswith("Chose SQLite from the timeline") for e in got)),
               timeout=20, message="the answered follow-up")


def test_claude_ask_user_question_without_an_answer_prints_nothing(timeline_bin, prompt_env, queue, wait_until):
    env, _ = prompt_env
    started = time.monotonic()
    hook = start_hook(timeline_bin, "claude", fixture("claude/PreToolUse-AskUserQuestion.json"),
                      {**env, "TIMELINE_HOOK_WAIT": "3s"})
    assert finish(hook) == ""
    assert time.monotonic() - started < 20
    events: list[dict] = []
    wait_until(collect(queue, events, lambda got: any(e["title"].startswith("Waiting for you in the terminal") for e in got)),
               timeout=20, message=lambda: f"the withdrawn question; got {[e['title'] for e in events]}")


def test_codex_permission_request_denied_with_a_message(timeline_bin, prompt_env, queue, wait_until):
    env, replies = prompt_env
    hook = start_hook(timeline_bin, "codex", fixture("codex/hooks-PermissionRequest.json"), env)
    events: list[dict] = []
    question = question_on(queue, events, wait_until)
    assert [a["id"] for a in question["actions"]] == ["allow", "deny"]
    assert question["task_id"] == "codex:019a-codex-session"
    replies.send_raw(reply_body(question, action="allow-session"))  # never offered to Codex
    replies.send_raw(reply_body(question, text="not the lock, it is in use"))
    decision = json.loads(finish(hook))["hookSpecificOutput"]
    assert decision == {"hookEventName": "PermissionRequest",
                        "decision": {"behavior": "deny", "message": "not the lock, it is in use"}}


def test_cursor_shell_command_allowed_from_the_timeline(timeline_bin, prompt_env, queue, wait_until):
    env, replies = prompt_env
    hook = start_hook(timeline_bin, "cursor", fixture("cursor/beforeShellExecution.json"), env)
    events: list[dict] = []
    question = question_on(queue, events, wait_until)
    assert question["title"] == "Waiting for you: Shell pnpm test" and "$ pnpm test" in question["body"]
    replies.send_raw(reply_body(question, action="allow"))
    assert json.loads(finish(hook)) == {"permission": "allow"}


def test_cursor_without_an_answer_or_an_allowlist_asks_its_user(timeline_bin, prompt_env, queue, wait_until):
    env, _ = prompt_env
    hook = start_hook(timeline_bin, "cursor", fixture("cursor/beforeShellExecution.json"), {**env, "TIMELINE_HOOK_WAIT": "2s"})
    assert json.loads(finish(hook)) == {"permission": "ask"}
    events: list[dict] = []
    wait_until(collect(queue, events, lambda got: any(e["title"] == "Waiting for you in the terminal: Shell pnpm test"
                                                      for e in got)), timeout=20, message="the withdrawn question")

    # No sender allowlist: nothing could be accepted, so nothing is asked; the prompt is reported.
    unlisted = {key: value for key, value in env.items() if key != "TIMELINE_REPLY_SENDERS"}
    result = subprocess.run([timeline_bin, "hook", "cursor"], env=unlisted, input=json.dumps(fixture("cursor/beforeShellExecution.json")),
                            capture_output=True, text=True, timeout=30)
    assert (result.returncode, json.loads(result.stdout)) == (0, {"permission": "ask"})
    later: list[dict] = []
    wait_until(collect(queue, later, lambda got: any(e["title"] == "Waiting for you: Shell pnpm test" for e in got)),
               timeout=20, message="the reported prompt")
    assert not any("actions" in e for e in later)


def test_opencode_permission_answered_through_the_plugin(timeline_bin, run_timeline, prompt_env, queue, tmp_path, wait_until):
    """The real plugin file (`timeline hooks install opencode`) loaded by node with a stand-in opencode
    client: permission.asked runs the hook, and the answer from the timeline reaches the client's
    permission API as `always`."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    env, replies = prompt_env
    installed = run_timeline("hooks", "install", "opencode", env=env)
    assert installed.returncode == 0, installed.stderr
    plugin = Path(env["XDG_CONFIG_HOME"]) / "opencode" / "plugin" / "timeline.js"
    module = tmp_path / "timeline-plugin.mjs"
    module.write_text(plugin.read_text())
    event = fixture("opencode/permission.asked-patterns.json")
    driver = tmp_path / "driver.mjs"
    driver.write_text(f"""
import {{ TimelinePlugin }} from {json.dumps(str(module))};
const client = {{ postSessionIdPermissionsPermissionId: async (request) => {{
  console.log(JSON.stringify(request)); process.exit(0);
}} }};
const hooks = await TimelinePlugin({{ directory: {json.dumps(event["directory"])}, client }});
await hooks.event({{ event: {{ type: "permission.asked", properties: {json.dumps(event["properties"])} }} }});
setTimeout(() => {{ console.log("no answer"); process.exit(1); }}, 60000);
""")
    opencode = subprocess.Popen([node, str(driver)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with ended(opencode):
        events: list[dict] = []
        question = question_on(queue, events, wait_until)
        assert [a["id"] for a in question["actions"]] == ["allow", "allow-session", "deny"]
        assert question["title"] == "Waiting for you: bash rm -rf vendor"
        replies.send_raw(reply_body(question, action="allow-session"))
        out, err = opencode.communicate(timeout=60)
    assert opencode.returncode == 0, err
    assert json.loads(out) == {"path": {"id": "ses_01", "permissionID": "per_2"}, "body": {"response": "always"}}


def test_opencode_hook_prints_once_and_nothing_without_an_answer(timeline_bin, prompt_env, queue, wait_until):
    env, replies = prompt_env
    hook = start_hook(timeline_bin, "opencode", fixture("opencode/permission.asked.json"), env)
    events: list[dict] = []
    question = question_on(queue, events, wait_until)
    replies.send_raw(reply_body(question, action="allow"))
    assert json.loads(finish(hook)) == {"response": "once"}
    quiet = start_hook(timeline_bin, "opencode", fixture("opencode/permission.asked.json"), {**env, "TIMELINE_HOOK_WAIT": "2s"})
    assert finish(quiet) == ""


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_real_claude_ask_user_question_gets_the_answer_from_the_timeline(
        tmux, run_timeline, prompt_env, queue, tmp_path, wait_until):
    """The real Claude Code CLI, interactive in tmux (print mode disables AskUserQuestion: "AskUserQuestion
    is disabled for this session"), its fake model calling AskUserQuestion: the foreground hook `timeline
    hooks install claude` adds for it asks on the timeline, and the tool's result that goes back to the
    model carries the label chosen there."""
    from test_agent_hooks import CLAUDE
    from fake_anthropic import FakeAnthropic
    if CLAUDE is None:
        pytest.skip("claude-agent-sdk is not installed (make venv)")
    env, replies = prompt_env
    asked = fixture("claude/PreToolUse-AskUserQuestion.json")["tool_input"]
    api = FakeAnthropic(tool={"name": "AskUserQuestion", "input": asked}).start()
    project = tmp_path / "shop-app"
    (project / ".git").mkdir(parents=True)
    env = {**env, "ANTHROPIC_BASE_URL": api.url, "ANTHROPIC_API_KEY": "test-key-for-the-fake-api",
           "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
    home = Path(env["HOME"])
    (home / ".claude").mkdir()
    (home / ".claude.json").write_text(json.dumps({
        "hasCompletedOnboarding": True, "theme": "dark",
        "customApiKeyResponses": {"approved": [env["ANTHROPIC_API_KEY"][-20:]], "rejected": []},
        "projects": {str(project): {"hasTrustDialogAccepted": True, "allowedTools": []}},
    }))

    def tool_results() -> list[dict]:
        return [part for body in list(api.requests) for message in body.get("messages") or []
                if isinstance(message.get("content"), list)
                for part in message["content"] if isinstance(part, dict) and part.get("type") == "tool_result"]
    try:
        assert run_timeline("hooks", "install", "claude", env=env).returncode == 0
        pane = tmux.start(["sh", "-c", shlex.join([CLAUDE, "--permission-mode", "default"]) + "; echo CLAUDE-EXITED; sleep 600"],
                          env=env, width=120, height=40, cwd=str(project))
        tmux.wait_for("Claude Code", pane=pane, timeout=30)
        tmux.type("Pick a database, please", pane=pane)
        tmux.send_keys("Enter", pane=pane)
        events: list[dict] = []
        question = question_on(queue, events, wait_until)
        assert [a["label"] for a in question["actions"]] == ["Postgres", "SQLite"]
        replies.send_raw(reply_body(question, action="option-2"))
        wait_until(lambda: tool_results(), timeout=60, message=lambda: f"the tool's result; screen:\n{tmux.capture(pane)}")
        result = json.dumps(tool_results()[-1])
        assert "SQLite" in result and "Which database should the service use?" in result, result
        assert "is_error\": true" not in result, result
    finally:
        api.stop()


def test_a_black_holed_reply_queue_still_leaves_cursor_to_ask_in_time(timeline_bin, prompt_env):
    """SQS accepts connections and never answers: the question cannot be published nor an answer read, and
    the hook still gives Cursor its "ask" soon after the wait runs out."""
    from test_agent_hooks import BlackHole
    env, _ = prompt_env
    hole = BlackHole()
    try:
        started = time.monotonic()
        hook = start_hook(timeline_bin, "cursor", fixture("cursor/beforeShellExecution.json"),
                          {**env, "AWS_ENDPOINT_URL_SQS": hole.endpoint, "TIMELINE_HOOK_WAIT": "3s"})
        assert json.loads(finish(hook, timeout=60)) == {"permission": "ask"}
        # Within the timeout `hooks install cursor` gives it (PermissionPrompt.hookTimeout: the wait + 30 s).
        assert time.monotonic() - started < 3 + 30
    finally:
        hole.close()


def test_a_question_sqs_cannot_take_is_not_waited_for(timeline_bin, prompt_env, queue, fault_proxy, wait_until):
    """SQS refuses connections: the question cannot be published, so the hook does not wait (60 s here) for
    an answer to it: Claude asks its user at once. How the prompt ended goes once SQS is back."""
    env, _ = prompt_env
    fault_proxy.kill()
    down = {**env, "AWS_ENDPOINT_URL_SQS": fault_proxy.endpoint}
    started = time.monotonic()
    hook = start_hook(timeline_bin, "claude", fixture("claude/PermissionRequest.json"), down)
    assert finish(hook, timeout=60) == ""  # no decision: Claude shows its own dialog
    assert time.monotonic() - started < 10, "the hook waited for an answer to a question nobody could see"
    fault_proxy.start()
    events: list[dict] = []
    wait_until(collect(queue, events, lambda got: any(e["title"].startswith("Waiting for you in the terminal")
                                                      for e in got)),
               timeout=60, message="how the prompt ended, sent by the background sender once SQS is back")
    assert not any("actions" in e for e in events), "the question (it offers actions) was never published"
