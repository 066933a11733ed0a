"""Invariants of Night of the Shambling Dead over random seeds and both policies (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ecs_zombie import new_game
from ecs_zombie.components import Card, Deck, Faction, Wounds, Zone
from ecs_zombie.decisions import PolicyTable


def check_invariants(game) -> None:
    world = game.world
    cap = game.params["front_line_cap"]
    front: dict[int, int] = {}
    for _e, (z, f, w) in world.query(Zone, Faction, Wounds):
        assert 0 <= w.taken < 2, "a figure in play never carries two wounds (two remove it)"
        if f.side == "survivors" and z.name == "front":
            front[z.board] = front.get(z.board, 0) + 1
    assert all(n <= cap for n in front.values()), "the Front Line cap holds"
    cards = [e for e, _ in world.query1(Card)]
    (_e, deck), = world.query1(Deck)
    assert len(cards) == 41 and sorted(deck.draw + deck.discard) == cards, "the 41 cards are conserved"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**40), policy=st.sampled_from(["random", "heuristic"]),
       players=st.integers(1, 3), cap=st.sampled_from([6, 10]))
def test_invariants_hold_and_every_game_ends(seed: int, policy: str, players: int, cap: int) -> None:
    game = new_game("shambling", seed, policy=policy, players=players, params={"front_line_cap": cap})
    game.play(PolicyTable(policy), on_tick=check_invariants)
    assert game.over and game.outcome in ("survivors", "zombies") and game.tick <= 10
    game.close()
