"""Helpers shared by tests: drive a generator of decisions, run the CLI in a subprocess.

Import them as `from tests.helpers import drive, run_cli` (the repository root is on pytest's path);
never `from conftest import ...`, which is ambiguous when sub-folders have their own conftest.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ecs_zombie import Game
from ecs_zombie.decisions import Decision, PolicyTable
from ecs_zombie.dice import DiceScript
from ecs_zombie.game import answer_all
from ecs_zombie.replay import Divergence, Recorder, load_replay, verify
from ecs_zombie.schedule import lookup
from ecs_zombie.snapshot import write_atomic

ROOT = Path(__file__).resolve().parent.parent


def drive(game: Game, steps: Any, answers: dict[str, Any] | None = None, policy: str = "heuristic") -> list[Decision]:
    """Run a generator of decisions to its end; `answers` maps a decision kind to an option (or a
    function of the decision returning one). Returns the decisions asked."""
    policies = PolicyTable(policy)
    asked: list[Decision] = []

    class Answers:
        name = "test answers"

        def choose(self, game: Game, d: Decision) -> int:
            asked.append(d)
            rule = (answers or {}).get(d.kind)
            if rule is None:
                return policies.choose(game, d)
            return d.options.index(rule(d) if callable(rule) else rule)

    answer_all(game, steps, Answers())
    return asked


def run_cli(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The installed command in a subprocess (what a user runs)."""
    full_env = dict(os.environ)
    command = [sys.executable, "-m", "ecs_zombie.cli", *args]
    if os.environ.get("ECS_ZOMBIE_TEST_INSTALLED"):  # the installed command (-P: not the checkout in cwd)
        full_env.pop("PYTHONPATH", None)
        command.insert(1, "-P")
    else:
        full_env["PYTHONPATH"] = str(ROOT)  # the checkout's code, not an older installed copy
    full_env.update(env or {})
    return subprocess.run(command, capture_output=True, text=True, env=full_env, cwd=cwd or ROOT, timeout=300)




def force(game: Game, dice: Sequence[int] = (), cards: Sequence[str] = ()) -> None:
    """Force the next dice and card draws (the rest come from the seeded streams)."""
    game.dice_script = DiceScript(list(dice))
    game.card_script = list(cards)


def run_system(game: Game, name: str, answers: dict[str, Any] | None = None, **params: Any) -> list[Decision]:
    """Run one registered system to its end, answering as `drive` does; returns the decisions asked."""
    spec = lookup(name)
    assert spec is not None, name
    return drive(game, spec.run(game, params), answers)


def play_recorded(game: Game, path: Path) -> Divergence | None:
    """Play `game` to its end while recording, write the replay to `path` and verify it heavily (a
    save and reload after every tick): None when every tick matches. The game stays open."""
    recorder = Recorder(game)
    game.play()
    write_atomic(path, recorder.to_bytes(game))
    return verify(load_replay(path), heavy=True)
