"""Shared helpers: fresh games with forced dice and cards, and a CLI runner.

`ECS_ZOMBIE_TEST_INSTALLED=1 pytest` runs the suite against the installed package (a wheel's
compiled modules included) instead of the checkout, its command included.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

_ROOT = Path(__file__).resolve().parent.parent
if os.environ.get("ECS_ZOMBIE_TEST_INSTALLED") and "ecs_zombie" not in sys.modules:
    # The checkout goes last on the path: `tests` still imports from it, `ecs_zombie` from the
    # installed package, here and in every process started from here (batch workers take our path).
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _ROOT] + [str(_ROOT)]
    _spec = importlib.util.find_spec("ecs_zombie")
    if _spec is None or _spec.origin is None or Path(_spec.origin).resolve().parent == _ROOT / "ecs_zombie":
        raise RuntimeError("ECS_ZOMBIE_TEST_INSTALLED: ecs_zombie is not installed (pip install .)")

from ecs_zombie import Game, new_game  # noqa: E402
from tests.helpers import ROOT, drive, run_cli  # noqa: E402


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


def pytest_report_header() -> str:
    import ecs_zombie.world

    return f"ecs_zombie.world: {ecs_zombie.world.__file__}"


__all__ = ["ROOT", "drive", "run_cli"]
