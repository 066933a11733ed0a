"""Prefabs (ecs_zombie/prefabs.py): templates with `extends`, fields checked against the registry
when the file loads, and pieces made from them that never share a list (a wound on one figure must
never show on another)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ecs_zombie.components import Faction, Kind, Markers, Position, Tally, Wounds
from ecs_zombie.errors import DataError
from ecs_zombie.prefabs import Prefab, check_component, fresh, load_prefabs

FIGURES = """\
survivor:
  Faction: {side: survivors}
  Wounds: {taken: 0, limit: 2}
  Markers: {tags: [brave]}
hero:
  extends: survivor
  Kind: {name: hero}
  Wounds: {limit: 3}
blank:
  Kind:
"""


@pytest.fixture
def prefabs(tmp_path: Path) -> dict[str, Prefab]:
    path = tmp_path / "figures.yaml"
    path.write_text(FIGURES)
    loaded, raw = load_prefabs(path, {})
    assert raw["hero"]["Wounds"] == {"limit": 3}
    return loaded


def test_extends_merges_field_by_field(prefabs: dict[str, Prefab]) -> None:
    assert prefabs["hero"].components == {"Faction": {"side": "survivors"}, "Wounds": {"taken": 0, "limit": 3},
                                          "Markers": {"tags": ["brave"]}, "Kind": {"name": "hero"}}
    assert prefabs["survivor"].components["Wounds"] == {"taken": 0, "limit": 2}  # the parent is untouched
    assert prefabs["blank"].make() == [Kind()]


def test_made_pieces_in_component_name_order_never_share_lists(prefabs: dict[str, Prefab]) -> None:
    a, b = prefabs["hero"].make(), prefabs["hero"].make()
    assert a == [Faction("survivors"), Kind("hero"), Markers(["brave"]), Wounds(0, 3)]
    assert a[2].tags is not b[2].tags and a[3] is not b[3]
    a[2].add("bitten")
    assert b[2].tags == ["brave"] and prefabs["hero"].make()[2].tags == ["brave"]
    assert a[0] is b[0]  # frozen and holding no list: one template serves every piece


def test_make_with_stand_ins_and_additions(prefabs: dict[str, Prefab]) -> None:
    made = prefabs["survivor"].make(Wounds(1, 5), Position(2, 3))
    assert made == [Faction("survivors"), Markers(["brave"]), Wounds(1, 5), Position(2, 3)]


def test_derive_and_build_with_overrides(prefabs: dict[str, Prefab]) -> None:
    hero = prefabs["hero"]
    tough = hero.derive({"Wounds": {"limit": 4}, "Tally": {"counts": {"kills": 1}}})
    assert tough.components["Wounds"] == {"taken": 0, "limit": 4} and hero.components["Wounds"]["limit"] == 3
    assert tough.make()[-1] == Wounds(0, 4) and Tally({"kills": 1}) in tough.make()
    built = hero.build({"Kind": {"name": "captain"}})
    assert built == [Faction("survivors"), Kind("captain"), Markers(["brave"]), Wounds(0, 3)]
    assert hero.build() == hero.make()


@pytest.mark.parametrize(("cname", "values", "message"), [
    ("Woundz", {"taken": 1}, "unknown component 'Woundz'"),
    ("Wounds", [1, 2], "expected a mapping of field: value"),
    ("Wounds", {"takn": 1}, "component Wounds has no field 'takn' (did you mean 'taken'?)"),
    ("Wounds", {"zzz": 1}, "component Wounds has no field 'zzz' (fields: taken, limit)"),
    ("Wounds", {"taken": None}, "Wounds.taken takes int, got None"),
    ("Facing", {"direction": 8}, "Facing.direction takes int 0..7, got 8"),
    ("Position", {"grid": "hexes"}, "Position.grid takes one of 'square', 'hex', got 'hexes'"),
    ("Engaged", {"opponents": [0]}, "Engaged.opponents takes list[an entity id], got [0]"),
    ("Tally", {"counts": {"kills": "1"}}, "Tally.counts takes dict[str, int], got {'kills': '1'} (Expected int, got "
                                          "str (at [...]))"),
    ("Wounds", {"limit": 2**63}, "Wounds.limit takes int, got 9223372036854775808"),
    ("Wounds", {"limit": "two"}, "Wounds.limit takes int, got 'two'"),
    ("Wounds", {"limit": 2.5}, "Wounds.limit takes int, got 2.5"),
    ("Wounds", {"limit": True}, "Wounds.limit takes int, got True"),
    ("Kind", {"name": 3}, "Kind.name takes str, got 3"),
    ("Markers", {"tags": "brave"}, "Markers.tags takes list[str], got 'brave'"),
    ("Markers", {"tags": ["brave", ["x"]]}, "Markers.tags takes list[str], got ['brave', ['x']] (Expected str, got "
                                            "array (at [1]))"),
])
def test_component_values_are_checked(cname: str, values: object, message: str) -> None:
    with pytest.raises(DataError) as info:
        check_component(cname, values, None, f"x.{cname}")
    assert message in str(info.value) and f"x.{cname}" in str(info.value)


def test_what_a_field_accepts() -> None:
    """A value of the field's type (a seat number as `$player` where it is a whole number); not None,
    which no rule reads as a number (what validate accepts, run plays)."""
    check_component("Wounds", {"taken": 0, "limit": "$player"}, None, "w")
    check_component("Markers", {"tags": []}, None, "m")
    check_component("Tally", {"counts": {}}, None, "t")


def test_loading_errors_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "p.yaml"
    for text, message in [("- a list\n", "a prefab file must map prefab names to components"),
                          ("zombie: 3\n", "p.yaml:1: zombie: expected a mapping of components"),
                          ("zombie:\n  extends: ghoul\n", "p.yaml:2: zombie.extends: extends unknown prefab 'ghoul'"),
                          ("zombie:\n  Kind: {name: z}\n  Wounds: {limit: x}\n", "p.yaml:3: zombie.Wounds.limit:")]:
        path.write_text(text)
        with pytest.raises(DataError) as info:
            load_prefabs(path, {})
        assert message in str(info.value), str(info.value)


def test_extends_a_prefab_of_an_earlier_file(tmp_path: Path, prefabs: dict[str, Prefab]) -> None:
    path = tmp_path / "more.yaml"
    path.write_text("captain:\n  extends: hero\n  Kind: {name: captain}\n")
    more, _ = load_prefabs(path, prefabs)
    assert more["captain"].make() == [Faction("survivors"), Kind("captain"), Markers(["brave"]), Wounds(0, 3)]


def test_fresh_copies_lists_and_mappings_deep_enough() -> None:
    flat, nested = [1, 2], [[1], {"a": [2]}]
    assert fresh(flat) == flat and fresh(flat) is not flat
    copy = fresh(nested)
    assert copy == nested and copy[0] is not nested[0] and copy[1]["a"] is not nested[1]["a"]
    table, deep = {"a": 1}, {"a": [1]}
    assert fresh(table) == table and fresh(table) is not table
    assert fresh(deep)["a"] is not deep["a"]
    assert fresh("text") == "text" and fresh(3) == 3


def test_build_checks_its_overrides(prefabs: dict[str, Prefab]) -> None:
    with pytest.raises(DataError, match="component Wounds has no field 'takn'"):
        prefabs["hero"].build({"Wounds": {"takn": 1}})
