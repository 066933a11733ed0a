"""Batches: many games of one ruleset or scenario, in parallel, streamed in game order.

Game i of a batch with seed S plays with seed `derive_seed(S, "game", i)` (the engine's stable
derivation), so every row and the summary are the same for any number of workers and any backend,
and `ecs-zombie run --seed <row's seed>` replays any single game. Work is sent in chunks of games
(one task = many games; each worker parses the YAML once), at most a few chunks in flight per
worker, and results are taken back in submission order: memory stays bounded however many games.

Signals are the parent's business. Workers ignore SIGINT and SIGTERM (a terminal's Ctrl-C, `timeout`
and SLURM signal the whole process group); the parent stops the batch (see `stopping`), kills its
workers and waits for them, so nothing outlives it. A worker whose parent vanished without that (it
was killed outright) notices within a second and exits.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import InvalidStateError, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ecs_zombie.coverage import CoverageRecorder
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.errors import GameError
from ecs_zombie.game import new_game
from ecs_zombie.rng import derive_seed
from ecs_zombie.scenario import Scenario, load_scenario

Row = dict[str, Any]
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Stopped(KeyboardInterrupt):
    """A batch stopped by a signal other than SIGINT (which raises KeyboardInterrupt itself): a
    KeyboardInterrupt, so that every path that handles Ctrl-C handles it the same way."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _raise_stopped(signum: int, _frame: Any) -> None:
    raise Stopped(signum)


@contextmanager
def stopping() -> Iterator[None]:
    """Within the block, SIGTERM stops the batch as Ctrl-C does (raising `Stopped`), where its
    disposition is still the default (termination): a handler of the caller's, or an ignored
    SIGTERM, is left alone. Only in the main thread, where signals arrive."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return
    signal.signal(signal.SIGTERM, _raise_stopped)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def signal_of(exc: KeyboardInterrupt) -> int:
    """The signal that raised `exc`: SIGINT for a plain KeyboardInterrupt."""
    return exc.signum if isinstance(exc, Stopped) else signal.SIGINT


@contextmanager
def deferred_signals() -> Iterator[None]:
    """SIGINT and SIGTERM arriving within the block take effect when it ends (held pending by the
    signal mask; the main thread only). For cleanup that must not be cut short."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@dataclass(frozen=True)
class BatchSpec:
    """What every game of the batch shares."""

    target: str
    games: int
    seed: int = 0
    policy: str = "heuristic"
    players: int | None = None
    params: dict[str, Any] = field(default_factory=dict)
    coverage: bool = False  # count decisions by option type and events (`ecs_zombie.coverage`)
    first: int = 0  # the index of the batch's first game (more games of the same study: `tune`)
    timed: tuple[str, ...] = ()  # sides whose decisions are counted and timed (`tournament`)


def game_seed(base: int, index: int) -> int:
    """The seed of game `index` of a batch seeded `base`."""
    return derive_seed(base, "game", index)


_SCENARIOS: dict[str, Scenario] = {}


def _scenario(target: str) -> Scenario:
    """The scenario each game of a batch starts from, kept per target between games. A batch's check,
    an in-process batch and each chunk a worker runs forget it first (`_SCENARIOS.pop`):
    `load_scenario` then checks every file it read for changes, so a process that plays many
    batches (in-process runs, a Dask worker) sees tables edited between them, at one look-up per
    chunk rather than per game."""
    if target not in _SCENARIOS:
        _SCENARIOS[target] = load_scenario(target)
    return _SCENARIOS[target]


def check(spec: BatchSpec, trial: bool = True) -> list[str]:
    """Validate everything before any game runs; returns the ruleset's metric names. The batch's first
    game is played here too: what only a game's own rules refuse (more players than the Director
    game's ammo box serves) is then refused once, before the batch, not in every row."""
    from ecs_zombie.arguments import check_policy_sides, check_seed, check_text

    if spec.games < 1:
        raise GameError("--games must be at least 1")
    check_seed(spec.seed)
    _SCENARIOS.pop(spec.target, None)
    game = new_game(_scenario(check_text(spec.target, "the ruleset or scenario")), game_seed(spec.seed, 0),
                    players=spec.players, params=spec.params, policy=spec.policy)
    try:
        check_policy_sides(spec.policy, game.ruleset, game.players)
        names = list(game.metrics())
        if not trial:  # the names and options checked; the batch's own check plays the game
            return names
        try:
            game.play(PolicyTable(spec.policy))
        except GameError as exc:
            raise GameError(f"the batch's first game (seed {game.seed}) is refused: {exc}") from None
        except Exception:  # a failing game is data for the batch: it becomes that game's row
            pass
        return names
    finally:
        game.close()


class Timed:
    """Wraps a policy table: counts and times the decisions of the given sides."""

    def __init__(self, policies: PolicyTable, sides: tuple[str, ...]) -> None:
        self.policies = policies
        self.sides = sides
        self.needs_tick_start = policies.needs_tick_start
        self.decisions = 0
        self.seconds = 0.0

    def choose(self, game: Any, decision: Any) -> int:
        if decision.side not in self.sides:
            return self.policies.choose(game, decision)
        start = time.perf_counter()
        try:
            return self.policies.choose(game, decision)
        finally:
            self.seconds += time.perf_counter() - start
            self.decisions += 1


def play_one(spec: BatchSpec, index: int) -> Row:
    """One game as a row; a game that raises becomes a row with its error, and the batch goes on."""
    seed = game_seed(spec.seed, index)
    row: Row = {"game": index, "seed": seed}
    game = None
    try:
        game = new_game(_scenario(spec.target), seed, players=spec.players, params=spec.params, policy=spec.policy)
        policies: Any = PolicyTable(spec.policy)
        timer = recorder = None
        if spec.timed:
            policies = timer = Timed(policies, spec.timed)
        if spec.coverage:
            policies = recorder = CoverageRecorder(policies)
        game.play(policies)
        if recorder is not None:
            row["coverage"] = recorder.result(game.events)
        if timer is not None:  # not reproducible: kept out of the summary (`tournament` reads it)
            row["timed_decisions"], row["timed_seconds"] = timer.decisions, timer.seconds
        row.update({"outcome": game.outcome, "turns": game.tick, **game.metrics()})
    except Exception as exc:  # a failing game is data for the batch, not the end of it
        row["error"] = f"{type(exc).__name__}: {exc}"
    finally:
        if game is not None:
            game.close()
    row.update(spec.params)
    return row


def run_chunk(spec: BatchSpec, start: int, stop: int) -> list[Row]:
    _SCENARIOS.pop(spec.target, None)
    return [play_one(spec, i) for i in range(start, stop)]


def _quiet_worker(parent: int | None = None) -> None:
    """Workers leave Ctrl-C and SIGTERM to the parent, which stops the batch cleanly and then them;
    with `parent`, a watchdog ends this worker once that process is gone."""
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)
    if parent is not None:
        threading.Thread(target=_watch_parent, args=(parent,), name="ecs-zombie parent watch", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a dead parent not yet reaped is a zombie: gone for our purposes
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return True


def _watch_parent(parent: int, every: float = 0.5) -> None:
    while _alive(parent):
        time.sleep(every)
    os._exit(1)


def _run_here(spec: BatchSpec, spans: list[tuple[int, int]]) -> Iterator[list[Row]]:
    """The games in this process. A stop signal takes effect between two games, never inside one
    (compiled rules are not written to be interrupted anywhere: mypyc's code can abort), and the
    games of the chunk finished before it are yielded first. A second signal acts at once, so a
    game that hangs can still be stopped."""
    _SCENARIOS.pop(spec.target, None)  # a process that plays many batches sees tables edited between them
    with _between_games() as check:
        for start, stop in spans:
            rows: list[Row] = []
            try:
                for i in range(start, stop):
                    rows.append(play_one(spec, i))
                    check()
            except KeyboardInterrupt:
                if rows:
                    yield rows
                raise
            yield rows


@contextmanager
def _between_games() -> Iterator[Callable[[], None]]:
    """Within the block, SIGINT and SIGTERM (where a Python handler is in force) are noted rather
    than acted on; `check()` acts on a noted one (calls the handler it replaced); a second signal
    acts at once. Main thread only, where signals arrive."""
    if threading.current_thread() is not threading.main_thread():
        yield lambda: None
        return
    previous: dict[int, Any] = {s: signal.getsignal(s) for s in STOP_SIGNALS}
    noted: list[int] = []

    def act(signum: int) -> None:
        previous[signum](signum, None)

    def note(signum: int, _frame: Any) -> None:
        if noted:
            act(signum)
        noted.append(signum)

    def check() -> None:
        if noted:
            act(noted[0])

    handled = [s for s, h in previous.items() if callable(h)]
    for s in handled:
        signal.signal(s, note)
    try:
        yield check
    finally:
        for s in handled:
            signal.signal(s, previous[s])


def chunks(games: int, size: int, first: int = 0) -> list[tuple[int, int]]:
    return [(first + s, first + min(s + size, games)) for s in range(0, games, size)]


def _in_order(submit: Callable[[int, int], Any], spans: list[tuple[int, int]], window: int
              ) -> Iterator[list[Row]]:
    """Submit spans with at most `window` in flight; yield results in submission order.

    On Ctrl-C, yield the chunks that already finished (in order), then re-raise."""
    pending: deque[Any] = deque()  # concurrent.futures or distributed futures: same methods
    todo = iter(spans)
    try:
        for span in todo:
            pending.append(submit(*span))
            if len(pending) >= window:
                break
        while pending:
            result = pending.popleft().result()
            for span in todo:
                pending.append(submit(*span))
                break
            yield result
    except KeyboardInterrupt:
        for fut in pending:
            if fut.done() and not fut.cancelled() and fut.exception() is None:
                yield fut.result()
            else:
                fut.cancel()
        raise


def run_local(spec: BatchSpec, workers: int, chunk: int) -> Iterator[list[Row]]:
    """The local backend: this process for one worker, a process pool otherwise."""
    spans = chunks(spec.games, chunk, spec.first)
    if workers <= 1:
        yield from _run_here(spec, spans)
        return
    # No forkserver preload: Python 3.11's fork server imports its preload before it takes this
    # process's import path, so from a folder holding another copy of ecs_zombie (a checkout) the
    # workers would run that copy. Each worker imports the package itself, once, from our path.
    ctx = multiprocessing.get_context("forkserver")
    pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=_quiet_worker, initargs=(os.getpid(),))
    started: dict[int, Any] = {}  # every worker the pool started: the pool forgets those it thinks dead

    def submit(start: int, stop: int) -> Any:
        future = pool.submit(run_chunk, spec, start, stop)
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            started.setdefault(process.pid, process)
        return future

    finished = False
    try:
        yield from _in_order(submit, spans, 3 * workers)
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            with deferred_signals():
                _kill_pool(pool, list(started.values()))


def _kill_pool(pool: ProcessPoolExecutor, processes: list[Any], patience: float = 10.0) -> None:
    """Stop a pool at once: cancel what waits, kill the workers (they may be mid-chunk; they ignore
    SIGTERM, so SIGKILL) and wait until each is gone, so that none outlives the batch. Workers are
    the fork server's children, not ours: gone is checked by pid (a zombie counts as gone)."""
    manager = getattr(pool, "_executor_manager_thread", None)
    previous_hook = threading.excepthook

    def hook(args: Any) -> None:
        # Python 3.11's pool, finding its workers dead, fails the futures it still holds, and
        # raises on those already cancelled (InvalidStateError) in its manager thread: expected here.
        if args.thread is manager and isinstance(args.exc_value, InvalidStateError):
            return
        previous_hook(args)

    threading.excepthook = hook
    try:
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            try:
                os.kill(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + patience
        for process in processes:
            while _alive(process.pid) and time.monotonic() < deadline:
                time.sleep(0.01)
        if manager is not None:
            manager.join(timeout=patience)
    finally:
        threading.excepthook = previous_hook


def stop_helpers() -> None:
    """Stop multiprocessing's fork server now, not a moment after this process exits. For a
    command about to exit once its pool is gone (the server waits for the processes it started); a
    later batch in this process starts another. (The resource tracker is left to exit with this
    process: stopped earlier, it would report the pool's semaphores as leaked.)"""
    from multiprocessing import forkserver

    stop = getattr(forkserver._forkserver, "_stop", None)
    if stop is not None:
        try:
            stop()
        except (OSError, ChildProcessError):
            pass


def run_dask(spec: BatchSpec, workers: int, chunk: int, address: str | None) -> Iterator[list[Row]]:
    """The distributed backend (Dask): a running scheduler at `address`, or a local cluster."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise GameError("the dask backend needs the distributed extra: pip install 'ecs-zombie[distributed]'") from None
    cluster = client = None
    complaint = _KnownDaskComplaint()
    tornado_log = logging.getLogger("tornado.application")
    tornado_log.addFilter(complaint)
    try:
        # Not cut short by a signal (it takes effect once the cluster is up, and closes it). The
        # local cluster's workers ignore SIGINT and SIGTERM (ecs_zombie/_dask_worker.py): signals
        # sent to the whole group (Ctrl-C, `timeout`) stop the batch here, which closes the cluster.
        with deferred_signals():
            if address:
                try:
                    client = Client(address, timeout="10s")
                except OSError as exc:
                    raise GameError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
            else:
                import dask

                # The workers' statistical profiler samples every thread's stack each 10 ms: about a
                # third of the local cluster's lag behind the process pool, for a view nobody opens.
                with dask.config.set({"distributed.worker.profile.enabled": False}):
                    cluster = LocalCluster(n_workers=max(1, workers), threads_per_worker=1, processes=True,
                                           dashboard_address=":0", preload=["ecs_zombie._dask_worker"])
                client = Client(cluster)
        n = max(1, len(client.scheduler_info().get("workers", {})) or workers)
        yield from _in_order(lambda a, b: client.submit(run_chunk, spec, a, b, pure=False),
                             chunks(spec.games, chunk, spec.first), 3 * n)
    finally:
        with deferred_signals(), _quiet_dask():
            if client is not None:
                client.close()
            if cluster is not None:
                cluster.close()
        tornado_log.removeFilter(complaint)


class _KnownDaskComplaint(logging.Filter):
    """distributed's `sync()` answers a KeyboardInterrupt by queueing a `cancel` callback that reads
    a future it may not have made yet: when the stop lands that early, the loop logs a NameError
    traceback through tornado (seen once in CI, a SIGTERM to a Dask batch under load). The batch is
    stopping and nothing is lost, so that record alone is dropped; any other is logged as usual."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if not isinstance(exc, NameError) or exc.__traceback__ is None:
            return True
        last = exc.__traceback__
        while last.tb_next is not None:
            last = last.tb_next
        code = last.tb_frame.f_code
        return not (code.co_name == "cancel" and Path(code.co_filename).parts[-2:] == ("distributed", "utils.py"))


@contextmanager
def _quiet_dask() -> Iterator[None]:
    """Closing a cluster that still has work cancels it, and Dask logs each task it drops and each
    key it can no longer gather: the batch knows (it is stopping), so that log is not shown."""
    loggers = [logging.getLogger(name) for name in ("distributed", "distributed.scheduler", "distributed.worker",
                                                     "distributed.client", "distributed.nanny")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)


BACKENDS = ("local", "dask")


def run_batch(spec: BatchSpec, workers: int = 1, backend: str = "local", address: str | None = None,
              chunk: int | None = None) -> Iterator[list[Row]]:
    if backend not in BACKENDS:
        raise GameError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    if workers < 1:
        raise GameError("--workers must be at least 1")
    size = chunk or max(1, min(200, spec.games // (8 * workers) or 1))
    if backend == "dask":
        return run_dask(spec, workers, size, address)
    return run_local(spec, workers, size)
