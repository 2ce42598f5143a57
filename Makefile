# timeline — every target is idempotent and safe on a fresh Debian 12 machine with Swift installed.
SHELL := /bin/bash
PREFIX ?= /usr/local
VENV := .venv
PY := $(VENV)/bin/python
APT_PACKAGES := libcurl4-openssl-dev libncurses-dev libsqlite3-dev libssl-dev tmux
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
RELEASE_BIN := .build/release/timeline
export TIMELINE_SHARED ?= $(abspath ../shared)

.PHONY: all deps apt-deps venv build debug test swift-test python-test e2e-test bench demo install clean

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
	swift build -c release --product timeline

## test: everything CI runs — Swift unit and integration tests, Python tests, end-to-end tests
test: deps build
	scripts/with-sqs-server.sh swift test
	scripts/with-sqs-server.sh $(PY) -m pytest -q agent-tool/tests Tests/e2e

## bench: prints figures (asserts nothing)
bench: deps build
	swift build -c release --product TimelineBench
	scripts/with-sqs-server.sh .build/release/TimelineBench

## demo: local SQS server, a simulated fleet of agents, and the TUI on that queue
demo: deps build
	scripts/demo.sh

install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(RELEASE_BIN) $(DESTDIR)$(PREFIX)/bin/timeline

clean:
	rm -rf .build $(VENV) .venv-localstack
