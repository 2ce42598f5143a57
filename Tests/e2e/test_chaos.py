"""The short chaos run (scripts/chaos.py; `make chaos` runs the long one on LocalStack): a few hundred events
through `timeline poll` on moto while it is SIGKILLed, the endpoint refuses, black-holes and throttles, and
the disk fills; nothing may be lost or duplicated and no message may near the dead-letter queue."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

import chaos  # noqa: E402
import pytest  # noqa: E402


@pytest.mark.alone  # SIGKILLs a poller whose abandoned long polls hide messages: slower cores mean more redeliveries
def test_short_chaos_run_loses_and_duplicates_nothing(timeline_bin, sqs_endpoint):
    figures = chaos.run(timeline_bin, sqs_endpoint, events_count=300, kills=3, seed=20261123, duration=30,
                        settle_timeout=90, say=lambda text: print(text, flush=True))
    print("\n".join(f"{name}: {value}" for name, value in figures.items()))
    assert chaos.failures_in(figures) == [], figures
    assert figures["stored"] == 300 and figures["lost"] == 0 and figures["duplicated"] == 0
    assert figures["max_receive_count"] < 5 and figures["dead_lettered"] == 0
