"""Batches: many games of one ruleset or scenario, in parallel, streamed in game order.

Game i of a batch with seed S plays with seed `derive_seed(S, "game", i)` (the engine's stable
derivation), so every row and the summary are the same for any number of workers and any backend,
and `ecs-zombie run --seed <row's seed>` replays any single game. Work is sent in chunks of games
(one task = many games; each worker parses the YAML once), at most a few chunks in flight per
worker, and results are taken back in submission order: memory stays bounded however many games.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ecs_zombie.decisions import PolicyTable
from ecs_zombie.errors import GameError
from ecs_zombie.game import new_game
from ecs_zombie.rng import derive_seed
from ecs_zombie.scenario import Scenario, load_scenario

Row = dict[str, Any]


@dataclass(frozen=True)
class BatchSpec:
    """What every game of the batch shares."""

    target: str
    games: int
    seed: int = 0
    policy: str = "heuristic"
    players: int | None = None
    params: dict[str, Any] = field(default_factory=dict)


def game_seed(base: int, index: int) -> int:
    """The seed of game `index` of a batch seeded `base`."""
    return derive_seed(base, "game", index)


_SCENARIOS: dict[str, Scenario] = {}


def _scenario(target: str) -> Scenario:
    if target not in _SCENARIOS:
        _SCENARIOS[target] = load_scenario(target)
    return _SCENARIOS[target]


def check(spec: BatchSpec) -> list[str]:
    """Validate everything before any game runs; returns the ruleset's metric names."""
    if spec.games < 1:
        raise GameError("--games must be at least 1")
    game = new_game(_scenario(spec.target), 0, players=spec.players, params=spec.params, policy=spec.policy)
    try:
        return list(game.metrics())
    finally:
        game.close()


def play_one(spec: BatchSpec, index: int) -> Row:
    """One game as a row; a game that raises becomes a row with its error, and the batch goes on."""
    seed = game_seed(spec.seed, index)
    row: Row = {"game": index, "seed": seed}
    game = None
    try:
        game = new_game(_scenario(spec.target), seed, players=spec.players, params=spec.params, policy=spec.policy)
        game.play(PolicyTable(spec.policy))
        row.update({"outcome": game.outcome, "turns": game.tick, **game.metrics()})
    except Exception as exc:  # a failing game is data for the batch, not the end of it
        row["error"] = f"{type(exc).__name__}: {exc}"
    finally:
        if game is not None:
            game.close()
    row.update(spec.params)
    return row


def run_chunk(spec: BatchSpec, start: int, stop: int) -> list[Row]:
    return [play_one(spec, i) for i in range(start, stop)]


def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the parent, which stops the batch cleanly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def chunks(games: int, size: int) -> list[tuple[int, int]]:
    return [(s, min(s + size, games)) for s in range(0, games, size)]


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
    spans = chunks(spec.games, chunk)
    if workers <= 1:
        for start, stop in spans:
            yield run_chunk(spec, start, stop)
        return
    # No forkserver preload: Python 3.11's fork server imports its preload before it takes this
    # process's import path, so from a folder holding another copy of ecs_zombie (a checkout) the
    # workers would run that copy. Each worker imports the package itself, once, from our path.
    ctx = multiprocessing.get_context("forkserver")
    pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=_quiet_worker)
    try:
        yield from _in_order(lambda a, b: pool.submit(run_chunk, spec, a, b), spans, 3 * workers)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def run_dask(spec: BatchSpec, workers: int, chunk: int, address: str | None) -> Iterator[list[Row]]:
    """The distributed backend (Dask): a running scheduler at `address`, or a local cluster."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise GameError("the dask backend needs the distributed extra: pip install 'ecs-zombie[distributed]'") from None
    cluster = None
    if address:
        try:
            client = Client(address, timeout="10s")
        except OSError as exc:
            raise GameError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    else:
        cluster = LocalCluster(n_workers=max(1, workers), threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        n = max(1, len(client.scheduler_info().get("workers", {})) or workers)
        yield from _in_order(lambda a, b: client.submit(run_chunk, spec, a, b, pure=False),
                             chunks(spec.games, chunk), 3 * n)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


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
