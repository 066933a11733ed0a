"""The batch's signal helpers read in-process (`ecs_zombie.batch`): SIGTERM stops a batch as Ctrl-C
does, only where its disposition is still the default and only in the main thread; cleanup holds
both signals pending until it ends. The whole-process behaviour (a batch stopped by a signal, its
workers closed) is in test_engine_signals.py."""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import forkserver
from typing import Any

import pytest

from ecs_zombie import batch
from ecs_zombie._dask_worker import dask_setup
from ecs_zombie.batch import (
    BatchSpec,
    Stopped,
    _alive,
    _kill_pool,
    _KnownDaskComplaint,
    _quiet_dask,
    deferred_signals,
    run_batch,
    signal_of,
    stop_helpers,
    stopping,
)


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
    # It says when a hang-up would end it (a run under nohup hands it one ignored): looking must not.
    living = subprocess.Popen([sys.executable, "-c", "import signal, time; signal.signal(signal.SIGHUP, "
                               "signal.SIG_DFL); print('ready', flush=True); time.sleep(60)"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert living.stdout is not None and living.stdout.readline() == "ready\n"
        assert _alive(living.pid)
        with pytest.raises(subprocess.TimeoutExpired):
            living.wait(0.3)  # looking sends no signal that could end it
    finally:
        living.kill()
        living.wait()
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


def test_a_parent_that_cannot_be_looked_at_counts_as_alive(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker only ends itself when its parent is known gone: a process it may not signal (another
    user's, PermissionError) or whose state cannot be read counts as alive."""
    def refused(pid: int, sig: int) -> None:
        raise PermissionError

    def unreadable(*args: Any, **kw: Any) -> Any:
        raise OSError("no /proc")

    with monkeypatch.context() as m:
        m.setattr(batch.os, "kill", refused)
        assert _alive(12345)
    monkeypatch.setattr(batch, "open", unreadable, raising=False)
    assert _alive(os.getpid())


def test_a_pool_is_stopped_at_once_and_its_workers_are_gone() -> None:
    """Stopping a pool cancels what waits without waiting, kills every worker (they ignore SIGTERM)
    and returns once each is gone, the pool's manager thread joined, the thread hook put back."""
    class Pool:
        def __init__(self) -> None:
            self.calls: list[dict[str, bool]] = []
            self._executor_manager_thread = threading.Thread(target=lambda: time.sleep(0.2))
            self._executor_manager_thread.start()

        def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
            self.calls.append({"wait": wait, "cancel_futures": cancel_futures})

    workers = [subprocess.Popen([sys.executable, "-c", "import signal, time; signal.signal(signal.SIGTERM, "
                                 "signal.SIG_IGN); time.sleep(60)"]) for _ in range(2)]
    pool = Pool()
    hook = threading.excepthook
    started = time.monotonic()
    _kill_pool(pool, workers, patience=30)  # type: ignore[arg-type]
    assert time.monotonic() - started < 10
    assert pool.calls == [{"wait": False, "cancel_futures": True}]
    assert not any(_alive(w.pid) for w in workers)
    assert not pool._executor_manager_thread.is_alive() and threading.excepthook is hook
    assert [w.wait() for w in workers] == [-signal.SIGKILL] * 2
    pool._executor_manager_thread = None  # type: ignore[assignment]  # no manager to wait for: still gone
    workers = [subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]) for _ in range(4)]
    _kill_pool(pool, workers, patience=30)  # type: ignore[arg-type]
    assert not any(_alive(w.pid) for w in workers)
    assert [w.wait() for w in workers] == [-signal.SIGKILL] * 4


@pytest.fixture
def pools(monkeypatch: pytest.MonkeyPatch) -> list[ProcessPoolExecutor]:
    """Every process pool a batch starts, as it starts it."""
    made: list[ProcessPoolExecutor] = []

    class Recorded(ProcessPoolExecutor):
        def __init__(self, *args: Any, **kw: Any) -> None:
            super().__init__(*args, **kw)
            made.append(self)

    monkeypatch.setattr(batch, "ProcessPoolExecutor", Recorded)
    return made


def test_a_finished_pool_lets_its_workers_end_on_their_own(pools: list[ProcessPoolExecutor]) -> None:
    """A batch that finishes shuts its pool down and waits for it: every worker has ended by itself
    (exit status 0, not killed) when the batch's last rows are in."""
    seen: dict[int, Any] = {}
    for _rows in run_batch(BatchSpec("shambling", 6, seed=2), workers=2, chunk=1):
        seen.update(pools[0]._processes or {})  # type: ignore[attr-defined]
    assert seen and all(p.exitcode == 0 for p in seen.values())


def test_a_dask_batch_hides_only_the_known_complaint_while_it_runs() -> None:
    """While a Dask batch runs, tornado's log drops the one complaint Dask makes when a stop lands
    early (`_KnownDaskComplaint`); once the batch is over its filter is gone."""
    log = logging.getLogger("tornado.application")

    def filtering() -> bool:
        return any(isinstance(f, _KnownDaskComplaint) for f in log.filters)

    rows = run_batch(BatchSpec("shambling", 2, seed=2), workers=1, backend="dask", chunk=1)
    next(rows)
    assert filtering()
    list(rows)
    assert not filtering()


def test_a_dask_batch_closes_its_client_and_cluster(monkeypatch: pytest.MonkeyPatch) -> None:
    """The local cluster a Dask batch starts, and its client, are closed when the batch ends: the
    client first (a cluster closed under a live client makes it log its lost connection)."""
    import distributed


    made: list[Any] = []

    client_when_closed: list[str] = []
    workers: list[tuple[Any, int]] = []

    class Cluster(distributed.LocalCluster):  # type: ignore[misc]
        def __init__(self, *args: Any, **kw: Any) -> None:
            super().__init__(*args, **kw)
            made.append(self)
            workers.extend((w["cls"], w["options"]["nthreads"]) for w in self.worker_spec.values())

        def close(self, *args: Any, **kw: Any) -> Any:
            client_when_closed.append(made[1].status)
            return super().close(*args, **kw)

    class Client(distributed.Client):  # type: ignore[misc]
        def __init__(self, *args: Any, **kw: Any) -> None:
            super().__init__(*args, **kw)
            made.append(self)

    windows: list[int] = []
    in_order = batch._in_order

    def counted(submit: Any, spans: Any, window: int) -> Any:
        windows.append(window)
        return in_order(submit, spans, window)

    monkeypatch.setattr(distributed, "LocalCluster", Cluster)
    monkeypatch.setattr(distributed, "Client", Client)
    monkeypatch.setattr(batch, "_in_order", counted)
    rows = [r for chunk in run_batch(BatchSpec("shambling", 4, seed=2), workers=2, backend="dask") for r in chunk]
    assert [r["game"] for r in rows] == [0, 1, 2, 3]
    cluster, client = made
    # one worker process per --workers, one game at a time each (its own process, its own signals)
    assert workers == [(distributed.Nanny, 1)] * 2
    assert windows == [6]  # README: at most three chunks per worker in flight
    assert client.status == "closed" and cluster.status.name == "closed"
    assert client_when_closed[0] == "closed"


def test_closing_a_dask_batch_quiets_dasks_log_for_that_moment() -> None:
    """Closing a cluster with work left logs every task dropped: `_quiet_dask` raises Dask's loggers
    to CRITICAL for that moment and puts their levels back."""
    names = ("distributed", "distributed.scheduler", "distributed.worker", "distributed.client", "distributed.nanny")
    loggers = [logging.getLogger(n) for n in names]
    before = [lg.level for lg in loggers]
    loggers[1].setLevel(logging.INFO)
    try:
        with _quiet_dask():
            assert all(lg.level == logging.CRITICAL for lg in loggers)
        assert loggers[1].level == logging.INFO
    finally:
        for lg, level in zip(loggers, before, strict=True):
            lg.setLevel(level)


def test_a_batch_stopped_midway_kills_every_worker_it_started(monkeypatch: pytest.MonkeyPatch,
                                                              pools: list[ProcessPoolExecutor]) -> None:
    """A batch closed before its end (Ctrl-C, an error in the caller) does not leave its workers
    playing on: each worker the pool started is killed and gone when the batch returns."""
    killed: list[list[int]] = []
    real_kill = _kill_pool

    def kill(pool: ProcessPoolExecutor, processes: list[Any], patience: float = 10.0) -> None:
        killed.append(sorted(p.pid for p in processes))
        real_kill(pool, processes, patience)

    monkeypatch.setattr(batch, "_kill_pool", kill)
    rows = run_batch(BatchSpec("shambling", 400, seed=2), workers=2, chunk=1)
    next(rows)
    workers = list((pools[0]._processes or {}).values())  # type: ignore[attr-defined]
    rows.close()
    assert killed == [sorted(p.pid for p in workers)] and len(workers) == 2
    assert not any(_alive(p.pid) for p in workers)


def test_the_fork_server_is_stopped_when_asked() -> None:
    """`stop_helpers` stops multiprocessing's fork server at once (a command about to exit would
    otherwise wait on it); a later pool starts another. With none running it does nothing."""
    stop_helpers()
    stop_helpers()  # none running: nothing to do
    worker = multiprocessing.get_context("forkserver").Process(target=time.sleep, args=(0,))
    worker.start()
    worker.join()
    server = forkserver._forkserver._forkserver_pid  # type: ignore[attr-defined]
    assert server is not None and _alive(server)
    stop_helpers()
    assert forkserver._forkserver._forkserver_pid is None and not _alive(server)  # type: ignore[attr-defined]
