"""What the simulated fleet works on: agents, task plans with their steps and outcomes, and the
deliberately malformed messages. Pure data and a random generator; no I/O."""

from __future__ import annotations

import json
import random
import uuid
from dataclasses import dataclass, field

OUTCOMES = ("success", "warning", "error")


@dataclass
class TaskPlan:
    """One task from start to outcome: a title, the step notes shown as progress rises, the final body."""

    agent_id: str
    category: str
    title: str
    steps: list[str]
    outcome: str
    final_body: str
    start_body: str | None = None
    progress_points: list[int] = field(default_factory=list)
    task_id: str | None = None


def _pick_outcome(rng: random.Random, success: float, warning: float) -> str:
    roll = rng.random()
    return "success" if roll < success else "warning" if roll < success + warning else "error"


def _progress_points(rng: random.Random, steps: int) -> list[int]:
    """Rising progress values ending below 100, one per step."""
    points = sorted(rng.sample(range(5, 96), steps))
    return points


SERVICES = ["api", "billing", "search", "auth", "notifications", "web", "ingest-worker"]
SUITES = ["unit", "integration", "e2e-browser", "contract", "load-smoke"]
DATASETS = ["orders_daily", "clickstream", "invoices", "user_events", "inventory_snapshots"]
REPOS = ["platform", "mobile-app", "data-lake", "infra-terraform", "web-frontend"]
DOC_TOPICS = ["REST API v2", "onboarding guide", "CLI reference", "runbook: paging", "SDK changelog"]
PR_TITLES = ["Add rate limiting to /search", "Refactor session storage", "Fix N+1 query in orders",
             "Bump OpenSSL to 3.0.15", "Parallelise image resizing", "Drop legacy v1 endpoints"]
CJK_TITLES = ["更新 API 文档：认证流程 📘", "ドキュメント翻訳：クイックスタート 🇯🇵", "배포 체크리스트 검토 ✅",
              "数据管道同步 📊 orders_daily"]


def _deploy(rng: random.Random) -> TaskPlan:
    service, version = rng.choice(SERVICES), f"v1.{rng.randint(2, 19)}.{rng.randint(0, 9)}"
    pods = rng.randint(3, 8)
    steps = ["building image", "pushing image to registry", "running database migrations",
             *[f"rolling out {n}/{pods} pods" for n in range(1, pods, max(1, pods // 3))]]
    outcome = _pick_outcome(rng, 0.72, 0.16)
    final = {
        "success": f"{service} {version} is live on {pods}/{pods} pods.\nhealth checks: ok\nerror rate: 0.01%",
        "warning": f"{service} {version} is live, but 1 pod restarted during rollout (OOMKilled).\n"
                   f"memory limit 512Mi reached at 14:02:11; consider raising it.",
        "error": f"Rollout of {service} {version} failed and was rolled back.\n\n"
                 + "\n".join(f"  pod {service}-{rng.randint(1000, 9999)}: CrashLoopBackOff (exit 1)"
                             for _ in range(3))
                 + "\n\nlast log lines:\n  panic: missing env DATABASE_URL\n  goroutine 1 [running]:\n"
                   "  main.main()\n      /src/cmd/server/main.go:42 +0x1d5",
    }[outcome]
    return TaskPlan("deployer", "deploy", f"Deploy {service} {version}", steps, outcome, final,
                    start_body=f"deploying {service} {version} to production ({pods} pods)")


def _review(rng: random.Random) -> TaskPlan:
    number, pr_title = rng.randint(100, 999), rng.choice(PR_TITLES)
    files = rng.randint(2, 40)
    steps = [f"reading diff ({files} files)", "checking tests", "running static analysis", "writing comments"]
    outcome = _pick_outcome(rng, 0.6, 0.3)
    final = {
        "success": f"Approved PR #{number}. Clean change, tests cover the new paths.",
        "warning": f"Requested changes on PR #{number}:\n"
                   "1. `retry()` swallows the original error; wrap it instead.\n"
                   "2. Missing test for the empty-input case.\n"
                   "3. Nit: rename `tmp2` to something meaningful.",
        "error": f"Could not review PR #{number}: merge conflict with main in src/orders/query.py.",
    }[outcome]
    return TaskPlan("code-reviewer", "code-review", f"Review PR #{number}: {pr_title}", steps, outcome, final)


def _tests(rng: random.Random) -> TaskPlan:
    suite, total = rng.choice(SUITES), rng.randint(200, 4000)
    steps = [f"{n * total // 5}/{total} tests" for n in range(1, 5)]
    outcome = _pick_outcome(rng, 0.65, 0.2)
    # Raw CI output keeps its ANSI colour codes: the viewer must show them harmlessly, never interpret them.
    failing = "\n".join(
        f"\x1b[31mFAILED\x1b[0m tests/test_{name}.py::test_{case} - AssertionError: expected 200, got 503"
        for name, case in (("orders", "refund_partial"), ("auth", "token_refresh"), ("search", "facets")))
    traceback = ("Traceback (most recent call last):\n"
                 '  File "tests/test_orders.py", line 88, in test_refund_partial\n'
                 "    assert response.status_code == 200\n"
                 "AssertionError: expected 200, got 503\n")
    final = {
        "success": f"{total} passed in {rng.randint(30, 600)}s",
        "warning": f"{total - 3} passed, 3 flaky (passed on retry):\n"
                   "  test_websocket_reconnect\n  test_cache_eviction_race\n  test_clock_skew_tolerance",
        "error": f"{total - 3} passed, 3 failed\n\n{failing}\n\n{traceback * 2}",
    }[outcome]
    return TaskPlan("test-runner", "tests", f"Run {suite} suite", steps, outcome, final)


def _docs(rng: random.Random) -> TaskPlan:
    title = rng.choice(CJK_TITLES) if rng.random() < 0.3 else f"Update docs: {rng.choice(DOC_TOPICS)}"
    steps = ["collecting changes since last release", "drafting sections", "checking links"]
    outcome = _pick_outcome(rng, 0.85, 0.12)
    final = {
        "success": "Published. 4 pages updated, 1 page added.",
        "warning": "Published with 2 broken external links:\n  https://example.com/old-guide\n"
                   "  https://example.com/v1/reference",
        "error": "Build failed: mkdocs: unknown macro `{{ api_table }}` in docs/reference.md:12",
    }[outcome]
    return TaskPlan("doc-writer", "docs", title, steps, outcome, final)


def _pipeline(rng: random.Random) -> TaskPlan:
    dataset, rows = rng.choice(DATASETS), rng.randint(100_000, 50_000_000)
    steps = ["extracting from source", f"transforming {rows:,} rows", "loading into warehouse",
             "running data quality checks"]
    outcome = _pick_outcome(rng, 0.7, 0.2)
    final = {
        "success": f"{rows:,} rows loaded into analytics.{dataset}; all 14 quality checks passed.",
        "warning": f"{rows:,} rows loaded; quality check `null_rate(customer_id) < 0.1%` "
                   f"measured 0.4% (threshold 0.1%).",
        "error": f"Load failed after {rows // 2:,} rows: warehouse quota exceeded (QuotaExceeded: "
                 f"daily slot-ms limit). Partial load rolled back.",
    }[outcome]
    return TaskPlan("data-pipeline", "etl", f"Nightly ETL {dataset}", steps, outcome, final)


def _security(rng: random.Random) -> TaskPlan:
    repo = rng.choice(REPOS)
    steps = ["resolving dependency tree", "matching advisories", "checking licences"]
    outcome = _pick_outcome(rng, 0.55, 0.35)
    final = {
        "success": f"No known vulnerabilities in {repo} ({rng.randint(150, 900)} packages).",
        "warning": f"{repo}: 2 moderate advisories\n"
                   "  GHSA-xxxx-1234: requests < 2.32.0 (moderate) — upgrade to 2.32.3\n"
                   "  GHSA-yyyy-5678: urllib3 < 2.2.2 (moderate) — upgrade to 2.2.2",
        "error": f"{repo}: 1 critical advisory — CVE-2026-0001 in libxml2 2.9.14 (remote code execution). "
                 "Blocking release.",
    }[outcome]
    return TaskPlan("security-scanner", "security", f"Dependency scan: {repo}", steps, outcome, final)


PLANNERS = {
    "deployer": _deploy,
    "code-reviewer": _review,
    "test-runner": _tests,
    "doc-writer": _docs,
    "data-pipeline": _pipeline,
    "security-scanner": _security,
}


def _slug(text: str) -> str:
    """Lower-case ASCII words of a title joined by '-', at most 40 characters ('' for non-Latin titles)."""
    words = "".join(ch.lower() if ch.isascii() and ch.isalnum() else " " for ch in text).split()
    return "-".join(words)[:40].strip("-")


def plan_task(agent_id: str, rng: random.Random) -> TaskPlan:
    """A new task plan for this agent, with rising progress points and a readable task id."""
    plan = PLANNERS[agent_id](rng)
    plan.progress_points = _progress_points(rng, len(plan.steps))
    plan.task_id = f"{_slug(plan.title) or plan.category}-{rng.getrandbits(24):06x}"
    return plan


def one_off_note(agent_id: str, rng: random.Random) -> str:
    """A one-line `info` note an agent posts between tasks."""
    notes = {
        "deployer": [f"Cache warmed on {rng.randint(4, 40)} edge nodes", "Canary analysis window opened",
                     f"Scaled ingest-worker to {rng.randint(3, 12)} replicas"],
        "code-reviewer": [f"Review queue: {rng.randint(1, 9)} PRs waiting", "Style guide rules reloaded"],
        "test-runner": [f"Test shard pool scaled to {rng.choice([8, 16, 32])} workers",
                        f"Flaky-test quarantine list: {rng.randint(2, 11)} tests"],
        "doc-writer": ["Spell-check dictionary updated", f"Link checker found {rng.randint(0, 5)} redirects"],
        "data-pipeline": ["Source schema change detected in clickstream (new column utm_term)",
                          f"Warehouse slots at {rng.randint(35, 95)}% of quota"],
        "security-scanner": [f"Advisory database refreshed ({rng.randint(40, 400)} new entries)",
                             "Secret scanning: 0 new findings"],
    }
    return rng.choice(notes[agent_id])


def malformed_message(rng: random.Random) -> tuple[str, str]:
    """(kind, body) of a message the viewer must reject and keep in its rejected list."""
    event_id = str(uuid.uuid4())
    base = {"id": event_id, "agent_id": "legacy-bot", "task_id": f"legacy-{event_id[:8]}",
            "title": "Legacy bot heartbeat", "status": "info", "timestamp": "2026-11-22T03:04:05Z"}
    kind = rng.choice(["bad-json", "unknown-status", "missing-field", "wrong-type"])
    if kind == "bad-json":
        return kind, json.dumps(base)[:-12]  # cut off mid-string
    if kind == "unknown-status":
        return kind, json.dumps({**base, "status": "done"})
    if kind == "missing-field":
        return kind, json.dumps({key: value for key, value in base.items() if key != "task_id"})
    return kind, json.dumps({**base, "progress": "50%"})


@dataclass
class Question:
    """A question an agent asks a human (needs_input) and what it does with each answer."""

    agent_id: str
    category: str
    title: str
    body: str
    actions: list[dict[str, str]]
    # action id -> (status, title, body) of the event the agent sends once it has acted on the answer
    outcomes: dict[str, tuple[str, str, str]]
    # action id -> the steps the agent carries on with (one in_progress event each) before that outcome;
    # an action without steps (a refusal) goes straight to its outcome
    work: dict[str, list[str]] = field(default_factory=dict)


def questions(rng: random.Random, round_: int = 0) -> list[Question]:
    """The questions of the demo, in the order they are asked (the first two are the issue's examples).
    Each later `round_` asks about the next piece of work (billing v1.4 after v1.3), never the one answered."""
    version = f"v1.{3 + round_}"
    deploy = Question(
        "deployer", "deploy", f"Deploy billing {version} to prod?",
        "Staging soak passed (24h, error rate 0.01%).\nChange: invoice rounding fix, 3 migrations.\n"
        "Press i to jump here, then a digit to answer.",
        [{"id": "deploy", "label": "Deploy", "style": "primary"},
         {"id": "cancel", "label": "Cancel", "style": "danger"}],
        {"deploy": ("success", f"Deployed billing {version} to prod", f"billing {version} is live on 6/6 pods."),
         "cancel": ("info", f"Deploy of billing {version} cancelled", "Nothing was changed in prod.")},
        {"deploy": ["Running 3 migrations", "Rolling out to 6 pods", "Checking health on 6/6 pods"]})
    archive = Question(
        "mail-triager", "email", "Archive 14 emails?",
        "14 newsletters older than 30 days in the support inbox.",
        [{"id": "yes", "label": "Yes"}, {"id": "no", "label": "No"}],
        {"yes": ("success", "Archived 14 emails", "Support inbox: 14 newsletters archived."),
         "no": ("info", "Kept 14 emails", "Nothing archived.")},
        {"yes": ["Archiving 14 emails"]})
    rotate = Question(
        "security-scanner", "security", f"Rotate {rng.choice(['api', 'billing', 'search'])} database password?",
        "The current password is 91 days old (policy: 90).",
        [{"id": "rotate", "label": "Rotate now", "style": "primary"}, {"id": "later", "label": "Tomorrow"}],
        {"rotate": ("success", "Database password rotated", "New secret stored; 4 services restarted."),
         "later": ("info", "Password rotation postponed to tomorrow", "Reminder set.")},
        {"rotate": ["Generating a new secret", "Restarting 4 services"]})
    return [deploy, archive, rotate]
