"""Director rules and bookkeeping that a mutation run found unpinned (benchmarks/mutation.py
director): what a new game starts with, the pacer's summons never below zero, the horde's
leftover zombies, and a gun's first ammo stack."""

from __future__ import annotations

from typing import Any

from ecs_zombie.systems.director.board import _stack, restock
from ecs_zombie.systems.director.components import DirectorState
from ecs_zombie.systems.director.director import placements
from tests.director.director_setup import setup
from tests.helpers import events, run_system


def test_a_new_game_starts_with_nothing_counted(make_game: Any) -> None:
    """Before any round: the director holds no card, no horde, no suppression, no zombie and no
    tile placed; the metrics count nothing yet."""
    game = make_game("director")
    (_e, state), = game.world.query1(DirectorState)
    assert state == DirectorState(first=0, hand=[], lurking=[], pile=[], horde=0, suppress=0, spawned=0,
                                  specials=[], placement="", tiles_placed=0)
    metrics = game.metrics()
    assert {k: metrics[k] for k in ("zombies_spawned", "zombies_killed", "specials", "tiles_placed", "ladders",
                                     "damage_taken")} == dict.fromkeys(("zombies_spawned", "zombies_killed",
                                                                       "specials", "tiles_placed", "ladders",
                                                                       "damage_taken"), 0)


def test_the_pacers_summons_are_never_below_zero(make_game: Any) -> None:
    """The adaptive director's summons: the roll plus the usual modifiers, never below 0; a roll of 0
    with no modifier draws no card."""
    game = make_game("director-adaptive")
    setup(game)
    run_system(game, "director.summon", count=0)
    (logged,) = events(game, "director_cards")
    assert logged["cards"] == max(0, logged["roll"] + logged["modifier"]) == 0


def test_zombies_beyond_the_cards_hordes_go_to_the_weakest_player(make_game: Any) -> None:
    """With no card in hand to take them, every new zombie, even a single one, comes to the weakest
    player (DESIGN CHOICE, `placements`); none at all makes no placement."""
    game = make_game("director")
    assert placements(game, DirectorState(), 1) == [("weakest", 1)]
    assert placements(game, DirectorState(), 3) == [("weakest", 3)]
    assert placements(game, DirectorState(), 0) == []


def test_a_guns_first_stack_is_dealt_full(make_game: Any) -> None:
    """Restocking a gun that has no ammo stack yet deals its first: its max ammo in cards (the
    shotgun's 10, docs/director.md: 1x3, 2x4, 3x2 and a Miss)."""
    game = make_game("director")
    p0, _p1 = setup(game)
    assert _stack(game, p0, "shotgun") is None
    restock(game, p0, "shotgun")
    deck = _stack(game, p0, "shotgun")
    assert deck is not None and len(deck.draw) == 10
