"""`ecs_zombie.testing`, the helpers shipped for ruleset authors (README, "Testing a ruleset"):
forced dice and cards, one system run as the ruleset schedules it, decisions answered, events read,
and the whole-ruleset checks, which must fail on the bugs they exist for."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ecs_zombie import new_game, testing
from ecs_zombie.strict import StrictError
from tests.engine import testing_systems

RULESET = """\
id: testing
name: testing helpers
tick: turn
max_ticks: 10
packages: [tests.engine.testing_systems]
prefabs: [board.yaml]
parameters:
  amount: {{type: int, default: 3, min: 0, max: 9, description: What testing.bound logs.}}
phases:
  - name: one
    systems: [{{system: testing.bound, params: {{amount: $amount}}}}, {systems}]
metrics: testing.metrics
"""


def scenario(tmp_path: Path, systems: str = "testing.end") -> str:
    (tmp_path / "ruleset.yaml").write_text(RULESET.format(systems=systems))
    (tmp_path / "board.yaml").write_text("board:\n  Kind: {name: board}\n  Tally: {}\n")
    (tmp_path / "scenario.yaml").write_text("ruleset: ruleset.yaml\nentities: [{prefab: board}]\n")
    return str(tmp_path / "scenario.yaml")


def test_forced_dice_and_cards_come_first_then_the_seeded_streams() -> None:
    with testing.games() as make:
        game = make("shambling", seed=4)
        testing.force(game, dice=[6, 1], cards=["JK"])
        assert [game.roll("1d6", "a"), game.roll("1d6", "b")] == [6, 1]
        seeded = make("shambling", seed=4)
        testing.force(seeded, dice=[6, 1])
        seeded.roll("1d6", "a"), seeded.roll("1d6", "b")
        assert game.roll("1d6", "c") == seeded.roll("1d6", "c")  # the same stream, untouched by the forcing
        assert game.card_script == ["JK"]
        assert [e["values"] for e in testing.events(game, "roll")] == [[6], [1], [game.events[-1][2]["values"][0]]]


def test_every_game_made_in_the_block_is_closed_when_it_ends() -> None:
    """`games()` closes what `make` made, even when the block fails: a rule test leaves no world."""
    with testing.games() as make:
        first, second = make("shambling", seed=1), make("stalingrad", seed=2)
    with pytest.raises(ZeroDivisionError), testing.games() as make:
        third = make("sza", seed=3)
        _ = 1 / 0
    for game in (first, second, third):
        with pytest.raises(RuntimeError, match="closed"):
            game.world.create()


def test_a_system_runs_with_the_parameters_its_ruleset_binds(tmp_path: Path) -> None:
    target = scenario(tmp_path)
    with testing.games() as make:
        game = make(target)
        testing.run_system(game, "testing.bound")
        testing.run_system(game, "testing.bound", amount=5)
        assert testing.events(game, "bound") == [{"amount": 3}, {"amount": 5}]
        tuned = make(target, params={"amount": 7})
        testing.run_system(tuned, "testing.bound")
        assert testing.events(tuned, "bound") == [{"amount": 7}]
        with pytest.raises(AssertionError, match=r"no system 'testing\.nosuch' is registered"):
            testing.run_system(game, "testing.nosuch")


def test_decisions_are_answered_by_kind_or_by_the_policy(tmp_path: Path) -> None:
    with testing.games() as make:
        game = make(scenario(tmp_path))
        asked = testing.run_system(game, "testing.ask", answers={"testing.pick": 3})
        assert [d.kind for d in asked] == ["testing.pick"] * 2 and asked[0].options == [1, 2, 3]
        testing.run_system(game, "testing.ask", answers={"testing.pick": lambda d: d.options[1]})
        testing.run_system(game, "testing.ask", policy="first")
        assert [e["value"] for e in testing.events(game, "picked")] == [3, 3, 2, 2, 1, 1]


def test_make_game_is_a_fixture_that_closes_its_games(make_game) -> None:  # type: ignore[no-untyped-def]
    game = make_game("shambling", seed=2, dice=[6])
    assert game.seed == 2 and game.dice_script.values == [6]


def test_a_sound_ruleset_passes_both_checks(tmp_path: Path) -> None:
    before = os.environ.get("ECS_ZOMBIE_STRICT")
    testing.check_random_play(scenario(tmp_path), seed=1)
    testing.check_recorded_replay(scenario(tmp_path), 1, tmp_path / "g.replay")
    assert os.environ.get("ECS_ZOMBIE_STRICT") == before  # strict mode only within the checks
    assert (tmp_path / "g.replay").stat().st_size > 0


def test_state_outside_components_fails_both_checks(tmp_path: Path) -> None:
    target = scenario(tmp_path, "testing.forgetful, testing.end")
    with pytest.raises(AssertionError, match="saving and reloading at every tick ended elsewhere"):
        testing.check_random_play(target, seed=1)
    testing_systems.CALLS["forgetful"] = 0
    with pytest.raises(AssertionError, match=r"the replay departs at tick 1 in testing.forgetful: events differ"):
        testing.check_recorded_replay(target, 1, tmp_path / "g.replay")


def test_an_undeclared_write_fails_in_strict_mode_only(tmp_path: Path) -> None:
    target = scenario(tmp_path, "testing.sneaky, testing.end")
    with pytest.raises(StrictError, match=r"testing\.sneaky"):
        testing.check_random_play(target, seed=1)
    testing.check_random_play(target, seed=1, strict=False)
    with pytest.raises(StrictError, match=r"testing\.sneaky"):  # the recorded check is strict by default too
        testing.check_recorded_replay(target, 1, tmp_path / "g.replay")
    testing.check_recorded_replay(target, 1, tmp_path / "g.replay", strict=False)


def test_strict_mode_leaves_the_environment_as_it_found_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Unset before: unset after (not "0" or "1"); set before: the value it had."""
    import os

    monkeypatch.delenv("ECS_ZOMBIE_STRICT", raising=False)
    with testing.strict_mode():
        assert os.environ["ECS_ZOMBIE_STRICT"] == "1"
    assert "ECS_ZOMBIE_STRICT" not in os.environ
    monkeypatch.setenv("ECS_ZOMBIE_STRICT", "0")
    with testing.strict_mode(on=True):
        assert os.environ["ECS_ZOMBIE_STRICT"] == "1"
    assert os.environ["ECS_ZOMBIE_STRICT"] == "0"


def test_strict_mode_is_what_new_games_get_within_it(tmp_path: Path) -> None:
    with testing.strict_mode():
        game = new_game(scenario(tmp_path))
        assert game.guard is not None
        game.close()
    game = new_game(scenario(tmp_path))
    assert game.guard is None or os.environ.get("ECS_ZOMBIE_STRICT") == "1"
    game.close()
