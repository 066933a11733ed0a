"""Batch runs and sweeps: reproducible whatever the parallelism, honest statistics, clean failures."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
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
        outs[name] = (path.read_text(), json.loads(result.stdout.splitlines()[-1]))
    assert outs["one"] == outs["two"] == outs["dask"]
    rows = rows_of(tmp_path / "one.jsonl")
    assert [r["game"] for r in rows] == list(range(120))


def test_a_game_of_the_batch_is_reproduced_by_run(tmp_path: Path) -> None:
    path = tmp_path / "b.jsonl"
    assert run_cli("batch", "shambling", "--games", "8", "--seed", "3", "--out-file", str(path)).returncode == 0
    row = rows_of(path)[6]
    assert row["seed"] == game_seed(3, 6)
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


def test_interrupt_leaves_a_valid_partial_output(tmp_path: Path) -> None:
    """Ctrl-C: finished games are in the file, the summary is printed for them, exit status 130."""
    out = tmp_path / "i.jsonl"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "ecs_zombie.cli", "batch", "shambling", "--games", "200000",
                             "--workers", "2", "--out-file", str(out), "--json"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while time.time() < deadline and (not out.exists() or out.stat().st_size < 2000):
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    rows = rows_of(out)
    summary = json.loads(stdout.splitlines()[-1])
    assert summary["interrupted"] and summary["games"] == len(rows) > 0
    assert [r["game"] for r in rows] == sorted(r["game"] for r in rows)


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
    spec = BatchSpec("shambling", 64, seed=2)
    writer = RowWriter(tmp_path / "r.csv", ["game", "seed", "outcome", "turns", "error"])
    result = play_batch(spec, out=writer)
    writer.close()
    summary = result.to_dict()
    assert summary["games"] == 64 and sum(o["count"] for o in summary["outcomes"].values()) == 64
    assert all(isinstance(h.counts, dict) for h in result.summary.turns_by_outcome.values())


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
