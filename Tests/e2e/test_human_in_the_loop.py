"""Human in the loop, end to end: agents ask (agent-tool `ask()`, `publish_event.py --ask`, `timeline ask`),
the viewer answers (`timeline reply`, the TUI), replies travel over a real local SQS server or to a webhook
on loopback, and are kept in the real SQLite file."""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
AGENT_TOOL = REPO_ROOT / "agent-tool"
if str(AGENT_TOOL) not in sys.path:
    sys.path.insert(0, str(AGENT_TOOL))

from agent_reply import parse_reply  # noqa: E402
from publish_event import ask, publish_dict, receive_messages  # noqa: E402
from event_builder import new_event  # noqa: E402


@pytest.fixture
def queue(make_queue):
    """The events queue, with a short visibility timeout: an ended `timeline drain` leaves its other long polls
    (up to 1 s) at the server, and an event published in that second (an agent's "answered" follow-up) is taken
    by one and hidden for the visibility timeout (30 s by default) before the next drain can store it."""
    return make_queue(VisibilityTimeout="4")


@pytest.fixture
def reply_queue(make_queue):
    return make_queue()


def drain(run_timeline, queue, db_path):
    result = run_timeline("drain", "--queue-url", queue.url, "--endpoint-url", queue.endpoint, "--region",
                          queue.region, "--db", db_path, timeout=60)
    assert result.returncode == 0, result.stderr


def reply_args(queue, db_path):
    return ["--db", db_path, "--endpoint-url", queue.endpoint, "--region", queue.region]


def wait_for_task(run_timeline, queue, db_path, task_id, status="needs_input", timeout=20.0):
    """Drains the event queue until the task's row has `status`; returns its latest event."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        drain(run_timeline, queue, db_path)
        result = run_timeline("history", task_id, "--json", "--db", db_path)
        if result.returncode == 0:
            latest = json.loads(result.stdout.splitlines()[0])
            if latest["status"] == status:
                return latest
        time.sleep(0.3)
    pytest.fail(f"task {task_id} never reached {status}")


class AskInThread:
    """Runs agent-tool's ask() in a thread, as an agent would."""

    def __init__(self, **kwargs):
        self.result = None
        self.error = None
        self.thread = threading.Thread(target=self._run, kwargs=kwargs, daemon=True)
        self.thread.start()

    def _run(self, **kwargs):
        try:
            self.result = ask(**kwargs)
        except BaseException as error:  # noqa: BLE001 - handed to the test
            self.error = error

    def join(self, timeout=60):
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "ask() did not return"
        if self.error:
            raise self.error
        return self.result


def test_ask_gets_exactly_the_action_picked_with_timeline_reply(queue, reply_queue, sqs, run_timeline, db_path):
    agent = AskInThread(title="Deploy billing v1.3 to prod?", actions=[("deploy", "Deploy"), ("cancel", "Cancel")],
                        agent_id="deployer", task_id="deploy-billing", reply_queue_url=reply_queue.url, timeout=60,
                        queue_url=queue.url, client=sqs, reply_client=sqs)
    question = wait_for_task(run_timeline, queue, db_path, "deploy-billing")
    assert question["reply_to"] == reply_queue.url
    assert [a["id"] for a in question["actions"]] == ["deploy", "cancel"]

    sent = run_timeline("reply", "deploy-billing", "--action", "deploy", "--from", "alice@laptop",
                        *reply_args(queue, db_path))
    assert sent.returncode == 0, sent.stderr
    assert 'sent "Deploy" to queue ' + reply_queue.name in sent.stdout

    reply = agent.join()
    assert (reply.action, reply.text, reply.sender) == ("deploy", None, "alice@laptop")
    assert reply.in_reply_to == question["id"]
    follow = wait_for_task(run_timeline, queue, db_path, "deploy-billing", status="in_progress")
    assert follow["title"] == "answered: Deploy by alice@laptop"
    assert reply_queue.depth() == 0  # ask() deleted its reply


def test_a_text_reply_and_an_agents_view_message_reach_receive_messages(queue, reply_queue, sqs, run_timeline,
                                                                        db_path):
    publish_dict(new_event("Which branch should I review?", "needs_input", "reviewer", task_id="review-1",
                           extra={"reply_to": reply_queue.url}), queue_url=queue.url, client=sqs)
    wait_for_task(run_timeline, queue, db_path, "review-1")
    sent = run_timeline("reply", "review-1", "--text", "release/2.4 please", *reply_args(queue, db_path))
    assert sent.returncode == 0, sent.stderr
    [message] = list(receive_messages(agent_id="reviewer", reply_queue_url=reply_queue.url, client=sqs,
                                      wait_seconds=1, timeout=5))
    assert message.text == "release/2.4 please" and message.action is None and message.task_id == "review-1"
    assert reply_queue.depth() == 0


def test_timeline_ask_prints_the_answer_and_exits_3_on_timeout(queue, reply_queue, timeline_bin, e2e_env,
                                                               run_timeline, db_path):
    command = [timeline_bin, "ask", "--title", "Archive 14 emails?", "--action", "yes:Yes", "--action", "no:No",
               "--agent-id", "mailer", "--task-id", "archive-14", "--reply-queue-url", reply_queue.url,
               "--timeout", "60", "--queue-url", queue.url, "--endpoint-url", queue.endpoint, "--region",
               queue.region]
    asking = subprocess.Popen(command, env=e2e_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_task(run_timeline, queue, db_path, "archive-14")
        sent = run_timeline("reply", "archive-14", "--action", "yes", *reply_args(queue, db_path))
        assert sent.returncode == 0, sent.stderr
        out, err = asking.communicate(timeout=60)
    finally:
        if asking.poll() is None:
            asking.kill()
            asking.wait()
    assert (asking.returncode, out) == (0, "yes\n"), err
    follow = wait_for_task(run_timeline, queue, db_path, "archive-14", status="in_progress")
    assert follow["title"].startswith("answered: Yes by ")

    timed_out = run_timeline(*[a if a != "60" else "1" for a in command[1:]], timeout=60)
    assert timed_out.returncode == 3, timed_out.stderr
    assert timed_out.stdout == "" and "no answer in 1s" in timed_out.stderr


def test_invalid_questions_exit_2_and_send_nothing(queue, reply_queue, run_timeline):
    base = ["ask", "--title", "Deploy?", "--agent-id", "a", "--reply-queue-url", reply_queue.url,
            "--queue-url", queue.url, "--endpoint-url", queue.endpoint, "--region", queue.region]
    bad_id = run_timeline(*base, "--action", "Deploy Now:Deploy")
    assert bad_id.returncode == 2
    assert 'field "actions[0].id" must be 1-64 characters of a-z 0-9 _ . -, got "Deploy Now"' in bad_id.stderr
    no_queue = run_timeline(*[a for a in base if a != reply_queue.url and a != "--reply-queue-url"])
    assert no_queue.returncode == 2 and "TIMELINE_REPLY_QUEUE_URL" in no_queue.stderr
    assert queue.depth() == 0


def test_python_ask_command_line_exit_codes(queue, reply_queue, e2e_env):
    script = [sys.executable, str(AGENT_TOOL / "publish_event.py"), "--ask", "--title", "Deploy?", "--agent-id", "a",
              "--action", "deploy:Deploy", "--reply-queue-url", reply_queue.url, "--queue-url", queue.url,
              "--endpoint-url", queue.endpoint, "--region", queue.region]
    timed_out = subprocess.run([*script, "--timeout", "1"], env=e2e_env, capture_output=True, text=True, timeout=60)
    assert timed_out.returncode == 3, timed_out.stderr
    bad = subprocess.run([*script, "--action", "x"], env=e2e_env, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "ID:LABEL" in bad.stderr


class WebhookServer:
    """A plain HTTP server on 127.0.0.1 recording POSTs (the agent's webhook)."""

    def __init__(self, status=200):
        received = self.received = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's name)
                length = int(self.headers.get("Content-Length", "0"))
                received.append((self.path, dict(self.headers), self.rfile.read(length)))
                self.send_response(status)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d/hooks/deploy" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def test_a_webhook_action_posts_the_reply_json_to_loopback(queue, sqs, run_timeline, db_path):
    hook = WebhookServer()
    try:
        publish_dict(new_event("Approve release?", "needs_input", "releaser", task_id="rel-7",
                               extra={"actions": [{"id": "approve", "label": "Approve", "url": hook.url}]}),
                     queue_url=queue.url, client=sqs)
        question = wait_for_task(run_timeline, queue, db_path, "rel-7")
        sent = run_timeline("reply", "rel-7", "--action", "approve", "--db", db_path)
        assert sent.returncode == 0, sent.stderr
        assert f'sent "Approve" to {hook.url} (HTTP 200)' in sent.stdout
        [(path, headers, body)] = hook.received
        reply = parse_reply(body)
        assert path == "/hooks/deploy" and headers["Content-Type"] == "application/json"
        assert (reply.action, reply.in_reply_to, reply.task_id) == ("approve", question["id"], "rel-7")
        assert "Cookie" not in headers and "Authorization" not in headers
    finally:
        hook.close()


def test_a_failed_send_is_kept_and_resent_with_the_same_id(queue, sqs, run_timeline, db_path):
    missing = queue.url + "-later"
    publish_dict(new_event("Rotate keys?", "needs_input", "rotator", task_id="rotate",
                           extra={"actions": [{"id": "go", "label": "Go"}], "reply_to": missing}),
                 queue_url=queue.url, client=sqs)
    wait_for_task(run_timeline, queue, db_path, "rotate")
    failed = run_timeline("reply", "rotate", "--action", "go", *reply_args(queue, db_path))
    assert failed.returncode == 1
    assert failed.stderr.startswith('error: not sent "Go"') and "\nhint: kept as not sent" in failed.stderr, failed.stderr
    reply_id = failed.stderr.split("timeline reply --resend ")[1].split("`")[0].strip()

    sqs.create_queue(QueueName=queue.name + "-later")
    try:
        resent = run_timeline("reply", "--resend", reply_id, *reply_args(queue, db_path))
        assert resent.returncode == 0, resent.stderr
        [message] = sqs.receive_message(QueueUrl=missing, WaitTimeSeconds=2)["Messages"]
        assert parse_reply(message["Body"]).id == reply_id
    finally:
        sqs.delete_queue(QueueUrl=missing)


# ------------------------------------------------------------------------------------------ the TUI in tmux

def start_tui(tmux, timeline_bin, e2e_env, queue, db_path, *extra):
    import shlex
    command = shlex.join([timeline_bin, "tui", "--queue-url", queue.url, "--endpoint-url", queue.endpoint,
                          "--region", queue.region, "--db", db_path, "--from", "alice@laptop", *extra])
    pane = tmux.start(["sh", "-c", command + "; echo TUI-EXITED; sleep 600"], env=e2e_env, width=120, height=34)
    tmux.wait_for("FOLLOW", pane=pane, timeout=15)
    return pane


@pytest.mark.skipif(__import__("shutil").which("tmux") is None, reason="tmux is not installed")
def test_the_tui_answers_with_i_a_digit_and_y_and_the_agent_gets_exactly_that(
        tmux, timeline_bin, e2e_env, queue, reply_queue, sqs, db_path, run_timeline):
    start_tui(tmux, timeline_bin, e2e_env, queue, db_path)
    agent = AskInThread(title="Deploy billing v1.3 to prod?", actions=[("deploy", "Deploy"), ("cancel", "Cancel")],
                        agent_id="deployer", task_id="deploy-billing", reply_queue_url=reply_queue.url, timeout=90,
                        queue_url=queue.url, client=sqs, reply_client=sqs)
    tmux.wait_for("1 need you", timeout=20)
    tmux.send_keys("i")
    tmux.wait_for("[1 Deploy] [2 Cancel]", timeout=10)

    tmux.send_keys("2")  # the confirmation; anything but y cancels and sends nothing
    destination = f"to queue {reply_queue.name} (account {reply_queue.url.split('/')[-2]}, {reply_queue.endpoint.split('//')[1]})?"
    tmux.wait_for(lambda screen: 'Send "Cancel"' in screen and destination in screen and "y/N" in screen, timeout=10)
    tmux.send_keys("n")
    tmux.wait_for("cancelled: nothing sent", timeout=10)
    assert reply_queue.depth() == 0

    tmux.send_keys("1")
    tmux.wait_for(lambda screen: 'Send "Deploy"' in screen and destination in screen, timeout=10)
    tmux.send_keys("y")
    tmux.wait_for(f'sent "Deploy" to queue {reply_queue.name}', timeout=20)
    reply = agent.join()
    assert (reply.action, reply.sender) == ("deploy", "alice@laptop")
    tmux.wait_for("answered: Deploy by alice@laptop", timeout=20)  # the agent's follow-up event arrives
    tmux.send_keys("q", "q")
    tmux.wait_for("TUI-EXITED", timeout=10)

    # The reply survives a restart: the detail lists it as a local entry.
    again = start_tui(tmux, timeline_bin, e2e_env, queue, db_path, "--no-poll")
    tmux.send_keys("/", pane=again)
    tmux.type("deploy-billing", pane=again)
    tmux.send_keys("Enter", pane=again)
    tmux.wait_for(lambda screen: "filter: deploy-billing" in screen and "answered: Deploy by alice@laptop" in screen,
                  pane=again, timeout=10)  # the filtered list, its row selected
    tmux.send_keys("Enter", pane=again)
    tmux.wait_for("you answered Deploy", pane=again, timeout=10)


@pytest.mark.skipif(__import__("shutil").which("tmux") is None, reason="tmux is not installed")
def test_a_text_reply_typed_in_the_tui_reaches_receive_messages(tmux, timeline_bin, e2e_env, queue, reply_queue, sqs,
                                                               db_path):
    start_tui(tmux, timeline_bin, e2e_env, queue, db_path)
    publish_dict(new_event("Which branch should I review?", "needs_input", "reviewer", task_id="review-9",
                           extra={"reply_to": reply_queue.url}), queue_url=queue.url, client=sqs)
    tmux.wait_for("1 need you", timeout=20)
    tmux.send_keys("i")
    tmux.wait_for("r reply with text", timeout=10)
    tmux.send_keys("r")
    tmux.type("release/2.4 please")
    tmux.wait_for(f"Reply to queue {reply_queue.name}: release/2.4 please", timeout=10)
    tmux.send_keys("Enter")  # shows the text and where it goes; y sends
    tmux.wait_for('Send text "release/2.4 please"', timeout=10)
    tmux.send_keys("y")
    tmux.wait_for(f'sent "release/2.4 please" to queue {reply_queue.name}', timeout=20)
    [message] = list(receive_messages(agent_id="reviewer", reply_queue_url=reply_queue.url, client=sqs,
                                      wait_seconds=1, timeout=5))
    assert (message.text, message.sender) == ("release/2.4 please", "alice@laptop")


@pytest.mark.skipif(__import__("shutil").which("tmux") is None, reason="tmux is not installed")
def test_a_message_from_the_agents_view_reaches_receive_messages(tmux, timeline_bin, e2e_env, queue, reply_queue, sqs,
                                                                 db_path):
    start_tui(tmux, timeline_bin, e2e_env, queue, db_path)
    publish_dict(new_event("Indexing the monorepo", "in_progress", "indexer", task_id="index-1",
                           extra={"reply_to": reply_queue.url}), queue_url=queue.url, client=sqs)
    publish_dict(new_event("Nightly audit done", "success", "auditor", task_id="audit-1"), queue_url=queue.url,
                 client=sqs)
    tmux.wait_for("Nightly audit done", timeout=20)
    tmux.send_keys("A")
    tmux.wait_for(lambda screen: "indexer" in screen and "auditor" in screen and "yes" in screen, timeout=10)
    screen = tmux.capture()
    indexer = next(line for line in screen.splitlines() if "indexer" in line)
    auditor = next(line for line in screen.splitlines() if "auditor" in line)
    assert indexer.rstrip().endswith("yes") and auditor.rstrip().endswith("no")
    lines = screen.splitlines()
    auditor_first = lines.index(auditor) < lines.index(indexer)  # newest first; both sent within a second
    tmux.send_keys(*([] if auditor_first else ["j"]), "r")
    tmux.wait_for("auditor takes no messages", timeout=10)
    tmux.send_keys("j" if auditor_first else "k", "r")
    tmux.type("pause after this task")
    tmux.send_keys("Enter")
    tmux.wait_for('Send text "pause after this task"', timeout=10)
    tmux.send_keys("y")
    tmux.wait_for(f'sent "pause after this task" to queue {reply_queue.name}', timeout=20)
    [message] = list(receive_messages(agent_id="indexer", reply_queue_url=reply_queue.url, client=sqs,
                                      wait_seconds=1, timeout=5))
    assert (message.text, message.task_id, message.sender) == ("pause after this task", "index-1", "alice@laptop")
