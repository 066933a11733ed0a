"""Shared helpers: fresh games with forced dice and cards, and a CLI runner."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ecs_zombie import Game, new_game
from tests.helpers import ROOT, drive, run_cli


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


__all__ = ["ROOT", "drive", "run_cli"]
