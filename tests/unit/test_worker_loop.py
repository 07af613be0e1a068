"""The worker's event loop runs what `asyncio.to_thread` hands it at once, in its own thread,
and hands the outcome back at its next turn without its wake-up pipe
(`workers.runtime.InlineLoop`)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import threading

import pytest

from workers.runtime import InlineExecutor, InlineLoop

SPEAKING: contextvars.ContextVar[str] = contextvars.ContextVar("speaking", default="en")


def run(coroutine_function):  # type: ignore[no-untyped-def]
    with asyncio.Runner(loop_factory=InlineLoop) as runner:
        runner.get_loop().set_default_executor(InlineExecutor(max_workers=1))
        return runner.run(coroutine_function())


def test_a_blocking_call_runs_in_the_loop_s_thread_and_returns_at_its_next_turn(
    monkeypatch,
) -> None:  # fmt: skip
    woken: list[str] = []
    monkeypatch.setattr(InlineLoop, "_write_to_self", lambda self: woken.append("pipe"),
                        raising=False)  # fmt: skip

    async def handler() -> tuple[str, bool, bool, list[str]]:
        turned = asyncio.Event()
        asyncio.get_running_loop().call_soon(turned.set)  # runs at the loop's next turn
        SPEAKING.set("it")
        caller = threading.get_ident()
        woken.clear()
        seen = await asyncio.to_thread(lambda: (SPEAKING.get(), threading.get_ident() == caller))
        return seen[0], seen[1], turned.is_set(), list(woken)

    # In the context of the caller, in its thread; what came meanwhile ran first; the loop's
    # wake-up pipe was not written to.
    assert run(handler) == ("it", True, True, [])


def test_what_the_call_raises_comes_out_of_the_await() -> None:
    def broken() -> None:
        raise KeyError("gone")

    async def handler() -> None:
        await asyncio.to_thread(broken)

    with pytest.raises(KeyError, match="gone"):
        run(handler)


def test_a_named_executor_is_used_as_usual() -> None:
    async def handler() -> bool:
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(pool, lambda: threading.current_thread().name
                                              != "MainThread")  # fmt: skip

    assert run(handler) is True
