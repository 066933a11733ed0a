"""Validators for Singapore Zombie Apocalypse's tables: the rule book's tables, the maps and the
scenarios' event graphs. Each raises `ecs_zombie.data.fail` naming file, line and field."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ecs_zombie.data import YMap, check_keys, fail, need, need_int, plain
from ecs_zombie.dice import parse
from ecs_zombie.errors import DataError
from ecs_zombie.limits import MAX_TABLE_NUMBER
from ecs_zombie.registry import table
from ecs_zombie.systems.sza.board import Board, compile_board

ATTRIBUTES = ("stamina", "strength", "accuracy", "smarts")
RULES_KEYS = ("attribute_scores", "bands", "infection_turns", "classes", "melee", "ranged", "checks", "abilities",
              "loot", "salvage_bonus", "bandage", "water", "water_uses", "vehicle_speed", "vehicle_capacity",
              "zombie_move")
ABILITY_KEYS = ("title", "kind", "accuracy", "bonus", "damage", "damage_taken", "die", "heal", "morale", "once",
                "range", "squares", "target")
VEHICLES = ("car", "motorcycle", "truck")
# The numbers each ability's rule reads from its entry: required on load, so that no rule falls back
# on a number of its own (`die` is a dice expression, the rest whole numbers).
ABILITY_NUMBERS: dict[str, tuple[str, ...]] = {
    "fire_suit": ("heal",), "fire_helmet": ("damage_taken",), "cqc": ("accuracy", "damage"),
    "sharp_shooter": ("accuracy", "damage"), "quick_step": ("squares",), "morale_boost": ("morale",),
    "inspire": ("bonus", "range"), "tending_to_wounds": ("heal", "range"), "vial_of_antidote": ("range",),
    "intravenous_injection": ("range",), "one_shot_one_kill": ("die", "target"),
    "motivational_speech": ("damage_taken", "range"), "k9_companion": ("die", "target", "damage", "range"),
}
MAX_BOARD = 100  # squares a board may be wide or high
FEATURES = frozenset({"door", "locked_door", "window", "table", "counter", "cabinet", "op_cabinet",
                      "locked_cabinet", "safe", "fuse", "ceiling", "stairs", "debris", "grass", "bush",
                      "vehicle", "safehouse", "bed"})


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule book's tables (see prefabs/sza/rules.yaml)."""

    attribute_scores: list[tuple[int, int]]
    bands: list[tuple[int, int]]
    infection_turns: list[tuple[int, int]]
    classes: dict[str, dict[str, Any]]
    melee: dict[str, dict[str, Any]]
    ranged: dict[str, dict[str, Any]]
    checks: dict[str, dict[str, Any]]
    abilities: dict[str, dict[str, Any]]
    loot: dict[str, dict[str, int]]
    numbers: dict[str, Any]

    def score(self, roll: int) -> int:
        """Attribute Scoring Table: the base score for a d100 roll (1..100)."""
        for upto, score in self.attribute_scores:
            if roll <= upto:
                return score
        return self.attribute_scores[-1][1]

    @staticmethod
    def band(value: int, bands: list[tuple[int, int]]) -> int:
        out = bands[0][1]
        for start, v in bands:
            if value >= start:
                out = v
        return out

    def bonus(self, value: int) -> int:
        """The Smarts bonus and the Bonus Attack Value (Strength) share one banding."""
        return self.band(value, self.bands)

    def infection(self, total_stamina: int) -> int:
        return self.band(total_stamina, self.infection_turns)


def _bounded(node: Any, field: str) -> None:
    """Every whole number in a table within what a table may ask (`MAX_TABLE_NUMBER` either way)."""
    if isinstance(node, bool):
        return
    if isinstance(node, int):
        if abs(node) > MAX_TABLE_NUMBER:
            raise DataError(f"{node} is beyond what a table may ask ({MAX_TABLE_NUMBER} either way)",
                            getattr(node, "file", None), None, field)
        return
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in children:
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_TABLE_NUMBER:
            raise fail(f"{value} is beyond what a table may ask ({MAX_TABLE_NUMBER} either way)", node, key,
                       f"{field}.{key}" if field else str(key))
        _bounded(value, f"{field}.{key}" if field else str(key))


def _ints(value: Any, n: int) -> bool:
    return (isinstance(value, list) and len(value) == n
            and all(isinstance(x, int) and not isinstance(x, bool) for x in value))


def _bands(doc: Any, key: str, field: str) -> list[tuple[int, int]]:
    rows = need(doc, key, list, field)
    out = []
    for i, row in enumerate(rows):
        check_keys(row, ("from", "value"), f"{key}[{i}]")
        out.append((need(row, "from", int, f"{key}[{i}]"), need(row, "value", int, f"{key}[{i}]")))
    if [r[0] for r in out] != sorted(r[0] for r in out) or not out:
        raise fail("bands must be listed in increasing order", doc, key, key)
    return out


@table("sza.rules")
def rules(data: Any) -> Rules:
    if not isinstance(data, YMap):
        raise DataError("the rules table must be a mapping")
    check_keys(data, RULES_KEYS, "")
    scores = []
    for i, row in enumerate(need(data, "attribute_scores", list, "rules")):
        f = f"attribute_scores[{i}]"
        check_keys(row, ("upto", "score"), f)
        scores.append((need(row, "upto", int, f), need(row, "score", int, f)))
    if not scores or scores[-1][0] != 100:
        raise fail("the last band must go up to 100", data, "attribute_scores", "attribute_scores")
    classes = need(data, "classes", dict, "rules")
    melee = need(data, "melee", dict, "rules")
    ranged = need(data, "ranged", dict, "rules")
    abilities = need(data, "abilities", dict, "rules")
    for wid, w in melee.items():
        f = f"melee.{wid}"
        check_keys(w, ("title", "damage", "run", "walk", "still"), f)
        _dice(w, "damage", f)
        for pace in ("run", "walk", "still"):
            v = need(w, pace, list, f)
            if len(v) != 2 or not all(isinstance(x, int) for x in v):
                raise fail("expected [accuracy, damage]", w, pace, f"{f}.{pace}")
    for wid, w in ranged.items():
        f = f"ranged.{wid}"
        check_keys(w, ("title", "damage", "magazine", "bands", "extra_bullets"), f)
        _dice(w, "damage", f)
        need(w, "magazine", int, f)
        after = 0  # a band starts where the one before it ended: a distance in two bands is a typo
        for j, b in enumerate(need(w, "bands", list, f)):
            if not (isinstance(b, list) and len(b) == 3 and all(isinstance(x, int) for x in b)):
                raise fail("expected [from, to, modifier]", w["bands"], j, f"{f}.bands[{j}]")
            if b[0] != after + 1 or b[1] < b[0]:
                raise fail(f"expected a band from {after + 1} (the square after the last band's), "
                           "to no less than its from", w["bands"], j, f"{f}.bands[{j}]")
            after = b[1]
    for cid, c in classes.items():
        f = f"classes.{cid}"
        check_keys(c, ("title", "modifiers", "indoor", "outdoor", "abilities", "weapons", "ranged"), f)
        need(c, "title", str, f)
        mods = need(c, "modifiers", dict, f)
        check_keys(mods, ATTRIBUTES, f"{f}.modifiers")
        for a in ATTRIBUTES:
            need(mods, a, int, f"{f}.modifiers")
        for key in ("indoor", "outdoor"):
            v = need(c, key, list, f)
            if len(v) != 2 or not all(isinstance(x, int) and x >= 0 for x in v):
                raise fail("expected [walk, run]", c, key, f"{f}.{key}")
        for a in need(c, "abilities", list, f):
            if not isinstance(a, str) or a not in abilities:
                raise fail(f"unknown ability {a!r}", c, "abilities", f"{f}.abilities")
        for wpn in need(c, "weapons", list, f):
            if not isinstance(wpn, str) or wpn not in melee:
                raise fail(f"unknown weapon {wpn!r}", c, "weapons", f"{f}.weapons")
        r = need(c, "ranged", str, f, default="")
        if r and r not in ranged:
            raise fail(f"unknown ranged weapon {r!r}", c, "ranged", f"{f}.ranged")
    for aid, a in abilities.items():
        check_keys(a, ABILITY_KEYS, f"abilities.{aid}")
        need(a, "title", str, f"abilities.{aid}")
        kind = need(a, "kind", str, f"abilities.{aid}")
        if kind not in ("passive", "action", "free"):
            raise fail("kind must be passive, action or free", a, "kind", f"abilities.{aid}.kind")
    for aid, keys in ABILITY_NUMBERS.items():
        a = need(abilities, aid, dict, "abilities")
        for key in keys:
            if key == "die":
                _dice(a, key, f"abilities.{aid}")
            elif key == "range" or key == "squares":
                need_int(a, key, f"abilities.{aid}", 0, MAX_TABLE_NUMBER)
            else:
                need(a, key, int, f"abilities.{aid}")
    checks = need(data, "checks", dict, "rules")
    for cid, c in checks.items():
        check_keys(c, ("bonus", "target"), f"checks.{cid}")
        if need(c, "bonus", str, f"checks.{cid}") not in ("smarts", "strength", "best"):
            raise fail("bonus must be smarts, strength or best", c, "bonus", f"checks.{cid}.bonus")
        need(c, "target", int, f"checks.{cid}")
    loot = need(data, "loot", dict, "rules")
    for lid, items in loot.items():
        if not isinstance(items, dict) or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0
                                                  for n in items.values()):
            raise fail("expected item names with how many of each", loot, lid, f"loot.{lid}")
    numbers = {}
    for key, kind in (("salvage_bonus", int), ("bandage", int), ("water", int), ("water_uses", int),
                      ("vehicle_speed", dict), ("vehicle_capacity", dict), ("zombie_move", dict)):
        numbers[key] = plain(need(data, key, kind, "rules"))
    for key, known in (("vehicle_speed", ("grass", "road")), ("vehicle_capacity", VEHICLES)):
        check_keys(data[key], known, key)
        for name in known:
            if need(data[key], name, int, key) < 0:
                raise fail(f"{key}.{name} must be 0 or more", data[key], name, f"{key}.{name}")
    check_keys(data["zombie_move"], ("indoor", "outdoor"), "zombie_move")
    for name in ("indoor", "outdoor"):
        if not _ints(need(data["zombie_move"], name, list, "zombie_move"), 2) or min(data["zombie_move"][name]) < 0:
            raise fail("expected [walk, run], squares of 0 or more", data["zombie_move"], name, f"zombie_move.{name}")
    bands, infection = _bands(data, "bands", "rules"), _bands(data, "infection_turns", "rules")
    _bounded(data, "")
    return Rules(scores, bands, infection,
                 plain(classes), plain(melee), plain(ranged), plain(checks), plain(abilities), plain(loot), numbers)


def _dice(node: Any, key: str, field: str) -> None:
    text = need(node, key, str, field)
    try:
        parse(text)
    except ValueError as exc:
        raise fail(str(exc), node, key, f"{field}.{key}") from None


def _on_board(v: Any, size: tuple[int, int]) -> bool:
    """`v` is a square [x, y] of a board of `size`."""
    return _ints(v, 2) and 0 <= v[0] < size[0] and 0 <= v[1] < size[1]


def _area(node: Any, field: str, size: tuple[int, int], square: bool = True, at: str = "at",
          area: str = "area") -> None:
    """The square `node[at]` (when `square` and given) or the area `node[area]` lies on the board;
    an error names the file, the line and the field (`at`, `area`: the keys that hold them)."""
    if square and at in node:
        v = node[at]
        if not _on_board(v, size):
            raise fail("expected [x, y] on the board", node, at, f"{field}.{at}")
        return
    v = need(node, area, list, field)
    if not (_ints(v, 4) and v[0] >= 0 and v[1] >= 0 and v[2] > 0
            and v[3] > 0 and v[0] + v[2] <= size[0] and v[1] + v[3] <= size[1]):
        raise fail("expected [x, y, width, height] inside the board", node, area, f"{field}.{area}")


@table("sza.maps")
def maps(data: Any) -> dict[str, Board]:
    if not isinstance(data, YMap) or not data:
        raise DataError("the maps table maps names to boards")
    out = {}
    for name, doc in data.items():
        check_keys(doc, ("title", "outdoor", "size", "rooms", "features", "spawns", "start", "start_area"), name)
        size = need(doc, "size", list, name)
        if not _ints(size, 2) or not all(0 < x <= MAX_BOARD for x in size):
            raise fail(f"expected [width, height], each 1..{MAX_BOARD}", doc, "size", f"{name}.size")
        dims = (size[0], size[1])
        need(doc, "title", str, name)
        need(doc, "outdoor", bool, name, default=False)
        rooms = need(doc, "rooms", dict, name)
        for rid, r in rooms.items():
            check_keys(r, ("title", "area", "hide", "dark", "smarts", "zombie_accuracy", "spot", "outdoor"),
                       f"{name}.rooms.{rid}")
            need(r, "title", str, f"{name}.rooms.{rid}")
            _area(r, f"{name}.rooms.{rid}", dims, square=False)
            for flag in ("hide", "dark", "spot"):
                need(r, flag, bool, f"{name}.rooms.{rid}", default=False)
            for number in ("smarts", "zombie_accuracy"):
                if abs(need(r, number, int, f"{name}.rooms.{rid}", default=0)) > MAX_TABLE_NUMBER:
                    raise fail(f"{number} is beyond what a table may ask", r, number, f"{name}.rooms.{rid}.{number}")
        spawns = need(doc, "spawns", dict, name, default={})
        for sname, cells in spawns.items():
            if not isinstance(cells, list) or not all(_on_board(c, dims) for c in cells):
                raise fail("expected a list of [x, y] squares on the board", spawns, sname, f"{name}.spawns.{sname}")
        if "start_area" in doc:
            _area(doc, name, dims, square=False, area="start_area")
        for i, f in enumerate(need(doc, "features", list, name)):
            check_keys(f, ("kind", "at", "area", "to", "vehicle"), f"{name}.features[{i}]")
            kind = need(f, "kind", str, f"{name}.features[{i}]")
            if kind not in FEATURES:
                raise fail(f"unknown feature kind {kind!r}", f, "kind", f"{name}.features[{i}].kind")
            _area(f, f"{name}.features[{i}]", dims)
            if kind == "stairs" or (kind == "window" and "to" in f):
                if "at" not in f:
                    raise fail(f"a {kind} with a far end stands on one square ('at')", f, "area",
                               f"{name}.features[{i}]")
                need(f, "to", list, f"{name}.features[{i}]")  # a staircase names its far end
                _area(f, f"{name}.features[{i}]", dims, at="to")
            if need(f, "vehicle", str, f"{name}.features[{i}]", default="car") not in VEHICLES:
                raise fail(f"vehicle is one of {', '.join(VEHICLES)}", f, "vehicle", f"{name}.features[{i}].vehicle")
        if "start" in doc and need(doc, "start", str, name) not in rooms:
            raise fail("start must name a room", doc, "start", f"{name}.start")
        if "start" not in doc and "start_area" not in doc:
            raise fail("missing field 'start' (a room) or 'start_area'", doc, None, name)
        board = compile_board(name, plain(doc))
        for key, cells in board.spawns.items():
            for c in cells:
                if not board.passable(c, set()):
                    raise fail(f"spawn square {board.xy(c)} is not open floor", doc, "spawns", f"{name}.spawns.{key}")
        out[name] = board
    return out


@dataclass(frozen=True, slots=True)
class Event:
    id: str
    title: str
    text: str
    steps: list[tuple[str, dict[str, Any]]]
    choices: list[tuple[str, str]]
    exits: list[tuple[dict[str, Any], str]]
    aim: dict[str, Any]
    end: str


@dataclass(frozen=True, slots=True)
class ScenarioDef:
    id: str
    title: str
    map: str
    zombies: int
    reward: dict[str, int]
    first: str
    npcs: list[str]
    events: dict[str, Event]


CONDITIONS = frozenset({"flag", "room", "turns", "clear", "free", "aboard", "home"})


@dataclass(frozen=True, slots=True)
class Scenarios:
    """Every scenario's numbered events; the ruleset checks their step names at load time."""

    by_id: dict[str, ScenarioDef]
    where: dict[str, tuple[str | None, int | None]]

    def step_calls(self) -> list[tuple[str, dict[str, Any], str | None, int | None, str]]:
        """Each step an event names, with the parameters it passes: loading checks them."""
        out = []
        for sid, scen in self.by_id.items():
            file, line = self.where[sid]
            for ev in scen.events.values():
                for j, (name, params) in enumerate(ev.steps):
                    out.append((name, params, file, line, f"{sid}.events.{ev.id}.steps[{j}]"))
        return out


@table("sza.scenarios")
def scenarios(data: Any) -> Scenarios:
    if not isinstance(data, YMap) or not data:
        raise DataError("the scenarios table maps ids to scenarios")
    out: dict[str, ScenarioDef] = {}
    where: dict[str, tuple[str | None, int | None]] = {}
    _bounded(data, "")
    for sid, doc in data.items():
        check_keys(doc, ("title", "map", "zombies", "reward", "first", "npcs", "events"), sid)
        evs_doc = need(doc, "events", dict, sid)
        events: dict[str, Event] = {}
        for eid, e in evs_doc.items():
            f = f"{sid}.events.{eid}"
            check_keys(e, ("title", "text", "steps", "choices", "exits", "aim", "end"), f)
            for j, c in enumerate(need(e, "choices", list, f, default=[])):
                check_keys(c, ("text", "next"), f"{f}.choices[{j}]")
            for j, x in enumerate(need(e, "exits", list, f, default=[])):
                check_keys(x, ("when", "next"), f"{f}.exits[{j}]")
            check_keys(need(e, "aim", dict, f, default={}), ("feature", "hunt"), f"{f}.aim")
            steps = [(need(s, "step", str, f"{f}.steps"), {k: plain(v) for k, v in s.items() if k != "step"})
                     for s in need(e, "steps", list, f, default=[])]
            choices = [(need(c, "text", str, f"{f}.choices"), str(need(c, "next", str, f"{f}.choices")))
                       for c in need(e, "choices", list, f, default=[])]
            exits = []
            for j, x in enumerate(need(e, "exits", list, f, default=[])):
                when = need(x, "when", dict, f"{f}.exits[{j}]")
                bad = sorted(set(when) - CONDITIONS)
                if bad:
                    raise fail(f"unknown condition {bad[0]!r} (known: {', '.join(sorted(CONDITIONS))})", when, bad[0],
                               f"{f}.exits[{j}].when")
                for cond, kind in (("flag", str), ("room", str), ("turns", int), ("clear", bool), ("free", bool),
                                   ("aboard", bool), ("home", bool)):
                    need(when, cond, kind, f"{f}.exits[{j}].when", default=None)
                exits.append((plain(when), need(x, "next", str, f"{f}.exits[{j}]")))
            end = need(e, "end", str, f, default="")
            if end not in ("", "won", "lost"):
                raise fail("end must be won or lost", e, "end", f"{f}.end")
            if not (choices or exits or end):
                raise fail("an event needs choices, exits or an end", evs_doc, eid, f)
            events[eid] = Event(eid, need(e, "title", str, f), need(e, "text", str, f, default=""), steps, choices,
                                exits, plain(need(e, "aim", dict, f, default={})), end)
        for eid, ev in events.items():
            for nxt in [c[1] for c in ev.choices] + [x[1] for x in ev.exits]:
                if nxt not in events:
                    raise fail(f"event {eid} leads to unknown event {nxt!r}", evs_doc, eid, f"{sid}.events.{eid}")
        first = need(doc, "first", str, sid)
        if first not in events:
            raise fail(f"unknown first event {first!r}", doc, "first", f"{sid}.first")
        npcs = need(doc, "npcs", list, sid, default=[])
        if not all(isinstance(n, str) for n in npcs):
            raise fail("npcs are prefab names", doc, "npcs", f"{sid}.npcs")
        reward = need(doc, "reward", dict, sid, default={})
        if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in reward.values()):
            raise fail("a reward gives items by name, with how many of each", doc, "reward", f"{sid}.reward")
        zombies = need(doc, "zombies", int, sid)
        if zombies < 0:
            raise fail("zombies must be 0 or more", doc, "zombies", f"{sid}.zombies")
        out[sid] = ScenarioDef(sid, need(doc, "title", str, sid), need(doc, "map", str, sid), zombies, plain(reward),
                               first, plain(npcs), events)
        where[sid] = (getattr(data, "file", None), data.line_of(sid))
    return Scenarios(out, where)


def cross_check(scenarios: Scenarios, maps: dict[str, Board], prefabs: dict[str, Any]) -> None:
    """What one table cannot check alone: each scenario's map, spawn lists, aims and prefabs exist.

    Run when a scenario's board is laid out (and by the tests over every shipped scenario)."""
    for sid, scen in sorted(scenarios.by_id.items()):
        file, line = scenarios.where[sid]
        board = maps.get(scen.map)
        if board is None:
            raise DataError(f"unknown map {scen.map!r} (maps: {', '.join(sorted(maps))})", file, line, f"{sid}.map")
        for npc in scen.npcs:
            if npc not in prefabs:
                raise DataError(f"unknown prefab {npc!r}", file, line, f"{sid}.npcs")
        for ev in scen.events.values():
            for name, params in ev.steps:
                if name == "spawn":
                    if params.get("at") not in board.spawns:
                        raise DataError(f"spawn list {params.get('at')!r} is not on map {scen.map!r} "
                                        f"(lists: {', '.join(sorted(board.spawns))})", file, line,
                                        f"{sid}.events.{ev.id}.steps")
                    if params.get("prefab", "zombie") not in prefabs:
                        raise DataError(f"unknown prefab {params.get('prefab')!r}", file, line,
                                        f"{sid}.events.{ev.id}.steps")
            feature = ev.aim.get("feature")
            if feature and feature not in board.features:
                raise DataError(f"aim {feature!r} is no feature of map {scen.map!r}", file, line,
                                f"{sid}.events.{ev.id}.aim")
