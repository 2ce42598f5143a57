#!/usr/bin/env bash
# `make demo` (after deps and build): a local SQS server (moto) on 127.0.0.1, a queue, a simulated fleet
# of agents publishing to it, a Claude Code session fed through the real `timeline hook claude` from
# recorded hook payloads (its permission prompt waits for an answer from the TUI), and `timeline tui` on
# that queue. Quitting the TUI stops the simulator and
# the server (by PID) and removes the demo's temporary directory: nothing is left running.
# When stdin/stdout are not a terminal (CI), a short non-interactive variant runs instead and exits.
set -euo pipefail
cd "$(dirname "$0")/.."

bin="${TIMELINE_BIN:-.build/release/timeline}"
python=".venv/bin/python"
[ -x "$python" ] || python="$(command -v python3)"
moto=".venv/bin/moto_server"
[ -x "$moto" ] || moto="$(command -v moto_server || true)"

if [ ! -x "$bin" ]; then
  echo "demo: $bin not found; run 'make build' first (or 'make demo', which builds it)" >&2
  exit 1
fi
if [ -z "$moto" ]; then
  echo "demo: moto_server not found; run 'make deps' (it installs moto[server] into .venv)" >&2
  exit 1
fi

workdir="$(mktemp -d -t timeline-demo-XXXXXX)"
chmod 700 "$workdir"
server_pid=""
simulator_pid=""
claude_pid=""

stop_pid() { # stop one process we started: SIGTERM, then SIGKILL after 5 s
  local pid="$1"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

cleanup() { # idempotent: runs on every exit, and once more is harmless
  stop_pid "$claude_pid"  # the waiting Claude session first, then the hook it started
  claude_pid=""
  if [ -f "$workdir/claude-hook.pid" ]; then stop_pid "$(cat "$workdir/claude-hook.pid")"; rm -f "$workdir/claude-hook.pid"; fi
  # the hooks' background sender names its pid on the second line of this file while it runs
  if [ -f "$workdir/state/timeline/spool/sender.id" ]; then
    stop_pid "$(sed -n 2p "$workdir/state/timeline/spool/sender.id")"
  fi
  stop_pid "$simulator_pid"
  simulator_pid=""
  stop_pid "$server_pid"
  server_pid=""
  rm -rf "$workdir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- local SQS server --------------------------------------------------------------------------------
port="$("$python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
endpoint="http://127.0.0.1:$port"
"$moto" -H 127.0.0.1 -p "$port" >"$workdir/moto.log" 2>&1 &
server_pid=$!
healthy=""
for _ in $(seq 1 200); do
  if "$python" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1] + "/moto-api/", timeout=1)' \
       "$endpoint" 2>/dev/null; then
    healthy=yes
    break
  fi
  if ! kill -0 "$server_pid" 2>/dev/null; then break; fi
  sleep 0.1
done
if [ -z "$healthy" ]; then
  echo "demo: the local SQS server did not start; its log:" >&2
  cat "$workdir/moto.log" >&2
  exit 1
fi

# Dummy credentials for the local server only (it checks no signatures); nothing from the user's own
# AWS setup is used or touched.
export AWS_ACCESS_KEY_ID=demo AWS_SECRET_ACCESS_KEY=demo AWS_REGION=us-east-1 AWS_DEFAULT_REGION=us-east-1
export AWS_EC2_METADATA_DISABLED=true
unset AWS_SESSION_TOKEN AWS_SECURITY_TOKEN AWS_PROFILE AWS_DEFAULT_PROFILE AWS_ENDPOINT_URL AWS_ENDPOINT_URL_SQS \
      TIMELINE_QUEUE_URL TIMELINE_DB

# The events queue, the queue the simulated agents take answers from (their reply_to), and the one the
# Claude Code session's permission prompt waits on. A received message is hidden for 5 s, not SQS's 30: a
# message that a finished `timeline drain`'s last long poll took at the server comes back for the next one.
read -r queue_url reply_queue_url claude_reply_url < <("$python" -c '
import sys, boto3
sqs = boto3.client("sqs", endpoint_url=sys.argv[1], region_name="us-east-1")
print(*(sqs.create_queue(QueueName=name, Attributes={"VisibilityTimeout": "5"})["QueueUrl"]
        for name in ("timeline-demo", "agent-replies", "claude-replies")))
' "$endpoint")
echo "demo: local SQS server $endpoint (pid $server_pid), queue $queue_url, reply queue $reply_queue_url"
db="$workdir/demo.db"
connection=(--queue-url "$queue_url" --endpoint-url "$endpoint" --region us-east-1)
# The demo's own config file: `:save` in the TUI writes there, never to the user's real one.
export TIMELINE_CONFIG="$workdir/config.toml"
# For another terminal while the demo runs: `source .build/demo.env`, then `timeline list`, `doctor`, …
mkdir -p .build
envfile=".build/demo.env"
cat >"$envfile" <<ENV
# timeline demo (pid $$): valid while it runs
export TIMELINE_QUEUE_URL=$queue_url AWS_ENDPOINT_URL_SQS=$endpoint AWS_REGION=us-east-1
export AWS_ACCESS_KEY_ID=demo AWS_SECRET_ACCESS_KEY=demo AWS_EC2_METADATA_DISABLED=true
export TIMELINE_DB=$db TIMELINE_CONFIG=$workdir/config.toml TIMELINE_REPLY_QUEUE_URL=$reply_queue_url
ENV
echo "demo: in another terminal, 'source $envfile' points timeline list, doctor, reply … at this demo"

# --- a Claude Code session through the real hook --------------------------------------------------------
# Recorded hook payloads go through `timeline hook claude` as Claude Code would run it: the hook's spool
# lives in the demo's directory, answers are accepted from moto's one SenderId (every message has it).
session_dir="agent-tool/demo/claude-session"
claude_task="claude:demo-4f1c"
claude_hook=(env TIMELINE_QUEUE_URL="$queue_url" AWS_ENDPOINT_URL_SQS="$endpoint" XDG_STATE_HOME="$workdir/state"
             TIMELINE_REPLY_QUEUE_URL="$claude_reply_url" TIMELINE_REPLY_SENDERS=AIDAIT2UOQQY3AUEKVGXU
             "$bin" hook claude)
feed_claude_session() { # the session up to its permission prompt; the prompt waits (up to 10 m) in the background
  local payload
  for payload in "$session_dir"/[1-5]-*.json; do "${claude_hook[@]}" <"$payload"; done
  (
    trap - EXIT INT TERM
    "${claude_hook[@]}" --wait 10m <"$session_dir/6-PermissionRequest.json" >"$workdir/claude-decision.json" &
    echo $! >"$workdir/claude-hook.pid"
    wait $! || true
    rm -f "$workdir/claude-hook.pid"
    echo "demo: Claude Code's permission prompt (Bash rm -rf build) got the decision:" \
         "$(cat "$workdir/claude-decision.json" 2>/dev/null || true)" >>"$workdir/claude.log"
    "${claude_hook[@]}" <"$session_dir/7-Stop.json"
  ) &
  claude_pid=$!
}

simulate=("$python" agent-tool/simulate_agents.py --queue-url "$queue_url" --endpoint-url "$endpoint"
          --reply-queue-url "$reply_queue_url")

# --- interactive: the live TUI -------------------------------------------------------------------------
if [ -t 0 ] && [ -t 1 ]; then
  "${simulate[@]}" --burst 25 --rate 3 >"$workdir/simulator.log" 2>&1 &
  simulator_pid=$!
  feed_claude_session
  echo "demo: a Claude Code session ($claude_task, pid $claude_pid) asks to run 'rm -rf build'; answer it in the TUI"
  echo "demo: simulated agents running (pid $simulator_pid, log $workdir/simulator.log); starting timeline tui"
  echo "demo: some agents will ask you something: press i to jump to one, a digit to pick an answer, y to send"
  status=0
  "$bin" tui "${connection[@]}" --db "$db" || status=$?
  [ -f "$workdir/claude.log" ] && cat "$workdir/claude.log"
  stopped="demo: stopped the simulated agents (pid $simulator_pid) and the local SQS server $endpoint"
  stopped="$stopped (pid $server_pid); removed $workdir"
  cleanup
  rm -f "$envfile"
  echo "$stopped"
  echo "demo: in the TUI, i jumps to an agent that asks, a digit picks an answer, y sends it; ? lists every key"
  exit "$status"
fi

# --- not a terminal (CI): a short run that exits --------------------------------------------------------
echo "demo: stdout is not a terminal, so instead of the interactive TUI this runs a short non-interactive"
echo "demo: variant: the simulated fleet publishes for 5 seconds, 'timeline drain' stores every message,"
echo "demo: and 'timeline list' prints the timeline. Run 'make demo' in a terminal for the live view."
"${simulate[@]}" --burst 20 --rate 8 --duration 5 --seed 1 >"$workdir/simulator.log" 2>&1 &
simulator_pid=$!
echo "demo: simulated agents running (pid $simulator_pid)"
wait "$simulator_pid" || { echo "demo: the simulator failed:" >&2; cat "$workdir/simulator.log" >&2; exit 1; }
simulator_pid=""
echo "demo: $(tail -n 1 "$workdir/simulator.log")"
"$bin" drain "${connection[@]}" --db "$db"
echo
"$bin" list --db "$db" --limit 25
echo
echo "demo: an agent asked a question; answering it as you would with i, 1, y in the TUI:"
"$bin" reply ask-deployer --action deploy --db "$db" --endpoint-url "$endpoint" --region us-east-1
"${simulate[@]}" --burst 0 --rate 0 --count 8 --seed 1 --malformed-rate 0 --questions 0 >"$workdir/simulator.log" 2>&1 \
  || { echo "demo: the simulator failed:" >&2; cat "$workdir/simulator.log" >&2; exit 1; }
"$bin" drain "${connection[@]}" --db "$db" >/dev/null
"$bin" history ask-deployer --db "$db"
echo
echo "demo: a Claude Code session through the real 'timeline hook claude' asks for permission; allowing it:"
feed_claude_session
echo "demo: Claude Code session running (pid $claude_pid)"
for _ in $(seq 1 100); do
  "$bin" drain "${connection[@]}" --db "$db" >/dev/null
  "$bin" list "task:$claude_task status:needs_input" --db "$db" | grep -q "$claude_task" && break
  sleep 0.1
done
"$bin" list "task:$claude_task" --db "$db"
"$bin" reply "$claude_task" --action allow --db "$db" --endpoint-url "$endpoint" --region us-east-1
wait "$claude_pid" || { echo "demo: the Claude Code session failed" >&2; exit 1; }
claude_pid=""
cat "$workdir/claude.log"
"$bin" drain "${connection[@]}" --db "$db" >/dev/null
"$bin" history "$claude_task" --db "$db"
echo
echo "demo: rejected messages (the simulator sends a few malformed ones on purpose):"
"$bin" rejected --db "$db"
stopped="demo: done; stopped the local SQS server $endpoint (pid $server_pid); removed $workdir"
cleanup
echo "$stopped"
