"""Replays of Night of the Shambling Dead verify over many seeds, and tampering is caught at its tick."""

from __future__ import annotations

import pytest

from ecs_zombie import new_game
from ecs_zombie.replay import Recorder, ReplayFile, verify


def record(seed: int, policy: str, players: int = 1) -> ReplayFile:
    game = new_game("shambling", seed, policy=policy, players=players)
    rec = Recorder(game)
    game.play()
    replay = rec.replay(game)
    game.close()
    return replay


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_fresh_recordings_verify_over_many_seeds(policy: str) -> None:
    for seed in range(25):
        replay = record(seed, policy, players=1 + seed % 3)
        assert verify(replay) is None
        assert verify(replay, heavy=True) is None


def test_a_tampered_decision_names_its_tick_and_system() -> None:
    replay = record(4, "random")
    ticks_of_decisions = []
    game = new_game("shambling", 4, policy="random")
    game.play()
    ticks_of_decisions = [e[0] for e in game.events if e[1] == "decision"]
    game.close()
    index = len(ticks_of_decisions) // 2
    replay.decisions[index] = 0 if replay.decisions[index] else 1
    found = verify(replay)
    assert found is not None
    assert found.tick == ticks_of_decisions[index]
    assert found.system is not None and found.system.startswith(("shambling.", "core."))
    assert found.differences[0].startswith("event ") and "decision" in found.differences[0]


def test_a_tampered_state_hash_names_its_tick() -> None:
    replay = record(9, "heuristic")
    replay.ticks[2][1] = b"\x00" * 16
    found = verify(replay)
    assert found is not None and found.tick == replay.ticks[2][0]


def test_a_tampered_initial_state_shows_the_differing_components() -> None:
    replay = record(3, "heuristic")
    ent = replay.initial["entities"][1]
    for comp in ent[1]:
        if comp[0] == "Wounds":
            comp[1][0] = 1
    found = verify(replay)
    assert found is not None and found.tick == 1
    assert any("Wounds" in line or "Engaged" in line or "entity" in line for line in found.differences)
