"""The sza tables' validators name the file, line and field of a mistake; the maps are sound."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ecs_zombie.data import load_yaml
from ecs_zombie.errors import DataError
from ecs_zombie.ruleset import load_ruleset
from ecs_zombie.systems.sza import tables
from ecs_zombie.systems.sza.board import UNSEEN
from ecs_zombie.systems.sza.character_sheet import create_character, save_prefab


def check(tmp_path: Path, text: str, validator: Any) -> str:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(DataError) as err:
        validator(load_yaml(path))
    return str(err.value)


def test_scenario_events_errors(tmp_path: Path) -> None:
    msg = check(tmp_path, "s:\n  title: T\n  map: m\n  zombies: 1\n  first: '1'\n  events:\n"
                          "    '1': {title: A, exits: [{when: {weather: rain}, next: '1'}]}\n", tables.scenarios)
    assert "bad.yaml:7" in msg and "unknown condition 'weather'" in msg
    msg = check(tmp_path, "s:\n  title: T\n  map: m\n  zombies: 1\n  first: '1'\n  events:\n"
                          "    '1': {title: A, choices: [{text: go, next: '9'}]}\n", tables.scenarios)
    assert "leads to unknown event '9'" in msg


def test_map_errors(tmp_path: Path) -> None:
    msg = check(tmp_path, "m:\n  title: M\n  size: [5, 5]\n  start: r\n  rooms: {r: {title: R, area: [1, 1, 9, 2]}}\n"
                          "  features: []\n", tables.maps)
    assert "bad.yaml:5" in msg and "rooms.r.area" in msg
    msg = check(tmp_path, "m:\n  title: M\n  size: [5, 5]\n  start: r\n  rooms: {r: {title: R, area: [1, 1, 2, 2]}}\n"
                          "  features: [{kind: lava, at: [1, 1]}]\n", tables.maps)
    assert "unknown feature kind 'lava'" in msg


def test_unknown_step_is_caught_when_the_ruleset_loads(tmp_path: Path) -> None:
    scen = load_ruleset("sza").tables["sza.scenarios"]
    with pytest.raises(DataError, match="unknown step 'spawn'"):
        scen.check_steps({})


def test_every_room_and_goal_is_reachable() -> None:
    """From the Planning Room every room of the bungalow is reachable once the panic room door is
    open (the stairs join the levels); the street's safe house is reachable from the start."""
    rs = load_ruleset("sza")
    bungalow = rs.tables["sza.maps"]["bungalow"]
    door = bungalow.features["locked_door"][0]
    dist = bungalow.graph([door]).from_(bungalow.start[0])
    for cell, _room in bungalow.room_at.items():
        assert dist.get(cell, UNSEEN) < UNSEEN, bungalow.xy(cell)
    closed = bungalow.graph([]).from_(bungalow.start[0])
    assert bungalow.features["safe"][0] not in closed
    street = rs.tables["sza.maps"]["street"]
    d2 = street.graph([]).from_(street.start[0])
    assert all(d2.get(c, UNSEEN) < UNSEEN for c in street.features["safehouse"])


def test_save_prefab(tmp_path: Path) -> None:
    path = save_prefab(create_character("paramedic", 9, name="Siti"), str(tmp_path / "siti.yaml"))
    doc = load_yaml(path)
    assert doc["siti"]["extends"] == "sza_character"
    assert doc["siti"]["SzaCharacter"]["abilities"][0] in ("tending_to_wounds", "vial_of_antidote")


def test_shipped_scenarios_cross_check() -> None:
    rs = load_ruleset("sza")
    tables.cross_check(rs.tables["sza.scenarios"], rs.tables["sza.maps"], rs.prefabs)
    with pytest.raises(DataError, match="unknown map"):
        tables.cross_check(rs.tables["sza.scenarios"], {}, rs.prefabs)
