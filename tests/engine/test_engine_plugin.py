"""Rulesets as plugins: a ruleset folder anywhere, and a pip-installed distribution adding a hybrid
and a policy through entry points, found by every command from any working directory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT, run_cli

FOLDER_RULESET = """\
id: my-night
name: My night
description: Shambling with a gentler narrator (a ruleset folder outside the engine).
tick: turn
max_ticks: 10
packages: [core, shambling, my_rules]
default_scenario: scenarios/night.yaml
prefabs: [figures.yaml]
tables:
  shambling.crt: shambling/crt.yaml
  shambling.strength: shambling/strength.yaml
  shambling.narration: shambling/narration.yaml
  shambling.deck: shambling/deck.yaml
parameters:
  front_line_cap: {type: int, default: 6, min: 1, max: 30}
  mercy: {type: int, default: 1, min: 0, max: 3, description: Wounds healed on every board each turn.}
phases:
  - name: narration
    systems:
      - {system: shambling.deploy, params: {cap: $front_line_cap}}
      - {system: core.narration, params: {track: shambling.narration}}
  - name: battle
    systems: [shambling.engage, shambling.combat, shambling.pursuit]
  - name: end of turn
    systems:
      - {system: core.aftermath, params: {track: shambling.narration}}
      - {system: my.mercy, params: {heal: $mercy}}
      - {system: shambling.turn_end, params: {track: shambling.narration}}
steps:
  strike: shambling.crt_strike
  kill: shambling.kill
  gauntlet: shambling.gauntlet
  assault: shambling.assault
  dissension: shambling.dissension
  replacement: {system: shambling.replacement, params: {cap: $front_line_cap}}
  enemy_within: shambling.enemy_within
  national_guard: shambling.national_guard
metrics: shambling.metrics
"""
MY_RULES = '''"""A rule of my own: at the end of each turn every wounded survivor heals."""

from ecs_zombie.components import Faction, Wounds
from ecs_zombie.game import Game
from ecs_zombie.schedule import system


@system("my.mercy", reads=("Faction", "Wounds"), writes=("Wounds",))
def mercy(game: Game, heal: int = 1) -> None:
    """End of turn: each wounded survivor heals `heal` wounds."""
    for _ent, (faction, wounds) in game.world.query(Faction, Wounds):
        if faction.side == "survivors" and wounds.taken:
            wounds.taken = max(0, wounds.taken - heal)
'''


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A ruleset folder with its own systems module, prefabs, a table of its own and a scenario."""
    home = tmp_path / "my-night"
    (home / "scenarios").mkdir(parents=True)
    (home / "ruleset.yaml").write_text(FOLDER_RULESET)
    (home / "my_rules.py").write_text(MY_RULES)
    (home / "figures.yaml").write_text((ROOT / "prefabs" / "shambling" / "figures.yaml").read_text())
    (home / "scenarios" / "night.yaml").write_text(
        (ROOT / "prefabs" / "scenarios" / "shambling.yaml").read_text().replace("ruleset: shambling",
                                                                                "ruleset: ../ruleset.yaml"))
    return home


def test_a_ruleset_folder_runs_saves_resumes_and_verifies_from_anywhere(folder: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    ruleset = str(folder / "ruleset.yaml")
    played = run_cli("run", ruleset, "--seed", "4", "--json", cwd=elsewhere)
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)["ruleset"] == "my-night"  # the file given, not its scenario's
    part = run_cli("run", ruleset, "--seed", "4", "--stop-after", "3", "--save", str(tmp_path / "s.msgpack"),
                   cwd=elsewhere)
    assert part.returncode == 0, part.stderr
    other = tmp_path / "other"
    other.mkdir()
    resumed = run_cli("resume", str(tmp_path / "s.msgpack"), "--json", cwd=other)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["outcome"] == json.loads(played.stdout)["outcome"]
    assert run_cli("run", ruleset, "--seed", "4", "--record", str(tmp_path / "r.replay"), cwd=elsewhere).returncode == 0
    verified = run_cli("replay", str(tmp_path / "r.replay"), "--verify", "--heavy", cwd=other)
    assert verified.returncode == 0, verified.stderr
    assert run_cli("inspect", str(tmp_path / "s.msgpack"), "--json", cwd=other).returncode == 0
    # a description or a comment edited: the save still loads; a rule changed: refused, naming the file
    text = (folder / "ruleset.yaml").read_text()
    (folder / "ruleset.yaml").write_text("# my comment\n" + text.replace("a gentler narrator", "a kind narrator"))
    assert run_cli("resume", str(tmp_path / "s.msgpack"), cwd=other).returncode == 0
    (folder / "figures.yaml").write_text((folder / "figures.yaml").read_text().replace("limit: 2}", "limit: 3}"))
    refused = run_cli("resume", str(tmp_path / "s.msgpack"), cwd=other)
    assert refused.returncode == 2
    assert refused.stderr.strip() == (f"error: {tmp_path / 's.msgpack'}: the save was made with different rules of "
                                      "ruleset 'my-night': changed "
                                      "since: figures.yaml")


def test_a_scenario_names_its_ruleset_by_a_path_beside_it(folder: Path, tmp_path: Path) -> None:
    result = run_cli("run", str(folder / "scenarios" / "night.yaml"), "--seed", "2", "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["ruleset"] == "my-night"
    assert run_cli("validate", str(folder / "ruleset.yaml"), cwd=tmp_path).stdout == (
        "my-night/ruleset.yaml: ruleset my-night ok (with its default scenario my-night/scenarios/night.yaml)\n")


def _venv(tmp_path: Path) -> Path:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    env = {**os.environ, "ECS_ZOMBIE_PURE_PYTHON": "1"}
    env.pop("PYTHONPATH", None)
    subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", f"{ROOT}[distributed]",
                    str(ROOT / "examples" / "plugin")], check=True, env=env, timeout=900, capture_output=True)
    return venv


def test_an_installed_plugin_adds_a_hybrid_and_a_policy(tmp_path: Path) -> None:
    """pip install the example plugin into a fresh venv; from a folder that is neither the checkout
    nor the plugin, every command finds its ruleset and its policy (batches on 1 and 2 workers and
    on Dask give the same rows)."""
    venv = _venv(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ECS_ZOMBIE_TEST_INSTALLED")}

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(venv / "bin" / "ecs-zombie"), *args], capture_output=True, text=True, cwd=work,
                              env=env, timeout=600)

    listed = json.loads(cli("rulesets", "--json").stdout)
    dusk = next(r for r in listed if r["id"] == "stalingrad-dusk")
    assert dusk["origin"] == {"kind": "plugin", "dist": "ecs-zombie-example", "version": "0.1.0", "path": ""}
    assert "plugin ecs-zombie-example 0.1.0" in cli("rulesets").stdout
    played = cli("run", "stalingrad-dusk", "--seed", "3", "--policy", "cautious", "--json")
    assert played.returncode == 0, played.stderr
    assert cli("run", "stalingrad-dusk", "--seed", "3", "--policy", "cautious", "--stop-after", "2",
               "--save", "part.msgpack").returncode == 0
    resumed = cli("resume", "saves/part.msgpack", "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["outcome"] == json.loads(played.stdout)["outcome"]
    assert cli("run", "stalingrad-dusk", "--seed", "3", "--policy", "cautious:mode=stationary",
               "--record", "g.replay").returncode == 0
    verified = cli("replay", "saves/g.replay", "--verify", "--heavy")
    assert verified.returncode == 0, verified.stderr
    rows = {}
    for name, extra in (("one", ["--workers", "1"]), ("two", ["--workers", "2"]),
                        ("dask", ["--workers", "2", "--backend", "dask"])):
        done = cli("batch", "stalingrad-dusk", "--games", "12", "--policy", "cautious", "--quiet",
                   "--out-file", f"{name}.csv", *extra)
        assert done.returncode == 0, done.stderr
        rows[name] = (work / "saves" / f"{name}.csv").read_text()
    assert rows["one"] == rows["two"] == rows["dask"]
    assert cli("run", "stalingrad-dusk", "--policy", "cautious:speed=9").returncode == 2
