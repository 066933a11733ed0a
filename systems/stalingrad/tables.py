"""Validators for Escape from Stalingrad Z's tables: weapons, zombie types, the movement table, the
deviation table, hit-number modifiers, and the scenario's map, round track, spawn section, search
table and victory conditions. Each returns the frozen object the systems read and names the file,
line and field of the first problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ecs_zombie import grid
from ecs_zombie.data import YList, YMap, check_keys, fail, need
from ecs_zombie.dice import parse
from ecs_zombie.limits import MAX_TABLE_NUMBER, MAX_TICKS
from ecs_zombie.registry import table


def _nat(node: Any, key: str, where: str, minimum: int = 0, default: Any = ..., maximum: int = MAX_TABLE_NUMBER) -> int:
    value = need(node, key, int, where, default=default)
    if value < minimum:
        raise fail(f"{key} must be at least {minimum}", node, key, f"{where}.{key}")
    if value > maximum:
        raise fail(f"{key} must be at most {maximum}", node, key, f"{where}.{key}")
    return int(value)


def _int(node: Any, key: str, where: str, default: Any = ...) -> int:
    """A whole number that may be negative (a modifier), within the table bound either way."""
    value = need(node, key, int, where, default=default)
    if abs(value) > MAX_TABLE_NUMBER:
        raise fail(f"{key} must be from -{MAX_TABLE_NUMBER} to {MAX_TABLE_NUMBER}", node, key, f"{where}.{key}")
    return int(value)


def _dice(node: Any, key: str, where: str, default: Any = ...) -> str:
    value = need(node, key, (str, int), where, default=default)
    text = str(value) if isinstance(value, str) else f"{value}"
    if isinstance(value, str):
        try:
            spec = parse(text)
        except ValueError as exc:
            raise fail(str(exc), node, key, f"{where}.{key}") from None
        if spec.maximum > MAX_TABLE_NUMBER or spec.minimum < -MAX_TABLE_NUMBER:
            raise fail(f"{text} gives more than {MAX_TABLE_NUMBER}", node, key, f"{where}.{key}")
    elif not 0 <= value <= MAX_TABLE_NUMBER:
        raise fail(f"{key} must be from 0 to {MAX_TABLE_NUMBER}", node, key, f"{where}.{key}")
    return text


# -- weapons --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Weapon:
    """PB range, range modifier (RM), primary hit #, rate of fire, and what it can do: fire (uses
    ammo: normal and spread fire), `h` (a specialised H2H weapon: H2H reaches its PB range), grenade."""

    name: str
    pb: int
    rm: int
    hit: int
    rof: int
    fire: bool
    h: bool
    grenade: bool


@table("stalingrad.weapons")
def weapons(data: Any) -> dict[str, Weapon]:
    if not isinstance(data, YMap) or not data:
        raise fail("the weapons table maps weapon names to statistics", data, None, "weapons")
    out = {}
    for name in data:
        w = data[name]
        f = str(name)
        check_keys(w, ("pb", "rm", "hit", "rof", "fire", "h", "grenade"), f)
        out[name] = Weapon(name, _nat(w, "pb", f, 1), _nat(w, "rm", f, 1), _nat(w, "hit", f, 1),
                           _nat(w, "rof", f, 1), need(w, "fire", bool, f, default=False),
                           need(w, "h", bool, f, default=False), need(w, "grenade", bool, f, default=False))
        if out[name].grenade and (out[name].fire or out[name].rof != 1):
            raise fail("a grenade neither fires nor has a rate of fire other than 1", w, "grenade", f + ".grenade")
    return out


# -- zombie types ---------------------------------------------------------------------------------

ABILITIES = ("tough", "hidden")


@dataclass(frozen=True, slots=True)
class ZombieType:
    """Move (squares per activation), hits to kill, special abilities, and a bonus to the zombies'
    initiative roll while one is on the board."""

    name: str
    move: int
    hits: int
    abilities: tuple[str, ...]
    initiative: int


@table("stalingrad.zombies")
def zombie_types(data: Any) -> dict[str, ZombieType]:
    if not isinstance(data, YMap) or not data:
        raise fail("the zombie table maps type names to statistics", data, None, "zombies")
    out = {}
    for name in data:
        z = data[name]
        check_keys(z, ("move", "hits", "abilities", "initiative"), name)
        abilities = need(z, "abilities", list, name, default=[])
        for i, a in enumerate(abilities):
            if a not in ABILITIES:
                raise fail(f"unknown ability {a!r} (known: {', '.join(ABILITIES)})", abilities, i,
                           f"{name}.abilities[{i}]")
        out[name] = ZombieType(name, _nat(z, "move", name, 1), _nat(z, "hits", name, 1), tuple(abilities),
                               _int(z, "initiative", name, default=0))
    return out


# -- movement table -------------------------------------------------------------------------------

MODES = ("running", "walking", "stationary", "searching")
ACTIONS = ("step", "diagonal", "turn", "open_door", "close_door", "pass_gear")


@dataclass(frozen=True, slots=True)
class MoveCosts:
    """A declared activation's movement points and what each movement action costs in it."""

    mp: int
    step: int
    diagonal: int
    turn: int
    open_door: int
    close_door: int
    pass_gear: int


@table("stalingrad.movement")
def movement(data: Any) -> dict[str, MoveCosts]:
    out = {}
    check_keys(data, MODES, "")
    for mode in MODES:
        m = need(data, mode, dict, "movement")
        check_keys(m, ("mp", *ACTIONS), mode)
        costs = [_nat(m, a, mode, 1) for a in ACTIONS]
        out[mode] = MoveCosts(_nat(m, "mp", mode, 0), *costs)
    return out


# -- deviation table ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Deviation:
    """A missed grenade moves `distance` squares in the direction rolled (faces of the direction die
    read through `directions`); onto obstructive terrain (or a wall, or off the map) it deviates again."""

    direction_die: str
    directions: tuple[int, ...]
    distance_die: str
    max_tries: int


@table("stalingrad.deviation")
def deviation(data: Any) -> Deviation:
    check_keys(data, ("direction_die", "directions", "distance_die", "max_tries"), "")
    die = _dice(data, "direction_die", "deviation")
    names = need(data, "directions", list, "deviation")
    dirs = []
    for i, n in enumerate(names):
        if n not in grid.DIRECTION_NAMES:
            raise fail(f"unknown direction {n!r} (N, NE, E, SE, S, SW, W, NW)", names, i, f"directions[{i}]")
        dirs.append(grid.DIRECTION_NAMES.index(n))
    spec = parse(die)
    if spec.count != 1 or spec.modifier or spec.sides != len(dirs):
        raise fail(f"the direction die must be one die with one face per direction ({len(dirs)})", data,
                   "direction_die", "direction_die")
    distance = _dice(data, "distance_die", "deviation")
    return Deviation(die, tuple(dirs), distance, _nat(data, "max_tries", "deviation", 1))


# -- hit # modifiers, arcs, covering --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Modifiers:
    """Attack modifiers by declared activation, covering token values, LOF modifiers and arc widths."""

    attack: dict[str, int]
    covering: dict[str, int]
    intervening_figure: int
    obstructive: int
    front_half_angle: float
    rear_half_angle: float
    zoc_while_stunned: bool


@table("stalingrad.modifiers")
def modifiers(data: Any) -> Modifiers:
    check_keys(data, ("attack", "covering", "lof", "arcs", "zoc_while_stunned"), "")
    att = need(data, "attack", dict, "modifiers")
    cov = need(data, "covering", dict, "modifiers")
    lof = need(data, "lof", dict, "modifiers")
    arcs = need(data, "arcs", dict, "modifiers")
    modes = ("running", "walking", "stationary")
    check_keys(att, modes, "attack")
    check_keys(cov, modes, "covering")
    check_keys(lof, ("intervening_figure", "obstructive"), "lof")
    check_keys(arcs, ("front_half_angle", "rear_half_angle"), "arcs")
    front = need(arcs, "front_half_angle", (int, float), "arcs")
    rear = need(arcs, "rear_half_angle", (int, float), "arcs")
    if not 0 < front <= 180 - rear <= 180:
        raise fail("arcs must satisfy 0 < front_half_angle <= 180 - rear_half_angle", arcs, "front_half_angle",
                   "arcs.front_half_angle")
    return Modifiers({m: _int(att, m, "attack") for m in modes}, {m: _nat(cov, m, "covering") for m in modes},
                     _int(lof, "intervening_figure", "lof"), _int(lof, "obstructive", "lof"),
                     float(front), float(rear), need(data, "zoc_while_stunned", bool, "modifiers", default=False))


# -- the scenario's map ---------------------------------------------------------------------------


@table("stalingrad.map")
def grid_map(data: Any) -> grid.GridMap:
    check_keys(data, ("legend", "rows"), "")
    legend_doc = need(data, "legend", dict, "map")
    legend = {}
    for ch in legend_doc:
        if len(ch) != 1:
            raise fail("legend keys are single characters", legend_doc, ch, f"legend.{ch}")
        entry = legend_doc[ch]
        check_keys(entry, ("terrain", "labels", "open"), f"legend.{ch}")
        terrain = need(entry, "terrain", str, f"legend.{ch}")
        if terrain not in grid.TERRAINS:
            raise fail(f"terrain must be one of {', '.join(grid.TERRAINS)}", entry, "terrain", f"legend.{ch}.terrain")
        labels = need(entry, "labels", list, f"legend.{ch}", default=[])
        if not all(isinstance(label, str) for label in labels):
            raise fail("labels are text", entry, "labels", f"legend.{ch}.labels")
        legend[ch] = grid.Cell(terrain, tuple(labels), need(entry, "open", bool, f"legend.{ch}", default=False))
    rows = need(data, "rows", list, "map")
    if not all(isinstance(r, str) for r in rows):
        raise fail("rows are text", data, "rows", "rows")
    if len(rows) > MAX_TABLE_NUMBER or any(len(r) > MAX_TABLE_NUMBER for r in rows):
        raise fail(f"a map is at most {MAX_TABLE_NUMBER} squares wide and high", data, "rows", "rows")
    try:
        return grid.parse_map(list(rows), legend)
    except grid.MapError as exc:
        if exc.row is not None and isinstance(rows, YList):
            raise fail(str(exc), rows, exc.row, f"rows[{exc.row}]") from None
        raise fail(str(exc), data, "rows", "rows") from None


# -- round track ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundTrack:
    """One mark per round: `S` is a spawn round, `-` a plain one. The track's length is the last round."""

    marks: str

    @property
    def rounds(self) -> int:
        return len(self.marks)

    def spawns(self, rnd: int) -> bool:
        return 1 <= rnd <= len(self.marks) and self.marks[rnd - 1] == "S"


@table("stalingrad.track")
def round_track(data: Any) -> RoundTrack:
    check_keys(data, ("rounds",), "")
    marks = need(data, "rounds", str, "track")
    if not marks or set(marks) - {"S", "-"} or len(marks) > MAX_TICKS:
        raise fail(f"rounds is a string of S (spawn) and - (plain), one per round (at most {MAX_TICKS})", data,
                   "rounds", "rounds")
    return RoundTrack(marks)


# -- spawn section --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SpawnSection:
    """On each S round: for each wave, `count` zombies at the spawn square labelled `spawn:<square>`,
    each of the type the type die gives (the first entry whose `upto` is at least the roll)."""

    waves: tuple[tuple[str, str], ...]
    type_die: str
    types: tuple[tuple[int, str], ...]

    def type_for(self, roll: int) -> str:
        for upto, name in self.types:
            if roll <= upto:
                return name
        return self.types[-1][1]


def _ranges(node: Any, key: str, value_key: str, where: str) -> tuple[tuple[int, str], ...]:
    entries = need(node, key, list, where)
    out = []
    last = 0
    for i, e in enumerate(entries):
        check_keys(e, ("upto", value_key), f"{where}.{key}[{i}]")
        upto = _nat(e, "upto", f"{where}.{key}[{i}]", 1)
        if upto <= last:
            raise fail("upto values must rise", entries, i, f"{where}.{key}[{i}].upto")
        last = upto
        out.append((upto, need(e, value_key, str, f"{where}.{key}[{i}]")))
    if not out:
        raise fail("at least one entry", node, key, f"{where}.{key}")
    return tuple(out)


@table("stalingrad.spawn")
def spawn_section(data: Any) -> SpawnSection:
    check_keys(data, ("waves", "type_die", "types"), "")
    waves = need(data, "waves", list, "spawn")
    out = []
    for i, w in enumerate(waves):
        check_keys(w, ("square", "count"), f"waves[{i}]")
        out.append((need(w, "square", str, f"waves[{i}]"), _dice(w, "count", f"waves[{i}]")))
    return SpawnSection(tuple(out), _dice(data, "type_die", "spawn"), _ranges(data, "types", "type", "spawn"))


# -- search table ---------------------------------------------------------------------------------

SEARCH_RESULTS = ("nothing", "ammo", "grenade", "bandage", "gear")


@dataclass(frozen=True, slots=True)
class SearchTable:
    """Whether the scenario allows searching, the die, and results by roll: (upto, result, amount, item)."""

    allowed: bool
    die: str
    results: tuple[tuple[int, str, int, str], ...]

    def result(self, roll: int) -> tuple[str, int, str]:
        for upto, res, amount, item in self.results:
            if roll <= upto:
                return res, amount, item
        return self.results[-1][1:]


@table("stalingrad.search")
def search_table(data: Any) -> SearchTable:
    check_keys(data, ("allowed", "die", "results"), "")
    entries = need(data, "results", list, "search")
    out = []
    last = 0
    for i, e in enumerate(entries):
        f = f"results[{i}]"
        check_keys(e, ("upto", "result", "amount", "item"), f)
        upto = _nat(e, "upto", f, 1)
        if upto <= last:
            raise fail("upto values must rise", entries, i, f + ".upto")
        last = upto
        res = need(e, "result", str, f)
        if res not in SEARCH_RESULTS:
            raise fail(f"result must be one of {', '.join(SEARCH_RESULTS)}", e, "result", f + ".result")
        out.append((upto, res, _nat(e, "amount", f, 0, default=1), need(e, "item", str, f, default="")))
    if not out:
        raise fail("at least one result", data, "results", "results")
    return SearchTable(need(data, "allowed", bool, "search"), _dice(data, "die", "search"), tuple(out))


# -- victory --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Victory:
    """The characters win when `escape_needed` of them have left by an exit square by the end of round
    `by_round` (0: the round track's last round); they lose when that can no longer happen."""

    escape_needed: int
    by_round: int


@table("stalingrad.victory")
def victory(data: Any) -> Victory:
    check_keys(data, ("escape_needed", "by_round"), "")
    return Victory(_nat(data, "escape_needed", "victory", 1), _nat(data, "by_round", "victory", 0, default=0))
