"""Escape from Stalingrad Z — the table validators (systems/stalingrad/tables.py): a bad table is
refused at load with a one-line error naming the file, line and field; the defaults a table may
leave out; and the lookups the rules make in them."""

from __future__ import annotations

import re
from dataclasses import FrozenInstanceError
from pathlib import Path
from typing import Any

import pytest

from ecs_zombie.data import load_yaml
from ecs_zombie.errors import DataError
from ecs_zombie.registry import TABLES
from ecs_zombie.ruleset import load_ruleset

MOVES = "{mp: 4, step: 1, diagonal: 2, turn: 1, open_door: 1, close_door: 1, pass_gear: 1}"


def load(tmp_path: Path, name: str, text: str) -> Any:
    load_ruleset("stalingrad")
    p = tmp_path / "table.yaml"
    p.write_text(text)
    return TABLES[f"stalingrad.{name}"](load_yaml(p))


def refused(tmp_path: Path, name: str, text: str, message: str) -> str:
    with pytest.raises(DataError, match=re.escape(message)) as info:
        load(tmp_path, name, text)
    assert "table.yaml" in str(info.value)
    return str(info.value)


# -- weapons --------------------------------------------------------------------------------------

def test_weapon_defaults(tmp_path: Path) -> None:
    """A weapon neither fires, nor is an H weapon, nor a grenade unless it says so."""
    w = load(tmp_path, "weapons", "club: {pb: 1, rm: 1, hit: 7, rof: 1}\n")["club"]
    assert (w.pb, w.rm, w.hit, w.rof, w.fire, w.h, w.grenade) == (1, 1, 7, 1, False, False, False)


@pytest.mark.parametrize(("text", "message"), [
    ("{}\n", "the weapons table maps weapon names to statistics"),
    ("gun: {pb: 0, rm: 1, hit: 7, rof: 1}\n", "pb must be at least 1"),
    ("gun: {pb: 1, rm: 0, hit: 7, rof: 1}\n", "rm must be at least 1"),
    ("gun: {pb: 1, rm: 1, hit: 0, rof: 1}\n", "hit must be at least 1"),
    ("gun: {pb: 1, rm: 1, hit: 7, rof: 0}\n", "rof must be at least 1"),
    ("nade: {pb: 1, rm: 1, hit: 2, rof: 1, grenade: true, fire: true}\n", "a grenade neither fires"),
    ("nade: {pb: 1, rm: 1, hit: 2, rof: 2, grenade: true}\n", "a grenade neither fires"),
    ("gun: {pb: 1, rm: 1, hit: 7, rof: 1, fires: true}\n", "unknown key 'fires'"),  # a misspelt key, not a club
])
def test_bad_weapons_are_refused(tmp_path: Path, text: str, message: str) -> None:
    refused(tmp_path, "weapons", text, message)


def test_the_smallest_weapon_loads(tmp_path: Path) -> None:
    w = load(tmp_path, "weapons", "nade: {pb: 1, rm: 1, hit: 1, rof: 1, grenade: true}\n")["nade"]
    assert (w.hit, w.grenade, w.fire) == (1, True, False)


# -- zombie types ---------------------------------------------------------------------------------

def test_zombie_type_defaults_and_abilities(tmp_path: Path) -> None:
    kinds = load(tmp_path, "zombies", "crawler: {move: 1, hits: 1}\n"
                                     "big: {move: 1, hits: 3, abilities: [tough, hidden], initiative: 2}\n")
    assert (kinds["crawler"].abilities, kinds["crawler"].initiative) == ((), 0)
    assert (kinds["big"].hits, kinds["big"].abilities, kinds["big"].initiative) == (3, ("tough", "hidden"), 2)


@pytest.mark.parametrize(("text", "message"), [
    ("[]\n", "the zombie table maps type names to statistics"),
    ("{}\n", "the zombie table maps type names to statistics"),
    ("z: {move: 0, hits: 1}\n", "move must be at least 1"),
    ("z: {move: 1, hits: 0}\n", "hits must be at least 1"),
    ("z: {move: 1, hits: 1, abilities: [flying]}\n", "unknown ability 'flying' (known: tough, hidden)"),
    ("z: {move: 1, hits: 1, hit: 1}\n", "unknown key 'hit'"),  # a misspelt key
])
def test_bad_zombie_types_are_refused(tmp_path: Path, text: str, message: str) -> None:
    refused(tmp_path, "zombies", text, message)


# -- movement, deviation, modifiers ----------------------------------------------------------------

def movement_text(**changes: str) -> str:
    modes = {m: MOVES for m in ("running", "walking", "stationary", "searching")}
    modes.update(changes)
    return "".join(f"{m}: {v}\n" for m, v in modes.items() if v)


def test_movement_table_loads_and_mp_may_be_zero(tmp_path: Path) -> None:
    table = load(tmp_path, "movement", movement_text(stationary=MOVES.replace("mp: 4", "mp: 0")))
    assert (table["stationary"].mp, table["walking"].diagonal) == (0, 2)


@pytest.mark.parametrize(("changes", "message"), [
    ({"walking": MOVES.replace("turn: 1", "turn: 0")}, "turn must be at least 1"),
    ({"running": MOVES.replace("step: 1", "step: 0")}, "step must be at least 1"),
    ({"walking": MOVES.replace("mp: 4", "mp: -1")}, "mp must be at least 0"),
    ({"searching": ""}, "searching"),
    ({"runing": MOVES}, "runing"),  # a misspelt mode
    ({"walking": MOVES.replace("pass_gear", "pas_gear")}, "pas_gear"),  # a misspelt action
])
def test_bad_movement_tables_are_refused(tmp_path: Path, changes: dict[str, str], message: str) -> None:
    refused(tmp_path, "movement", movement_text(**changes), message)


DEVIATION = "direction_die: 1d8\ndirections: [N, NE, E, SE, S, SW, W, NW]\ndistance_die: 1d3\nmax_tries: 10\n"


def test_deviation_table_reads_directions_in_order(tmp_path: Path) -> None:
    dev = load(tmp_path, "deviation", DEVIATION.replace("[N, NE, E, SE, S, SW, W, NW]", "[S, N, E, W]")
               .replace("1d8", "1d4"))
    assert (dev.directions, dev.max_tries, dev.distance_die) == ((4, 0, 2, 6), 10, "1d3")


@pytest.mark.parametrize(("old", "new", "message"), [
    ("NW]", "UP]", "unknown direction 'UP'"),
    ("1d8", "1d6", "the direction die must be one die with one face per direction (8)"),
    ("1d8", "2d4", "the direction die must be one die with one face per direction (8)"),
    ("1d8", "1d8+1", "the direction die must be one die with one face per direction (8)"),
    ("max_tries: 10", "max_tries: 0", "max_tries must be at least 1"),
    ("1d3", "3x", "3x"),
    ("max_tries: 10", "max_tries: 10\nmax_trys: 10", "unknown key 'max_trys'"),  # a misspelt key
])
def test_bad_deviation_tables_are_refused(tmp_path: Path, old: str, new: str, message: str) -> None:
    refused(tmp_path, "deviation", DEVIATION.replace(old, new), message)


MODS = ("attack: {stationary: 0, walking: 2, running: 4}\ncovering: {stationary: 0, walking: 2, running: 4}\n"
        "lof: {intervening_figure: 1, obstructive: 2}\narcs: {front_half_angle: 45, rear_half_angle: 45}\n")


def test_modifiers_defaults_and_arc_limits(tmp_path: Path) -> None:
    """A stunned zombie has no zone of control unless the table says so; arcs may meet (front 90
    and rear 90 leave no side arc) but not overlap."""
    m = load(tmp_path, "modifiers", MODS)
    assert (m.zoc_while_stunned, m.attack["running"], m.covering["walking"], m.obstructive) == (False, 4, 2, 2)
    wide = load(tmp_path, "modifiers", MODS.replace("45, rear_half_angle: 45", "90, rear_half_angle: 90"))
    assert (wide.front_half_angle, wide.rear_half_angle) == (90.0, 90.0)


@pytest.mark.parametrize(("old", "new"), [("front_half_angle: 45", "front_half_angle: 0"),
                                          ("45, rear_half_angle: 45", "91, rear_half_angle: 90"),
                                          ("rear_half_angle: 45", "rear_half_angle: 181")])
def test_overlapping_or_empty_arcs_are_refused(tmp_path: Path, old: str, new: str) -> None:
    refused(tmp_path, "modifiers", MODS.replace(old, new), "arcs must satisfy")


@pytest.mark.parametrize(("front", "rear"), [(1, 45), (45, 0), (180, 0), (90, 90)])
def test_arcs_at_their_limits_load(tmp_path: Path, front: int, rear: int) -> None:
    m = load(tmp_path, "modifiers", MODS.replace("45, rear_half_angle: 45", f"{front}, rear_half_angle: {rear}"))
    assert (m.front_half_angle, m.rear_half_angle) == (front, rear)


def test_a_negative_rear_arc_is_refused(tmp_path: Path) -> None:
    refused(tmp_path, "modifiers", MODS.replace("rear_half_angle: 45", "rear_half_angle: -1"), "arcs must satisfy")


def test_a_negative_covering_token_is_refused(tmp_path: Path) -> None:
    refused(tmp_path, "modifiers", MODS.replace("covering: {stationary: 0", "covering: {stationary: -1"),
            "stationary must be at least 0")


# -- the scenario's tables -------------------------------------------------------------------------

LEGEND = 'legend:\n  ".": {terrain: open}\n  "A": {terrain: open, labels: ["spawn:A"]}\n'


def test_a_map_loads_with_labels(tmp_path: Path) -> None:
    g = load(tmp_path, "map", LEGEND + 'rows: ["A..", "..."]\n')
    assert (g.width, g.height, g.squares("spawn:A")) == (3, 2, ((0, 0),))


@pytest.mark.parametrize(("text", "message"), [
    ('legend:\n  "..": {terrain: open}\nrows: [".."]\n', "legend keys are single characters"),
    ('legend:\n  ".": {terrain: lava}\nrows: ["."]\n', "terrain must be one of"),
    ('legend:\n  ".": {terrain: open, labels: [1]}\nrows: ["."]\n', "labels are text"),
    (LEGEND + "rows: [1, 2]\n", "rows are text"),
    (LEGEND + 'rows: ["...", ".."]\n', "rows[1]"),
    (LEGEND + "rows: []\n", "a map needs at least one row"),
])
def test_bad_maps_are_refused(tmp_path: Path, text: str, message: str) -> None:
    assert "rows[None]" not in refused(tmp_path, "map", text, message)


def test_a_map_is_at_most_a_thousand_squares_either_way(tmp_path: Path) -> None:
    """A map may be 1,000 squares wide or 1,000 high (the bound of a table's numbers), not 1,001."""
    assert load(tmp_path, "map", LEGEND + f'rows: ["{"." * 1000}"]\n').width == 1000
    assert load(tmp_path, "map", LEGEND + "rows: [" + ", ".join(['"."'] * 1000) + "]\n").height == 1000
    refused(tmp_path, "map", LEGEND + f'rows: ["{"." * 1001}"]\n', "a map is at most 1000 squares wide and high")
    refused(tmp_path, "map", LEGEND + "rows: [" + ", ".join(['"."'] * 1001) + "]\n",
            "a map is at most 1000 squares wide and high")


def test_round_track(tmp_path: Path) -> None:
    """The round track: one mark per round, S a spawn round; its length is the last round."""
    track = load(tmp_path, "track", 'rounds: "S-S"\n')
    assert track.rounds == 3
    assert [track.spawns(r) for r in range(0, 5)] == [False, True, False, True, False]
    refused(tmp_path, "track", 'rounds: "S-X"\n', "rounds is a string of S (spawn) and - (plain)")
    refused(tmp_path, "track", 'rounds: ""\n', "rounds is a string of S (spawn) and - (plain)")
    assert load(tmp_path, "track", f'rounds: "{"-" * 10_000}"\n').rounds == 10_000  # the most a game runs
    refused(tmp_path, "track", f'rounds: "{"-" * 10_001}"\n', "at most 10000")


SPAWN = "waves:\n  - {square: A, count: 1d2}\n  - {square: B, count: 2}\ntype_die: 1d12\ntypes:\n"


def test_spawn_section_types_by_roll(tmp_path: Path) -> None:
    """Each entry covers the rolls up to its `upto`; a roll above the last reads the last."""
    section = load(tmp_path, "spawn", SPAWN + "  - {upto: 3, type: walker}\n  - {upto: 5, type: runner}\n")
    assert section.waves == (("A", "1d2"), ("B", "2"))
    assert [section.type_for(r) for r in (1, 3, 4, 5, 6)] == ["walker", "walker", "runner", "runner", "runner"]
    first = load(tmp_path, "spawn", SPAWN + "  - {upto: 1, type: brute}\n  - {upto: 12, type: walker}\n")
    assert [first.type_for(r) for r in (1, 2)] == ["brute", "walker"]  # a first band may end at 1


@pytest.mark.parametrize(("types", "message"), [
    ("types:\n  - {upto: 3, type: walker}\n  - {upto: 3, type: runner}\n", "upto values must rise"),
    ("types:\n  - {upto: 0, type: walker}\n", "upto must be at least 1"),
    ("types: []\n", "at least one entry"),
])
def test_bad_spawn_sections_are_refused(tmp_path: Path, types: str, message: str) -> None:
    refused(tmp_path, "spawn", SPAWN.replace("types:\n", types), message)


SEARCH = "allowed: true\ndie: 1d12\nresults:\n"


def test_search_table_defaults_and_lookup(tmp_path: Path) -> None:
    table = load(tmp_path, "search", SEARCH + "  - {upto: 2, result: nothing}\n"
                                             "  - {upto: 4, result: gear, item: rope}\n"
                                             "  - {upto: 6, result: ammo, amount: 3}\n")
    assert [table.result(r) for r in (1, 2, 3, 5, 9)] == [
        ("nothing", 1, ""), ("nothing", 1, ""), ("gear", 1, "rope"), ("ammo", 3, ""), ("ammo", 3, "")]
    assert table.allowed is True
    first = load(tmp_path, "search", SEARCH + "  - {upto: 1, result: grenade}\n  - {upto: 12, result: nothing}\n")
    assert [first.result(r)[0] for r in (1, 2)] == ["grenade", "nothing"]  # a first band may end at 1


@pytest.mark.parametrize(("results", "message"), [
    ("  - {upto: 4, result: nothing}\n  - {upto: 4, result: ammo}\n", "upto values must rise"),
    ("  - {upto: 4, result: treasure}\n", "result must be one of nothing, ammo, grenade, bandage, gear"),
    ("  - {upto: 4, result: ammo, amount: -1}\n", "amount must be at least 0"),
    ("  - {upto: 0, result: nothing}\n", "upto must be at least 1"),  # a die shows at least 1
])
def test_bad_search_tables_are_refused(tmp_path: Path, results: str, message: str) -> None:
    refused(tmp_path, "search", SEARCH + results, message)
    refused(tmp_path, "search", "allowed: true\ndie: 1d12\nresults: []\n", "at least one result")


def test_victory_defaults_and_limits(tmp_path: Path) -> None:
    v = load(tmp_path, "victory", "escape_needed: 1\n")
    assert (v.escape_needed, v.by_round) == (1, 0)
    refused(tmp_path, "victory", "escape_needed: 0\n", "escape_needed must be at least 1")
    refused(tmp_path, "victory", "escape_needed: 2\nby_round: -1\n", "by_round must be at least 0")


def test_tables_are_frozen(make_game) -> None:
    """Tables are shared by every game of the ruleset: no rule may change them."""
    game = make_game("stalingrad", 1)
    objs = [(game.tables["stalingrad.weapons"]["tt33"], "hit"), (game.tables["stalingrad.zombies"]["walker"], "move"),
            (game.tables["stalingrad.movement"]["walking"], "mp"), (game.tables["stalingrad.deviation"], "max_tries"),
            (game.tables["stalingrad.modifiers"], "obstructive"), (game.tables["stalingrad.track"], "marks"),
            (game.tables["stalingrad.spawn"], "types"), (game.tables["stalingrad.search"], "die"),
            (game.tables["stalingrad.victory"], "escape_needed")]
    for obj, field in objs:
        with pytest.raises((FrozenInstanceError, TypeError)):
            setattr(obj, field, 0)


# -- the bound on a table's numbers ---------------------------------------------------------------

def test_a_tables_numbers_reach_exactly_the_bound(tmp_path: Path) -> None:
    """A table may hold numbers up to 1,000 either way (`ecs_zombie.limits`), no further: a weapon's
    hit # of 1000 loads and 1001 is refused; an attack modifier of -1000 loads and -1001 is refused;
    a type die of 2d500 loads and 2d501 is refused, as is one that can fall below -1000."""
    assert load(tmp_path, "weapons", "gun: {pb: 1, rm: 1, hit: 1000, rof: 1}\n")["gun"].hit == 1000
    refused(tmp_path, "weapons", "gun: {pb: 1, rm: 1, hit: 1001, rof: 1}\n", "hit must be at most 1000")
    mods = ("attack: {{stationary: {s}, walking: 2, running: 4}}\ncovering: {{stationary: 0, walking: 2, "
            "running: 4}}\nlof: {{intervening_figure: 1, obstructive: 2}}\narcs: {{front_half_angle: 45, "
            "rear_half_angle: 45}}\nzoc_while_stunned: false\n")
    assert load(tmp_path, "modifiers", mods.format(s=-1000)).attack["stationary"] == -1000
    refused(tmp_path, "modifiers", mods.format(s=-1001), "stationary must be from -1000 to 1000")
    spawn = "waves: []\ntype_die: {die}\ntypes: [{{upto: 1000, type: walker}}]\n"
    assert load(tmp_path, "spawn", spawn.format(die="2d500")).type_die == "2d500"
    refused(tmp_path, "spawn", spawn.format(die="2d501"), "2d501 gives more than 1000")
    assert load(tmp_path, "spawn", spawn.format(die="1d6-1001")).type_die == "1d6-1001"
    refused(tmp_path, "spawn", spawn.format(die="1d6-1002"), "1d6-1002 gives more than 1000")
    for fixed in (0, 1000):  # a fixed number instead of dice: 0 to 1000
        assert load(tmp_path, "spawn", spawn.format(die=fixed)).type_die == str(fixed)
    for fixed in (-1, 1001):
        refused(tmp_path, "spawn", spawn.format(die=fixed), "type_die must be from 0 to 1000")


SHIPPED = Path(__file__).resolve().parents[2] / "prefabs" / "stalingrad"


@pytest.mark.parametrize(("name", "old", "new", "key"), [
    ("modifiers", "zoc_while_stunned: false", "zoc_while_stunned: false\nzoc_stunned: false", "zoc_stunned"),
    ("modifiers", "attack: {stationary: 0,", "attack: {stationry: 0, stationary: 0,", "stationry"),
    ("modifiers", "covering: {stationary: 0,", "covering: {stationry: 0, stationary: 0,", "stationry"),
    ("modifiers", "lof: {intervening_figure: 1,", "lof: {intervening: 1, intervening_figure: 1,", "intervening"),
    ("modifiers", "arcs: {front_half_angle: 45,", "arcs: {front: 45, front_half_angle: 45,", "front"),
    ("map", "legend:", "legends: {}\nlegend:", "legends"),
    ("map", '".": {terrain: open}', '".": {terrain: open, opened: true}', "opened"),
    ("track", 'rounds: "-S-S-S-SS-SS"', 'rounds: "-S-S-S-SS-SS"\nround: "-"', "round"),
    ("spawn", "type_die: 1d12", "type_die: 1d12\ntype_dice: 1d12", "type_dice"),
    ("spawn", "{square: A, count: 1}", "{square: A, cont: 1}", "cont"),
    ("spawn", "{upto: 6, type: walker}", "{upto: 6, typ: walker}", "typ"),
    ("search", "die: 1d12", "die: 1d12\ndice: 1d12", "dice"),
    ("search", "{upto: 4, result: nothing}", "{upto: 4, result: nothing, amont: 1}", "amont"),
    ("victory", "escape_needed: 3", "escape_needed: 3\nescapes: 3", "escapes"),
])
def test_a_misspelt_key_is_refused(tmp_path: Path, name: str, old: str, new: str, key: str) -> None:
    """Every table refuses a key it does not know (a misspelling must not silently become a
    default), naming it: at the top of the table and in each of its rows."""
    text = (SHIPPED / f"{name}.yaml").read_text()
    assert old in text
    message = refused(tmp_path, name, text.replace(old, new, 1), f"unknown key {key!r}")
    assert "table.yaml" in message
