"""A failure that repeats every second is logged in full once, then as one line a minute."""

from __future__ import annotations

import logging

from workers.outage import Repeats


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_failure_each_second_is_one_traceback_then_a_line_a_minute(caplog):
    clock = Clock()
    repeats = Repeats("worker w1", every=60, clock=clock)
    refused = RuntimeError("The token was rejected")
    with caplog.at_level(logging.WARNING, logger="workers.outage"):
        for second in range(130):
            clock.now = float(second)
            repeats.failed("tending", refused)
    lines = [r for r in caplog.records if r.name == "workers.outage"]
    assert len(lines) == 3, [r.getMessage() for r in lines]
    assert lines[0].exc_info is not None and "tending failed" in lines[0].getMessage()
    assert all(r.exc_info is None for r in lines[1:])
    assert "still fails (RuntimeError: The token was rejected), 60 more times in 60 s" in \
        lines[1].getMessage()  # fmt: skip


def test_another_failure_or_one_after_a_success_is_logged_in_full_again(caplog):
    clock = Clock()
    repeats = Repeats("worker w1", clock=clock)
    with caplog.at_level(logging.WARNING, logger="workers.outage"):
        repeats.failed("tending", RuntimeError("a"))
        repeats.failed("tending", RuntimeError("a"))
        repeats.failed("tending", ValueError("b"))
        repeats.over()
        repeats.failed("tending", ValueError("b"))
    full = [r for r in caplog.records if r.exc_info is not None]
    assert [r.exc_info[1].args[0] for r in full] == ["a", "b", "b"]
