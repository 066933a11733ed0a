"""Strict mode holds every system to its declared reads, writes, creates, decisions, steps and
parameters while it runs, and names the system (the innermost step), the component and the entity."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ecs_zombie import new_game
from ecs_zombie.strict import StrictError
from tests.engine import strict_systems
from tests.helpers import run_cli

RULESET = """\
id: strict-test
name: strict test
tick: turn
max_ticks: 3
packages: [tests.engine.strict_systems]
prefabs: [figures.yaml]
parameters:
  knob: {type: int, default: 1}
  mode: {type: str, default: ""}
phases:
  - name: one
    systems:
      - {system: strict_test.honest, params: {mode: $mode}}
      - strict_test.end
steps:
  nested: strict_test.nested
  quiet: strict_test.quiet
  undeclared: {system: strict_test.nested}
metrics: strict_test.metrics
"""
FIGURES = ("figure:\n  Faction: {side: survivors}\n  Wounds: {}\n  Markers: {}\n  Kind: {name: survivor}\n"
           "  Owner: {player: 0}\n")
SCENARIO = "ruleset: ruleset.yaml\nentities: [{prefab: figure}]\n"


@pytest.fixture
def scenario(tmp_path: Path) -> str:
    (tmp_path / "ruleset.yaml").write_text(RULESET)
    (tmp_path / "figures.yaml").write_text(FIGURES)
    (tmp_path / "scenario.yaml").write_text(SCENARIO)
    return str(tmp_path / "scenario.yaml")


def test_an_honest_system_plays_in_strict_mode(scenario: str) -> None:
    game = new_game(scenario, 1, strict=True)
    game.play()
    assert game.outcome == "survivors"


@pytest.mark.parametrize(("mode", "message"), [
    ("read", "strict: system strict_test.honest (strict_test.honest) read Owner without declaring it (reads: "
             "Faction, Kind, Markers, Wounds)"),
    ("raw_read", "read Tally without declaring it"),
    ("write", "changed Markers of entity 1 without declaring it (writes: Wounds)"),
    ("create", "created entity 2 with Tally without declaring it (creates: Kind, Wounds)"),
    ("remove", "removed Markers from entity 1 without declaring it (removes: nothing)"),
    ("param", "read the ruleset parameter 'knob' without declaring it (uses: nothing)"),
    ("param_get", "read the ruleset parameter 'knob' without declaring it (uses: nothing)"),
    ("replace", "replaced Markers of entity 1 without declaring it (writes: Wounds)"),
    ("add", "added Tally to entity 1 without declaring it (creates: Kind, Wounds)"),
    ("delete", "deleted entity 1, which has Owner without declaring it (reads: Faction, Kind, Markers, Wounds)"),
    ("count", "read Owner without declaring it"),
    ("query1", "read Owner without declaring it"),
    ("query", "read Owner without declaring it"),
    ("try_get", "read Owner without declaring it"),
    ("has", "read Owner without declaring it"),
    ("index", "read Owner without declaring it"),
    ("decide", "asked a strict_test.other decision without declaring it (decides: strict_test.pick)"),
    ("step", "ran the step 'undeclared' without declaring it (calls: nested, quiet)"),
    ("in_step", "system strict_test.honest/nested (strict_test.nested) changed Markers of entity 1 without "
                "declaring it (writes: nothing)"),
    ("after_decision", "changed Markers of entity 1 without declaring it (writes: Wounds)"),
    # a change made before calling a step is checked as the step begins, against the caller
    ("before_step", "system strict_test.honest (strict_test.honest) changed Markers of entity 1 without declaring "
                    "it (writes: Wounds)"),
])
def test_each_undeclared_access_is_named(scenario: str, mode: str, message: str) -> None:
    game = new_game(scenario, 1, strict=True, params={"mode": mode})
    with pytest.raises(StrictError) as info:
        game.play()
    assert message in str(info.value)


def test_a_systems_own_new_entity_and_changes_outside_any_system_are_not_checked(scenario: str) -> None:
    """What a system creates is its own: components it adds to an entity it made this run are not
    held to its `creates`. Outside any system (a test, a tool between ticks) nothing is checked."""
    game = new_game(scenario, 1, strict=True, params={"mode": "own"})
    game.play()
    assert game.over
    from ecs_zombie.components import Tally

    game.world.add(strict_systems._first(game), Tally())  # no system runs: no check
    game.close()


def test_without_strict_mode_nothing_is_checked(scenario: str) -> None:
    game = new_game(scenario, 1, strict=False, params={"mode": "write"})
    game.play()
    assert game.outcome == "survivors"


def test_strict_flag_and_environment_through_the_command(scenario: str) -> None:
    # the command runs in another process: it imports the systems from a copy beside the ruleset
    folder = Path(scenario).parent
    shutil.copyfile(Path(strict_systems.__file__), folder / "strict_systems.py")
    ruleset = folder / "ruleset.yaml"
    ruleset.write_text(ruleset.read_text().replace("[tests.engine.strict_systems]", "[strict_systems]"))
    bad = run_cli("run", scenario, "--param", "mode=write", "--strict")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert "changed Markers of entity 1 without declaring it" in bad.stderr
    assert run_cli("run", scenario, "--param", "mode=write").returncode == 0
    env = run_cli("run", scenario, "--param", "mode=write", env={"ECS_ZOMBIE_STRICT": "1"})
    assert env.returncode == 2 and "strict:" in env.stderr


def test_a_tick_given_up_at_a_decision_closes_the_systems_own_generator(scenario: str,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Strict mode runs each system inside its own generator: when the tick is given up at a
    pending decision (a game closed, a fork discarded), the system's generator is closed at once,
    its `finally` run, not left for the collector (here a reference is kept, as a debugger would)."""
    import inspect

    from ecs_zombie.schedule import SystemSpec

    made: list[object] = []
    real = SystemSpec.run

    def keep(self: SystemSpec, game: object, params: dict[str, object]) -> object:
        made.append(real(self, game, params))  # type: ignore[arg-type]
        return made[-1]

    monkeypatch.setattr(SystemSpec, "run", keep)
    game = new_game(scenario, 1, strict=True, params={"mode": "after_decision"})
    assert game.step() is not None and game.pending is not None and game.running is not None
    honest = made[-1]
    assert inspect.getgeneratorstate(honest) == inspect.GEN_SUSPENDED  # type: ignore[arg-type]
    game.running.close()
    assert inspect.getgeneratorstate(honest) == inspect.GEN_CLOSED  # type: ignore[arg-type]
    game.close()
