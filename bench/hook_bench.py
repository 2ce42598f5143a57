"""`make bench`'s hooks part: what an agent pays for each reporting hook, and how soon a prompt shows.

Reporting hook: `timeline hook claude` with a PostToolUse payload on stdin, run TIMELINE_BENCH_HOOK_RUNS (50)
times as Claude Code runs it (fork+exec, stdin a file, output discarded), sending to a local SQS server (moto,
one message at a time). Credentials come from a profile's `credential_process`, cached by the hook between runs
(one warm-up run fills the cache; the figures say how often the process ran). Wall time and CPU (user+system
of the child, from wait4) as p50 and p90, beside `python3 -c pass` started the same way in the same run, and
beside one SendMessage to the same server from an open boto3 client (what the server alone takes). The hooks
leave the sending to the spool's background sender (started by the first run): once the spool is empty, the
sender's own CPU is read from /proc and shown per event, and the sender is stopped.

Prompt on screen: `timeline tui` polls the same server in tmux; `timeline hook claude` starts with a
PermissionRequest payload (a fresh command each time, a reply queue and a sender allowlist: it asks on the
timeline), and the clock stops when the TUI's screen first shows that command. The hook is then stopped with
SIGTERM (as Claude stops it when its own dialog is answered), which withdraws the question.
TIMELINE_BENCH_PROMPT_RUNS (20). Asserts nothing; every process started here is stopped here.

    python bench/hook_bench.py --timeline .build/release/timeline
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "scripts"))

sys.path.insert(0, str(REPO_ROOT / "Tests" / "support"))

import sqs_server  # noqa: E402
from sqs_bench_support import REGION, child_environment, create_queue, percentile, sqs_client  # noqa: E402
from timeline_testing.tmux import Tmux  # noqa: E402

SESSION = REPO_ROOT / "agent-tool" / "demo" / "claude-session"
PAYLOAD = SESSION / "4-PostToolUse-Bash.json"
PERMISSION = SESSION / "6-PermissionRequest.json"
# moto gives every message this SenderId: the allowlist that lets the hook ask.
MOTO_SENDER = "AIDAIT2UOQQY3AUEKVGXU"


def run_once(command: list[str], stdin: Path, env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one whole process: spawn to exit, user+system time of the child."""
    with open(stdin, "rb") as source, open(os.devnull, "wb") as sink:
        actions = [(os.POSIX_SPAWN_DUP2, source.fileno(), 0), (os.POSIX_SPAWN_DUP2, sink.fileno(), 1),
                   (os.POSIX_SPAWN_DUP2, sink.fileno(), 2)]
        started = time.perf_counter()
        pid = os.posix_spawn(command[0], command, env, file_actions=actions)
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{command} exited {os.waitstatus_to_exitcode(status)}")
    return wall, usage.ru_utime + usage.ru_stime


def figures(samples: list[tuple[float, float]]) -> str:
    walls = sorted(w for w, _ in samples)
    cpus = sorted(c for _, c in samples)
    return (f"wall p50 {percentile(walls, 0.5) * 1000:.1f} ms, p90 {percentile(walls, 0.9) * 1000:.1f} ms; "
            f"CPU p50 {percentile(cpus, 0.5) * 1000:.1f} ms, p90 {percentile(cpus, 0.9) * 1000:.1f} ms")


def received(client, queue_url: str) -> int:
    """Messages taken off the queue until it is empty."""
    count = 0
    while True:
        batch = client.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=10, WaitTimeSeconds=1).get("Messages", [])
        if not batch:
            return count
        count += len(batch)
        client.delete_message_batch(QueueUrl=queue_url, Entries=[
            {"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(batch)])


def hook_environment(folder: Path, endpoint: str, queue_url: str) -> dict[str, str]:
    """A hook's environment: a profile whose `credential_process` counts its runs, a private state directory."""
    calls = folder / "credential-process-calls"
    helper = folder / "credential-process"
    helper.write_text("#!/bin/sh\necho run >>" + json.dumps(str(calls)) + "\n"
                      "printf '%s' '{\"Version\": 1, \"AccessKeyId\": \"test\", \"SecretAccessKey\": \"test\","
                      " \"SessionToken\": \"bench\", \"Expiration\": \"2099-01-01T00:00:00Z\"}'\n")
    helper.chmod(0o700)
    config = folder / "aws-config"
    config.write_text(f"[profile bench]\ncredential_process = {helper}\nregion = {REGION}\n")
    return {**base_environment(), "AWS_PROFILE": "bench", "AWS_CONFIG_FILE": str(config),
            "AWS_SHARED_CREDENTIALS_FILE": os.devnull, "AWS_EC2_METADATA_DISABLED": "true",
            "AWS_ENDPOINT_URL_SQS": endpoint, "TIMELINE_QUEUE_URL": queue_url,
            "XDG_STATE_HOME": str(folder / "state"), "TIMELINE_CONFIG": str(folder / "config.toml"),
            "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost"}


def python3_interpreter() -> str:
    """The interpreter `python3` runs, behind any shim (pyenv's is a shell script that costs more than Python)."""
    found = shutil.which("python3")
    if found is None:
        return sys.executable
    return subprocess.run([found, "-c", "import sys; print(sys.executable)"], capture_output=True, text=True,
                          check=True).stdout.strip() or found


def base_environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items()
            if not k.startswith(("AWS_", "TIMELINE_")) and k.lower() not in ("http_proxy", "https_proxy", "all_proxy")}


def send_alone(client, queue_url: str, runs: int) -> list[float]:
    """Wall seconds of one SendMessage from an open boto3 client: the server's own share of a hook run."""
    body = PAYLOAD.read_text()
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        client.send_message(QueueUrl=queue_url, MessageBody=body)
        times.append(time.perf_counter() - started)
    return sorted(times)


def run_hooks(timeline: str, endpoint: str, folder: Path, runs: int) -> None:
    client = sqs_client(endpoint)
    queue_url = create_queue(client, "hook-bench")
    calls = folder / "credential-process-calls"
    env = hook_environment(folder, endpoint, queue_url)
    base = base_environment()
    payload = folder / "PostToolUse.json"
    payload.write_text(json.dumps({**json.loads(PAYLOAD.read_text()), "cwd": str(REPO_ROOT)}))
    hook = [timeline, "hook", "claude"]
    python = [python3_interpreter(), "-c", "pass"]
    run_once(hook, payload, env)  # warm-up: fills the credential cache
    hooks, pythons = [], []
    for _ in range(runs):  # interleaved, so both see the same machine
        hooks.append(run_once(hook, payload, env))
        pythons.append(run_once(python, payload, base))
    spool = folder / "state" / "timeline" / "spool"
    deadline = time.monotonic() + 60  # the background sender sends what the hooks spooled
    while list(spool.glob("*.json")) and time.monotonic() < deadline:
        time.sleep(0.05)
    senders = background_senders(timeline, folder / "state")
    sender_cpu = sum(cpu_seconds(pid) for pid in senders)
    for pid in senders:
        os.kill(pid, signal.SIGTERM)
    server_alone = send_alone(client, queue_url, runs)
    delivered = received(client, queue_url) - runs
    spooled = len(list(spool.glob("*.json")))
    process_runs = len(calls.read_text().splitlines()) if calls.exists() else 0
    print(f"== hooks: {runs} runs of `timeline hook claude` (PostToolUse on stdin, moto {endpoint})")
    print(f"hook run (whole process): {figures(hooks)}")
    print(f"python3 -c pass (same run): {figures(pythons)}")
    print(f"background sender (sends what the hooks spool): {len(senders)} running at the end, "
          f"{sender_cpu * 1000:.1f} ms CPU in all, {sender_cpu * 1000 / (runs + 1):.2f} ms per event")
    print(f"SendMessage alone, open boto3 client (same server): p50 {percentile(server_alone, 0.5) * 1000:.1f} ms, "
          f"p90 {percentile(server_alone, 0.9) * 1000:.1f} ms")
    print(f"events on the queue {delivered} of {runs + 1}, left in the spool {spooled}, "
          f"credential_process ran {process_runs} time(s)")


def background_senders(timeline: str, state: Path) -> list[int]:
    """Pids of the `timeline hooks flush --background` processes whose state directory is `state`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            arguments = (entry / "cmdline").read_bytes().split(b"\0")
            environment = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--background" in arguments and f"XDG_STATE_HOME={state}".encode() in environment:
            found.append(int(entry.name))
    return found


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a running process (0 when it has ended)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_prompts(timeline: str, endpoint: str, folder: Path, runs: int) -> None:
    """Hook start -> the prompt on the TUI's screen, `runs` times."""
    client = sqs_client(endpoint)
    queue_url = create_queue(client, "hook-prompt-bench")
    reply_url = create_queue(client, "hook-prompt-replies")
    env = {**hook_environment(folder, endpoint, queue_url), "TIMELINE_REPLY_QUEUE_URL": reply_url,
           "TIMELINE_REPLY_SENDERS": MOTO_SENDER}
    tui = [timeline, "tui", "--queue-url", queue_url, "--endpoint-url", endpoint, "--region", REGION,
           "--db", str(folder / "prompt.db")]
    tmux = Tmux()
    shown: list[float] = []
    try:
        tmux.start(tui, env={**child_environment(), "TIMELINE_CONFIG": str(folder / "config.toml")},
                   width=160, height=40)
        if tmux.shown_at("No events yet", 30) is None:
            print(f"  the TUI did not start; screen:\n{tmux.capture()}")
            return
        for n in range(runs + 2):  # two warm-up prompts
            token = f"probe-{n:03d}-{os.urandom(4).hex()}"
            payload = folder / f"permission-{n}.json"
            payload.write_text(json.dumps({**json.loads(PERMISSION.read_text()), "cwd": str(REPO_ROOT),
                                           "session_id": f"bench-{n}", "tool_input": {"command": f"echo {token}"}}))
            with open(payload, "rb") as source, open(os.devnull, "wb") as sink:
                started = time.perf_counter()
                hook = subprocess.Popen([timeline, "hook", "claude", "--wait", "60s"], stdin=source, stdout=sink,
                                        stderr=sink, env=env)
            try:
                seen = tmux.shown_at(token, 30)
            finally:
                hook.send_signal(signal.SIGTERM)  # answered elsewhere: the hook withdraws its question
                hook.wait(timeout=30)
            if n >= 2 and seen is not None:
                shown.append(seen - started)
    finally:
        tmux.kill()
    print(f"== hooks: prompt on screen, {runs} PermissionRequest hooks while `timeline tui` polls moto in tmux")
    if shown:
        shown.sort()
        print(f"hook start -> prompt on screen: p50 {percentile(shown, 0.5) * 1000:.1f} ms, "
              f"p90 {percentile(shown, 0.9) * 1000:.1f} ms over {len(shown)} prompts"
              + (f" ({runs - len(shown)} not shown within 30 s)" if len(shown) < runs else ""))
    else:
        print("hook start -> prompt on screen: none shown within 30 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timeline", required=True)
    args = parser.parse_args()
    only = os.environ.get("TIMELINE_BENCH_ONLY")
    if only and "hooks" not in {p.strip().lower() for p in only.split(",")}:
        return
    timeline = str(Path(args.timeline).resolve())
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # the `finally` blocks stop what was started
    folder = Path(tempfile.mkdtemp(prefix="timeline-hook-bench-"))
    os.chdir(REPO_ROOT)  # the payload's cwd, as Claude Code runs its hooks in the project
    try:
        with sqs_server.MotoServer() as server:
            run_hooks(timeline, server.endpoint, folder, int(os.environ.get("TIMELINE_BENCH_HOOK_RUNS", "50")))
            if shutil.which("tmux"):
                run_prompts(timeline, server.endpoint, folder, int(os.environ.get("TIMELINE_BENCH_PROMPT_RUNS", "20")))
            else:
                print("hook start -> prompt on screen: needs tmux (make deps installs it)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
