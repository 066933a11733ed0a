"""Batch runs and sweeps: reproducible whatever the parallelism, honest statistics, clean failures."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ecs_zombie import Game
from ecs_zombie.balance import play_batch
from ecs_zombie.batch import BatchSpec, game_seed
from ecs_zombie.rows import RowWriter
from ecs_zombie.stats import Histogram, wilson
from tests.helpers import ROOT, run_cli


def rows_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_wilson_interval_against_known_values() -> None:
    """Reference values: statsmodels proportion_confint(method='wilson') for 5/10 and 0/10; the
    textbook example of 81 successes in 263 trials gives 0.2553 to 0.3662."""
    assert wilson(5, 10) == pytest.approx((0.236593, 0.763407), abs=1e-6)
    assert wilson(0, 10) == pytest.approx((0.0, 0.277533), abs=1e-6)
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=5e-5)
    assert wilson(10, 10) == pytest.approx((0.722467, 1.0), abs=1e-6)
    # none or all of them: the bound at that end is exactly 0 or 1, not the formula's rounding error
    assert [wilson(0, n)[0] for n in (1, 10, 100, 1000)] == [0.0] * 4
    assert [wilson(n, n)[1] for n in (1, 10, 100, 1000)] == [1.0] * 4


def test_quantiles_from_a_histogram() -> None:
    h = Histogram()
    for v in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]:
        h.add(v)
    assert (h.quantile(0.5), h.quantile(0.05), h.quantile(0.95)) == pytest.approx((5.5, 1.45, 9.55))


def test_workers_and_backends_give_identical_results(tmp_path: Path) -> None:
    """Game i's seed comes from (S, i): rows and summary are the same for 1 and 2 workers and Dask."""
    outs = {}
    for name, extra in (("one", ["--workers", "1"]), ("two", ["--workers", "2"]),
                        ("dask", ["--workers", "2", "--backend", "dask"])):
        if name == "dask":
            pytest.importorskip("distributed")
        path = tmp_path / f"{name}.jsonl"
        result = run_cli("batch", "shambling", "--games", "120", "--seed", "5", "--policy", "random",
                         "--out-file", str(path), "--json", *extra)
        assert result.returncode == 0, result.stderr
        summary = json.loads(result.stdout.splitlines()[-1])
        assert summary.pop("wrote") == {"rows": str(path)}
        outs[name] = (path.read_text(), summary)
    assert outs["one"] == outs["two"] == outs["dask"]
    rows = rows_of(tmp_path / "one.jsonl")
    assert [r["game"] for r in rows] == list(range(120))


def documented_seed(base: int, index: int) -> int:
    """README, "Batches": game i of a batch seeded S plays with the seed derived from (S, "game", i)
    by the engine's SHA-256 derivation (ecs_zombie/rng.py, derive_seed): the parts joined by "/"
    after the prefix "ecs-zombie/seed/", the first 8 bytes of the digest big-endian, halved (< 2**63)."""
    digest = hashlib.sha256(f"ecs-zombie/seed/{base}/game/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


# (S, i, seed of game i): computed once from the derivation above; they must never change, or no
# published batch row can be replayed by its seed.
SEED_VECTORS = [(0, 0, 6597732518388259541), (3, 6, 1514007248482226460), (5, 119, 8760099373723923079),
                (2**63 - 1, 99999, 3708630806890437713)]


@pytest.mark.parametrize(("base", "index", "seed"), SEED_VECTORS)
def test_batch_game_seeds_are_the_documented_derivation(base: int, index: int, seed: int) -> None:
    assert documented_seed(base, index) == seed
    assert game_seed(base, index) == seed


def test_a_game_of_the_batch_is_reproduced_by_run(tmp_path: Path) -> None:
    path = tmp_path / "b.jsonl"
    assert run_cli("batch", "shambling", "--games", "8", "--seed", "3", "--out-file", str(path)).returncode == 0
    rows = rows_of(path)
    assert [r["seed"] for r in rows] == [documented_seed(3, i) for i in range(8)]
    row = rows[6]
    assert row["seed"] == 1514007248482226460
    single = json.loads(run_cli("run", "shambling", "--seed", str(row["seed"]), "--json").stdout)
    for key in ("outcome", "turns", "survivors_left", "zombies_destroyed"):
        assert single[key] == row[key]


@pytest.mark.parametrize(("param", "message"), [("nosuch=3", "unknown parameter"),
                                                 ("front_line_cap=0", "below its minimum")])
def test_parameters_are_validated_before_any_game(tmp_path: Path, param: str, message: str) -> None:
    out = tmp_path / "x.csv"
    result = run_cli("batch", "shambling", "--games", "5", "--param", param, "--out-file", str(out))
    assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr
    assert not out.exists()


def test_a_failing_game_is_recorded_and_the_batch_goes_on(tmp_path: Path, monkeypatch) -> None:
    real_play = Game.play

    def flaky(self: Game, *a, **kw):
        if self.seed % 5 == 0:
            raise RuntimeError("boom")
        return real_play(self, *a, **kw)

    monkeypatch.setattr(Game, "play", flaky)
    from ecs_zombie.cli import app

    out = tmp_path / "f.jsonl"
    result = CliRunner().invoke(app, ["batch", "shambling", "--games", "40", "--out-file", str(out), "--quiet"])
    rows = rows_of(out)
    failed = [r["seed"] for r in rows if "error" in r]
    assert result.exit_code == 1 and len(rows) == 40
    assert failed and all(s % 5 == 0 for s in failed) and all("RuntimeError: boom" in r["error"] for r in rows
                                                                if "error" in r)
    assert str(failed[0]) in result.output


def test_plots_are_valid_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "b.png"
    assert run_cli("batch", "shambling", "--games", "30", "--plot", str(png), "--quiet").returncode == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    sweep_png, out = tmp_path / "s.png", tmp_path / "s.csv"
    result = run_cli("sweep", "shambling", "--param", "front_line_cap=4..6", "--games", "20", "--plot",
                     str(sweep_png), "--out-file", str(out), "--json")
    assert result.returncode == 0, result.stderr
    assert sweep_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    summary = json.loads(result.stdout.splitlines()[-1])
    assert [p["value"] for p in summary["sweep"]] == [4, 5, 6]
    lines = out.read_text().splitlines()
    assert lines[0].startswith("game,seed,outcome,turns") and "front_line_cap" in lines[0] and len(lines) == 61


def test_no_progress_bar_when_not_a_terminal() -> None:
    result = run_cli("batch", "shambling", "--games", "20")
    assert result.returncode == 0 and result.stderr == ""


def test_summary_is_bounded_and_in_game_order(tmp_path: Path) -> None:
    """Rows arrive in game order with the documented seeds, and the summary is exactly the rows'
    figures (computed here with the standard library): the counts per outcome, the mean and the
    median number of turns."""
    spec = BatchSpec("shambling", 64, seed=2)
    writer = RowWriter(tmp_path / "r.jsonl", ["game", "seed", "outcome", "turns", "error"])
    result = play_batch(spec, out=writer)
    writer.close()
    rows = rows_of(tmp_path / "r.jsonl")
    assert [r["game"] for r in rows] == list(range(64))
    assert [r["seed"] for r in rows] == [documented_seed(2, i) for i in range(64)]
    summary = result.to_dict()
    assert summary["games"] == 64 and summary["failed"] == 0
    counted = Counter(r["outcome"] for r in rows)
    assert {k: v["count"] for k, v in summary["outcomes"].items()} == dict(counted)
    assert len(counted) == 2  # both sides win some of 64 games: the counts are not trivially one bucket
    turns = [r["turns"] for r in rows]
    assert summary["turns"]["mean"] == pytest.approx(statistics.mean(turns))
    assert summary["turns"]["median"] == statistics.median(turns)
    assert sum(h.n for h in result.summary.turns_by_outcome.values()) == 64


def test_workers_run_the_code_the_parent_runs(tmp_path: Path) -> None:
    """Started from a folder holding another `ecs_zombie` (a checkout, say), the workers still import
    the package the parent imported: the fork server must not pick it up from the working folder."""
    decoy = tmp_path / "ecs_zombie"
    decoy.mkdir()
    (decoy / "__init__.py").write_text("raise RuntimeError('the decoy ecs_zombie was imported')\n")
    code = ("from ecs_zombie.batch import BatchSpec, run_batch\n"
            "if __name__ == '__main__':\n"
            "    rows = [r for chunk in run_batch(BatchSpec('shambling', 8, seed=3), workers=2) for r in chunk]\n"
            "    assert len(rows) == 8 and not any('error' in r for r in rows), rows\n"
            "    print('ok')\n")
    script = tmp_path / "elsewhere" / "batch.py"  # as an installed command: its own folder first on the path
    script.parent.mkdir()
    script.write_text(code)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(ROOT)
    result = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr[-2000:]


def test_ctrl_c_while_rows_are_written_loses_none_of_them(tmp_path: Path) -> None:
    """Ctrl-C arriving while a chunk's rows are being written takes effect once they all are: the
    file holds exactly the games the summary counts."""

    class SlowWriter(RowWriter):
        def write(self, rows: list[dict]) -> None:
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C in the middle of writing this chunk
            for row in rows:
                super().write([row])

    spec = BatchSpec("shambling", 40, seed=2)
    writer = SlowWriter(tmp_path / "rows.jsonl", ["game"])
    result = play_batch(spec, workers=1, out=writer)
    writer.close()
    assert result.interrupted
    assert result.summary.games == len(rows_of(tmp_path / "rows.jsonl")) > 0


def test_an_ignored_ctrl_c_stays_ignored(tmp_path: Path) -> None:
    """A batch started with SIGINT ignored (a background job) is not stopped by one."""

    class SignalledWriter(RowWriter):
        def write(self, rows: list[dict]) -> None:
            os.kill(os.getpid(), signal.SIGINT)
            super().write(rows)

    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        writer = SignalledWriter(tmp_path / "rows.jsonl", ["game"])
        result = play_batch(BatchSpec("shambling", 12, seed=2), workers=1, out=writer)
        writer.close()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert not result.interrupted and result.summary.games == len(rows_of(tmp_path / "rows.jsonl")) == 12


class FakeFuture:
    """A stand-in for a concurrent.futures / Dask future in a given state."""

    def __init__(self, span: tuple[int, int], log: list[tuple[str, tuple[int, int]]], state: str = "done") -> None:
        self.span, self.log, self.state = span, log, state

    def result(self) -> list[tuple[int, int]]:
        if self.state == "interrupt":
            raise KeyboardInterrupt
        return [self.span]

    def done(self) -> bool:
        return self.state in ("done", "failed", "cancelled")

    def cancelled(self) -> bool:
        return self.state == "cancelled"

    def exception(self) -> BaseException | None:
        return RuntimeError("x") if self.state == "failed" else None

    def cancel(self) -> None:
        self.log.append(("cancel", self.span))


def test_chunks_are_taken_back_in_order_with_a_bounded_window() -> None:
    """README: at most three chunks per worker are in flight and results are taken back in order."""
    from ecs_zombie.batch import _in_order, chunks

    spans = chunks(10, 2)
    assert spans == [(0, 2), (2, 4), (4, 6), (6, 8), (8, 10)] and chunks(5, 2)[-1] == (4, 5) and chunks(0, 3) == []
    log: list[tuple[str, tuple[int, int]]] = []

    def submit(a: int, b: int) -> FakeFuture:
        log.append(("submit", (a, b)))
        return FakeFuture((a, b), log)

    gen = _in_order(submit, spans, 3)
    assert log == []
    assert next(gen) == [(0, 2)]
    assert log == [("submit", s) for s in spans[:4]]  # three in flight, one taken back, one more sent
    assert list(gen) == [[s] for s in spans[1:]] and len(log) == 5


def test_ctrl_c_yields_the_finished_chunks_in_order_and_cancels_the_rest() -> None:
    from ecs_zombie.batch import _in_order

    log: list[tuple[str, tuple[int, int]]] = []
    states = {(0, 1): "interrupt", (1, 2): "done", (2, 3): "running", (3, 4): "failed", (4, 5): "cancelled",
              (5, 6): "done"}
    gen = _in_order(lambda a, b: FakeFuture((a, b), log, states[(a, b)]), list(states), 6)
    got = []
    with pytest.raises(KeyboardInterrupt):
        for rows in gen:
            got.append(rows)
    assert got == [[(1, 2)], [(5, 6)]]
    assert log == [("cancel", (2, 3)), ("cancel", (3, 4)), ("cancel", (4, 5))]


@pytest.mark.parametrize(("games", "sizes"), [(20, [2] * 10), (5, [1] * 5), (40, [5] * 8)])
def test_batch_chunk_sizes(games: int, sizes: list[int]) -> None:
    """One worker: chunks of games / 8 (at least 1, at most 200), in game order."""
    from ecs_zombie.batch import run_batch

    got = list(run_batch(BatchSpec("shambling", games, seed=1)))
    assert [len(c) for c in got] == sizes
    assert [r["game"] for c in got for r in c] == list(range(games))


def test_the_largest_chunk_is_200_games() -> None:
    from ecs_zombie.batch import run_batch

    assert len(next(run_batch(BatchSpec("shambling", 3000, seed=1)))) == 200
    assert [len(c) for c in run_batch(BatchSpec("shambling", 7, seed=1), chunk=3)] == [3, 3, 1]


def test_batch_arguments_are_checked() -> None:
    import dataclasses

    from ecs_zombie.batch import check, run_batch
    from ecs_zombie.errors import GameError

    with pytest.raises(GameError, match="--workers must be at least 1"):
        run_batch(BatchSpec("shambling", 3), workers=0)
    with pytest.raises(GameError, match="unknown backend 'ray' \\(known: local, dask\\)"):
        run_batch(BatchSpec("shambling", 3), backend="ray")
    with pytest.raises(GameError, match="--games must be at least 1"):
        check(BatchSpec("shambling", 0))
    from ecs_zombie import new_game

    game = new_game("shambling", 0)
    assert check(BatchSpec("shambling", 1)) == list(game.metrics()) and "survivors_left" in game.metrics()
    game.close()
    spec = BatchSpec("shambling", 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.games = 4  # type: ignore[misc]
    assert (spec.seed, spec.policy, spec.players, spec.params) == (0, "heuristic", None, {})


def test_a_game_that_cannot_start_is_a_row_with_its_error_and_every_world_is_closed() -> None:
    """A failing game is data for the batch (its row carries the error), and no game of a batch
    keeps its world: memory stays flat however many games (README, "Parallel")."""
    import esper

    from ecs_zombie.batch import check, play_one

    before = set(esper.list_worlds())
    row = play_one(BatchSpec("shambling", 1, seed=3, params={"nosuch": 1}), 0)
    assert row["game"] == 0 and row["seed"] == documented_seed(3, 0)
    assert row["error"].startswith("DataError: ") and "unknown parameter 'nosuch'" in row["error"]
    assert row["nosuch"] == 1 and "outcome" not in row
    good = play_one(BatchSpec("shambling", 1, seed=3), 1)
    assert "error" not in good and good["outcome"] in ("survivors", "zombies") and good["seed"] == documented_seed(3, 1)
    check(BatchSpec("shambling", 1))
    assert set(esper.list_worlds()) == before


def test_workers_ignore_ctrl_c_and_at_most_three_chunks_per_worker_are_in_flight(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """README: workers leave Ctrl-C to the parent, which stops the batch cleanly; at most three
    chunks per worker are in flight."""
    from ecs_zombie import batch

    previous = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        batch._quiet_worker()
        assert signal.getsignal(signal.SIGINT) == signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    windows: list[int] = []

    def spy(submit: object, spans: list[tuple[int, int]], window: int) -> list[list[dict[str, object]]]:
        windows.append(window)
        return []

    monkeypatch.setattr(batch, "_in_order", spy)
    assert list(batch.run_local(BatchSpec("shambling", 4), 2, 1)) == []
    assert list(batch.run_local(BatchSpec("shambling", 4), 3, 1)) == []
    assert windows == [6, 9]


def test_a_batch_on_a_running_scheduler_gives_the_local_results(tmp_path: Path) -> None:
    """`--address`: a scheduler and two workers started by Dask's own commands, as separate
    processes (as on a real cluster, README "Batches and sweeps"), play the batch; its rows and
    summary are those of one local worker."""
    pytest.importorskip("distributed")
    env = dict(os.environ)
    if not os.environ.get("ECS_ZOMBIE_TEST_INSTALLED"):
        env["PYTHONPATH"] = str(ROOT)  # the workers import the checkout's rules, as the batch does
    info = tmp_path / "scheduler.json"
    dask = [sys.executable, "-m"]
    procs = [subprocess.Popen([*dask, "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                               "--dashboard-address", ":0", "--scheduler-file", str(info)],
                              env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        deadline = time.monotonic() + 60
        while not info.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        address = json.loads(info.read_text())["address"]
        procs += [subprocess.Popen([*dask, "distributed.cli.dask_worker", address, "--nworkers", "1",
                                    "--nthreads", "1", "--no-dashboard", "--name", f"w{i}"],
                                   env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                  for i in range(2)]
        from distributed import Client

        with Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)
        outs = {}
        for name, extra in (("local", ["--workers", "1"]), ("cluster", ["--backend", "dask", "--address", address])):
            path = tmp_path / f"{name}.jsonl"
            result = run_cli("batch", "shambling", "--games", "200", "--seed", "9", "--out-file", str(path), "--json",
                             *extra)
            assert result.returncode == 0, result.stderr
            summary = json.loads(result.stdout.splitlines()[-1])
            summary.pop("wrote")
            outs[name] = (path.read_text(), summary)
        assert outs["local"] == outs["cluster"] and outs["local"][1]["games"] == 200
    finally:
        for proc in reversed(procs):
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()


def test_timed_counts_only_its_sides_decisions() -> None:
    """The tournament's timing wrapper starts from nothing and counts the decisions of its sides
    only (the narrator's here), as the game logs them; the others are answered all the same."""
    from ecs_zombie.batch import Timed
    from ecs_zombie.decisions import PolicyTable
    from ecs_zombie.game import new_game

    timed = Timed(PolicyTable("heuristic"), ("narrator",))
    assert (timed.decisions, timed.seconds) == (0, 0.0)
    game = new_game("shambling", 3)
    game.play(timed)
    asked = [e for e in game.events if e[1] == "decision"]
    assert timed.decisions == sum(1 for e in asked if e[2]["side"] == "narrator") < len(asked)
    game.close()


def test_the_trial_game_is_the_batchs_first_and_coverage_is_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check before a batch plays the batch's own first game (game 0's seed, as the batch will),
    and a batch counts coverage only when asked (`--coverage`): by default its rows carry none."""
    from ecs_zombie import batch

    seeds: list[int] = []
    real = batch.new_game

    def recording(*args: object, **kw: object) -> Game:
        seeds.append(args[1])  # type: ignore[arg-type]
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(batch, "new_game", recording)
    batch.check(BatchSpec("shambling", 3, seed=8))
    assert seeds == [documented_seed(8, 0)]
    monkeypatch.undo()
    plain = play_batch(BatchSpec("shambling", 2, seed=8))
    assert plain.coverage is None and "coverage" not in plain.to_dict()


def test_timed_decisions_count_the_time_the_policy_took() -> None:
    """`tournament`'s time per decision: the timed sides' decisions are counted, and their seconds
    are the time spent choosing (a policy that waits 20 ms a decision shows 20 ms or a little more);
    other sides are neither counted nor timed."""
    from ecs_zombie.batch import Timed
    from ecs_zombie.decisions import Decision

    class Slow:
        needs_tick_start = False

        def choose(self, game: object, decision: Decision) -> int:
            time.sleep(0.02)
            return 0

    timer = Timed(Slow(), ("player:0",))  # type: ignore[arg-type]
    for side in ("player:0", "narrator", "player:0"):
        assert timer.choose(None, Decision(side, "kind", [1, 2])) == 0
    assert timer.decisions == 2
    assert 0.04 <= timer.seconds < 0.5


def test_each_chunk_a_worker_plays_reads_its_scenario_afresh() -> None:
    """A worker process plays chunk after chunk, of one batch and of the next (a Dask worker lives
    on between batches): each chunk forgets the scenario kept from before, so that tables edited
    between two batches are read again (`load_scenario` checks its files)."""
    from ecs_zombie import batch
    from ecs_zombie.scenario import load_scenario

    spec = BatchSpec("shambling", 3, seed=5)
    fresh = batch.run_chunk(spec, 0, 3)
    batch._SCENARIOS["shambling"] = load_scenario("stalingrad")  # what an earlier batch left behind
    try:
        assert batch.run_chunk(spec, 0, 3) == fresh
    finally:
        batch._SCENARIOS.pop("shambling", None)
