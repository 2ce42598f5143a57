#!/usr/bin/env bash
# Runs a command with a fresh local SQS server (moto) on 127.0.0.1 and a free port, then stops it.
# The command sees TIMELINE_TEST_SQS_ENDPOINT=http://127.0.0.1:PORT.
set -euo pipefail
cd "$(dirname "$0")/.."
moto=".venv/bin/moto_server"
[ -x "$moto" ] || moto="$(command -v moto_server)"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
log=$(mktemp -t moto-XXXXXX.log)
"$moto" -H 127.0.0.1 -p "$port" >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 1 100); do
  if curl -fsS "http://127.0.0.1:$port/moto-api/" >/dev/null 2>&1; then break; fi
  kill -0 $pid 2>/dev/null || { echo "moto_server failed to start:"; cat "$log"; exit 1; }
  sleep 0.1
done
export TIMELINE_TEST_SQS_ENDPOINT="http://127.0.0.1:$port"
"$@"
