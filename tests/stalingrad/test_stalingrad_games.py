"""Whole games of `stalingrad` and the hybrid `stalingrad-shambling`: invariants over random seeds
(hypothesis), save and resume, replay verification, the hybrid's card-driven spawn, the CLI."""

from __future__ import annotations

from pathlib import Path

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ecs_zombie import Game, new_game
from ecs_zombie.components import Faction, Position
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.grid import OBSTRUCTIVE, WALL
from ecs_zombie.snapshot import restore, state_bytes
from ecs_zombie.systems.stalingrad.board import gmap
from ecs_zombie.systems.stalingrad.card_spawn import card_spawn
from ecs_zombie.systems.stalingrad.components import Arsenal
from ecs_zombie.systems.stalingrad.round import setup
from tests.helpers import play_recorded, run_cli
from tests.stalingrad.stalingrad_support import CHARACTERS, ZOMBIES, char, events, run, spawned, waiting, write_scenario

RULESETS = ["stalingrad", "stalingrad-shambling"]


def check_invariants(game: Game) -> None:
    """No two figures share a square; no figure stands on a wall or rubble; no ammo below zero."""
    g = gmap(game)
    squares = [(p.x, p.y) for _e, (p, _f) in game.world.query(Position, Faction)]
    assert len(squares) == len(set(squares))
    for sq in squares:
        assert g.terrain_at(sq) not in (WALL, OBSTRUCTIVE)
    for _e, arms in game.world.query1(Arsenal):
        assert all(v >= 0 for v in arms.ammo.values())


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=2**31 - 1), policy=st.sampled_from(["random", "heuristic"]))
def test_invariants_hold_and_every_game_ends(ruleset: str, seed: int, policy: str) -> None:
    """Property: whatever the seed, nobody shares a square, nobody walks through walls (every path
    square is passable terrain), ammo never goes negative, and the game ends."""
    game = new_game(ruleset, seed, policy=policy)
    try:
        game.play(on_tick=check_invariants)
        g = gmap(game)
        for kind in ("moved", "zombie_moved"):
            for e in events(game, kind):
                for sq in e["path"]:
                    assert g.terrain_at((sq[0], sq[1])) not in (WALL, OBSTRUCTIVE)
        assert game.over and game.outcome in (CHARACTERS, ZOMBIES, "timeout")
        assert game.tick <= game.ruleset.max_ticks
    finally:
        game.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_save_and_resume_match_an_uninterrupted_game(ruleset: str, tmp_path: Path) -> None:
    """Save after round 2, resume from the file: the same end state as never stopping."""
    from ecs_zombie import snapshot

    straight = new_game(ruleset, 11, policy="random")
    straight.play()
    end = state_bytes(straight)
    straight.close()
    game = new_game(ruleset, 11, policy="random")
    policies = PolicyTable("random")
    game.play(policies, stop_after=2)
    snapshot.save(game, tmp_path / "part.msgpack")
    game.close()
    resumed = snapshot.load(tmp_path / "part.msgpack")
    resumed.play(PolicyTable("random"))
    assert state_bytes(resumed) == end
    resumed.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_replays_verify_heavily(ruleset: str, tmp_path: Path) -> None:
    """Replay: every round's state hash re-checked, with a save and reload after every round."""
    for seed in (5, 6):
        game = new_game(ruleset, seed, policy="random")
        assert play_recorded(game, tmp_path / f"{seed}.replay") is None
        game.close()


def test_reload_every_round_equals_straight_play() -> None:
    """Snapshots between rounds hold all the state (the hybrid's deck included)."""
    for ruleset in RULESETS:
        straight = new_game(ruleset, 3)
        straight.play()
        end = state_bytes(straight)
        straight.close()
        game = new_game(ruleset, 3)
        while not game.over:
            game.play(stop_after=game.tick + 1)
            body = state_bytes(game)
            again = restore(msgpack.unpackb(body, raw=False))
            game.close()
            game = again
        assert state_bytes(game) == end
        game.close()


def hybrid_game(tmp_path: Path, cards: list[str]) -> Game:
    rows = ["A..........."] + ["............"] * 7
    path = write_scenario(tmp_path, rows=rows, entities=[char("sergeant", 8, 6)], track="S",
                          ruleset="stalingrad-shambling", decks=True)
    game = new_game(path, 1, cards=cards)
    game.tick = 1
    setup(game)
    return game


def test_hybrid_card_value_is_the_number_of_zombies(tmp_path: Path) -> None:
    """Hybrid: on an S round the drawn Shambling card's value (3 of hearts) is how many zombies enter
    at the spawn squares; with one spawn square the rest wait off the board."""
    game = hybrid_game(tmp_path, ["3H"])
    run(game, card_spawn(game))
    assert [e["card"] for e in events(game, "draw")] == ["3H"]
    assert spawned(game) == 3
    assert len(waiting(game)) == 2


def test_hybrid_joker_reshuffles(tmp_path: Path) -> None:
    """Hybrid: the joker reshuffles the deck and is replaced by the next card (here the 2 of clubs)."""
    game = hybrid_game(tmp_path, ["JK", "2C"])
    run(game, card_spawn(game))
    assert [e["card"] for e in events(game, "draw")] == ["JK", "2C"]
    assert [e["why"] for e in events(game, "shuffle")] == ["start of game", "joker"]
    assert spawned(game) == 2


def test_cli_runs_the_default_scenario() -> None:
    """`ecs-zombie run stalingrad --seed 3 --json` plays the shipped scenario to an end."""
    import json

    for ruleset in RULESETS:
        out = run_cli("run", ruleset, "--seed", "3", "--json")
        assert out.returncode == 0, out.stderr
        summary = json.loads(out.stdout)
        assert summary["finished"] and summary["outcome"] in (CHARACTERS, ZOMBIES)


def test_hybrid_map_without_spawn_squares_is_a_clean_error(tmp_path: Path) -> None:
    """Hybrid: the card's zombies enter "at the spawn squares"; a map with none is a GameError naming
    the problem (not a ZeroDivisionError)."""
    from ecs_zombie.errors import GameError

    path = write_scenario(tmp_path, entities=[char("sergeant", 8, 6)], track="S", ruleset="stalingrad-shambling",
                          decks=True)
    game = new_game(path, 1, cards=["3H"])
    game.tick = 1
    setup(game)
    with pytest.raises(GameError, match="spawn"):
        run(game, card_spawn(game))
