"""Validators for the Director game's tables: tiles, tile cards, director cards, weapons and their
attack cards, items and special infected.

The rules text gives none of these numbers; every table is a `DESIGN CHOICE` kept in YAML under
`prefabs/director/` and replaceable by a scenario's `tables:`. Tables that are also decks (the tile
stack, tile cards, director cards and the ammo box) validate to a list of `{face, value, suit}`
cards, which is what the engine builds decks from, carrying the full rows beside it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ecs_zombie import hexgrid
from ecs_zombie.data import YList, YMap, check_keys, fail, need
from ecs_zombie.limits import MAX_TABLE_NUMBER
from ecs_zombie.registry import table

SPECIALS = ("smoker", "hunter", "boomer", "jockey", "charger", "spitter")
PLACEMENTS = ("weakest", "rear", "first")
SLOTS = ("primary", "pistol", "health", "pills", "throwable", "held")
ITEM_KINDS = ("weapon", "heal", "throw", "ammo", "held")
RADIUS = 2
ENTRY = (-RADIUS, 0)
ENTRY_DIR = 3
DEFAULT_SPAWN = [(2, -1), (1, -2), (-1, -1), (-2, 1), (-1, 2), (1, 1)]


def _hex(value: Any, node: Any, key: str | int, f: str) -> tuple[int, int]:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise fail("expected a hex [q, r]", node, key, f)
    return (value[0], value[1])


def _count(node: Any, key: str, f: str, default: int = 1) -> int:
    value = need(node, key, int, f, default=default)
    if value < 0:
        raise fail("must be 0 or more", node, key, f"{f}.{key}")
    if value > MAX_TABLE_NUMBER:
        raise fail(f"must be at most {MAX_TABLE_NUMBER}", node, key, f"{f}.{key}")
    return int(value)


def _signed(node: Any, key: str, f: str, default: Any = ...) -> int:
    value = need(node, key, int, f, default=default)
    if abs(value) > MAX_TABLE_NUMBER:
        raise fail(f"must be from -{MAX_TABLE_NUMBER} to {MAX_TABLE_NUMBER}", node, key, f"{f}.{key}")
    return int(value)


class CardTable(list[dict[str, Any]]):
    """A deck table: the cards (`face`, `value`, `suit`) plus each face's full row in `rows`."""

    rows: dict[str, Any]


# -- tiles ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TileDef:
    """One tile: walkable hexes (a radius-2 hexagon minus walls), numbered spawn hexes, exits
    (`(hex, direction)`, the first on the main route) and the entry at the west corner."""

    name: str
    hexes: tuple[tuple[int, int], ...]
    spawn: tuple[tuple[int, int], ...]
    exits: tuple[tuple[tuple[int, int], int], ...]
    safe: bool


def _tile(name: str, body: Any, f: str) -> TileDef:
    check_keys(body, ("count", "walls", "spawn", "exits", "safe"), f)
    area = set(hexgrid.within((0, 0), RADIUS))
    walls_raw = need(body, "walls", list, f, default=[])
    walls = {_hex(w, walls_raw, i, f"{f}.walls[{i}]") for i, w in enumerate(walls_raw)}
    spawn_raw = need(body, "spawn", list, f, default=[list(h) for h in DEFAULT_SPAWN])
    if len(spawn_raw) != 6:
        raise fail("a tile numbers exactly six spawn hexes (1..6)", body, "spawn", f"{f}.spawn")
    spawn = tuple(_hex(h, spawn_raw, i, f"{f}.spawn[{i}]") for i, h in enumerate(spawn_raw))
    exits_raw = need(body, "exits", list, f, default=[])
    exits = []
    for i, e in enumerate(exits_raw):
        ef = f"{f}.exits[{i}]"
        check_keys(e, ("hex", "dir"), ef)
        h = _hex(need(e, "hex", list, ef), e, "hex", f"{ef}.hex")
        d = need(e, "dir", int, ef)
        if not 0 <= d <= 5 or hexgrid.neighbour(h, d) in area:
            raise fail("an exit's direction must point off the tile (0..5)", e, "dir", f"{ef}.dir")
        exits.append((h, d))
    for h in (*spawn, ENTRY, *(e[0] for e in exits)):
        if h not in area or h in walls:
            raise fail(f"hex {list(h)} is off the tile or walled", body, None, f)
    return TileDef(name, tuple(sorted(area - walls)), spawn, tuple(exits),
                   bool(need(body, "safe", bool, f, default=False)))


class TileSet(CardTable):
    start: str
    safe: str
    tiles: dict[str, TileDef]


def validate_tiles(data: Any) -> TileSet:
    """The tile stack: every tile's shape and how many copies are in the face-down stack."""
    if not isinstance(data, YMap):
        raise fail("expected a mapping with start, safe and tiles", data, None, "tiles")
    check_keys(data, ("start", "safe", "tiles"), "")
    tiles_doc = need(data, "tiles", dict, "tiles")
    out = TileSet()
    out.tiles, out.rows = {}, {}
    for name in tiles_doc:
        face = str(name).upper()
        tdef = _tile(face, tiles_doc[name], f"tiles.{name}")
        out.tiles[face] = tdef
        out.rows[face] = tdef
        for _ in range(_count(tiles_doc[name], "count", f"tiles.{name}", 1)):
            out.append({"face": face, "value": 0, "suit": "tile"})
    out.start = need(data, "start", str, "tiles").upper()
    out.safe = need(data, "safe", str, "tiles").upper()
    if out.start not in out.tiles:
        raise fail(f"unknown start tile {out.start!r}", data, "start", "start")
    if out.safe not in out.tiles or not out.tiles[out.safe].safe:
        raise fail("the safe room must be a tile marked safe: true", data, "safe", "safe")
    if sum(1 for c in out if c["face"] == out.safe) != 1:  # so the stack is never empty
        raise fail("the stack holds exactly one safe room (count: 1)", tiles_doc, None, "tiles")
    return out


# -- tile cards ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TileCard:
    face: str
    name: str
    zombies: int
    items: tuple[str, ...]
    hazards: int
    director: int
    ongoing: bool
    placement: str = ""


def validate_tile_cards(data: Any) -> CardTable:
    if not isinstance(data, YList) or not data:
        raise fail("a tile-card table is a non-empty list", data, None, "tile_cards")
    out = CardTable()
    out.rows = {}
    for i, row in enumerate(data):
        f = f"[{i}]"
        check_keys(row, ("face", "name", "zombies", "items", "hazards", "director", "ongoing", "placement", "count"), f)
        face = need(row, "face", str, f).upper()
        if face in out.rows:
            raise fail(f"duplicate face {face!r}", row, "face", f + ".face")
        items = need(row, "items", list, f, default=[])
        if not all(isinstance(x, str) for x in items):
            raise fail("items are item names", row, "items", f + ".items")
        placement = need(row, "placement", str, f, default="")
        if placement not in ("", "here"):
            raise fail("placement is here (new zombies appear on this tile while a player is on it)",
                       row, "placement", f + ".placement")
        card = TileCard(face, need(row, "name", str, f), _count(row, "zombies", f, 0), tuple(items),
                        _count(row, "hazards", f, 0), _signed(row, "director", f, default=0),
                        need(row, "ongoing", bool, f, default=False) or bool(placement), placement)
        out.rows[face] = card
        for _ in range(_count(row, "count", f, 1)):
            out.append({"face": face, "value": card.zombies, "suit": "tile_card"})
    return out


# -- director cards ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Condition:
    """`failed_by_more_than N`: suppressing fire + N < horde; `not_passed_by_more_than M`:
    suppressing fire <= horde + M. `then` is a special infected or `lurk`."""

    when: str
    n: int
    then: str

    def fires(self, margin: int) -> bool:
        if self.when == "failed_by_more_than":
            return margin < -self.n
        return margin <= self.n


@dataclass(frozen=True, slots=True)
class DirectorCard:
    face: str
    name: str
    description: str
    horde: int
    placement: str
    conditions: tuple[Condition, ...] = field(default_factory=tuple)

    def effect(self, margin: int) -> str | None:
        """The first condition that fires ("only one condition will ever trigger for a given card")."""
        for c in self.conditions:
            if c.fires(margin):
                return c.then
        return None


def validate_director_cards(data: Any) -> CardTable:
    if not isinstance(data, YList) or not data:
        raise fail("a director deck is a non-empty list of cards", data, None, "director_cards")
    out = CardTable()
    out.rows = {}
    for i, row in enumerate(data):
        f = f"[{i}]"
        check_keys(row, ("face", "name", "description", "horde", "placement", "conditions", "count"), f)
        face = need(row, "face", str, f).upper()
        if face in out.rows:
            raise fail(f"duplicate face {face!r}", row, "face", f + ".face")
        placement = need(row, "placement", str, f, default="weakest")
        if placement not in PLACEMENTS:
            raise fail(f"placement is one of {list(PLACEMENTS)}", row, "placement", f + ".placement")
        conds = []
        raw = need(row, "conditions", list, f, default=[])
        for j, c in enumerate(raw):
            cf = f"{f}.conditions[{j}]"
            check_keys(c, ("when", "n", "then"), cf)
            when = need(c, "when", str, cf)
            if when not in ("failed_by_more_than", "not_passed_by_more_than"):
                raise fail("when is failed_by_more_than or not_passed_by_more_than", c, "when", cf + ".when")
            then = need(c, "then", str, cf)
            if then not in (*SPECIALS, "lurk"):
                raise fail(f"then is lurk or one of {list(SPECIALS)}", c, "then", cf + ".then")
            conds.append(Condition(when, _signed(c, "n", cf), then))
        card = DirectorCard(face, need(row, "name", str, f), need(row, "description", str, f, default=""),
                            _count(row, "horde", f, 0), placement, tuple(conds))
        out.rows[face] = card
        for _ in range(_count(row, "count", f, 1)):
            out.append({"face": face, "value": card.horde, "suit": "director"})
    return out


# -- weapons and the ammo box --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Weapon:
    """A gun: range multiplier, clip size, cards it may add to suppressing fire, cards per
    shooting action, whether it is a pistol, and its attack cards (value 0 is a Miss)."""

    name: str
    range: int
    clip: int
    suppress: int
    shots: int
    pistol: bool
    cards: tuple[tuple[str, int], ...]

    @property
    def max_ammo(self) -> int:
        return len(self.cards)


class Armoury(CardTable):
    weapons: dict[str, Weapon]
    copies: int


def validate_weapons(data: Any) -> Armoury:
    """Weapons and the ammo box: `copies` full stacks of every weapon's attack cards."""
    if not isinstance(data, YMap):
        raise fail("expected a mapping with copies and weapons", data, None, "weapons")
    check_keys(data, ("copies", "weapons"), "")
    copies = need(data, "copies", int, "weapons")
    if not 2 <= copies <= MAX_TABLE_NUMBER:
        raise fail(f"copies must be 2 or more (two stacks a player; at most {MAX_TABLE_NUMBER})", data, "copies",
                   "copies")
    wdoc = need(data, "weapons", dict, "weapons")
    out = Armoury()
    out.weapons, out.rows, out.copies = {}, {}, copies
    for name in wdoc:
        body = wdoc[name]
        f = f"weapons.{name}"
        check_keys(body, ("range", "clip", "suppress", "shots", "pistol", "cards"), f)
        cards: list[tuple[str, int]] = []
        raw = need(body, "cards", list, f)
        for i, c in enumerate(raw):
            cf = f"{f}.cards[{i}]"
            check_keys(c, ("face", "value", "count"), cf)
            face = need(c, "face", str, cf).upper()
            value = need(c, "value", int, cf)
            if not 0 <= value <= MAX_TABLE_NUMBER:
                raise fail(f"a card's value is 0 (Miss) or more (and at most {MAX_TABLE_NUMBER})", c, "value",
                           cf + ".value")
            cards.extend([(face, value)] * _count(c, "count", cf, 1))
        w = Weapon(str(name), _count(body, "range", f, 1), _count(body, "clip", f, 1), _count(body, "suppress", f, 1),
                   _count(body, "shots", f, 1), need(body, "pistol", bool, f, default=False), tuple(cards))
        if not cards or not 1 <= w.clip <= len(cards):
            raise fail("clip must be 1..max ammo (the number of cards)", body, "clip", f + ".clip")
        out.weapons[w.name] = w
        out.rows[w.name] = w
        for _ in range(copies):
            for face, value in cards:
                out.append({"face": face, "value": value, "suit": w.name})
        if len(out) > 10 * MAX_TABLE_NUMBER:
            raise fail(f"the ammo box holds more than {10 * MAX_TABLE_NUMBER} cards", data, "copies", "copies")
    if not any(w.pistol for w in out.weapons.values()):
        raise fail("one weapon must be a pistol (pinned players shoot with it)", data, "weapons", "weapons")
    return out


# -- items and specials --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ItemDef:
    name: str
    kind: str
    slot: str
    heal: int = 0
    range: int = 0
    radius: int = 0
    rounds: int = 0
    weapon: str = ""


def validate_items(data: Any) -> dict[str, ItemDef]:
    if not isinstance(data, YMap) or not data:
        raise fail("expected a mapping of item name to its row", data, None, "items")
    out = {}
    for name in data:
        body = data[name]
        f = str(name)
        check_keys(body, ("kind", "slot", "heal", "range", "radius", "rounds", "weapon"), f)
        kind = need(body, "kind", str, f)
        if kind not in ITEM_KINDS:
            raise fail(f"kind is one of {list(ITEM_KINDS)}", body, "kind", f + ".kind")
        slot = need(body, "slot", str, f, default="")
        if kind != "ammo" and slot not in SLOTS:
            raise fail(f"slot is one of {list(SLOTS)}", body, "slot", f + ".slot")
        out[f] = ItemDef(f, kind, slot, _count(body, "heal", f, 0), _count(body, "range", f, 0),
                         _count(body, "radius", f, 0), _count(body, "rounds", f, 0),
                         need(body, "weapon", str, f, default=""))
    return out


@dataclass(frozen=True, slots=True)
class Special:
    """A special infected's attack: damage per round, rounds it lasts, radius (Boomer, Spitter),
    steps (Jockey), whether it pins, and zombies it brings (Boomer)."""

    name: str
    damage: int
    rounds: int
    radius: int
    steps: int
    pins: bool
    spawn: int


def validate_specials(data: Any) -> dict[str, Special]:
    if not isinstance(data, YMap):
        raise fail("expected a mapping of special infected", data, None, "specials")
    out = {}
    check_keys(data, SPECIALS, "")
    for name in SPECIALS:
        body = need(data, name, dict, "specials")
        check_keys(body, ("damage", "rounds", "radius", "steps", "pins", "spawn"), name)
        out[name] = Special(name, _count(body, "damage", name, 0), _count(body, "rounds", name, 1),
                            _count(body, "radius", name, 0), _count(body, "steps", name, 0),
                            need(body, "pins", bool, name, default=False), _count(body, "spawn", name, 0))
    return out


# -- threat scaling with the number of players ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Scale:
    """How the threat grows with the team of `players`: `cards` more director cards each round
    (fewer if negative) and `horde` added to the hand's total horde number (never below 0)."""

    players: int
    cards: int
    horde: int = 0


class Scaling(dict[int, Scale]):
    """Rows by number of players, 1 up to the last row; larger teams take the last row."""

    def row(self, players: int) -> Scale:
        """The row of a team of `players`; a team with no one left (a hybrid's risen survivors) adds
        nothing."""
        if players < 1:
            return Scale(players, 0, 0)
        return self[min(players, max(self))]


def validate_scaling(data: Any) -> Scaling:
    """The threat per number of players: rows for 1, 2, ... players (no gaps)."""
    if not isinstance(data, YList) or not data:
        raise fail("a scaling table is a non-empty list of rows {players, cards, horde}", data, None, "scaling")
    out = Scaling()
    for i, row in enumerate(data):
        f = f"[{i}]"
        players = need(row, "players", int, f)
        if players != i + 1:
            raise fail(f"rows go by players 1, 2, ... without gaps: expected players: {i + 1}", row, "players",
                       f + ".players")
        out[players] = Scale(players, need(row, "cards", int, f, default=0), need(row, "horde", int, f, default=0))
    return out


def scaling(game: Any, players: int) -> Scale:
    """The scaling row for a team of `players`."""
    table: Scaling = game.tables["director.scaling"]
    return table.row(players)


def register() -> None:
    """Register every validator under its table name (called once by the package)."""
    table("director.tiles")(validate_tiles)
    table("director.tile_cards")(validate_tile_cards)
    table("director.cards")(validate_director_cards)
    table("director.weapons")(validate_weapons)
    table("director.items")(validate_items)
    table("director.specials")(validate_specials)
    table("director.scaling")(validate_scaling)


register()
