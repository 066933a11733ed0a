"""The worked example of docs/debugging.md, step by step: what the page says the commands print,
they print (the bug in examples/debugging/rally.py found, and its fix proven)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import ROOT, run_cli

EXAMPLE = ROOT / "examples" / "debugging"
SEED = "5070999010155332059"  # game 0 of a batch seeded 1


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example copied where no checkout is: its systems modules are found beside the ruleset."""
    where = tmp_path_factory.mktemp("debugging")
    for name in ("rally.py", "rally_fixed.py", "shambling-rally.yaml", "shambling-rally-fixed.yaml"):
        shutil.copy(EXAMPLE / name, where / name)
    return where


def _rows(folder: Path, ruleset: str, workers: int, name: str) -> str:
    result = run_cli("batch", ruleset, "--games", "40", "--workers", str(workers), "--quiet", "--out", name,
                     cwd=folder)
    assert result.returncode == 0, result.stderr
    return (folder / "saves" / name).read_text()


def test_the_symptom_the_divergence_and_the_log(folder: Path) -> None:
    one = _rows(folder, "shambling-rally.yaml", 1, "w1.jsonl")
    two = _rows(folder, "shambling-rally.yaml", 2, "w2.jsonl")
    assert one != two
    assert one.splitlines()[0] != two.splitlines()[0] and f'"seed": {SEED}' in one.splitlines()[0]
    assert run_cli("run", "shambling-rally.yaml", "--seed", SEED, "--record", "g0.replay", cwd=folder).returncode == 0
    plain = run_cli("replay", "saves/g0.replay", "--verify", cwd=folder)
    assert plain.returncode == 0 and "every tick's events and state match" in plain.stdout
    fresh = run_cli("replay", "saves/g0.replay", "--verify", "--fresh", cwd=folder)
    assert fresh.returncode == 1
    assert "divergence at tick 1, in system rally.rally: events differ" in fresh.stdout + fresh.stderr
    assert "recorded roll {'dice': '1d6', 'values': [2], 'why': 'rally on board 0'} (by rally.rally), replayed " \
           "nothing" in fresh.stdout + fresh.stderr
    log = run_cli("events", "saves/g0.replay", "--tick", "1", "--system", "rally", cwd=folder)
    assert log.stdout.splitlines()[1].split() == [
        "1", "rally.rally", "roll", "dice='1d6',", "values=[2],", "why='rally", "on", "board", "0'"]


def test_the_fix_holds(folder: Path) -> None:
    ruleset = "shambling-rally-fixed.yaml"
    assert _rows(folder, ruleset, 1, "f1.jsonl") == _rows(folder, ruleset, 2, "f2.jsonl")
    assert run_cli("run", ruleset, "--seed", SEED, "--record", "f0.replay", cwd=folder).returncode == 0
    fresh = run_cli("replay", "saves/f0.replay", "--verify", "--fresh", cwd=folder)
    assert fresh.returncode == 0 and "verified in a fresh process" in fresh.stdout


def test_a_fix_in_place_is_reported_as_a_code_change(folder: Path, tmp_path: Path) -> None:
    for name in ("rally.py", "shambling-rally.yaml"):
        shutil.copy(folder / name, tmp_path / name)
    assert run_cli("run", "shambling-rally.yaml", "--seed", SEED, "--record", "before.replay",
                   cwd=tmp_path).returncode == 0
    code = (tmp_path / "rally.py").read_text()
    (tmp_path / "rally.py").write_text(code.replace("        if board in _RALLIED:", "        if False:"))
    result = run_cli("replay", "saves/before.replay", "--verify", cwd=tmp_path)
    assert result.returncode == 1
    assert "code changed since the recording: rally.rally: its function's code changed" in result.stdout + result.stderr
