"""Shared helpers: fresh games with forced dice and cards, and a CLI runner."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ecs_zombie import Game, new_game
from ecs_zombie.decisions import Decision, PolicyTable, ScriptedPolicy

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def make_game() -> Iterator[Any]:
    """`make_game(target, seed=..., dice=[...], cards=[...], params={...})`, closed after the test."""
    made: list[Game] = []

    def make(target: str = "shambling", seed: int = 1, **kw: Any) -> Game:
        game = new_game(target, seed, **kw)
        made.append(game)
        return game

    yield make
    for g in made:
        g.close()


def drive(game: Game, steps: Any, answers: dict[str, Any] | None = None, policy: str = "heuristic") -> list[Decision]:
    """Run a generator of decisions to its end; `answers` maps a decision kind to an option (or a
    function of the decision returning one). Returns the decisions asked."""
    policies = PolicyTable(policy)
    asked: list[Decision] = []
    try:
        d = next(steps)
        while True:
            asked.append(d)
            rule = (answers or {}).get(d.kind)
            if rule is None:
                idx = policies.choose(game, d)
            else:
                value = rule(d) if callable(rule) else rule
                idx = d.options.index(value)
            d = steps.send(idx)
    except StopIteration:
        pass
    return asked


def run_cli(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The installed command in a subprocess (what a user runs)."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "ecs_zombie.cli", *args], capture_output=True, text=True,
                          env=full_env, cwd=cwd or ROOT, timeout=300)


__all__ = ["ROOT", "ScriptedPolicy", "drive", "run_cli"]
