"""End-to-end tests of the credential chain through the real binary: a hanging credential_process never holds up
SIGTERM or `q` (and nothing of it survives), and `doctor` names the provider, the identity and the expiry.

Durations are only bounded generously (a SIGTERM answered in < 5 s while the helper would sleep 300 s).
"""

from __future__ import annotations

import json
import shlex
import signal
import socket
import subprocess
import time

from conftest import process_alive

HANGING_HELPER = "sh -c 'sleep 300 & echo $$ $! > {pids}; wait'"


def env_with_profile(e2e_env, tmp_path, profile_text: str) -> dict[str, str]:
    env = {k: v for k, v in e2e_env.items() if k not in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")}
    (tmp_path / "home" / "aws-config").write_text(profile_text)
    return env


def helper_pids(path) -> list[int]:
    return [int(word) for word in path.read_text().split()] if path.exists() and path.read_text().strip() else []


def test_sigterm_ends_poll_and_kills_a_hanging_credential_process(queue, spawn_timeline, e2e_env, tmp_path, db_path,
                                                                  wait_until):
    pids = tmp_path / "helper-pids"
    env = env_with_profile(e2e_env, tmp_path,
                           f"[default]\ncredential_process = {HANGING_HELPER.format(pids=pids)}\n")
    poller = spawn_timeline("poll", "--queue-url", queue.url, "--endpoint-url", queue.endpoint,
                            "--region", queue.region, "--db", db_path, env=env)
    wait_until(lambda: len(helper_pids(pids)) == 2, timeout=20, message=lambda: poller.output())
    started = time.monotonic()
    poller.send_signal(signal.SIGTERM)
    try:
        poller.wait(timeout=5)
    except subprocess.TimeoutExpired:
        raise AssertionError("SIGTERM was not answered within 5 s while a credential helper hangs")
    assert time.monotonic() - started < 5
    wait_until(lambda: not any(process_alive(pid) for pid in helper_pids(pids)), timeout=5,
               message=lambda: f"helper processes survive: {helper_pids(pids)}")
    # The helper is not run again after the stop (the poller has exited: what it started is all there is).
    assert len(helper_pids(pids)) == 2, helper_pids(pids)
    assert "stopped" in poller.output()


def test_quitting_the_tui_kills_a_hanging_credential_process(queue, tmux, timeline_bin, e2e_env, tmp_path, db_path,
                                                             wait_until):
    pids = tmp_path / "helper-pids"
    env = env_with_profile(e2e_env, tmp_path, f"[default]\ncredential_process = {HANGING_HELPER.format(pids=pids)}\n")
    exit_file = tmp_path / "exit-code"
    command = shlex.join([timeline_bin, "tui", "--queue-url", queue.url, "--endpoint-url", queue.endpoint,
                          "--region", queue.region, "--db", db_path])
    tmux.start(["sh", "-c", f"{command}; echo $? > {shlex.quote(str(exit_file))}; sleep 600"], env=env)
    wait_until(lambda: len(helper_pids(pids)) == 2, timeout=20, message=lambda: tmux.capture())
    started = time.monotonic()
    tmux.send_keys("q")
    wait_until(exit_file.exists, timeout=5, message=lambda: f"tui did not quit:\n{tmux.capture()}")
    assert time.monotonic() - started < 5
    wait_until(lambda: not any(process_alive(pid) for pid in helper_pids(pids)), timeout=5,
               message=lambda: f"helper processes survive the TUI: {helper_pids(pids)}")


def test_doctor_local_endpoint_needs_no_region_and_names_the_identity(queue, run_timeline, e2e_env, tmp_path,
                                                                     db_path):
    env = {k: v for k, v in e2e_env.items() if k not in ("AWS_REGION",)}
    env["AWS_ENDPOINT_URL_STS"] = queue.endpoint  # moto answers GetCallerIdentity
    env["AWS_SECRET_ACCESS_KEY"] = "doctor-secret-never-printed-0123456789"
    result = run_timeline("doctor", "--queue-url", queue.url, "--endpoint-url", queue.endpoint, "--db", db_path,
                          env=env, timeout=30)
    output = result.stdout + result.stderr
    assert "us-east-1  (from default for the local endpoint 127.0.0.1)" in output, output
    assert "from environment variables" in output
    assert "arn:aws:" in output and "GetCallerIdentity" in output, output
    assert "never (long-term keys)" in output
    assert env["AWS_SECRET_ACCESS_KEY"] not in output


def test_doctor_names_process_credentials_and_their_expiry(queue, run_timeline, e2e_env, tmp_path, db_path):
    secret = "process-secret-never-printed-0123456789"
    helper = tmp_path / "creds.py"
    helper.write_text("#!/usr/bin/env python3\nimport json, datetime\n"
                      "exp = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=50))"
                      ".strftime('%Y-%m-%dT%H:%M:%SZ')\n"
                      f"print(json.dumps({{'Version': 1, 'AccessKeyId': 'ASIAPROCESS0000TEST', "
                      f"'SecretAccessKey': '{secret}', 'SessionToken': 'tok-{secret}', 'Expiration': exp}}))\n")
    helper.chmod(0o700)
    env = env_with_profile(e2e_env, tmp_path, f"[profile work]\ncredential_process = {helper}\n")
    result = run_timeline("doctor", "--profile", "work", *["--queue-url", queue.url, "--endpoint-url", queue.endpoint,
                          "--region", queue.region, "--db", db_path], env=env, timeout=30)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "credential_process of profile \"work\"" in output
    assert "****TEST" in output and "ASIAPROCESS0000TEST" not in output
    assert "(in 49 min" in output or "(in 50 min" in output, output
    assert "not asked (local endpoint" in output
    assert secret not in output


def test_ctrl_c_during_doctor_kills_a_hanging_credential_process(queue, spawn_timeline, e2e_env, tmp_path, db_path,
                                                                 wait_until):
    """A command without its own signal handling still takes its helpers down when interrupted."""
    pids = tmp_path / "helper-pids"
    env = env_with_profile(e2e_env, tmp_path, f"[default]\ncredential_process = {HANGING_HELPER.format(pids=pids)}\n")
    doctor = spawn_timeline("doctor", "--queue-url", queue.url, "--endpoint-url", queue.endpoint,
                            "--region", queue.region, "--db", db_path, env=env)
    wait_until(lambda: len(helper_pids(pids)) == 2, timeout=20, message=lambda: doctor.output())
    doctor.send_signal(signal.SIGINT)
    try:
        code = doctor.wait(timeout=5)
    except subprocess.TimeoutExpired:
        raise AssertionError("SIGINT was not answered within 5 s while a credential helper hangs")
    assert code == -signal.SIGINT
    wait_until(lambda: not any(process_alive(pid) for pid in helper_pids(pids)), timeout=5,
               message=lambda: f"helper processes survive: {helper_pids(pids)}")


def test_tui_with_an_mfa_profile_asks_before_drawing_then_polls(queue, tmux, timeline_bin, e2e_env, tmp_path,
                                                               db_path, wait_until):
    """An assume-role profile with mfa_serial (STS from moto): the code is asked on the terminal before the
    screen is drawn, then the poller signs with the assumed role's keys and events appear."""
    (tmp_path / "home" / "aws-credentials").write_text(
        "[base]\naws_access_key_id = AKIABASEKEYE2E00001\naws_secret_access_key = base-secret\n")
    env = env_with_profile(e2e_env, tmp_path, "[profile mfa]\nrole_arn = arn:aws:iam::123456789012:role/viewer\n"
                           "source_profile = base\nmfa_serial = arn:aws:iam::123456789012:mfa/me\n")
    env["AWS_ENDPOINT_URL_STS"] = queue.endpoint
    command = shlex.join([timeline_bin, "tui", "--profile", "mfa", "--queue-url", queue.url,
                          "--endpoint-url", queue.endpoint, "--region", queue.region, "--db", db_path])
    tmux.start(["sh", "-c", f"{command}; sleep 600"], env=env)
    tmux.wait_for("Enter MFA code for arn:aws:iam::123456789012:mfa/me", timeout=15)
    tmux.type("123456")
    tmux.send_keys("Enter")
    tmux.wait_for("FOLLOW", timeout=15)
    queue.send_raw(json.dumps({"id": "mfa-1", "agent_id": "a", "task_id": "t-mfa", "title": "signed by the role",
                               "status": "info", "timestamp": "2026-11-23T10:00:00Z"}))
    tmux.wait_for("signed by the role", timeout=20)
    tmux.send_keys("q")


def test_sigterm_ends_poll_while_sts_never_answers(queue, spawn_timeline, e2e_env, tmp_path, db_path):
    """An assume-role profile whose STS endpoint accepts the connection and never answers: SIGTERM still ends
    `poll` at once (credential requests are aborted at shutdown, not left to their 30 s timeout)."""
    black_hole = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    black_hole.bind(("127.0.0.1", 0))
    black_hole.listen(64)  # connections complete in the kernel; nothing ever reads or answers
    connections = []
    try:
        (tmp_path / "home" / "aws-credentials").write_text(
            "[base]\naws_access_key_id = AKIABASEKEYE2E00002\naws_secret_access_key = base-secret\n")
        env = env_with_profile(e2e_env, tmp_path, "[default]\nrole_arn = arn:aws:iam::123456789012:role/viewer\n"
                               "source_profile = base\n")
        env["AWS_ENDPOINT_URL_STS"] = f"http://127.0.0.1:{black_hole.getsockname()[1]}"
        poller = spawn_timeline("poll", "--queue-url", queue.url, "--endpoint-url", queue.endpoint,
                                "--region", queue.region, "--db", db_path, env=env)
        # The first receive waits for credentials from STS once STS has its connection.
        black_hole.settimeout(20)
        try:
            sts_connection, _ = black_hole.accept()
        except socket.timeout:
            raise AssertionError(f"poll never asked STS for credentials:\n{poller.output()}")
        connections.append(sts_connection)
        assert poller.poll() is None, poller.output()
        started = time.monotonic()
        poller.send_signal(signal.SIGTERM)
        try:
            poller.wait(timeout=5)
        except subprocess.TimeoutExpired:
            raise AssertionError("SIGTERM was not answered within 5 s while STS hangs")
        assert time.monotonic() - started < 5
    finally:
        for connection in connections:
            connection.close()
        black_hole.close()
