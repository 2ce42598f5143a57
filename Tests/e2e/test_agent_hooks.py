"""The real Claude Code CLI (bundled in the claude-agent-sdk wheel) with timeline's hooks installed by
`timeline hooks install claude`, talking to a fake Anthropic API (fake_anthropic.py) on loopback: the
session's events reach the queue with the right task, titles and statuses; with SQS black-holed the
session is not held up and the spool arrives after `timeline hooks flush`."""

from __future__ import annotations

import glob
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from timeline_testing.agent_questions import collect, ended, question_on, reply_body, start_hook
from timeline_testing.tmpfs import Tmpfs, needs_tmpfs

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fake_anthropic import BASH_COMMAND, FINAL_TEXT, FakeAnthropic  # noqa: E402


def _claude_binary() -> str | None:
    """The CLI the wheel bundles (found without importing the package, which needs its dependencies)."""
    import importlib.util
    spec = importlib.util.find_spec("claude_agent_sdk")
    if spec is None or not spec.submodule_search_locations:
        return None
    found = glob.glob(os.path.join(list(spec.submodule_search_locations)[0], "_bundled", "claude"))
    return found[0] if found else None


CLAUDE = _claude_binary()
pytestmark = pytest.mark.skipif(CLAUDE is None, reason="claude-agent-sdk is not installed (make venv)")


class BlackHole:
    """A TCP port that accepts connections and never answers."""

    def __init__(self) -> None:
        self._socket = socket.socket()
        self._socket.bind(("127.0.0.1", 0))
        self._socket.listen(64)
        self._held: list[socket.socket] = []
        self._stop = False
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self._socket.getsockname()[1]}"

    def _accept(self) -> None:
        while not self._stop:
            try:
                connection, _ = self._socket.accept()
            except OSError:
                return
            self._held.append(connection)

    def close(self) -> None:
        self._stop = True
        self._socket.close()
        for connection in self._held:
            connection.close()


@pytest.fixture
def fake_api():
    server = FakeAnthropic().start()
    yield server
    server.stop()


@pytest.fixture
def black_hole():
    hole = BlackHole()
    yield hole
    hole.close()


@pytest.fixture
def hook_env(e2e_env, queue, fake_api, tmp_path):
    home = Path(e2e_env["HOME"])
    (home / ".claude").mkdir()
    return {
        **e2e_env,
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "TIMELINE_QUEUE_URL": queue.url,
        "AWS_ENDPOINT_URL_SQS": queue.endpoint,
        "ANTHROPIC_BASE_URL": fake_api.url,
        "ANTHROPIC_API_KEY": "test",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    }


@pytest.fixture
def project(tmp_path) -> Path:
    path = tmp_path / "shop-app"
    (path / ".git").mkdir(parents=True)
    (path / "src").mkdir()
    return path


def run_claude(env: dict[str, str], cwd: Path) -> tuple[subprocess.CompletedProcess[str], float]:
    started = time.monotonic()
    result = subprocess.run([CLAUDE, "-p", "Print the marker, please", "--allowedTools", "Bash", "--output-format", "json"],
                            env=env, cwd=cwd, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    return result, time.monotonic() - started


def last_problem(env: dict[str, str]) -> str:
    path = Path(env["XDG_STATE_HOME"]) / "timeline" / "hook-last-error.txt"
    return path.read_text() if path.exists() else ""


def spool_files(env: dict[str, str]) -> list[str]:
    return sorted(glob.glob(os.path.join(env["XDG_STATE_HOME"], "timeline", "spool", "*.json")))


@pytest.mark.alone  # a real Claude Code session whose hooks have seconds each: beside other tests one lost an event
def test_claude_session_reaches_the_queue_as_one_task(run_timeline, hook_env, project, queue, fake_api, wait_until):
    installed = run_timeline("hooks", "install", "claude", env=hook_env)
    assert installed.returncode == 0, installed.stderr
    settings = json.loads((Path(hook_env["HOME"]) / ".claude" / "settings.json").read_text())
    assert "WorktreeCreate" not in settings["hooks"]

    result, _ = run_claude(hook_env, project)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["result"] == FINAL_TEXT
    assert len(fake_api.requests) >= 2  # the tool use, then the answer to its result

    events: list[dict] = []
    wait_until(collect(queue, events, lambda got: any(e["title"].startswith("Done:") for e in got)
                       and any(e["title"].startswith("Session ended") for e in got)),
               timeout=30, message=lambda: f"the session's events on the queue; got {[e['title'] for e in events]}, "
                                           f"spool {spool_files(hook_env)}, last problem {last_problem(hook_env)}")
    by_title = {e["title"]: e for e in events}
    tasks = {e["task_id"] for e in events}
    assert len(tasks) == 1 and next(iter(tasks)).startswith("claude:")
    assert {e["agent_id"] for e in events} == {"claude@" + socket.gethostname().split(".")[0]}
    assert {e["category"] for e in events} == {"shop-app"}
    assert by_title["Working on a new prompt"]["status"] == "in_progress"  # the prompt itself is not published
    assert not any("Print the marker" in json.dumps(e) for e in events)
    assert by_title[f"Bash: {BASH_COMMAND}"]["status"] == "in_progress" and by_title[f"Bash: {BASH_COMMAND}"]["step"]
    assert by_title[f"Finished Bash: {BASH_COMMAND}"]["step"]
    done = by_title["Done: " + FINAL_TEXT.splitlines()[0]]
    assert done["status"] == "success" and "step" not in done
    assert [e for e in events if e["title"].startswith("Session ended")][0]["step"] is True
    wait_until(lambda: not spool_files(hook_env), timeout=10, message="an empty spool")


@pytest.mark.alone  # bounds a whole Claude Code session (20 s): other tests' processes would stretch it
def test_black_holed_sqs_does_not_hold_the_session_up_and_the_spool_is_flushed(
        run_timeline, hook_env, project, queue, black_hole, wait_until):
    assert run_timeline("hooks", "install", "claude", env=hook_env).returncode == 0
    down = {**hook_env, "AWS_ENDPOINT_URL_SQS": black_hole.endpoint}

    # One hook run on its own: exit 0 within the 3 s budget although SQS never answers.
    payload = json.dumps({"session_id": "direct", "cwd": str(project), "hook_event_name": "Stop",
                          "last_assistant_message": "finished"})
    started = time.monotonic()
    direct = run_timeline("hook", "claude", env=down, input=payload, timeout=30)
    assert direct.returncode == 0 and direct.stdout == ""
    assert time.monotonic() - started < 3.0

    result, elapsed = run_claude(down, project)
    assert result.returncode == 0, result.stderr
    # Two hooks Claude waits for (Stop, SessionEnd) of at most 2 s each, plus the session itself.
    assert elapsed < 20, elapsed
    wait_until(lambda: len(spool_files(down)) >= 7, timeout=30, message="the session's events in the spool")
    for path in spool_files(down):
        assert os.stat(path).st_mode & 0o777 == 0o600
    assert os.stat(os.path.dirname(spool_files(down)[0])).st_mode & 0o777 == 0o700
    assert queue.depth() == 0

    status = run_timeline("hooks", "status", env=down)
    assert "Claude Code [user]" in status.stdout and "installed" in status.stdout
    assert f"spool: {len(spool_files(down))} events waiting" in status.stdout

    spooled = [json.loads(Path(path).read_text()) for path in spool_files(down)]
    titles = [e["title"] for e in spooled]  # in the order they were made
    assert titles[0] == "Done: finished"
    started_at = next(i for i, t in enumerate(titles) if t.startswith("Session started"))
    done_at = next(i for i, t in enumerate(titles) if t.startswith("Done: All done"))
    ended_at = next(i for i, t in enumerate(titles) if t.startswith("Session ended"))
    assert started_at < done_at < ended_at

    # Spooled with the black-holed endpoint: a flush with other settings leaves them, unless told.
    kept = run_timeline("hooks", "flush", env=hook_env)
    assert kept.returncode == 0 and f"{len(spooled)} spooled with other settings" in kept.stdout, kept.stdout
    assert len(spool_files(hook_env)) == len(spooled)
    flushed = run_timeline("hooks", "flush", "--any-settings", env=hook_env)
    assert flushed.returncode == 0, flushed.stderr
    assert not spool_files(hook_env)
    events: list[dict] = []
    wait_until(collect(queue, events, lambda got: len(got) >= len(spooled)), timeout=15, message="the spool on the queue")
    assert sorted(e["id"] for e in events) == sorted(e["id"] for e in spooled)


def test_what_a_slow_queue_leaves_in_the_spool_is_sent_after_the_hook_returns(
        run_timeline, hook_env, project, queue, fault_proxy, wait_until):
    # A session's last hook (Stop) has no next run: what it could not send in its budget goes by itself.
    fault_proxy.arm("slow", count=1, seconds=3)
    slow = {**hook_env, "AWS_ENDPOINT_URL_SQS": fault_proxy.endpoint}
    payload = json.dumps({"session_id": "slow-queue", "cwd": str(project), "hook_event_name": "Stop",
                          "last_assistant_message": "finished"})
    started = time.monotonic()
    hook = run_timeline("hook", "--budget", "1", "claude", env=slow, input=payload, timeout=30)
    assert (hook.returncode, hook.stdout) == (0, "")
    assert time.monotonic() - started < 2.0
    assert len(spool_files(slow)) == 1  # the send was still held when time ran out
    wait_until(lambda: not spool_files(slow), timeout=20,
               message=f"an empty spool with no other hook run (last problem: {last_problem(slow)})")
    events: list[dict] = []
    wait_until(collect(queue, events, lambda got: any(e["title"] == "Done: finished" for e in got)),
               timeout=15, message="the spooled event on the queue")
    # The hook noted that time ran out; the background sender clears the note once everything went.
    wait_until(lambda: not last_problem(slow), timeout=10, message="the time-out note cleared")


def test_hooks_leave_the_sending_to_one_background_sender(
        run_timeline, hook_env, project, queue, fault_proxy, wait_until):
    fault_proxy.arm("slow", seconds=1)  # every call takes a second
    slow = {**hook_env, "AWS_ENDPOINT_URL_SQS": fault_proxy.endpoint}
    started = time.monotonic()
    for step in range(5):
        payload = json.dumps({"session_id": "warm", "cwd": str(project), "hook_event_name": "Stop",
                              "last_assistant_message": f"step {step}"})
        hook = run_timeline("hook", "claude", env=slow, input=payload, timeout=30)
        assert (hook.returncode, hook.stdout) == (0, "")
    assert time.monotonic() - started < 3.0  # no run waited for a call (sending itself, each takes 1 s)
    assert "background sender running" in run_timeline("hooks", "status", env=slow).stdout
    wait_until(lambda: not spool_files(slow), timeout=30,
               message=lambda: f"an empty spool (last problem: {last_problem(slow)})")
    events: list[dict] = []
    wait_until(collect(queue, events, lambda got: len(got) >= 5), timeout=15, message="the five events on the queue")
    assert sorted(e["title"] for e in events) == [f"Done: step {step}" for step in range(5)]
    assert fault_proxy.stats()["forwarded"] == 5  # each sent once, by the one sender


def sender_pid(env: dict[str, str]) -> int | None:
    """The running background sender's pid, as it names itself in the spool (None when none runs)."""
    path = Path(env["XDG_STATE_HOME"]) / "timeline" / "spool" / "sender.id"
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return None
    return int(lines[1]) if len(lines) > 1 and lines[1].isdigit() else None


def test_a_sender_tries_again_while_the_queue_is_unreachable_and_sends_once_it_is_back(
        run_timeline, hook_env, project, queue, fault_proxy, wait_until):
    # Connections refused: the first hook's sender pauses and tries again; the hooks after it find it
    # running and start no other; once the queue can be reached, its events go with no further hook run.
    fault_proxy.kill()
    down = {**hook_env, "AWS_ENDPOINT_URL_SQS": fault_proxy.endpoint}
    senders = set()
    for step in range(4):
        payload = json.dumps({"session_id": "offline", "cwd": str(project), "hook_event_name": "Stop",
                              "last_assistant_message": f"offline {step}"})
        hook = run_timeline("hook", "claude", env=down, input=payload, timeout=30)
        assert (hook.returncode, hook.stdout) == (0, "")
        wait_until(lambda: sender_pid(down) is not None, timeout=10, message="a background sender running")
        senders.add(sender_pid(down))
    assert len(senders) == 1, senders  # one sender, trying again; not one started (and failing) per hook
    wait_until(lambda: last_problem(down), timeout=10, message="the failure noted for `hooks status`")
    assert len(spool_files(down)) == 4 and queue.depth() == 0
    assert f"background sender running (pid {senders.pop()})" in run_timeline("hooks", "status", env=down).stdout

    fault_proxy.start()  # the network is back
    wait_until(lambda: not spool_files(down), timeout=60,
               message=lambda: f"an empty spool with no other hook run (last problem: {last_problem(down)})")
    events: list[dict] = []
    wait_until(collect(queue, events, lambda got: len(got) >= 4), timeout=15, message="the four events on the queue")
    assert sorted(e["title"] for e in events) == [f"Done: offline {step}" for step in range(4)]
    wait_until(lambda: not last_problem(down), timeout=10, message="the failure note cleared once everything went")


def test_the_sender_leaves_the_project_directory_and_still_finds_a_relative_config(
        timeline_bin, hook_env, project, queue, wait_until):
    # The config file is named relative to the project, where the hook runs; the sender runs in `/`
    # (it may linger for minutes: it must not keep the project's file system busy).
    (project / "timeline.toml").write_text(f'queue_url = "{queue.url}"\n')
    env = {key: value for key, value in hook_env.items() if key != "TIMELINE_QUEUE_URL"}
    env["TIMELINE_CONFIG"] = "timeline.toml"
    for step in range(2):
        payload = json.dumps({"session_id": "relative", "cwd": str(project), "hook_event_name": "Stop",
                              "last_assistant_message": f"relative {step}"})
        hook = subprocess.run([os.path.abspath(timeline_bin), "hook", "claude"], env=env, cwd=project, input=payload,
                              capture_output=True, text=True, timeout=30)
        assert (hook.returncode, hook.stdout) == (0, "")
        wait_until(lambda: sender_pid(env) is not None or not spool_files(env), timeout=10,
                   message="a background sender running, or the spool sent")
        pid = sender_pid(env)
        if pid is not None:
            try:
                assert os.readlink(f"/proc/{pid}/cwd") == "/"
            except FileNotFoundError:
                pass  # it ended meanwhile
    wait_until(lambda: not spool_files(env), timeout=30,
               message=lambda: f"an empty spool (last problem: {last_problem(env)})")
    events: list[dict] = []
    wait_until(collect(queue, events, lambda got: len(got) >= 2), timeout=15, message="both events on the queue")
    assert sorted(e["title"] for e in events) == ["Done: relative 0", "Done: relative 1"]


@needs_tmpfs
def test_a_full_disk_does_not_lose_a_hooks_event(run_timeline, hook_env, project, queue, wait_until):
    # The spool cannot take the event (its disk is full): the hook sends it directly, within its budget.
    disk = Tmpfs(256)
    try:
        full = {**hook_env, "XDG_STATE_HOME": os.path.join(disk.path, "state")}
        os.makedirs(os.path.join(disk.path, "state", "timeline", "spool"), mode=0o700)
        disk.fill()
        payload = json.dumps({"session_id": "full-disk", "cwd": str(project), "hook_event_name": "Stop",
                              "last_assistant_message": "finished on a full disk"})
        started = time.monotonic()
        hook = run_timeline("hook", "claude", env=full, input=payload, timeout=30)
        assert (hook.returncode, hook.stdout) == (0, "")
        assert time.monotonic() - started < 3.0
        assert not spool_files(full)
        events: list[dict] = []
        wait_until(collect(queue, events, lambda got: len(got) >= 1), timeout=15, message="the event on the queue")
        assert [e["title"] for e in events] == ["Done: finished on a full disk"]
    finally:
        disk.unmount()


def test_each_event_goes_to_the_queue_its_hook_was_given(run_timeline, hook_env, project, queue, make_queue,
                                                         wait_until):
    # Two sessions on one host with different queues share the spool; a running sender sends only its own.
    other = make_queue()
    envs = {"first": hook_env, "second": {**hook_env, "TIMELINE_QUEUE_URL": other.url}}
    for step in range(3):
        for name, env in envs.items():
            payload = json.dumps({"session_id": name, "cwd": str(project), "hook_event_name": "Stop",
                                  "last_assistant_message": f"{name} {step}"})
            assert run_timeline("hook", "claude", env=env, input=payload, timeout=30).returncode == 0
    wait_until(lambda: not spool_files(hook_env), timeout=30,
               message=lambda: f"an empty spool: {spool_files(hook_env)} (last problem: {last_problem(hook_env)})")
    first: list[dict] = []
    second: list[dict] = []
    wait_until(collect(queue, first, lambda got: len(got) >= 3), timeout=15, message="the first session's events")
    wait_until(collect(other, second, lambda got: len(got) >= 3), timeout=15, message="the second session's events")
    assert sorted(e["title"] for e in first) == [f"Done: first {step}" for step in range(3)]
    assert sorted(e["title"] for e in second) == [f"Done: second {step}" for step in range(3)]


def test_a_hook_exits_0_and_prints_nothing_whatever_it_is_given(run_timeline, hook_env):
    for args, given in [(("hook", "claude"), "not json"), (("hook", "no-such-agent"), "{}"),
                        (("hook", "claude"), json.dumps({"hook_event_name": "Stop"})),
                        (("hook", "aider"), ""), (("hook", "codex", "{broken"), "")]:
        result = run_timeline(*args, env=hook_env, input=given)
        assert (result.returncode, result.stdout) == (0, ""), (args, given, result)
    # Agents that read a hook's stdout get an answer that changes nothing.
    for agent, answer in [("gemini", "{}\n"), ("cursor", '{"continue":true}\n')]:
        result = run_timeline("hook", agent, env=hook_env, input="\x00\xff")
        assert (result.returncode, result.stdout) == (0, answer), (agent, result)


def test_codex_notify_argument_reaches_the_queue(run_timeline, hook_env, queue, tmp_path, wait_until):
    notify = {"type": "agent-turn-complete", "thread-id": "t-1", "turn-id": "1", "cwd": str(tmp_path),
              "input-messages": ["rename foo; my password=hunter2hunter2"],
              "last-assistant-message": "Renamed; AKIAIOSFODNN7EXAMPLE was in the log"}
    result = run_timeline("hook", "codex", json.dumps(notify), env=hook_env)
    assert (result.returncode, result.stdout) == (0, "")
    events: list[dict] = []
    wait_until(collect(queue, events, lambda got: len(got) >= 1), timeout=15, message="the codex event")
    event = events[0]
    assert (event["task_id"], event["status"]) == ("codex:t-1", "success")
    assert event["title"] == "Done: Renamed; [REDACTED] was in the log"
    assert "hunter2" not in json.dumps(event) and "rename foo" not in json.dumps(event)

    # Installed with --include-prompts, notify passes the flag before the JSON.
    notify["thread-id"] = "t-2"
    result = run_timeline("hook", "codex", "--include-prompts", json.dumps(notify), env=hook_env)
    assert (result.returncode, result.stdout) == (0, "")
    wait_until(collect(queue, events, lambda got: any(e["task_id"] == "codex:t-2" for e in got)), timeout=15,
               message="the second codex event")
    shared = next(e for e in events if e["task_id"] == "codex:t-2")
    assert "rename foo" in shared["body"] and "hunter2" not in shared["body"]


def test_a_hook_whose_stdin_never_closes_still_returns_in_time(timeline_bin, hook_env):
    read_end, write_end = os.pipe()
    try:
        started = time.monotonic()
        result = subprocess.run([timeline_bin, "hook", "claude"], env=hook_env, stdin=read_end, capture_output=True,
                                text=True, timeout=30)
        assert (result.returncode, result.stdout) == (0, "")
        assert time.monotonic() - started < 3.0
    finally:
        os.close(read_end)
        os.close(write_end)


def test_install_dry_run_changes_nothing_and_codex_asks_for_trust(run_timeline, hook_env):
    home = Path(hook_env["HOME"])
    (home / ".gemini").mkdir()
    settings = home / ".gemini" / "settings.json"
    settings.write_text('{\n  "theme": "Dracula"\n}\n')
    dry = run_timeline("hooks", "install", "gemini", "--dry-run", env=hook_env)
    assert dry.returncode == 0 and '"BeforeTool"' in dry.stdout and '"theme": "Dracula"' in dry.stdout
    assert settings.read_text() == '{\n  "theme": "Dracula"\n}\n'
    assert not (home / ".gemini" / "settings.json.timeline-backup").exists()

    codex = run_timeline("hooks", "install", "codex", env=hook_env)
    assert codex.returncode == 0, codex.stderr
    assert "/hooks" in codex.stdout
    assert (home / ".codex" / "config.toml").read_text().startswith("notify = [")
    assert "PermissionRequest" in (home / ".codex" / "hooks.json").read_text()
    bad = run_timeline("hooks", "install", "nobody", env=hook_env)
    assert bad.returncode == 2 and "unknown agent" in bad.stderr


def test_a_real_permission_prompt_shows_as_waiting(run_timeline, hook_env, project, queue, wait_until):
    """`rm -rf build` needs Claude's permission: PermissionRequest reaches the queue as needs_input with the
    command; with no answer from the timeline Claude decides on its own (print mode) and the turn ends."""
    api = FakeAnthropic(command="rm -rf build").start()
    try:
        env = {**hook_env, "ANTHROPIC_BASE_URL": api.url}
        assert run_timeline("hooks", "install", "claude", env=env).returncode == 0
        result = subprocess.run([CLAUDE, "-p", "Clean up, please", "--output-format", "json"], env=env, cwd=project,
                                capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
        assert result.returncode == 0, result.stderr
    finally:
        api.stop()
    events: list[dict] = []
    wait_until(collect(queue, events, lambda got: any(e["status"] == "success" for e in got)
                       and any(e["status"] == "needs_input" for e in got)), timeout=30,
               message=lambda: f"the prompt and the end on the queue; got {[e['title'] for e in events]}")
    asked = next(e for e in events if e["status"] == "needs_input")
    assert asked["title"] == "Waiting for you: Bash rm -rf build" and "step" not in asked
    assert "$ rm -rf build" in asked["body"]


MOTO_SENDER = "AIDAIT2UOQQY3AUEKVGXU"  # the SenderId moto gives every message


def ask_claude(env: dict[str, str], project: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([CLAUDE, "-p", "Clean up, please", "--output-format", "json"], env=env, cwd=project,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)


@pytest.fixture
def permission_setup(run_timeline, hook_env, project, make_queue):
    """A reply queue, the moto sender allowed, hooks installed, and a fake model that asks for rm -rf build."""
    api = FakeAnthropic(command="rm -rf build").start()
    replies = make_queue()
    (project / "build").mkdir()
    env = {**hook_env, "ANTHROPIC_BASE_URL": api.url, "TIMELINE_REPLY_QUEUE_URL": replies.url,
           "TIMELINE_REPLY_SENDERS": MOTO_SENDER, "TIMELINE_HOOK_WAIT": "60s"}
    assert run_timeline("hooks", "install", "claude", env=env).returncode == 0
    yield env, replies, api
    api.stop()


def test_a_permission_prompt_is_answered_from_the_timeline(permission_setup, project, queue, wait_until):
    env, replies, api = permission_setup
    with ended(ask_claude(env, project)) as claude:
        events: list[dict] = []
        question = question_on(queue, events, wait_until)
        assert [a["id"] for a in question["actions"]] == ["allow", "allow-session", "deny"]
        assert question["reply_to"] == replies.url and "$ rm -rf build" in question["body"]
        # A forged answer first (an action never offered), then the real one.
        replies.send_raw(reply_body(question, action="rm-rf-everything"))
        replies.send_raw(reply_body(question, action="allow"))
        out, err = claude.communicate(timeout=90)
    assert claude.returncode == 0, err
    assert not (project / "build").exists(), "the allowed command ran"
    wait_until(collect(queue, events, lambda got: any(e["title"] == "Allowed from the timeline: Bash rm -rf build"
                                                      for e in got)), timeout=20, message="the answered follow-up")


def test_a_text_reply_denies_with_its_message(permission_setup, project, queue, wait_until):
    env, replies, api = permission_setup
    with ended(ask_claude(env, project)) as claude:
        events: list[dict] = []
        question = question_on(queue, events, wait_until)
        replies.send_raw(reply_body(question, text="use make clean instead"))
        out, err = claude.communicate(timeout=90)
    assert claude.returncode == 0, err
    assert (project / "build").exists(), "the denied command did not run"
    # Claude may send other requests of its own after the denied tool's result: any request carries it.
    assert any("use make clean instead" in json.dumps(request) for request in api.requests), \
        "Claude got the deny message"


def test_no_answer_in_time_withdraws_the_question(permission_setup, project, queue, wait_until):
    env, replies, api = permission_setup
    started = time.monotonic()
    result = subprocess.run([CLAUDE, "-p", "Clean up, please"], env={**env, "TIMELINE_HOOK_WAIT": "3s"}, cwd=project,
                            capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stderr
    assert time.monotonic() - started < 30
    events: list[dict] = []
    wait_until(collect(queue, events, lambda got: any(e["title"] == "Waiting for you in the terminal: Bash rm -rf build"
                                                      for e in got) and any(e["status"] == "success" for e in got)),
               timeout=20, message="the withdrawn question and the end of the turn")
    assert (project / "build").exists()
    asked = [e for e in events if e["status"] == "needs_input"]
    assert [("actions" in e) for e in asked] == [True, False], [e["title"] for e in asked]  # asked once, withdrawn once


def test_sigterm_while_waiting_reports_the_terminal_answer(timeline_bin, permission_setup, project, queue, wait_until):
    env, replies, api = permission_setup
    payload = json.loads((Path(__file__).resolve().parents[1] / "AgentHooksTests" / "Fixtures" / "claude-captured"
                          / "PermissionRequest.json").read_text())
    payload["cwd"] = str(project)
    with ended(start_hook(timeline_bin, "claude", payload, env)) as hook:
        events: list[dict] = []
        question_on(queue, events, wait_until)
        hook.terminate()  # Claude stops the hook: the user answered in its own dialog
        started = time.monotonic()
        out, _ = hook.communicate(timeout=10)
        assert time.monotonic() - started < 3.0
        assert (hook.returncode, out) == (0, "")
    wait_until(collect(queue, events, lambda got: any(e["title"] == "Answered in the terminal: Bash rm -rf build"
                                                      for e in got)), timeout=20, message="the terminal answer")
