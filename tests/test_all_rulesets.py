"""Every shipped ruleset, whatever its game: random play ends, survives a save at every tick, and
replays verify (the OpenSpiel RandomSimTest idea, applied to each registered ruleset). All of it in
strict mode: every system keeps to the access it declares. The checks are `ecs_zombie.testing`'s,
the ones a ruleset author runs on theirs."""

from __future__ import annotations

from pathlib import Path

import pytest

from ecs_zombie.ruleset import list_rulesets
from tests.helpers import check_random_play, check_recorded_replay

RULESETS = [rid for rid, _ in list_rulesets()]


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_random_play_with_save_and_reload_at_every_tick(ruleset: str, policy: str) -> None:
    """Saving and reloading after every tick gives the same end state as never stopping."""
    for seed in range(3):
        check_random_play(ruleset, seed, policy)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_recorded_games_verify(ruleset: str, tmp_path: Path) -> None:
    for seed in range(2):
        check_recorded_replay(ruleset, seed, tmp_path / f"{seed}.replay")
