"""Forks: `game.fork()` anywhere, mid-tick included, continues exactly as the original given the
same answers and shares nothing mutable with it; `copy.deepcopy(game)` is a fork. Games in
different threads are as independent as games in different processes."""

from __future__ import annotations

import copy
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from ecs_zombie import new_game
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.errors import GameError
from ecs_zombie.ruleset import list_rulesets
from ecs_zombie.state import state_bytes

RULESETS = [rid for rid, _ in list_rulesets()]


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_forks_mid_tick_continue_like_the_original_played_interleaved(ruleset: str, policy: str) -> None:
    """Fork at the 5th, 30th and 80th decisions; the original and every fork are then advanced one
    decision each in turn, all answered by the same policy: all end in the same bytes."""
    policies = PolicyTable(policy)
    game = new_game(ruleset, 11, policy=policy)
    game.keep_tick_start = True
    games = [game]
    decision = game.step()
    asked = 0
    while decision is not None:
        asked += 1
        if asked in (5, 30, 80):
            fork = game.fork()
            assert fork.pending is not None and fork.pending.kind == decision.kind
            assert fork.pending.options == decision.options and fork.tick == game.tick
            games.append(fork)
        decision = game.step(policies.choose(game, decision))
        # the forks move in step with the original, interleaved: nothing they share can hide
        for other in games[1:]:
            if other.pending is not None:
                other.step(policies.choose(other, other.pending))
    for other in games[1:]:
        while other.pending is not None:
            other.step(policies.choose(other, other.pending))
        assert other.over and other.outcome == game.outcome
        assert state_bytes(other) == state_bytes(game)
        assert [e[:3] for e in other.events] == [e[:3] for e in game.events]
    for g in games:
        g.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_fork_between_ticks_and_a_deepcopy_play_the_same_game(ruleset: str) -> None:
    game = new_game(ruleset, 5, policy="random")
    game.play(stop_after=2)
    fork, deep = game.fork(), copy.deepcopy(game)
    assert fork.world is not game.world and deep.world is not game.world
    for g in (game, fork, deep):
        g.play()
    assert state_bytes(fork) == state_bytes(game) == state_bytes(deep)
    for g in (game, fork, deep):
        g.close()


def test_changing_a_fork_leaves_the_original_alone() -> None:
    from ecs_zombie.components import Deck, Markers, Wounds

    game = new_game("shambling", 1)
    game.play(stop_after=1)
    before = state_bytes(game)
    fork = game.fork()
    for _e, w in fork.world.query1(Wounds):
        w.taken += 1
    for _e, m in fork.world.query1(Markers):
        m.add("forked")
    for _e, d in fork.world.query1(Deck):
        d.draw.reverse()
    fork.rng("dice").next32()
    fork.events.append((0, "x", {}, ""))
    assert state_bytes(game) == before
    fork.close()
    game.close()


def test_forking_mid_tick_needs_the_tick_start() -> None:
    game = new_game("shambling", 1)
    assert game.step() is not None
    with pytest.raises(GameError, match="keep_tick_start"):
        game.fork()
    game.close()


def _alone(ruleset: str, seed: int) -> bytes:
    game = new_game(ruleset, seed, policy="random")
    game.play()
    out = state_bytes(game)
    game.close()
    return out


def test_games_in_threads_are_independent() -> None:
    """Many games of every ruleset in four threads, switching threads as often as the interpreter
    allows: each ends byte-identical to the same seed played alone."""
    jobs = [(rid, seed) for rid in RULESETS for seed in range(6)]
    expected = {job: _alone(*job) for job in jobs}
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        with ThreadPoolExecutor(4) as pool:
            got = dict(zip(jobs, pool.map(lambda job: _alone(*job), jobs), strict=True))
    finally:
        sys.setswitchinterval(old)
    assert got == expected


def test_the_parts_of_esper_the_world_relies_on_exist() -> None:
    """`World` uses these esper names (pinned in pyproject to the versions tested)."""
    import esper

    for name in ("switch_world", "delete_world", "create_entity", "delete_entity", "add_component",
                 "try_remove_component", "current_world", "_entities", "_components", "_entity_count"):
        assert hasattr(esper, name), name


def test_pickling_a_game_is_refused_with_the_ways_that_work() -> None:
    """A pickled game carried its esper world's name, not its entities: the copy raised KeyError
    when played. Copying is fork or deepcopy; moving a game is a save."""
    import pickle

    game = new_game("shambling", 1)
    game.play(stop_after=2)
    with pytest.raises(TypeError, match=r"cannot be pickled: copy it with game\.fork\(\)"):
        pickle.dumps(game)
    game.close()


def test_playing_on_from_mid_tick_reports_that_tick_too() -> None:
    """`play(on_tick=...)` on a game forked mid-tick first finishes the tick under way and reports
    it, then each further tick: the fork's ticks reported are the original's from that tick on."""
    game = new_game("shambling", 3)
    game.keep_tick_start = True
    decision = game.step()
    while decision is not None and game.tick < 2:
        decision = game.step(0)
    assert decision is not None and game.tick == 2  # a decision pending in tick 2
    fork = game.fork()
    seen: list[int] = []
    fork.play(on_tick=lambda g: seen.append(g.tick))
    assert seen and seen[0] == game.tick and seen == list(range(game.tick, game.tick + len(seen)))
    # and plays the rest of that tick: the same end as the original answered step by step
    policies = PolicyTable(game.policy_spec)
    decision = game.pending
    while decision is not None:
        decision = game.step(policies.choose(game, decision))
    assert game.over and state_bytes(fork) == state_bytes(game) and fork.events == game.events
    game.close()
    fork.close()


def test_a_copy_of_a_strict_game_is_strict() -> None:
    """Strict mode goes with the game into its copies and forks: a system checked in the original
    is checked in the copy."""
    game = new_game("shambling", 3, strict=True)
    copied = game.copy()
    assert game.guard is not None and copied.guard is not None and copied.guard is not game.guard
    copied.play(stop_after=2)  # shambling's systems keep to their declarations: the copy plays on
    game.close()
    copied.close()
