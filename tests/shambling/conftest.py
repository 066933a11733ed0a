"""The Shambling tests' game: seed 1 with one combat round, so that a forced battle is one exchange
of strikes (a test that needs the whole narration defines its own `game`)."""

from __future__ import annotations

import pytest

from ecs_zombie.game import Game


@pytest.fixture
def game(make_game) -> Game:
    return make_game("shambling", 1, params={"combat_rounds": 1})
