"""Every shipped ruleset, whatever its game: random play ends, survives a save at every tick, and
replays verify (the OpenSpiel RandomSimTest idea, applied to each registered ruleset)."""

from __future__ import annotations

import pytest

from ecs_zombie import new_game
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.ruleset import list_rulesets
from ecs_zombie.snapshot import restore, state_bytes
from tests.helpers import play_recorded

RULESETS = [rid for rid, _ in list_rulesets()]


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_random_play_with_save_and_reload_at_every_tick(ruleset: str, policy: str) -> None:
    """Saving and reloading after every tick gives the same end state as never stopping."""
    for seed in range(3):
        straight = new_game(ruleset, seed, policy=policy)
        straight.play()
        end = state_bytes(straight)
        straight.close()

        game = new_game(ruleset, seed, policy=policy)
        policies = PolicyTable(policy)
        while not game.over:
            game.play(policies, stop_after=game.tick + 1)
            body = state_bytes(game)
            import msgpack

            reloaded = restore(msgpack.unpackb(body, raw=False))
            assert state_bytes(reloaded) == body
            game.close()
            game = reloaded
        assert state_bytes(game) == end
        assert game.outcome is not None
        game.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_recorded_games_verify(ruleset: str, tmp_path) -> None:
    for seed in range(2):
        game = new_game(ruleset, seed, policy="random")
        assert play_recorded(game, tmp_path / f"{seed}.replay") is None
        game.close()
