"""The registries a ruleset names things by (ecs_zombie/schedule.py, components.py, registry.py):
systems with their declared access, components by their stable names, table validators and metrics.
A name registered twice by different code is refused: saves and rulesets would load the wrong one."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

import pytest

from ecs_zombie import registry
from ecs_zombie.components import ComponentType, by_class, by_name, component, registered_components
from ecs_zombie.decisions import Decision
from ecs_zombie.schedule import SystemSpec, lookup, registered, system
from tests.helpers import ROOT


@system("testengine.plain", reads=("Kind",), writes=("Wounds",), creates=("Markers",),
        calls={"strike": ("zone", "board"), "flee": ()}, step_params=("strike",), decides=("k",), uses=("t",))
def plain_system(game: Any, amount: int = 1) -> None:
    """Deal damage.

    More words that are not the summary."""
    game.log("dealt", amount=amount)


@system("testengine.chooser", calls=["b", "a"])
def chooser(game: Any) -> Generator[Decision, Any, None]:
    answer = yield Decision("player:0", "testengine.k", [1, 2])
    game.log("chose", answer=answer)


def test_a_system_is_registered_with_its_declarations() -> None:
    spec = lookup("testengine.plain")
    assert spec is not None and spec.fn is plain_system
    assert (spec.reads, spec.writes, spec.creates) == (("Kind",), ("Wounds",), ("Markers",))
    assert spec.calls == (("flee", ()), ("strike", ("board", "zone")))  # sorted, parameters sorted
    assert (spec.step_params, spec.decides, spec.uses) == (("strike",), ("k",), ("t",))
    assert spec.doc == "Deal damage." and spec.module == __name__
    assert lookup("testengine.chooser").calls == (("a", ()), ("b", ()))  # type: ignore[union-attr]
    assert list(registered()) == sorted(registered()) and "testengine.plain" in registered()


def test_running_a_plain_system_and_a_generator() -> None:
    from ecs_zombie import new_game

    game = new_game("shambling", 1)
    plain = lookup("testengine.plain")
    assert plain is not None and list(plain.run(game, {"amount": 3})) == []
    steps = lookup("testengine.chooser").run(game, {})  # type: ignore[union-attr]
    decision = next(steps)
    assert decision.kind == "testengine.k"
    with pytest.raises(StopIteration):
        steps.send(2)  # type: ignore[attr-defined]
    assert [(e[1], e[2]) for e in game.events[-2:]] == [("dealt", {"amount": 3}), ("chose", {"answer": 2})]
    game.close()


def test_the_same_name_from_other_code_is_refused() -> None:
    with pytest.raises(ValueError, match=r"system 'testengine\.plain' registered twice"):
        @system("testengine.plain")
        def impostor(game: Any) -> None:
            pass
    again = system("testengine.plain", reads=("Kind",))(plain_system)  # the same function again: fine
    assert again is plain_system and lookup("testengine.plain").reads == ("Kind",)  # type: ignore[union-attr]
    system("testengine.plain", reads=("Kind",), writes=("Wounds",), creates=("Markers",),
           calls={"strike": ("zone", "board"), "flee": ()}, step_params=("strike",), decides=("k",),
           uses=("t",))(plain_system)


def test_lookup_loads_a_package_on_demand_and_answers_none_for_unknowns() -> None:
    assert lookup("nosuchpackage.rule") is None
    assert lookup("nodot") is None
    assert lookup("core.nosuchrule") is None
    spec = lookup("shambling.combat")
    assert isinstance(spec, SystemSpec) and spec.name == "shambling.combat"


# -- components -------------------------------------------------------------------------------


@component(name="TestEngineBag")
class Bag:
    items: list[int]
    label: str = "bag"


@component
@dataclass(slots=True)
class EngineEmpty:
    pass


@component(name="TestEngineOne")
@dataclass(frozen=True, slots=True)
class One:
    value: int = 4


def test_components_by_name_and_class() -> None:
    bag = by_name("TestEngineBag")
    assert isinstance(bag, ComponentType) and bag.cls is Bag and bag.fields == ("items", "label")
    assert by_class(Bag) is bag and by_name("Bag") is None
    assert hasattr(Bag, "__slots__")  # made a slotted dataclass
    assert bag.getter(Bag([1], "x")) == ([1], "x")
    assert by_name("TestEngineOne").getter(One(7)) == (7,)  # type: ignore[union-attr]
    assert by_name("EngineEmpty").getter(EngineEmpty()) == ()  # type: ignore[union-attr]
    names = list(registered_components())
    assert names == sorted(names) and {"TestEngineBag", "EngineEmpty", "TestEngineOne", "Wounds"} <= set(names)
    assert registered_components()["TestEngineOne"] is One


def test_a_component_name_taken_by_other_code_is_refused() -> None:
    with pytest.raises(ValueError, match="component name 'TestEngineBag' is already registered by "
                                         f"{__name__}.Bag"):
        @component(name="TestEngineBag")
        @dataclass(slots=True)
        class Other:
            x: int = 0
    assert by_name("TestEngineBag").cls is Bag  # type: ignore[union-attr]


def test_table_validators_and_metrics_register_by_name() -> None:
    @registry.table("testengine.table")
    def validate(data: Any) -> Any:
        return ["checked", data]

    @registry.metrics("testengine.metrics")
    def numbers(game: Any) -> dict[str, Any]:
        return {"n": 1}

    assert registry.TABLES["testengine.table"](3) == ["checked", 3]
    assert registry.METRICS["testengine.metrics"](None) == {"n": 1}  # type: ignore[arg-type]


def test_core_component_defaults_are_what_a_prefab_omitting_a_field_gets(tmp_path: Any) -> None:
    """A prefab may name a core component without its fields (`Facing: {}`): it gets the defaults the
    components document: facing 0 (north, ecs_zombie/components.py), board 0, no wounds of a limit
    of 2, on squares, player 0, nothing engaged, empty tallies."""
    from ecs_zombie.prefabs import load_prefabs

    path = tmp_path / "p.yaml"
    path.write_text("piece:\n  Position: {}\n  Facing: {}\n  Zone: {}\n  Wounds: {}\n"
                    "  Owner: {}\n  Engaged: {}\n  Tally: {}\n  Faction: {}\n  Kind: {}\n")
    made = {type(c).__name__: c for c in load_prefabs(path, {})[0]["piece"].make()}
    fields = {name: by_name(name).getter(c) for name, c in made.items()}  # type: ignore[union-attr]
    assert fields == {"Position": (0, 0, "square"), "Facing": (0,), "Zone": (0, ""), "Wounds": (0, 2),
                      "Owner": (0,), "Engaged": ([],), "Tally": ({},), "Faction": ("",), "Kind": ("",)}


def test_registry_records_cannot_be_changed() -> None:
    import dataclasses

    with pytest.raises(dataclasses.FrozenInstanceError):
        by_name("Wounds").name = "Hurt"  # type: ignore[misc, union-attr]


def test_wounds_left_is_the_limit_less_what_was_taken() -> None:
    """`Wounds.left` reads hit points (or Stamina) left, `limit - taken`, and setting it sets what
    was taken: 3 of 5 taken leave 2; left set to 4 means 1 taken."""
    from ecs_zombie.components import Wounds

    w = Wounds(taken=3, limit=5)
    assert w.left == 2
    w.left = 4
    assert (w.taken, w.limit, w.left) == (1, 5, 4)


def test_a_system_is_found_by_its_package_whatever_its_own_name() -> None:
    """`lookup("shambling.assault")` imports the package `shambling` (the part before the first dot),
    whose modules register its systems: a system's name need not be its module's (there is no
    module `assault`). In a fresh process, so that nothing is imported before."""
    code = ("from ecs_zombie.schedule import lookup\n"
            "assert lookup('shambling.assault') is not None\n"
            "assert lookup('shambling.nosuch') is None and lookup('nosuchpackage.x') is None\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
