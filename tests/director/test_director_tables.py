"""Bad Director-game tables (a scenario's `tables:` replacing a shipped one) are refused with a
one-line error naming the problem, never a crash: every check of `systems/director/tables.py`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from ecs_zombie import new_game
from ecs_zombie.data import load_yaml
from ecs_zombie.errors import DataError, GameError
from ecs_zombie.systems.director.tables import (
    validate_director_cards,
    validate_items,
    validate_scaling,
    validate_specials,
    validate_tile_cards,
    validate_tiles,
    validate_weapons,
)
from tests.director.director_setup import SHIPPED, scenario_with
from tests.helpers import run_cli

# (table, file, text replaced (None: all of it), replacement, the error's words)
BAD = [
    ("director.tiles", "tiles.yaml", "start: street", "start: avenue", "unknown start tile 'AVENUE'"),
    ("director.tiles", "tiles.yaml", "safe: saferoom", "safe: alley", "the safe room must be a tile marked safe: true"),
    ("director.tiles", "tiles.yaml", "count: 1\n    safe: true", "count: 2\n    safe: true",
     "the stack holds exactly one safe room (count: 1)"),
    ("director.tiles", "tiles.yaml", "walls: [[0, -1], [0, 1]]", "walls: [[0, -1], [0]]", "expected a hex [q, r]"),
    ("director.tiles", "tiles.yaml", "walls: [[0, -1], [0, 1]]", "walls: [[0, -1], [0, true]]",
     "expected a hex [q, r]"),
    ("director.tiles", "tiles.yaml", "{hex: [2, -2], dir: 1}", "{hex: [2, -2], dir: 3}",
     "an exit's direction must point off the tile (0..5)"),
    ("director.tiles", "tiles.yaml", "{hex: [2, -2], dir: 1}", "{hex: [2, -2], dir: 6}",
     "an exit's direction must point off the tile (0..5)"),
    ("director.tiles", "tiles.yaml", "{hex: [2, -2], dir: 1}", "{hex: [2, -2], dir: -1}",
     "an exit's direction must point off the tile (0..5)"),
    ("director.tiles", "tiles.yaml", "walls: [[0, 0]]", "walls: [[0, 2]]", "hex [0, 2] is off the tile or walled"),
    ("director.tiles", "tiles.yaml", "walls: [[0, 0]]", "walls: [[-2, 0]]", "hex [-2, 0] is off the tile or walled"),
    ("director.tiles", "tiles.yaml", "walls: [[0, 0]]", "spawn: [[3, 0], [1, -2], [-1, -1], [-2, 1], [-1, 2], [1, 1]]",
     "hex [3, 0] is off the tile or walled"),
    ("director.tiles", "tiles.yaml", "walls: [[0, 0]]", "spawn: [[2, -1], [1, -2], [-1, -1], [-2, 1], [-1, 2]]",
     "a tile numbers exactly six spawn hexes (1..6)"),
    ("director.tiles", "tiles.yaml", "count: 2\n    walls: [[0, -1], [0, 1]]",
     "count: -1\n    walls: [[0, -1], [0, 1]]", "must be 0 or more"),
    ("director.tiles", "tiles.yaml", None, "- street\n", "expected a mapping with start, safe and tiles"),
    ("director.tile_cards", "tile_cards.yaml", "{face: WANDERERS,", "{face: QUIET,", "duplicate face 'QUIET'"),
    ("director.tile_cards", "tile_cards.yaml", "items: [medkit]", "items: [1]", "items are item names"),
    ("director.tile_cards", "tile_cards.yaml", "placement: here}", "placement: there}",
     "placement is here (new zombies appear on this tile while a player is on it)"),
    ("director.tile_cards", "tile_cards.yaml", None, "[]\n", "a tile-card table is a non-empty list"),
    ("director.cards", "director_cards.yaml", "placement: rear", "placement: behind",
     "placement is one of ['weakest', 'rear', 'first']"),
    ("director.cards", "director_cards.yaml", "{when: failed_by_more_than, n: 3, then: smoker}",
     "{when: failed_by, n: 3, then: smoker}", "when is failed_by_more_than or not_passed_by_more_than"),
    ("director.cards", "director_cards.yaml", "{when: failed_by_more_than, n: 3, then: smoker}",
     "{when: failed_by_more_than, n: 3, then: tank}", "then is lurk or one of ['smoker', 'hunter', 'boomer', 'jockey', "
     "'charger', 'spitter']"),
    ("director.cards", "director_cards.yaml", "face: HORDE", "face: SHAMBLERS", "duplicate face 'SHAMBLERS'"),
    ("director.cards", "director_cards.yaml", None, "{}\n", "a director deck is a non-empty list of cards"),
    ("director.cards", "director_cards.yaml", None, "[]\n", "a director deck is a non-empty list of cards"),
    ("director.weapons", "weapons.yaml", "copies: 8", "copies: 1", "copies must be 2 or more"),
    ("director.weapons", "weapons.yaml", "{face: P1, value: 1, count: 3}", "{face: P1, value: -1, count: 3}",
     "a card's value is 0 (Miss) or more"),
    ("director.weapons", "weapons.yaml", "clip: 4", "clip: 12", "clip must be 1..max ammo (the number of cards)"),
    ("director.weapons", "weapons.yaml", "clip: 4", "clip: 0", "clip must be 1..max ammo (the number of cards)"),
    ("director.weapons", "weapons.yaml", "pistol: true", "pistol: false",
     "one weapon must be a pistol (pinned players shoot with it)"),
    ("director.weapons", "weapons.yaml", None, "[pistol]\n", "expected a mapping with copies and weapons"),
    ("director.items", "items.yaml", "kind: heal, slot: health", "kind: potion, slot: health",
     "kind is one of ['weapon', 'heal', 'throw', 'ammo', 'held']"),
    ("director.items", "items.yaml", "kind: heal, slot: health", "kind: heal, slot: pocket",
     "slot is one of ['primary', 'pistol', 'health', 'pills', 'throwable', 'held']"),
    ("director.items", "items.yaml", None, "{}\n", "expected a mapping of item name to its row"),
    ("director.specials", "specials.yaml", "spitter: {damage: 1, rounds: 2, radius: 1}", "", "missing field 'spitter'"),
    ("director.specials", "specials.yaml", None, "[smoker]\n", "expected a mapping of special infected"),
    ("director.tiles", "tiles.yaml", "count: 2\n    walls: [[0, -1], [0, 1]]",
     "count: 2\n    wals: [[0, -1], [0, 1]]", "wals"),
    ("director.tiles", "tiles.yaml", "exits: [{hex: [2, 0], dir: 0}]\n  alley",
     "exits: [{hex: [2, 0], dr: 0}]\n  alley", "dr"),
    ("director.tiles", "tiles.yaml", "safe: saferoom", "safe: saferoom\nsafety: saferoom", "safety"),
    ("director.tile_cards", "tile_cards.yaml", "{face: QUIET, name: Quiet street, count: 3}",
     "{face: QUIET, name: Quiet street, cont: 3}", "cont"),
    ("director.cards", "director_cards.yaml", "description: They heard you., horde: 3",
     "description: They heard you., hord: 3", "hord"),
    ("director.cards", "director_cards.yaml", "{when: failed_by_more_than, n: 3, then: smoker}",
     "{when: failed_by_more_than, n: 3, than: smoker}", "than"),
    ("director.weapons", "weapons.yaml", "copies: 8", "copies: 8\ncopys: 8", "copys"),
    ("director.weapons", "weapons.yaml", "    clip: 4", "    clip: 4\n    clips: 4", "clips"),
    ("director.weapons", "weapons.yaml", "{face: P1, value: 1, count: 3}", "{face: P1, value: 1, cont: 3}", "cont"),
    ("director.items", "items.yaml", "kind: heal, slot: health, heal: 4", "kind: heal, slot: health, heals: 4",
     "heals"),
    ("director.scaling", "scaling.yaml", None, "{players: 1}\n", "a scaling table is a non-empty list"),
    ("director.specials", "specials.yaml", "smoker: {damage: 1, rounds: 2, pins: true}",
     "smoker: {damage: 1, rounds: 2, pins: true}\nsmokers: {damage: 1}", "smokers"),
    ("director.specials", "specials.yaml", "smoker: {damage: 1, rounds: 2, pins: true}",
     "smoker: {damage: 1, round: 2, pins: true}", "round"),
]


@pytest.mark.parametrize(("table", "file", "old", "new", "words"), BAD)
def test_a_bad_table_is_refused_with_its_reason(tmp_path: Path, table: str, file: str, old: str | None, new: str,
                                                words: str) -> None:
    """Bad input never crashes: one error naming what is wrong."""
    path = scenario_with(tmp_path, table, file, old, new)
    with pytest.raises(DataError, match=re.escape(words)):
        new_game(str(path), 1)


def test_the_shipped_tables_load_unchanged(tmp_path: Path) -> None:
    """The replacement mechanism itself: a shipped table given back unchanged loads and plays."""
    path = scenario_with(tmp_path, "director.items", "items.yaml", "medkit:", "medkit:")
    game = new_game(str(path), 1)
    game.play(stop_after=1)
    assert game.tick == 1
    game.close()


def test_the_command_says_it_in_one_line(tmp_path: Path) -> None:
    """`ecs-zombie validate` on a scenario with a bad table: one line on stderr, exit status 2."""
    path = scenario_with(tmp_path, "director.weapons", "weapons.yaml", "copies: 8", "copies: 1")
    out = run_cli("validate", str(path))
    assert out.returncode == 2 and "copies must be 2 or more" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr


# Replacements at the edge of what is allowed: each loads, and a game of two plays its first round
# (one copy of the ammo box takes one player only).
EDGES = [
    ("director.weapons", "weapons.yaml", "clip: 4", "clip: 11"),   # a pistol's clip may be its whole max ammo
    ("director.weapons", "weapons.yaml", "clip: 4", "clip: 1"),
    ("director.weapons", "weapons.yaml", "{face: P1, value: 1, count: 3}", "{face: P1, value: 0, count: 3}"),
    ("director.tiles", "tiles.yaml", "count: 2\n    walls: [[0, -1], [0, 1]]",
     "count: 0\n    walls: [[0, -1], [0, 1]]"),
    # the largest numbers a table may hold (ecs_zombie.limits: 1,000)
    ("director.weapons", "weapons.yaml", "{face: P1, value: 1, count: 3}", "{face: P1, value: 1000, count: 3}"),
    ("director.tile_cards", "tile_cards.yaml", "count: 1, director: 1, ongoing", "count: 1, director: 1000, ongoing"),
    ("director.weapons", "weapons.yaml", "    range: 2\n    clip: 4", "    range: 1000\n    clip: 4"),
    ("director.tile_cards", "tile_cards.yaml", "count: 1, director: 1, ongoing", "count: 1, director: -1000, ongoing"),
]


@pytest.mark.parametrize(("table", "file", "old", "new"), EDGES)
def test_a_table_at_the_edge_loads_and_plays(tmp_path: Path, table: str, file: str, old: str, new: str) -> None:
    game = new_game(str(scenario_with(tmp_path, table, file, old, new)), 1)
    game.play(stop_after=1)
    assert game.tick == 1
    game.close()


def test_one_copy_of_the_ammo_box_takes_one_player(tmp_path: Path) -> None:
    """Design: a player may have two stacks of a gun out (a fresh stack of max ammo beside a hand),
    so `copies` / 2 is the most players a game takes: 2 copies play alone and refuse two."""
    path = scenario_with(tmp_path, "director.weapons", "weapons.yaml", "copies: 8", "copies: 2")
    game = new_game(str(path), 1, players=1)
    game.play(stop_after=1)
    game.close()
    two = new_game(str(path), 1, players=2)
    with pytest.raises(GameError, match="at most 1 players"):
        two.play(stop_after=1)
    two.close()


def test_what_a_row_leaves_out(tmp_path: Path) -> None:
    """The tables' defaults for what a row leaves out: one copy (`count` 1); a director card of
    horde 0; a gun of range, clip, suppressing fire and shots 1; an item of no figures; a special
    infected of 0 damage, 1 round, no radius, steps or zombies, and no pin; a team size adding no
    card and no horde (larger teams take the last row)."""
    def loaded(name: str, text: str) -> Any:
        (tmp_path / f"{name}.yaml").write_text(text)
        return load_yaml(tmp_path / f"{name}.yaml")

    cards = validate_director_cards(loaded("cards", "- {face: X, name: X}\n"))
    assert [(c["face"], c["value"]) for c in cards] == [("X", 0)] and cards.rows["X"].horde == 0
    tile_cards = validate_tile_cards(loaded("tc", "- {face: Y, name: Y}\n"))
    assert [c["face"] for c in tile_cards] == ["Y"]
    arms = validate_weapons(loaded("w", "copies: 2\nweapons:\n  gun: {pistol: true, cards: [{face: G, value: 2}]}\n"))
    g = arms.weapons["gun"]
    assert (g.range, g.clip, g.suppress, g.shots, g.max_ammo) == (1, 1, 1, 1, 1) and len(arms) == 2
    item = validate_items(loaded("i", "bandage: {kind: heal, slot: health}\n"))["bandage"]
    assert (item.heal, item.range, item.radius, item.rounds, item.weapon) == (0, 0, 0, 0, "")
    specials = validate_specials(loaded("s", "".join(f"{n}: {{}}\n" for n in (
        "smoker", "hunter", "boomer", "jockey", "charger", "spitter"))))
    sm = specials["smoker"]
    assert (sm.damage, sm.rounds, sm.radius, sm.steps, sm.pins, sm.spawn) == (0, 1, 0, 0, False, 0)
    tiles = validate_tiles(loaded("t", "start: a\nsafe: b\ntiles:\n  a: {count: 0}\n  b: {safe: true}\n"))
    assert [c["face"] for c in tiles] == ["B"]
    scale = validate_scaling(loaded("sc", "- {players: 1}\n- {players: 2, cards: 1, horde: 2}\n"))
    assert (scale.row(1).cards, scale.row(1).horde) == (0, 0) and (scale.row(3).cards, scale.row(3).horde) == (1, 2)
    shipped = validate_scaling(loaded("sh", (SHIPPED / "scaling.yaml").read_text()))
    assert (shipped.row(0).cards, shipped.row(0).horde) == (0, 0)  # no one left: nothing added (not 1's -1)


def test_the_ammo_box_takes_up_to_a_thousand_copies(tmp_path: Path) -> None:
    """`copies` is from 2 to 1,000 (the limit on a table's numbers): a one-card pistol makes a box
    of 1,000 cards at the top of that range; 1,001 copies are refused."""
    def loaded(text: str) -> Any:
        (tmp_path / "w.yaml").write_text(text)
        return load_yaml(tmp_path / "w.yaml")

    arms = validate_weapons(loaded("copies: 1000\nweapons:\n  gun: {pistol: true, cards: [{face: G, value: 2}]}\n"))
    assert arms.copies == 1000
    with pytest.raises(DataError, match="copies must be 2 or more"):
        validate_weapons(loaded("copies: 1001\nweapons:\n  gun: {pistol: true, cards: [{face: G, value: 2}]}\n"))
    # the box holds at most 10,000 cards: ten cards a copy fill it, eleven overflow it
    box = validate_weapons(loaded("copies: 1000\nweapons:\n  gun: {pistol: true, cards: [{face: G, value: 2, "
                                  "count: 10}]}\n"))
    assert len(box) == 10_000
    with pytest.raises(DataError, match="the ammo box holds more than 10000 cards"):
        validate_weapons(loaded("copies: 1000\nweapons:\n  gun: {pistol: true, cards: [{face: G, value: 2, "
                                "count: 11}]}\n"))
