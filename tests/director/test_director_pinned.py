"""Director rules and bookkeeping that a mutation run found unpinned (benchmarks/mutation.py
director): what a new game starts with, the pacer's summons never below zero, the horde's
leftover zombies, and a gun's first ammo stack."""

from __future__ import annotations

from typing import Any

import pytest

from ecs_zombie.components import Position
from ecs_zombie.errors import GameError
from ecs_zombie.systems.director.adaptive import summon
from ecs_zombie.systems.director.board import _stack, ammo_deck, restock
from ecs_zombie.systems.director.components import DirectorState, Loadout
from ecs_zombie.systems.director.director import draw, horde_total, placements
from tests.director.director_setup import director_hand, setup
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
    assert [e for e in events(game, "shuffle") if e["deck"] == deck.name] == [
        {"deck": deck.name, "why": "new ammo stack: shotgun"}]
    rifle = ammo_deck(game, p0, "rifle")  # the stack a first look deals is the one it returns
    assert rifle is _stack(game, p0, "rifle") and rifle is not None and len(rifle.draw) > 0


def test_a_restocked_stack_is_shuffled_anew(make_game: Any) -> None:
    """An ammo pick-up replaces the stack with a new one of its max ammo, shuffled: the `shuffle`
    event names the deck and the restock, and the stack is full again."""
    game = make_game("director")
    p0, _p1 = setup(game)
    restock(game, p0, "shotgun")
    deck = _stack(game, p0, "shotgun")
    assert deck is not None
    deck.discard.extend(deck.draw[:4])
    del deck.draw[:4]
    restock(game, p0, "shotgun")
    deck = _stack(game, p0, "shotgun")
    assert deck is not None and len(deck.draw) == 10 and deck.discard == []
    assert [e["why"] for e in events(game, "shuffle") if e["deck"] == deck.name] == [
        "new ammo stack: shotgun", "ammo restock: shotgun"]


def test_the_director_game_refuses_a_piece_on_squares(make_game: Any) -> None:
    """The Director game plays on hex cells: a piece standing on a square cell (a hybrid mixing
    boards by mistake) stops the set-up with an error that says so."""
    game = make_game("director")
    ent = min(e for e, _p in game.world.query1(Position))
    game.world.get(ent, Position).grid = "square"
    game.tick = 1
    with pytest.raises(GameError, match=r"the Director game plays on hex cells.*mixes boards"):
        run_system(game, "director.setup")


def test_the_pacers_summons_default_to_noise_one_and_behind(make_game: Any) -> None:
    """`director.summon` called with a count only plays as with `noise: 1, behind: true` (its
    documented defaults, for a hybrid that binds neither): the same cards, modifiers and places,
    with a survivor holding the petrol can (a must-hold item: `noise` more cards)."""
    logs = []
    for params in ({}, {"noise": 1, "behind": True}, {"noise": 0, "behind": True}, {"noise": 1, "behind": False}):
        game = make_game("director-adaptive", seed=4)
        p0, _p1 = setup(game, keep_map=True)  # the tiles the set-up laid: a rearmost tile to summon on
        game.world.get(p0, Loadout).hand = "petrol"
        summon(game, 3, **params)
        (_e, state), = game.world.query1(DirectorState)
        logs.append(([e for e in game.events if e[1] != "decision"], state.placement))
    assert logs[0] == logs[1] != logs[2] and logs[0] != logs[3]
    assert logs[0][1] == "rear" and logs[3][1] == ""
    cards = [e[2] for e in logs[0][0] if e[1] == "director_cards"]
    fewer = next(e[2] for e in logs[2][0] if e[1] == "director_cards")
    assert fewer["modifier"] == cards[0]["modifier"] - 1


def test_a_lone_survivors_horde_is_never_below_zero(make_game: Any) -> None:
    """`director.scaling`: one player takes 1 from the horde number; a hand of one Shamblers card
    (horde 1) against a lone survivor makes a horde of 0, never less (and 0 is 0, not 1)."""
    game = make_game("director", players=1)
    setup(game)
    director_hand(game, ["SHAMBLERS"])
    assert horde_total(game) == 0
    director_hand(game, ["HORDE"])
    assert horde_total(game) == 2


def test_the_directors_draw_defaults_to_a_d3_and_noise_one(make_game: Any) -> None:
    """`director.draw` with no parameters draws as with `dice: 1d3, noise: 1` (its documented
    defaults): with a survivor holding the petrol can, noise 0 draws one card fewer."""
    logs = []
    for params in ({}, {"dice": "1d3", "noise": 1}, {"dice": "1d3", "noise": 0}):
        game = make_game("director", seed=6)
        p0, _p1 = setup(game)
        game.world.get(p0, Loadout).hand = "petrol"
        draw(game, **params)
        logs.append([e for e in game.events if e[1] != "decision"])
    assert logs[0] == logs[1] != logs[2]


def test_cards_placing_alike_in_a_row_place_together(make_game: Any) -> None:
    """The new zombies are dealt to the hand's cards in order, up to each card's horde number, and
    appear where each card says: two Shamblers cards in a row (horde 1 each, the weakest player's
    tile) place as one group of 2, then the Mob's 2 behind the team, and the rest to the weakest;
    cards placing alike but apart stay apart."""
    cases = [(["SHAMBLERS", "SHAMBLERS", "MOB"], 6, [("weakest", 2), ("rear", 2), ("weakest", 2)]),
             (["SHAMBLERS", "SHAMBLERS", "MOB"], 1, [("weakest", 1)]),
             (["SHAMBLERS", "MOB", "SHAMBLERS"], 4, [("weakest", 1), ("rear", 2), ("weakest", 1)]),
             (["MOB", "SHAMBLERS", "SHAMBLERS"], 4, [("rear", 2), ("weakest", 2)])]
    for hand, count, want in cases:
        game = make_game("director")
        setup(game)
        director_hand(game, hand)
        (_e, state), = game.world.query1(DirectorState)
        assert placements(game, state, count) == want, hand
