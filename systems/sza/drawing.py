"""The board drawn as text (`board: sza.board` in the ruleset; `replay --show`, `view`, the web page).

The current scenario's map, square by square (the bungalow's two levels side by side with the
garden below, or the street), with a ruler of x and y, then a legend of the symbols drawn and a
line per piece. Pieces: characters are numbered 1.. by entity id (`&` where several share a
square), zombies are `z`, a square where pieces are locked in melee is `X`; the vehicle is `V`
where it stands. Opened gates (a broken window, the panic room's door once open) and looted
features are drawn as they are now. It only reads the game.
"""

from __future__ import annotations

from typing import Any

from ecs_zombie.boards import describe
from ecs_zombie.components import Engaged, Faction, Kind, Markers, Position, Wounds
from ecs_zombie.registry import board
from ecs_zombie.systems.sza.board import Board
from ecs_zombie.systems.sza.components import Character, Infection, Stage, Vehicle
from ecs_zombie.systems.sza.tables import ScenarioDef

# Static features: the symbol, and what the legend says of it.
FEATURES: dict[str, tuple[str, str]] = {
    "door": ("+", "door"), "locked_door": ("L", "locked door"), "window": ("W", "window"),
    "table": ("t", "table"), "counter": ("c", "counter"), "cabinet": ("k", "cabinet"),
    "op_cabinet": ("k", "cabinet"), "locked_cabinet": ("K", "locked cabinet"), "safe": ("S", "safe"),
    "fuse": ("F", "fuse box"), "ceiling": ("^", "false ceiling"), "stairs": (">", "stairs"), "bed": ("b", "bed"),
    "debris": ("%", "debris"), "grass": (",", "grass"), "bush": ('"', "bush"), "safehouse": ("H", "safe house"),
}
OPENED = {"window": ("O", "broken window"), "locked_door": ("+", "door")}
LOOTED = ("cabinet", "op_cabinet", "locked_cabinet", "counter", "ceiling", "safe")
PIECES = {"X": "pieces locked in melee", "&": "several characters", "z": "zombie", "V": "vehicle"}
FLOOR = {".": "floor", ":": "dark floor (until the lights are fixed)", "~": "pipe room (hiding)", "#": "wall",
         "x": "searched (looted)", "_": "outside (the garden: broken windows lead there)"}


@board("sza.board")
def draw(game: Any) -> list[str]:
    """The SZA board now, as lines of plain text."""
    stage = next((s for _e, s in game.world.query1(Stage)), None)
    if stage is None or "sza.maps" not in game.tables:
        return describe(game)
    if not stage.built:
        done = ", ".join(stage.results) or "none yet"
        return [f"No board laid out (scenario {stage.index + 1} of {len(stage.stages)} comes next; "
                f"played: {done})", *_roster_lines(game)]
    scen: ScenarioDef = game.tables["sza.scenarios"].by_id[stage.stages[stage.index]]
    b: Board = game.tables["sza.maps"][scen.map]
    grid, used = _squares(game, b, stage)
    event = scen.events.get(stage.event)
    lines = [f"{b.title}: scenario {stage.index + 1} of {len(stage.stages)} ({scen.title}), turn {stage.turn}, "
             f"event {stage.event}" + (f" ({event.title})" if event is not None else "")]
    lines.append("   " + "".join(str(x // 10) if x % 10 == 0 else " " for x in range(b.width)))
    lines.append("   " + "".join(str(x % 10) for x in range(b.width)))
    lines += [f"{y:2d} " + "".join(grid[y]) for y in range(b.height)]
    lines = [line.rstrip() for line in lines]
    lines += _legend(used)
    lines += _roster_lines(game)
    return lines


def _squares(game: Any, b: Board, stage: Stage) -> tuple[list[list[str]], dict[str, str]]:
    """Every square's symbol, and the legend of the symbols used."""
    used: dict[str, str] = {}
    lit = "lights" in stage.flags
    grid: list[list[str]] = []
    for y in range(b.height):
        row = []
        for x in range(b.width):
            cell = b.cell(x, y)
            kind = b.feature(cell)
            room = b.room(cell)
            if kind in LOOTED and cell in stage.looted:
                sym, what = "x", FLOOR["x"]
            elif kind in OPENED and cell in stage.opened:
                sym, what = OPENED[kind]
            elif kind in FEATURES:
                sym, what = FEATURES[kind]
            elif room is None and kind != "vehicle":
                sym, what = "#", FLOOR["#"]
            elif room is not None and room.hide:
                sym, what = "~", FLOOR["~"]
            elif room is not None and room.dark and not lit:
                sym, what = ":", FLOOR[":"]
            elif room is not None and room.outdoor and not b.outdoor:
                sym, what = "_", FLOOR["_"]
            else:
                sym, what = ".", FLOOR["."]
            used.setdefault(sym, what)
            row.append(sym)
        grid.append(row)
    for (x, y), sym in sorted(_pieces(game, b).items()):
        if 0 <= x < b.width and 0 <= y < b.height:
            grid[y][x] = sym
            used.setdefault(sym, PIECES.get(sym, "character"))
    shown = {sym for row in grid for sym in row}
    return grid, {sym: what for sym, what in used.items() if sym in shown}


def numbers(game: Any) -> dict[int, str]:
    """Each character's number (1.. by entity id; `@` past 9), risen ones included."""
    ents = sorted(e for e, _i in game.world.query1(Infection))
    return {e: str(i + 1) if i < 9 else "@" for i, e in enumerate(ents)}


def _pieces(game: Any, b: Board) -> dict[tuple[int, int], str]:
    """The symbol of each square holding pieces."""
    world = game.world
    nums = numbers(game)
    at: dict[tuple[int, int], list[int]] = {}
    for ent, (pos, _faction) in world.query(Position, Faction):
        markers = world.try_get(ent, Markers)
        if markers is None or not markers.has("offboard"):
            at.setdefault((pos.x, pos.y), []).append(ent)
    vehicles = {(p.x, p.y) for e, (p, _v) in world.query(Position, Vehicle)}
    out: dict[tuple[int, int], str] = {}
    for xy in sorted(set(at) | vehicles):
        ents = at.get(xy, [])
        sides = {world.get(e, Faction).side for e in ents}
        engaged = any(world.has(e, Engaged) and world.get(e, Engaged).opponents for e in ents)
        people = [e for e in ents if world.get(e, Faction).side == "survivors" and e in nums]
        if engaged and len(sides) > 1:
            out[xy] = "X"
        elif xy in vehicles:
            out[xy] = "V"
        elif len(people) > 1:
            out[xy] = "&"
        elif people:
            out[xy] = nums[people[0]]
        elif "zombies" in sides:
            out[xy] = "z"
    return out


ORDER = "&XzV#.:~_+LWO" + "".join(dict.fromkeys(sym for sym, _w in FEATURES.values())) + "x"  # the legend's order


def _legend(used: dict[str, str]) -> list[str]:
    entries = [f"{sym} {what}" for sym, what in sorted(used.items(), key=lambda kv: ORDER.find(kv[0]))
               if not sym.isdigit() and sym != "@"]
    if any(sym.isdigit() or sym == "@" for sym in used):
        entries.insert(0, "1.. characters (below)")
    lines, line = [], "legend:"
    for entry in entries:
        if len(line) + 2 + len(entry) > 100:
            lines.append(line)
            line = "       "
        line += "  " + entry
    lines.append(line)
    return lines


def _where(game: Any, ent: int) -> str:
    pos = game.world.try_get(ent, Position)
    return f"({pos.x},{pos.y})" if pos is not None else "(nowhere)"


def _roster_lines(game: Any) -> list[str]:
    """A line per character, zombie and vehicle (the safe-house people on one)."""
    world = game.world
    nums = numbers(game)
    lines = []
    names = {e: world.get(e, Character).name for e in nums}

    def foes(ent: int) -> str:
        eng = world.try_get(ent, Engaged)
        if eng is None or not eng.opponents:
            return ""
        return ", engaged with " + " ".join(nums.get(o, f"z{o}") if world.get(o, Faction).side == "survivors"
                                            else f"z{o}" for o in sorted(eng.opponents) if world.exists(o))

    for ent, n in nums.items():
        if world.get(ent, Faction).side != "survivors":
            continue
        ch, h, inf = world.get(ent, Character), world.get(ent, Wounds), world.get(ent, Infection)
        markers = world.get(ent, Markers)
        state = [f"Stamina {h.left}/{h.limit}"]
        if inf.infected:
            state.append(f"infected ({inf.turns_left} turns left)" if not inf.fresh else "infected this turn")
        if markers.has("aboard"):
            state.append("aboard")
        place = "off the board" if markers.has("offboard") else f"at {_where(game, ent)}"
        lines.append(f"  {n} {ch.name} ({ch.cls}) {place}: {', '.join(state)}{foes(ent)}")
    for ent, (kind, faction) in world.query(Kind, Faction):
        if faction.side != "zombies":
            continue
        h = world.get(ent, Wounds)
        who = f"risen {names[ent]} ({nums[ent]})" if ent in names else kind.name
        lines.append(f"  z{ent} {who} at {_where(game, ent)}: Stamina {h.left}/{h.limit}{foes(ent)}")
    npcs = [world.get(e, Character).name for e, (k, _f) in world.query(Kind, Faction) if k.name == "npc"]
    if npcs:
        lines.append(f"  in the safe house (they do not fight): {', '.join(npcs)}")
    for ent, v in world.query1(Vehicle):
        aboard = " ".join(nums.get(p, str(p)) for p in v.passengers) or "nobody"
        lines.append(f"  V {v.kind} at {_where(game, ent)}: {'open' if v.unlocked else 'locked'}, "
                     f"aboard {aboard} ({len(v.passengers)}/{v.capacity})")
    return lines
