# timeline — every target is idempotent and safe on a fresh Debian 12 machine with Swift installed.
SHELL := /bin/bash
PREFIX ?= /usr/local
VENV := .venv
PY := $(VENV)/bin/python
APT_PACKAGES := libcurl4-openssl-dev libncurses-dev libsqlite3-dev libssl-dev tmux
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
RELEASE_BIN := .build/release/timeline
# Release builds link the Swift runtime and Foundation statically: the binary needs no Swift toolchain where
# it runs, starts faster, and maps less (the TUI's peak RSS with 1,000,000 events: 35 -> 29 MiB).
SWIFT_RELEASE := swift build -c release --static-swift-stdlib
# SwiftPM adds -color-diagnostics to every compile when its output is a terminal, and a changed command line
# recompiles every module: a build with nothing changed cost minutes when the last one had run the other way
# (a terminal, then a pipe, or back). Through a pipe, always, the command line never changes.
NOT_A_TTY := 2>&1 | cat
.SHELLFLAGS := -o pipefail -c
export TIMELINE_SHARED ?= $(abspath ../shared)

.PHONY: all deps apt-deps venv build debug test swift-test python-test e2e-test test-localstack bench chaos localstack-venv demo docs install clean

all: build

## deps: system packages (apt) and the Python virtual environment
deps: apt-deps venv

apt-deps:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing: $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

venv: $(VENV)/.installed

$(VENV)/.installed: agent-tool/requirements.txt requirements-dev.txt
	@[ -x $(PY) ] || python3 -m venv --system-site-packages $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r agent-tool/requirements.txt -r requirements-dev.txt
	@touch $@

## build: the release binary
build: apt-deps
	$(SWIFT_RELEASE) --product timeline $(NOT_A_TTY)

## test: everything CI runs — Swift unit and integration tests, Python tests, end-to-end tests
test: deps build
	scripts/with-sqs-server.sh swift test $(NOT_A_TTY)
	scripts/with-sqs-server.sh $(PY) -m pytest -q -n 4 --dist loadgroup agent-tool/tests Tests/e2e

## unit: the tests that need no server and no terminal, for the edit-test loop (seconds after a build).
## A dead SQS endpoint makes a test that needs a server fail here at once instead of starting one.
.PHONY: unit
UNIT_SWIFT := TimelineCoreTests|AgentHooksTests|AttentionTests|SigV4Tests|TimelineStoreTests|TimelineUITests|CLITests|IngestTests\.BackoffTests|SQSClientTests\.(CredentialChainTests|CredentialInvalidationTests|CurlTransportTests)
UNIT_PYTHON := agent-tool/tests/test_examples.py agent-tool/tests/test_network_address.py agent-tool/tests/test_long_task_clock.py agent-tool/tests/test_sqs_connection.py
UNIT_ENV := TIMELINE_TEST_SQS_ENDPOINT=http://127.0.0.1:9
unit: venv
	swift build --build-tests $(NOT_A_TTY)
	$(UNIT_ENV) swift test --skip-build --filter '$(UNIT_SWIFT)'
	$(UNIT_ENV) $(PY) -m pytest -q $(UNIT_PYTHON)
## test-localstack: FIFO, SNS fan-out (timeline setup) and 900 KB messages against LocalStack (needs the
## LocalStack venv, Python 3.13: not part of `make test`, which must pass on a fresh clone without it).
test-localstack: deps build localstack-venv
	TIMELINE_TEST_LOCALSTACK=1 $(PY) -m pytest -q Tests/e2e/test_localstack_queues.py

## bench: prints figures (asserts nothing): store and TUI (1,000 and 1,000,000 events), then on a local
## LocalStack SQS: drain 10,000 messages (timeline vs boto3) and publish -> stored latency, then the real
## binary in a terminal: publish -> on screen, idle CPU and wake-ups (60 s), cold start, CJK search, then a
## reporting hook's whole process (hooks); the store at 10,000,000 events of a realistic mix (scale); last,
## the table of figures, each beside its target.
## TIMELINE_BENCH_ONLY picks parts: tui,store,json,drain,latency,onscreen,idle,coldstart,cjk,hooks,live,sustained,prune,scale
## (json: 10,000 SQS ReceiveMessage answers parsed; live: the store's live write path on 10 fleets' traffic, no SQS;
## sustained: 1,000 events/s from 50 publishers into the TUI
## for 5 min, TIMELINE_BENCH_SUSTAINED_SECONDS shortens it; prune: 90 % of a 10M history beside the TUI,
## TIMELINE_BENCH_PRUNE_EVENTS sets the size, the history is kept under .build/bench/; scale: built once
## under .build/scale/, TIMELINE_BENCH_SCALE_EVENTS sets the size).
BENCH_LOG := .build/bench.log
bench: deps build localstack-venv
	$(SWIFT_RELEASE) --product TimelineBench $(NOT_A_TTY)
	set -o pipefail; { .build/release/TimelineBench && \
	  $(PY) bench/sqs_benches.py --timeline $(RELEASE_BIN) --localstack-python $(LOCALSTACK_VENV)/bin/python && \
	  $(PY) bench/terminal_benches.py --timeline $(RELEASE_BIN) && \
	  $(PY) bench/hook_bench.py --timeline $(RELEASE_BIN) && \
	  $(PY) bench/live_ingest_bench.py --bench .build/release/TimelineBench && \
	  $(PY) bench/sustained_bench.py --timeline $(RELEASE_BIN) --localstack-python $(LOCALSTACK_VENV)/bin/python && \
	  $(PY) bench/prune_bench.py --timeline $(RELEASE_BIN) && \
	  $(PY) bench/scale_bench.py --timeline $(RELEASE_BIN); } 2>&1 | tee $(BENCH_LOG)
	$(PY) bench/bench_table.py $(BENCH_LOG)

## chaos: 10,000 events through `timeline poll` on LocalStack while it is SIGKILLed 5 times, the endpoint
## refuses, then black-holes, then throttles, and the disk fills once; asserts none lost or duplicated and
## prints the figures (a short variant on moto runs in `make test`: Tests/e2e/test_chaos.py).
chaos: deps build localstack-venv
	$(PY) scripts/chaos.py --timeline $(RELEASE_BIN) --localstack --localstack-python $(LOCALSTACK_VENV)/bin/python \
	  --events 10000 --kills 5

# LocalStack (the throughput server for the drain bench) in host mode needs Python >= 3.13 (3.12.1 lacks
# warnings.deprecated): pyenv's 3.13, else python3.13/python3.14 on PATH. Its own venv, apart from .venv.
LOCALSTACK_VENV := .venv-localstack
LOCALSTACK_PACKAGES := "localstack-core[base-runtime]==2026.3.0" "cbor2<6" "pyopenssl<25" "cryptography<45" service_identity

localstack-venv: $(LOCALSTACK_VENV)/.installed

$(LOCALSTACK_VENV)/.installed:
	@if [ ! -x $(LOCALSTACK_VENV)/bin/python ]; then \
	  py=""; for c in $${PYENV_ROOT:-$$HOME/.pyenv}/versions/3.13*/bin/python3.13 python3.13 python3.14; do \
	    if command -v "$$c" >/dev/null 2>&1 && "$$c" -c 'import sys; sys.exit(sys.version_info < (3, 13))' 2>/dev/null; then py="$$c"; break; fi; \
	  done; \
	  [ -n "$$py" ] || { echo "LocalStack needs Python 3.13: install it (pyenv install 3.13, or apt python3.13)"; exit 1; }; \
	  echo "creating $(LOCALSTACK_VENV) with $$py"; "$$py" -m venv $(LOCALSTACK_VENV); \
	fi
	$(LOCALSTACK_VENV)/bin/python -m pip install -q --disable-pip-version-check $(LOCALSTACK_PACKAGES)
	@touch $@

## demo: local SQS server, a simulated fleet of agents, and the TUI on that queue
demo: deps build
	scripts/demo.sh

## docs: docs/keys.md from the TUI's key bindings (TimelineUITests fail while the two differ)
docs:
	swift build --product timeline $(NOT_A_TTY)
	.build/debug/timeline help-keys --markdown > docs/keys.md

## install: the binary, the man page timeline.1 (generated from the command definitions by
## swift-argument-parser's generate-manual) and bash, zsh and fish completions, under $(DESTDIR)$(PREFIX)
GENERATED := .build/generated
install: build
	$(SWIFT_RELEASE) --product generate-manual $(NOT_A_TTY)
	rm -rf $(GENERATED) && mkdir -p $(GENERATED)
	.build/release/generate-manual $(RELEASE_BIN) --output-directory $(GENERATED)
	$(RELEASE_BIN) --generate-completion-script bash > $(GENERATED)/timeline.bash
	$(RELEASE_BIN) --generate-completion-script zsh > $(GENERATED)/_timeline
	$(RELEASE_BIN) --generate-completion-script fish > $(GENERATED)/timeline.fish
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 0755 $(RELEASE_BIN) $(DESTDIR)$(PREFIX)/bin/timeline
	install -m 0644 $(GENERATED)/timeline.1 $(DESTDIR)$(PREFIX)/share/man/man1/timeline.1
	install -m 0644 $(GENERATED)/timeline.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/timeline
	install -m 0644 $(GENERATED)/_timeline $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_timeline
	install -m 0644 $(GENERATED)/timeline.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/timeline.fish

clean:
	rm -rf .build $(VENV) .venv-localstack
