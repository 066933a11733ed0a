"""The batch's signal helpers read in-process (`ecs_zombie.batch`): SIGTERM stops a batch as Ctrl-C
does, only where its disposition is still the default and only in the main thread; cleanup holds
both signals pending until it ends. The whole-process behaviour (a batch stopped by a signal, its
workers closed) is in test_engine_signals.py."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from ecs_zombie._dask_worker import dask_setup
from ecs_zombie.batch import Stopped, _alive, deferred_signals, signal_of, stopping


def test_a_stop_by_sigterm_names_its_signal() -> None:
    """A batch stopped by SIGTERM reads as `SIGTERM` and gives its signal; a plain Ctrl-C gives SIGINT."""
    stop = Stopped(signal.SIGTERM)
    assert isinstance(stop, KeyboardInterrupt) and str(stop) == "SIGTERM" and stop.args == ("SIGTERM",)
    assert signal_of(stop) == signal.SIGTERM and signal_of(KeyboardInterrupt()) == signal.SIGINT


def test_sigterm_stops_the_batch_within_the_block_only() -> None:
    """With SIGTERM at its default, the block raises `Stopped` on it, and the default is back after."""
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    with stopping():
        handler = signal.getsignal(signal.SIGTERM)
        assert callable(handler)
        with pytest.raises(Stopped) as info:
            handler(signal.SIGTERM, None)
        assert info.value.signum == signal.SIGTERM
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


@pytest.mark.parametrize("disposition", ["handler", "ignored"])
def test_a_sigterm_the_caller_handles_is_left_alone(disposition: str) -> None:
    """A caller's own SIGTERM handler, or an ignored SIGTERM, stays as it is within the block."""
    def mine(_signum: int, _frame: Any) -> None:
        return None

    own: Callable[[int, Any], None] | signal.Handlers = mine if disposition == "handler" else signal.SIG_IGN
    previous = signal.signal(signal.SIGTERM, own)
    try:
        with stopping():
            assert signal.getsignal(signal.SIGTERM) is own
        assert signal.getsignal(signal.SIGTERM) is own
    finally:
        signal.signal(signal.SIGTERM, previous)


def _in_thread(check: Callable[[], object]) -> object:
    out: list[object] = []
    worker = threading.Thread(target=lambda: out.append(check()))
    worker.start()
    worker.join()
    return out[0]


def test_outside_the_main_thread_nothing_changes() -> None:
    """Signals arrive in the main thread only: elsewhere neither helper touches them."""
    def stop_check() -> object:
        with stopping():
            return signal.getsignal(signal.SIGTERM)

    def mask_check() -> object:
        with deferred_signals():
            return signal.pthread_sigmask(signal.SIG_BLOCK, [])

    assert _in_thread(stop_check) is signal.SIG_DFL
    assert not ({signal.SIGINT, signal.SIGTERM} & set(_in_thread(mask_check)))  # type: ignore[arg-type]


def test_cleanup_holds_both_signals_pending_until_it_ends() -> None:
    """Within `deferred_signals` SIGINT and SIGTERM are blocked (held by the mask), after it as before."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    assert not ({signal.SIGINT, signal.SIGTERM} & before)
    with deferred_signals():
        assert {signal.SIGINT, signal.SIGTERM} <= signal.pthread_sigmask(signal.SIG_BLOCK, [])
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before


def test_a_dask_worker_leaves_signals_to_the_batch() -> None:
    """The local Dask cluster's workers ignore SIGINT and SIGTERM (the batch process closes the
    cluster itself) and keep Dask's own log quiet."""
    log = logging.getLogger("distributed")
    saved = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    level = log.level
    try:
        dask_setup(None)
        assert all(signal.getsignal(s) is signal.SIG_IGN for s in saved)
        assert log.level == logging.CRITICAL
    finally:
        for s, handler in saved.items():
            signal.signal(s, handler)
        log.setLevel(level)


def test_a_worker_tells_a_gone_parent_from_a_living_one() -> None:
    """The watchdog's test: this process is alive; a child that ended is gone, whether reaped (no
    such process) or not yet (a zombie)."""
    assert _alive(os.getpid())
    reaped = subprocess.Popen([sys.executable, "-c", "pass"])
    reaped.wait()
    assert not _alive(reaped.pid)
    unreaped = subprocess.Popen([sys.executable, "-c", "pass"])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # until it has exited (a zombie: not waited for)
        with open(f"/proc/{unreaped.pid}/stat", encoding="ascii") as fh:
            if fh.read().rpartition(")")[2].split()[0] == "Z":
                break
        time.sleep(0.05)
    assert not _alive(unreaped.pid)
    unreaped.wait()
