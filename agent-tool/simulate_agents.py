#!/usr/bin/env python3
"""A simulated fleet of agents publishing realistic, progressive status events (what `make demo` shows).

Several agents (deployer, code-reviewer, test-runner, doc-writer, data-pipeline, security-scanner) each
work through tasks: in_progress with rising progress, then success, warning or error; some bodies are
long and multi-line, some titles CJK or emoji; now and then a deliberately malformed message is sent raw.
With --reply-queue-url, some agents also ask a human ("Deploy billing v1.3 to prod? [Deploy] [Cancel]",
"Archive 14 emails? [Yes] [No]"), act on the answer sent from the viewer (carry on with the task asked
about, step by step, then the outcome; never ask it again), and acknowledge text messages.

    python simulate_agents.py --queue-url URL [--endpoint-url URL] [--rate 3] [--burst N]
                              [--count N | --duration S] [--seed N] [--malformed-rate 0.03]
                              [--reply-queue-url URL] [--ask-every 40] [--questions N]

Every message sent is logged on stdout, one line each:
    event <message-id> <agent> <status> [<progress>%] <title>
    malformed <message-id> <kind>
and a summary line at the end. Runs until SIGTERM/SIGINT, --count messages or --duration seconds.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from aws_errors import PublishError  # noqa: E402
from agent_reply import InvalidReply, parse_reply  # noqa: E402
from event_builder import new_event  # noqa: E402
from fleet_scenarios import (PLANNERS, Question, TaskPlan, malformed_message, one_off_note, plan_task,  # noqa: E402
                             questions)
from long_task import Task  # noqa: E402
from publish_event import publish_dict, send_raw_message  # noqa: E402
from sqs_connection import ConfigurationError, make_client, resolve_queue_url  # noqa: E402

MAX_TASKS_PER_AGENT = 2


@dataclass
class RunningTask:
    """A task in flight: its plan, its reporter, and how many steps are done."""

    plan: TaskPlan
    reporter: Task
    steps_done: int = 0


class Fleet:
    """Picks the next message: advance a running task, start a new one, a one-off info, or a malformed one."""

    def __init__(self, rng: random.Random, send_event: Callable[[dict[str, Any]], str],
                 send_raw: Callable[[str], str], log: Callable[[str], None], malformed_rate: float):
        self.rng = rng
        self.agents = list(PLANNERS)
        self.running: dict[str, list[RunningTask]] = {agent: [] for agent in self.agents}
        self._send_event = send_event
        self._send_raw = send_raw
        self._log = log
        self.malformed_rate = malformed_rate
        self.sent_events = 0
        self.sent_malformed = 0

    def step(self) -> None:
        """Send exactly one message."""
        if self.rng.random() < self.malformed_rate:
            kind, body = malformed_message(self.rng)
            message_id = self._send_raw(body)
            self.sent_malformed += 1
            self._log(f"malformed {message_id} {kind}")
            return
        agent = self.rng.choice(self.agents)
        tasks = self.running[agent]
        if tasks and (len(tasks) >= MAX_TASKS_PER_AGENT or self.rng.random() < 0.8):
            self._advance(self.rng.choice(tasks))
        elif self.rng.random() < 0.1:
            self._one_off_info(agent)
        else:
            self._start(agent)

    def _reporter(self, plan: TaskPlan) -> Task:
        def send(event: dict[str, Any]) -> str:
            message_id = self._send_event(event)
            self.sent_events += 1
            progress = f" {event['progress']}%" if "progress" in event else ""
            self._log(f"event {message_id} {event['agent_id']} {event['status']}{progress} {event['title']}")
            return message_id

        return Task(plan.title, plan.agent_id, send, category=plan.category, task_id=plan.task_id)

    def _start(self, agent: str) -> None:
        busy = {task.plan.title for task in self.running[agent]}
        plan = plan_task(agent, self.rng)
        for _ in range(5):  # two rows with one title from one agent would look like a bug
            if plan.title not in busy:
                break
            plan = plan_task(agent, self.rng)
        running = RunningTask(plan, self._reporter(plan))
        running.reporter.start(plan.start_body)
        self.running[agent].append(running)

    def _advance(self, task: RunningTask) -> None:
        plan = task.plan
        if task.steps_done < len(plan.steps):
            task.reporter.progress(plan.progress_points[task.steps_done], plan.steps[task.steps_done])
            task.steps_done += 1
            return
        task.reporter.finish(plan.outcome, plan.final_body)
        self.running[plan.agent_id].remove(task)

    def _one_off_info(self, agent: str) -> None:
        note = one_off_note(agent, self.rng)
        self._reporter(TaskPlan(agent, "ops", note, [], "info", "")).finish("info")


@dataclass
class Work:
    """What an agent does after an answer: the steps left, then the outcome event."""

    question: Question
    steps: list[str]
    done: int
    outcome: tuple[str, str, str]


class Asker:
    """Agents that ask a human: publishes questions (needs_input + actions + reply_to), checks the reply queue
    without blocking, acts on answers and acknowledges text messages.

    An agent answered carries on with the task it asked about: a follow-up event ("answered: Deploy by …"),
    one in_progress event per step of the work (one step per `step()`), then the outcome. It asks nothing
    while its question is open or its work goes on, and rests `ask_every` seconds after; its next question
    is about the next piece of work (billing v1.4 after v1.3), never the one answered."""

    def __init__(self, sqs: Any, reply_queue_url: str, send_event: Callable[[dict[str, Any]], str],
                 log: Callable[[str], None], rng: random.Random, ask_every: float,
                 clock: Callable[[], float] = time.monotonic, max_questions: int | None = None):
        self.sqs = sqs
        self.reply_queue_url = reply_queue_url
        self._send = send_event
        self._log = log
        self.rng = rng
        self.ask_every = ask_every
        self.clock = clock
        self.waiting: dict[str, tuple[Question, dict[str, Any]]] = {}  # question event id -> (question, event)
        self.working: dict[str, Work] = {}  # agent id -> the work it carries on with
        self.resting_until: dict[str, float] = {}  # agent id -> clock time it may ask again
        self.taken: set[str] = set()  # question event ids already answered (a redelivered reply is dropped)
        self.rounds = 0
        self.queue = questions(rng)
        self.next_ask = clock()
        self.answered = 0
        self.asked = 0
        self.max_questions = max_questions

    def step(self) -> None:
        """Advance the work in progress; ask the next question when due; take the replies that have arrived."""
        for agent_id in list(self.working):
            self._advance(agent_id)
        if (self.max_questions is None or self.asked < self.max_questions) and self.clock() >= self.next_ask:
            if not self.queue:  # the next round, so the demo never runs out of questions
                self.rounds += 1
                self.queue = questions(self.rng, self.rounds)
            question = next((q for q in self.queue if self._may_ask(q.agent_id)), None)
            if question is not None:
                self.queue.remove(question)
                self._ask(question)
                self.next_ask = self.clock() + (2 if len(self.waiting) < 2 else self.ask_every)
        answer = self.sqs.receive_message(QueueUrl=self.reply_queue_url, MaxNumberOfMessages=10, WaitTimeSeconds=0)
        for message in answer.get("Messages", []):
            try:
                reply = parse_reply(message["Body"])
            except InvalidReply as error:
                self._log(f"reply-ignored {error.reason}")
                reply = None
            self.sqs.delete_message(QueueUrl=self.reply_queue_url, ReceiptHandle=message["ReceiptHandle"])
            if reply is not None:
                self._take(reply)

    def _may_ask(self, agent_id: str) -> bool:
        """Not while the agent's question is open or its work goes on, nor while it rests after."""
        return (agent_id not in self.working and self.clock() >= self.resting_until.get(agent_id, 0.0)
                and not any(q.agent_id == agent_id for q, _ in self.waiting.values()))

    def _event(self, question: Question, status: str, title: str, body: str, **extra: Any) -> dict[str, Any]:
        progress = extra.pop("progress", None)
        return new_event(title, status, question.agent_id, category=question.category, body=body, progress=progress,
                         task_id=f"ask-{question.agent_id}", extra=extra or None)

    def _ask(self, question: Question) -> None:
        event = self._event(question, "needs_input", question.title, question.body, actions=question.actions,
                            reply_to=self.reply_queue_url)
        message_id = self._send(event)
        self.waiting[event["id"]] = (question, event)
        self.asked += 1
        self._log(f"ask {message_id} {question.agent_id} {question.title}")

    def _take(self, reply: Any) -> None:
        if reply.in_reply_to in self.taken:
            self._log(f"reply-ignored {reply.agent_id} already acted on the answer to {reply.in_reply_to}")
            return
        pending = self.waiting.pop(reply.in_reply_to, None)
        if pending is not None:
            question = pending[0]
        elif reply.action is not None:  # a question asked before a restart: known by its agent and action
            known = [q for q in questions(random.Random(0)) if q.agent_id == reply.agent_id and reply.action in q.outcomes]
            if not known:
                self._log(f"reply-ignored no question of {reply.agent_id} has action {reply.action}")
                return
            question = known[0]
        else:  # a text message from the agents view
            self._send(new_event(f"message from {reply.sender}: {reply.text[:200]}", "info", reply.agent_id,
                                 task_id=reply.task_id, body="Noted; thanks."))
            self._log(f"message {reply.agent_id} from {reply.sender}")
            return
        if question.agent_id in self.working:  # a second answer while it works on the first: nothing to do
            self._log(f"reply-ignored {question.agent_id} is already acting on an answer")
            return
        self.taken.add(reply.in_reply_to)
        labels = {action["id"]: action["label"] for action in question.actions}
        what = labels.get(reply.action, reply.action) if reply.action else f'"{reply.text[:60]}"'
        self._send(self._event(question, "in_progress", f"answered: {what} by {reply.sender}", question.title))
        self._log(f"answered {question.agent_id} {reply.action or 'text'} by {reply.sender}")
        outcome = question.outcomes.get(reply.action or "", ("info", f"Noted: {what}", question.title))
        self.working[question.agent_id] = Work(question, list(question.work.get(reply.action or "", [])), 0, outcome)
        if not self.working[question.agent_id].steps:
            self._advance(question.agent_id)

    def _advance(self, agent_id: str) -> None:
        """The next step of the agent's work, or its outcome when no step is left."""
        work = self.working[agent_id]
        if work.done < len(work.steps):
            progress = round(100 * (work.done + 1) / (len(work.steps) + 1))
            self._send(self._event(work.question, "in_progress", work.steps[work.done], work.question.title,
                                   progress=progress))
            work.done += 1
            return
        status, title, body = work.outcome
        self._send(self._event(work.question, status, title, body))
        del self.working[agent_id]
        self.resting_until[agent_id] = self.clock() + self.ask_every
        self.answered += 1
        self._log(f"done {agent_id} {title}")


class StopFlag:
    """Set by SIGTERM/SIGINT; the main loop checks it between messages and while pacing."""

    def __init__(self) -> None:
        self.stopped = False

    def install(self) -> None:
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, self._handle)

    def _handle(self, signum: int, frame: object) -> None:
        self.stopped = True

    def sleep(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while not self.stopped and (remaining := deadline - time.monotonic()) > 0:
            time.sleep(min(remaining, 0.1))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="simulate_agents.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--queue-url", help="queue URL (default: $TIMELINE_QUEUE_URL)")
    parser.add_argument("--endpoint-url", help="SQS endpoint (default: $AWS_ENDPOINT_URL_SQS, $AWS_ENDPOINT_URL)")
    parser.add_argument("--region", help="AWS region (default: boto3's chain, then the queue URL)")
    parser.add_argument("--rate", type=float, default=3.0, help="messages per second in total (default 3; 0 = "
                                                                "as fast as possible)")
    parser.add_argument("--burst", type=int, default=0,
                        help="send the first N messages at once (a history to look at), then pace")
    parser.add_argument("--count", type=int, help="stop after this many messages")
    parser.add_argument("--duration", type=float, help="stop after this many seconds")
    parser.add_argument("--seed", type=int, help="random seed, to repeat a run")
    parser.add_argument("--malformed-rate", type=float, default=0.03,
                        help="share of deliberately malformed messages (default 0.03)")
    parser.add_argument("--reply-queue-url", help="ask humans questions; answers come back on this queue")
    parser.add_argument("--ask-every", type=float, default=40.0,
                        help="seconds between questions once two are waiting (default 40)")
    parser.add_argument("--questions", type=int, help="ask at most this many questions (0: only take answers)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    stop = StopFlag()
    stop.install()
    try:
        queue_url = resolve_queue_url(args.queue_url)
        client = make_client(queue_url, args.endpoint_url, args.region)
    except ConfigurationError as error:
        print(f"error: {error.code}: {error}\nhint: {error.hint}", file=sys.stderr)
        return 2

    def log(line: str) -> None:
        print(line, flush=True)

    fleet = Fleet(
        random.Random(args.seed),
        send_event=lambda event: publish_dict(event, queue_url=queue_url, client=client),
        send_raw=lambda body: send_raw_message(body, queue_url=queue_url, client=client),
        log=log, malformed_rate=args.malformed_rate,
    )
    asker = None
    if args.reply_queue_url:
        asker = Asker(client, args.reply_queue_url,
                      lambda event: publish_dict(event, queue_url=queue_url, client=client), log,
                      random.Random(args.seed), args.ask_every, max_questions=args.questions)
    interval = 1.0 / args.rate if args.rate > 0 else 0.0
    started = time.monotonic()
    sent = 0
    try:
        while not stop.stopped:
            if args.count is not None and sent >= args.count:
                break
            if args.duration is not None and time.monotonic() - started >= args.duration:
                break
            began = time.monotonic()
            if asker is not None and sent >= args.burst:
                asker.step()
            fleet.step()
            sent += 1
            # jitter keeps the stream looking organic while the average rate holds
            if sent <= args.burst:
                continue
            stop.sleep(max(0.0, interval * fleet.rng.uniform(0.5, 1.5) - (time.monotonic() - began)))
    except PublishError as error:
        print(f"error: {error.code}: {error}\nhint: {error.hint}", file=sys.stderr)
        return 1
    print(f"sent {fleet.sent_events} events and {fleet.sent_malformed} malformed messages", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
