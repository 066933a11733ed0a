"""Properties over random seeds and policies, checked after every round: no zombie ends on a
zombie or a player, hit points never above their maximum, attack cards conserved per weapon, and
every game ends; plus save, resume and replay verification for both rulesets."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ecs_zombie import Game, new_game
from ecs_zombie.components import Card, Deck, Faction, Position, Wounds
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.snapshot import restore, state_bytes
from ecs_zombie.systems.director.board import director
from ecs_zombie.systems.director.components import AttackHand, MapTile
from tests.helpers import play_recorded

RULESETS = ("director", "director-adaptive")


def check_invariants(game: Game) -> None:
    world = game.world
    spots: Counter[tuple[int, int]] = Counter()
    on_map = {(q, r) for _e, t in world.query1(MapTile) for q, r in t.hexes}
    for ent, (pos, fac) in world.query(Position, Faction):
        spots[(pos.x, pos.y)] += 1
        if fac.side == "zombies":
            assert (pos.x, pos.y) in on_map, f"zombie {ent} off the map"
        else:
            h = world.get(ent, Wounds)
            assert h.left <= h.limit, f"survivor {ent} above maximum"
    assert all(n == 1 for n in spots.values()), f"two pieces on one hex: {spots.most_common(2)}"
    # attack cards: every card of every weapon is in exactly one place
    places: Counter[int] = Counter()
    for _e, deck in world.query1(Deck):
        if deck.name == "ammo" or deck.name.startswith("ammo/"):
            places.update(deck.draw)
            places.update(deck.discard)
    for _e, hand in world.query1(AttackHand):
        for cards in hand.cards.values():
            places.update(cards)
    places.update(c for c, _s in director(game)[1].pile)
    attack = {e for e, c in world.query1(Card) if c.deck == "ammo"}
    assert set(places) == attack and all(n == 1 for n in places.values())
    per_weapon = Counter(world.get(c, Card).suit for c in attack)
    expected = Counter({w: len(wd.cards) * game.tables["director.weapons"].copies
                        for w, wd in game.tables["director.weapons"].weapons.items()})
    assert per_weapon == expected


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), ruleset=st.sampled_from(RULESETS),
       policy=st.sampled_from(["random", "heuristic"]), players=st.integers(1, 4))
def test_invariants_hold_every_round_and_every_game_ends(seed: int, ruleset: str, policy: str, players: int) -> None:
    game = new_game(ruleset, seed, policy=policy, players=players)
    try:
        game.play(on_tick=check_invariants)
        assert game.over and game.outcome in ("survivors", "zombies", "timeout")
        assert game.tick <= game.ruleset.max_ticks
    finally:
        game.close()


def test_save_resume_equals_straight_play(tmp_path: Path) -> None:
    """A game saved after round 3 and resumed ends exactly as one never stopped."""
    for ruleset in RULESETS:
        straight = new_game(ruleset, 11)
        straight.play()
        end = state_bytes(straight)
        straight.close()
        part = new_game(ruleset, 11)
        part.play(stop_after=3)
        body = state_bytes(part)
        part.close()
        resumed = restore(msgpack.unpackb(body, raw=False))
        resumed.play(PolicyTable("heuristic"))
        assert state_bytes(resumed) == end
        resumed.close()


def test_replays_verify_heavy(tmp_path: Path) -> None:
    for ruleset in RULESETS:
        game = new_game(ruleset, 5, policy="random", players=3)
        assert play_recorded(game, tmp_path / f"{ruleset}.replay") is None
        game.close()


def test_cli_runs_both_rulesets(tmp_path: Path) -> None:
    from tests.helpers import run_cli

    for ruleset in RULESETS:
        out = run_cli("run", ruleset, "--seed", "3", "--json")
        assert out.returncode == 0, out.stderr
        rec = run_cli("run", ruleset, "--seed", "3", "--record", str(tmp_path / "g.replay"))
        assert rec.returncode == 0, rec.stderr
        ver = run_cli("replay", str(tmp_path / "g.replay"), "--verify")
        assert ver.returncode == 0, ver.stdout + ver.stderr
