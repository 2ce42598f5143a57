"""`duration_text` writes durations as `timeline ask` does (Swift's DurationText.text): the same examples."""
import agent_reply


def test_largest_units_first_without_zero_parts():
    examples = {0: "0s", -5: "0s", 45: "45s", 600: "10m", 5400: "1h30m", 2592000: "30d", 90061: "1d1h1m1s"}
    for seconds, text in examples.items():
        assert agent_reply.duration_text(seconds) == text, seconds
