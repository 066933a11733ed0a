"""The sza tables' validators name the file, line and field of a mistake (bad input never crashes:
one line, exit status 2 from the command); the shipped maps are sound."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from sza_helpers import laid_out

from ecs_zombie.data import load_yaml
from ecs_zombie.errors import DataError
from ecs_zombie.ruleset import RULESETS_DIR, load_ruleset
from ecs_zombie.systems.sza import tables
from ecs_zombie.systems.sza.board import UNSEEN
from ecs_zombie.systems.sza.character_sheet import create_character, save_prefab, sheet_to_prefab
from tests.helpers import ROOT, run_cli

SHIPPED = ROOT / "prefabs" / "sza"


def shipped(name: str) -> Any:
    return yaml.safe_load((SHIPPED / name).read_text())


def validate(tmp_path: Path, doc: Any, validator: Callable[[Any], Any]) -> Any:
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return validator(load_yaml(path))


def check(tmp_path: Path, text: str, validator: Any) -> str:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(DataError) as err:
        validator(load_yaml(path))
    return str(err.value)


def edit(doc: Any, path: str, value: Any) -> Any:
    """A copy of `doc` with the value at a dotted path (list indexes as numbers) replaced; a value of
    `...` deletes it."""
    out = copy.deepcopy(doc)
    node = out
    keys = [int(k) if k.isdigit() else k for k in path.split(".")]
    for k in keys[:-1]:
        node = node[k]
    if value is ...:
        del node[keys[-1]]
    else:
        node[keys[-1]] = value
    return out


RULES_ERRORS = [
    ("attribute_scores.8.upto", 99, "the last band must go up to 100"),
    ("attribute_scores.0.score", "fifty", "attribute_scores[0]"),
    ("bands", [{"from": 60, "value": 1}, {"from": 0, "value": 0}], "bands must be listed in increasing order"),
    ("bands", [], "bands must be listed in increasing order"),
    ("bands.0", {"from": 0, "value": 0, "valeu": 1}, "unknown key 'valeu'"),  # a misspelt key in a band
    ("salvage_bonuss", 1, "unknown key 'salvage_bonuss'"),  # a misspelt key at the top
    ("melee.fire_axe.dammage", "1d6", "unknown key 'dammage'"),  # ... and in every entry of its tables
    ("ranged.sar21.magazin", 10, "unknown key 'magazin'"),
    ("classes.soldier.outdoors", [2, 4], "unknown key 'outdoors'"),
    ("classes.soldier.modifiers.smart", 5, "unknown key 'smart'"),
    ("abilities.cqc.acuracy", 3, "unknown key 'acuracy'"),
    ("attribute_scores.0.scor", 50, "unknown key 'scor'"),
    ("checks.window.targett", 6, "unknown key 'targett'"),
    ("vehicle_speed.mud", 5, "unknown key 'mud'"),
    ("vehicle_capacity.bus", 30, "unknown key 'bus'"),
    ("zombie_move.underground", 1, "unknown key 'underground'"),
    ("loot.cabinet", {"bandage": -1}, "expected item names with how many of each"),
    ("loot.cabinet", {"bandage": True}, "expected item names with how many of each"),
    ("loot.cabinet", {"bandage": 2, "water": "3"}, "expected item names with how many of each"),
    ("loot.cabinet", [2], "expected item names with how many of each"),
    ("vehicle_speed.road", -1, "vehicle_speed.road must be 0 or more"),
    ("vehicle_capacity.car", -1, "vehicle_capacity.car must be 0 or more"),
    ("zombie_move.indoor", [2, -1], "expected [walk, run], squares of 0 or more"),
    ("zombie_move.outdoor", [-1, 4], "expected [walk, run], squares of 0 or more"),
    ("zombie_move.outdoor", [4], "expected [walk, run], squares of 0 or more"),
    ("infection_turns.1.from", -2000, "bands must be listed in increasing order"),
    ("melee.fire_axe.damage", "an axe", "melee.fire_axe.damage"),
    ("melee.fire_axe.run", [-5], "expected [accuracy, damage]"),
    ("melee.fire_axe.walk", [-3, "3"], "expected [accuracy, damage]"),
    ("melee.fire_axe.still", ..., "still"),
    ("ranged.sar21.damage", "d", "ranged.sar21.damage"),
    ("ranged.sar21.magazine", "ten", "magazine"),
    ("ranged.sar21.bands.0", [1, 3], "expected [from, to, modifier]"),
    ("ranged.sar21.bands.1", [4, 6, "15"], "expected [from, to, modifier]"),
    ("ranged.sar21.bands.2", {"from": 7}, "expected [from, to, modifier]"),
    ("ranged.sar21.bands.1", [3, 6, 15], "expected a band from 4"),
    ("ranged.sar21.bands.2", [6, 9, 10], "expected a band from 7"),
    ("ranged.sar21.bands.2", [8, 9, 10], "expected a band from 7"),
    ("ranged.sar21.bands.0", [2, 3, 20], "expected a band from 1"),
    ("ranged.sar21.bands.1", [4, 3, 15], "to no less than its from"),
    ("classes.soldier.title", 5, "classes.soldier"),
    ("classes.soldier.modifiers.smarts", ..., "smarts"),
    ("classes.soldier.indoor", [2], "expected [walk, run]"),
    ("classes.soldier.outdoor", [2, -1], "expected [walk, run]"),
    ("classes.soldier.outdoor", [2, "3"], "expected [walk, run]"),
    ("classes.soldier.abilities", ["cqc", "flying"], "unknown ability 'flying'"),
    ("classes.soldier.weapons", ["bayonet", "rifle"], "unknown weapon 'rifle'"),
    ("classes.soldier.ranged", "bazooka", "unknown ranged weapon 'bazooka'"),
    ("abilities.cqc.title", ..., "title"),
    ("abilities.cqc.kind", "sometimes", "kind must be passive, action or free"),
    # every number an ability's rule reads is the table's: none falls back on one of the code's
    ("abilities.inspire.range", ..., "abilities.inspire: missing field 'range'"),
    ("abilities.inspire.bonus", ..., "abilities.inspire: missing field 'bonus'"),
    ("abilities.tending_to_wounds.range", ..., "abilities.tending_to_wounds: missing field 'range'"),
    ("abilities.tending_to_wounds.heal", "five", "abilities.tending_to_wounds.heal"),
    ("abilities.vial_of_antidote.range", -1, "range must be from 0"),
    ("abilities.intravenous_injection.range", ..., "abilities.intravenous_injection: missing field 'range'"),
    ("abilities.motivational_speech.damage_taken", ..., "missing field 'damage_taken'"),
    ("abilities.k9_companion.die", "a dog", "abilities.k9_companion.die"),
    ("abilities.k9_companion.target", ..., "abilities.k9_companion: missing field 'target'"),
    ("abilities.one_shot_one_kill.die", ..., "abilities.one_shot_one_kill: missing field 'die'"),
    ("abilities.quick_step.squares", ..., "abilities.quick_step: missing field 'squares'"),
    ("abilities.fire_suit.heal", ..., "abilities.fire_suit: missing field 'heal'"),
    ("abilities.sharp_shooter.accuracy", ..., "abilities.sharp_shooter: missing field 'accuracy'"),
    ("abilities.cqc.damage", ..., "abilities.cqc: missing field 'damage'"),
    ("abilities.morale_boost.morale", ..., "abilities.morale_boost: missing field 'morale'"),
    ("abilities.k9_companion", ..., "abilities: missing field 'k9_companion'"),
    ("checks.window.bonus", "luck", "bonus must be smarts, strength or best"),
    ("checks.window.target", "five", "target"),
    ("loot", [1], "loot"),
    ("salvage_bonus", "0", "salvage_bonus"),
    ("vehicle_speed", 15, "vehicle_speed"),
    ("zombie_move", ..., "zombie_move"),
    ("bands.1.value", 5000, "5000 is beyond what a table may ask"),  # nested numbers are bounded too
]


@pytest.mark.parametrize(("where", "value", "message"), RULES_ERRORS)
def test_rules_table_errors(tmp_path: Path, where: str, value: Any, message: str) -> None:
    with pytest.raises(DataError) as err:
        validate(tmp_path, edit(shipped("rules.yaml"), where, value), tables.rules)
    assert message in str(err.value) and "bad.yaml" in str(err.value)


def test_rules_table_accepts_what_the_book_allows(tmp_path: Path) -> None:
    """A class may have a movement of 0 (not moving at all), a ranged weapon is optional, and an
    ability's kind may be passive, action or free; the validated tables read back as printed."""
    doc = edit(shipped("rules.yaml"), "classes.soldier.indoor", [0, 0])
    doc = edit(doc, "classes.soldier.ranged", ...)
    doc = edit(doc, "abilities.cqc.kind", "free")
    doc = edit(doc, "loot.cabinet", {"bandage": 0})  # an empty cabinet, a parked car, a still zombie
    doc = edit(doc, "vehicle_speed.grass", 0)
    doc = edit(doc, "vehicle_capacity.motorcycle", 0)
    doc = edit(doc, "zombie_move.indoor", [0, 0])
    r = validate(tmp_path, doc, tables.rules)
    assert r.classes["soldier"]["indoor"] == [0, 0] and "ranged" not in r.classes["soldier"]
    assert r.loot["cabinet"] == {"bandage": 0} and r.numbers["zombie_move"]["indoor"] == [0, 0]
    assert r.numbers["vehicle_capacity"]["motorcycle"] == 0
    assert r.attribute_scores[0] == (10, 50) and r.bands[1] == (60, 1) and r.infection_turns[4] == (90, 5)
    assert r.numbers["vehicle_speed"] == {"road": 15, "grass": 0}
    with pytest.raises(DataError, match="must be a mapping"):
        tables.rules([1, 2])


@pytest.mark.parametrize(("text", "key"), [
    ("s:\n  title: T\n  map: m\n  zombie: 1\n  zombies: 1\n  first: '1'\n  events:\n    '1': {title: A, end: won}\n",
     "zombie"),
    ("s:\n  title: T\n  map: m\n  zombies: 1\n  first: '1'\n  events:\n    '1': {title: A, end: won, exit: []}\n",
     "exit"),
    ("s:\n  title: T\n  map: m\n  zombies: 1\n  first: '1'\n  events:\n"
     "    '1': {title: A, choices: [{text: go, nxt: '1'}]}\n", "nxt"),
    ("s:\n  title: T\n  map: m\n  zombies: 1\n  first: '1'\n  events:\n"
     "    '1': {title: A, exits: [{when: {}, next: '1', if: {}}]}\n", "if"),
    ("s:\n  title: T\n  map: m\n  zombies: 1\n  first: '1'\n  events:\n"
     "    '1': {title: A, end: won, aim: {feature: stairs, hunted: true}}\n", "hunted"),
])
def test_a_misspelt_scenario_key_is_refused(tmp_path: Path, text: str, key: str) -> None:
    """A scenario, an event, a choice, an exit and an aim each refuse a key they do not know."""
    assert f"unknown key '{key}'" in check(tmp_path, text, tables.scenarios)


@pytest.mark.parametrize(("part", "message"), [
    ("exits: [{when: {turns: three}, next: '1'}]", "turns"),
    ("exits: [{when: {clear: 1}, next: '1'}]", "clear"),
    ("exits: [{when: {room: 3}, next: '1'}]", "room"),
])
def test_an_exit_condition_of_the_wrong_type_is_refused(tmp_path: Path, part: str, message: str) -> None:
    """Each exit condition has its type: a flag or room by name, turns a whole number, the rest true
    or false."""
    head = "s:\n  title: T\n  map: m\n  zombies: 1\n  first: '1'\n  events:\n"
    msg = check(tmp_path, head + f"    '1': {{title: A, {part}}}\n", tables.scenarios)
    assert f"when.{message}" in msg and "bad.yaml" in msg


@pytest.mark.parametrize(("reward", "ok"), [("{bandage: 0}", True), ("{bandage: 2, water: 1}", True),
                                            ("{bandage: -1}", False), ("{bandage: true}", False),
                                            ("{bandage: two}", False)])
def test_a_reward_gives_items_by_name_with_how_many(tmp_path: Path, reward: str, ok: bool) -> None:
    text = f"s:\n  title: T\n  map: m\n  zombies: 1\n  first: '1'\n  reward: {reward}\n  events:\n" \
           "    '1': {title: A, end: won}\n"
    if ok:
        assert tables.scenarios(load_yaml(_write(tmp_path, text))).by_id["s"].reward == yaml.safe_load(reward)
    else:
        assert "a reward gives items by name, with how many of each" in check(tmp_path, text, tables.scenarios)


def test_the_loaded_scenarios_cannot_be_changed() -> None:
    """Shared by every game that plays them, like the rules: frozen, the scenarios and their events."""

    scenarios = load_ruleset("sza").tables["sza.scenarios"]
    bungalow = scenarios.by_id["bungalow"]
    for obj, field in ((scenarios, "by_id"), (bungalow, "title"), (bungalow.events["1"], "title")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, field, None)


def test_a_scenarios_numbers_are_bounded(tmp_path: Path) -> None:
    """Every whole number of the scenarios table, however deep (a step's count here), is within what
    a table may ask: 1,000 either way."""
    head = "s:\n  title: T\n  map: m\n  zombies: 1\n  first: '1'\n  events:\n"
    event = "    '1': {title: A, end: won, steps: [{step: spawn, count: 1001, at: s}]}\n"
    assert "1001 is beyond what a table may ask" in check(tmp_path, head + event, tables.scenarios)


@pytest.mark.parametrize(("old", "new", "key"), [
    ("  start: r\n", "  start: r\n  strat: r\n", "strat"),
    ("{title: R, area: [1, 1, 3, 3]}", "{title: R, area: [1, 1, 3, 3], darkness: true}", "darkness"),
    ("{kind: table, at: [2, 2]}", "{kind: table, at: [2, 2], too: [3, 3]}", "too"),
])
def test_a_misspelt_map_key_is_refused(tmp_path: Path, old: str, new: str, key: str) -> None:
    """A map, its rooms and its features each refuse a key they do not know."""
    assert old in MAP
    assert f"unknown key '{key}'" in check(tmp_path, MAP.replace(old, new), tables.maps)


def test_scenario_events_errors(tmp_path: Path) -> None:
    head = "s:\n  title: T\n  map: m\n  zombies: 1\n  first: '1'\n  events:\n"
    msg = check(tmp_path, head + "    '1': {title: A, exits: [{when: {weather: rain}, next: '1'}]}\n", tables.scenarios)
    assert "bad.yaml:7" in msg and "unknown condition 'weather'" in msg
    msg = check(tmp_path, head + "    '1': {title: A, choices: [{text: go, next: '9'}]}\n", tables.scenarios)
    assert "leads to unknown event '9'" in msg
    msg = check(tmp_path, head + "    '1': {title: A, exits: [{when: {}, next: '7'}]}\n", tables.scenarios)
    assert "leads to unknown event '7'" in msg
    msg = check(tmp_path, head + "    '1': {title: A, end: drawn}\n", tables.scenarios)
    assert "end must be won or lost" in msg
    msg = check(tmp_path, head + "    '1': {title: A}\n", tables.scenarios)
    assert "an event needs choices, exits or an end" in msg
    msg = check(tmp_path, head.replace("first: '1'", "first: '2'") + "    '1': {title: A, end: won}\n",
                tables.scenarios)
    assert "unknown first event '2'" in msg
    assert "maps ids to scenarios" in check(tmp_path, "[1, 2]\n", tables.scenarios)
    assert "maps ids to scenarios" in check(tmp_path, "{}\n", tables.scenarios)
    ok = tables.scenarios(load_yaml(_write(tmp_path, head + "    '1': {title: A, end: lost}\n")))
    assert ok.by_id["s"].events["1"].end == "lost" and ok.by_id["s"].reward == {} and ok.by_id["s"].npcs == []


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "ok.yaml"
    path.write_text(text)
    return path


MAP = ("m:\n  title: M\n  size: [6, 5]\n  start: r\n  rooms: {r: {title: R, area: [1, 1, 3, 3]}}\n"
       "  features: [{kind: table, at: [2, 2]}]\n  spawns: {s: [[3, 3]]}\n")


@pytest.mark.parametrize(("old", "new", "message"), [
    ("size: [6, 5]", "size: [5]", "expected [width, height]"),
    ("size: [6, 5]", "size: [5, 0]", "expected [width, height]"),
    ("size: [6, 5]", "size: [0, 5]", "expected [width, height]"),
    ("size: [6, 5]", "size: [101, 5]", "expected [width, height], each 1..100"),
    ("size: [6, 5]", "size: [6, 5]\n  outdoor: maybe", "outdoor"),
    ("{title: R, area: [1, 1, 3, 3]}", "{title: R, area: [1, 1, 3, 3], dark: maybe}", "dark"),
    ("{title: R, area: [1, 1, 3, 3]}", "{title: R, area: [1, 1, 3, 3], hide: 1}", "hide"),
    ("{title: R, area: [1, 1, 3, 3]}", "{title: R, area: [1, 1, 3, 3], smarts: 1001}",
     "smarts is beyond what a table may ask"),
    ("{title: R, area: [1, 1, 3, 3]}", "{title: R, area: [1, 1, 3, 3], zombie_accuracy: -1001}",
     "zombie_accuracy is beyond what a table may ask"),
    ("spawns: {s: [[3, 3]]}", "spawns: {s: [[6, 3]]}", "expected a list of [x, y] squares on the board"),
    ("spawns: {s: [[3, 3]]}", "spawns: {s: [[3, 5]]}", "expected a list of [x, y] squares on the board"),
    ("spawns: {s: [[3, 3]]}", "spawns: {s: [[-1, 3]]}", "expected a list of [x, y] squares on the board"),
    ("spawns: {s: [[3, 3]]}", "spawns: {s: [[3, -1]]}", "expected a list of [x, y] squares on the board"),
    ("spawns: {s: [[3, 3]]}", "spawns: {s: [3, 3]}", "expected a list of [x, y] squares on the board"),
    ("spawns: {s: [[3, 3]]}", "spawns: {s: 3}", "expected a list of [x, y] squares on the board"),
    ("  start: r\n", "  start_area: [4, 3, 3, 3]\n", "m.start_area: expected [x, y, width, height] inside"),
    ("  start: r\n", "  start_area: [0, 3, 3, 3]\n", "m.start_area: expected [x, y, width, height] inside"),
    ("{kind: table, at: [2, 2]}", "{kind: stairs, at: [2, 2], to: five}", "features[0].to: expected a list"),
    ("{kind: table, at: [2, 2]}", "{kind: stairs, at: [2, 2]}", "features[0]: missing field 'to'"),
    ("{kind: table, at: [2, 2]}", "{kind: window, at: [0, 2], to: [9, 2]}", "features[0].to: expected [x, y] on the"),
    ("{kind: table, at: [2, 2]}", "{kind: window, area: [0, 1, 1, 2], to: [3, 3]}",
     "a window with a far end stands on one square ('at')"),
    ("size: [6, 5]", "size: [6, 101]", "expected [width, height], each 1..100"),
    ("size: [6, 5]", "size: [6, 5, 1]", "expected [width, height]"),
    ("area: [1, 1, 3, 3]", "area: [1, 1, 3, 5]", "rooms.r.area"),
    ("area: [1, 1, 3, 3]", "area: [1, 1, 6, 3]", "rooms.r.area"),
    ("area: [1, 1, 3, 3]", "area: [1, 1, 9, 2]", "rooms.r.area"),
    ("area: [1, 1, 3, 3]", "area: [1, 1, 3]", "rooms.r.area"),
    ("area: [1, 1, 3, 3]", "area: [-1, 1, 3, 3]", "rooms.r.area"),
    ("area: [1, 1, 3, 3]", "area: [1, -1, 3, 3]", "rooms.r.area"),
    ("area: [1, 1, 3, 3]", "area: [1, 1, 0, 3]", "rooms.r.area"),
    ("area: [1, 1, 3, 3]", "area: [1, 1, 3, 0]", "rooms.r.area"),
    ("area: [1, 1, 3, 3]", "area: [1, 3, 3, 3]", "rooms.r.area"),
    ("area: [1, 1, 3, 3]", "area: [1, 1, 3, '3']", "rooms.r.area"),
    ("{kind: table, at: [2, 2]}", "{kind: lava, at: [1, 1]}", "unknown feature kind 'lava'"),
    ("{kind: table, at: [2, 2]}", "{kind: table, at: [6, 2]}", "expected [x, y] on the board"),
    ("{kind: table, at: [2, 2]}", "{kind: table, at: [2, 5]}", "expected [x, y] on the board"),
    ("{kind: table, at: [2, 2]}", "{kind: table, area: [2, 2, 4, 4]}", "features[0].area"),
    ("{kind: table, at: [2, 2]}", "{kind: table, at: [2, 5]}", "expected [x, y] on the board"),
    ("{kind: table, at: [2, 2]}", "{kind: table, at: [2]}", "expected [x, y] on the board"),
    ("{kind: table, at: [2, 2]}", "{kind: stairs, at: [2, 2], to: [7, 7]}", "features[0].to: expected [x, y]"),
    ("start: r", "start: q", "start must name a room"),
    ("  start: r\n", "", "missing field 'start' (a room) or 'start_area'"),
    ("[[3, 3]]", "[[0, 0]]", "spawn square (0, 0) is not open floor"),
    ("  title: M\n", "", "m: missing field 'title'"),
    ("{title: R, area", "{area", "m.rooms.r: missing field 'title'"),
    ("{kind: table, at: [2, 2]}", "{kind: stairs, at: [2, 2], to: [5, 5]}", "features[0].to: expected [x, y]"),
    ("{title: R, area: [1, 1, 3, 3]}", "{title: R, area: [1, 1, 3, 3], drak: true}", "did you mean 'dark'?"),
])
def test_map_errors(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert old in MAP
    msg = check(tmp_path, MAP.replace(old, new), tables.maps)
    assert message in msg
    assert "bad.yaml" in msg


def test_a_valid_map_compiles(tmp_path: Path) -> None:
    """Rooms, features, a staircase linking two squares, spawns and the start area compile to a board."""
    text = MAP.replace("{kind: table, at: [2, 2]}", "{kind: table, at: [2, 2]}, {kind: stairs, at: [1, 1], to: [3, 1]}")
    boards = tables.maps(load_yaml(_write(tmp_path, text)))
    b = boards["m"]
    assert (b.width, b.height, b.outdoor, b.start) == (6, 5, False, [7, 8, 9, 13, 14, 15, 19, 20, 21])
    assert b.feature(b.cell(2, 2)) == "table" and b.links == {7: 9, 9: 7} and b.spawns == {"s": [21]}
    assert "maps names to boards" in check(tmp_path, "{}\n", tables.maps)
    assert "maps names to boards" in check(tmp_path, "[1]\n", tables.maps)
    wide = tables.maps(load_yaml(_write(tmp_path, MAP.replace("size: [6, 5]", "size: [100, 100]"))))["m"]
    assert (wide.width, wide.height) == (100, 100)  # a board up to 100 squares either way
    edge = MAP.replace("spawns: {s: [[3, 3]]}", "spawns: {s: [[5, 4], [0, 0]]}").replace(
        "{title: R, area: [1, 1, 3, 3]}", "{title: R, area: [0, 0, 6, 5], smarts: 1000, zombie_accuracy: -1000}")
    b = tables.maps(load_yaml(_write(tmp_path, edge)))["m"]  # corner squares, numbers at their bound
    assert b.spawns == {"s": [29, 0]} and b.rooms["r"].smarts == 1000
    shutters = MAP.replace("{kind: table, at: [2, 2]}", "{kind: window, area: [0, 1, 1, 2]}")  # no far end
    assert tables.maps(load_yaml(_write(tmp_path, shutters)))["m"].features["window"] == [6, 12]


def test_unknown_step_is_caught_when_the_ruleset_loads(tmp_path: Path) -> None:
    """An event naming a step the ruleset does not map is an error at load, naming the event."""
    text = (RULESETS_DIR / "sza.yaml").read_text()
    assert "  spawn: sza.spawn\n" in text
    (tmp_path / "sza.yaml").write_text(text.replace("  spawn: sza.spawn\n", ""))
    with pytest.raises(DataError, match=r"sza/scenarios.yaml:\d+: \w+\.events\.\w+\.steps\[0\]: step 'spawn' "
                                        r"\(named by table sza.scenarios\) is not mapped under steps:"):
        load_ruleset(str(tmp_path / "sza.yaml"))


def test_shipped_scenarios_cross_check() -> None:
    """Every scenario's map, spawn lists, prefabs and aims exist; each missing one is named."""
    rs = load_ruleset("sza")
    scen, maps, prefabs = rs.tables["sza.scenarios"], rs.tables["sza.maps"], rs.prefabs
    tables.cross_check(scen, maps, prefabs)
    with pytest.raises(DataError, match="unknown map 'bungalow'"):
        tables.cross_check(scen, {}, prefabs)
    with pytest.raises(DataError, match="unknown prefab 'ah_heng'"):
        tables.cross_check(scen, maps, {k: v for k, v in prefabs.items() if k != "ah_heng"})
    with pytest.raises(DataError, match=r"bungalow\.events\.1\.steps: unknown prefab"):  # names None (reported)
        tables.cross_check(scen, maps, {k: v for k, v in prefabs.items() if k != "zombie"})
    street = maps["street"]
    bare = copy.copy(street)
    bare.spawns = {}
    with pytest.raises(DataError, match="spawn list 'road' is not on map 'street'"):
        tables.cross_check(scen, {**maps, "street": bare}, prefabs)
    no_fuse = copy.copy(maps["bungalow"])
    no_fuse.features = {k: v for k, v in no_fuse.features.items() if k != "fuse"}
    with pytest.raises(DataError, match="aim 'fuse' is no feature of map 'bungalow'"):
        tables.cross_check(scen, {**maps, "bungalow": no_fuse}, prefabs)


def test_a_bad_table_from_a_scenario_is_one_line_and_status_2(tmp_path: Path) -> None:
    """Bad input never crashes: one line naming the file, exit status 2."""
    (tmp_path / "rules.yaml").write_text(yaml.safe_dump(edit(shipped("rules.yaml"), "checks.window.bonus", "luck")))
    (tmp_path / "s.yaml").write_text("ruleset: sza\ntables: {sza.rules: rules.yaml}\nentities:\n"
                                     "  - {prefab: campaign}\n  - {prefab: dexter}\n")
    res = run_cli("run", str(tmp_path / "s.yaml"))
    assert res.returncode == 2 and "bonus must be smarts, strength or best" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.stderr


def test_every_room_and_goal_is_reachable() -> None:
    """From the Planning Room every room of the bungalow is reachable once the panic room door is
    open (the stairs join the levels), and the garden once a window is broken; the street's safe
    house is reachable from the start."""
    rs = load_ruleset("sza")
    bungalow = rs.tables["sza.maps"]["bungalow"]
    door = bungalow.features["locked_door"][0]
    dist = bungalow.graph([door]).from_(bungalow.start[0])
    for cell, room in bungalow.room_at.items():
        assert (dist.get(cell, UNSEEN) < UNSEEN) == (room != "garden"), bungalow.xy(cell)
    out = bungalow.graph([door, bungalow.cell(0, 2)]).from_(bungalow.start[0])
    assert all(c in out for c, room in bungalow.room_at.items())
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


def test_every_character_sets_its_own_stamina_and_attributes() -> None:
    """`sza_character`'s own Stamina and attributes are a template's, never a character's: the six
    printed characters, the created party and a sheet from `character create` each set Wounds
    (taken and limit) and all five attributes, so the base's values reach no game (the mutation
    run's equivalent entries for pieces.yaml lines 8-9 rest on this)."""
    fields = {"Wounds": {"taken", "limit"},
              "SzaAttributes": {"strength", "accuracy", "smarts", "initiative", "morale"}}
    bodies = {name: body for f in ("pieces.yaml", "created_party.yaml")
              for name, body in shipped(f).items() if body.get("extends") == "sza_character"}
    sheet = create_character("paramedic", 9, name="Siti")
    bodies.update(sheet_to_prefab(sheet))
    assert len(bodies) == 6 + 7 + 1
    for name, body in bodies.items():
        for comp, names in fields.items():
            assert set(body[comp]) == names, (name, comp)


def test_the_shipped_tables_as_a_game_reads_them(make_game: Any) -> None:
    """The shipped rules table loads in a game (the suite's other tests read its values through play)."""
    game = laid_out(make_game)
    assert game.tables["sza.rules"].score(100) == 90


def test_the_rules_table_cannot_be_changed_once_loaded() -> None:
    """The loaded rules are shared by every game that plays them (and kept by the ruleset cache): a
    rule changing one in play would change them all, so they are frozen."""

    rules = load_ruleset("sza").tables["sza.rules"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.bands = []  # type: ignore[misc]
