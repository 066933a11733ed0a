"""Stalingrad's square map drawn as text (`board: stalingrad.board`): what `replay --show`, `view`
and the web page show.

Every square is three characters. Terrain: ` . ` open, `###` wall, `%%%` obstructive (rubble),
` + ` a closed door, ` / ` an open door, ` E ` an exit, ` A ` a spawn square (its label), ` ? ` a
search square not yet searched (` - ` once searched). A figure on a square replaces the terrain:
a mark, its letter (in the middle) and its facing as an arrow. Characters are numbered 1..9 in entity order (`@`
beyond), listed under the map; a zombie face up shows its type's first letter (`w` walker, `r`
runner, `b` brute, `l` lurker), a face-down zombie `z` (its type hidden, as the text's face-down
POG). Marks: `*` wounded (wounds or hits taken), `!` stunned (a zombie) or locked (a character).
Column numbers run along the top, row numbers down the left; a header gives the round, who goes
first, and the tallies; the legend and the characters follow the map; zombies are counted (and
listed when few), with those waiting off the board for their spawn square.
"""

from __future__ import annotations

from ecs_zombie.components import Engaged, Facing, Faction, Kind, Markers, Position, Tally, Wounds
from ecs_zombie.game import Game
from ecs_zombie.grid import DIRECTION_NAMES, DOOR, OBSTRUCTIVE, WALL, GridMap
from ecs_zombie.registry import board
from ecs_zombie.systems.stalingrad.board import SURVIVORS, ZOMBIES
from ecs_zombie.systems.stalingrad.components import (
    ActivationState,
    AwaitingSpawn,
    DoorState,
    SearchSpot,
    StalingradRound,
)

ARROWS = "↑↗→↘↓↙←↖"  # facing 0..7, clockwise from north
NUMBERS = "123456789"
LIST_ZOMBIES = 12  # zombies listed one by one up to this many
LEGEND = ("legend: ' . ' open  ### wall  %%% rubble  ' + ' closed door  ' / ' open door  ' E ' exit  "
          "' A ' spawn square A  ' ? ' search square (' - ' searched)",
          "pieces: 1-9 characters, a zombie's type letter (w walker, r runner, b brute, l lurker), z face down; "
          "before it * wounded, ! stunned (zombie) or locked (character); after it its facing ↑↗→↘↓↙←↖")


def _terrain(g: GridMap, x: int, y: int, doors: dict[tuple[int, int], bool], search: dict[tuple[int, int], bool],
             spawn: dict[tuple[int, int], str], exits: set[tuple[int, int]]) -> str:
    t = g.terrain[y * g.width + x]
    if t == WALL:
        return "###"
    if t == OBSTRUCTIVE:
        return "%%%"
    if t == DOOR:
        return " / " if doors.get((x, y), False) else " + "
    sq = (x, y)
    if sq in exits:
        return " E "
    if sq in spawn:
        return f" {spawn[sq]} "
    if sq in search:
        return " - " if search[sq] else " ? "
    return " . "


def _figure(letter: str, facing: Facing | None, mark: str) -> str:
    """Mark, letter (in the middle, where a terrain's dot is), facing arrow."""
    return mark + letter + (ARROWS[facing.direction % 8] if facing is not None else " ")


@board("stalingrad.board")
def draw(game: Game) -> list[str]:
    """The map with terrain, doors, exits, spawn and search squares, characters and zombies (facing,
    face down, wounded, stunned or locked), a header and a legend."""
    g: GridMap = game.tables["stalingrad.map"]
    world = game.world
    doors = dict(g.doors)  # before setup: as the map sets them
    for _e, (door, p) in world.query(DoorState, Position):
        doors[(p.x, p.y)] = door.open
    search = dict.fromkeys(g.squares("search"), False)
    for _e, (spot, p) in world.query(SearchSpot, Position):
        search[(p.x, p.y)] = spot.searched
    spawn = {sq: label.split(":", 1)[1][:1] or "S"
             for label, squares in g.labels.items() if label.startswith("spawn:") for sq in squares}
    exits = set(g.squares("exit"))

    cells: dict[tuple[int, int], str] = {}
    chars: list[str] = []
    zombie_lines: list[str] = []
    counts = {"on": 0, "down": 0, "stunned": 0, "wounded": 0}
    figures = world.query(Position, Faction)
    survivors = [(ent, p) for ent, (p, f) in figures if f.side == SURVIVORS]
    for n, (ent, p) in enumerate(survivors):
        letter = NUMBERS[n] if n < len(NUMBERS) else "@"
        wounds = world.try_get(ent, Wounds)
        eng = world.try_get(ent, Engaged)
        locked_by = list(eng.opponents) if eng is not None else []
        hurt = wounds is not None and wounds.taken > 0
        facing = world.try_get(ent, Facing)
        cells[(p.x, p.y)] = _figure(letter, facing, "!" if locked_by else "*" if hurt else " ")
        kind = world.try_get(ent, Kind)
        line = f"  {letter} {kind.name if kind else 'character'} #{ent} at ({p.x},{p.y})"
        if facing is not None:
            line += f" facing {DIRECTION_NAMES[facing.direction % 8]}"
        if wounds is not None:
            line += f", wounds {wounds.taken}/{wounds.limit}"
        if locked_by:
            line += ", locked by " + ", ".join(f"#{z}" for z in locked_by)
        act = world.try_get(ent, ActivationState)
        if act is not None:
            if act.mode:
                line += f", {act.mode} ({act.mp} MP left)" if not act.activated or act.mp else f", {act.mode}"
            if act.covering >= 0:
                line += f", covering {act.covering}"
        chars.append(line)
    for ent, (p, f) in figures:
        if f.side != ZOMBIES:
            continue
        markers = world.try_get(ent, Markers)
        wounds = world.try_get(ent, Wounds)
        kind = world.try_get(ent, Kind)
        name = kind.name if kind is not None else "zombie"
        down = markers is not None and markers.has("hidden")
        stunned = markers is not None and markers.has("stunned")
        hurt = wounds is not None and wounds.taken > 0
        counts["on"] += 1
        counts["down"] += down
        counts["stunned"] += stunned
        counts["wounded"] += hurt
        cells[(p.x, p.y)] = _figure("z" if down else (name[:1].lower() or "z"), world.try_get(ent, Facing),
                                    "!" if stunned else "*" if hurt else " ")
        line = f"  {name} #{ent} at ({p.x},{p.y})" + (" face down" if down else "")
        if hurt and wounds is not None:
            line += f", hits {wounds.taken}/{wounds.limit}"
        zombie_lines.append(line + (", stunned" if stunned else ""))

    width = len(str(max(g.height - 1, 0)))
    lines = [_header(game)]
    lines.append(" " * (width + 1) + "".join(f"{x:>3}" for x in range(g.width)))
    for y in range(g.height):
        row = "".join(cells.get((x, y)) or _terrain(g, x, y, doors, search, spawn, exits) for x in range(g.width))
        lines.append(f"{y:>{width}} " + row)
    lines.extend(LEGEND)
    lines.append("characters:" if chars else "characters: none on the board")
    lines.extend(chars)
    waiting = [f"{world.get(e, Kind).name if world.try_get(e, Kind) else 'zombie'} #{e} for ({a.x},{a.y})"
               for e, a in world.query1(AwaitingSpawn)]
    summary = (f"zombies: {counts['on']} on the board ({counts['down']} face down, {counts['stunned']} stunned, "
               f"{counts['wounded']} wounded)")
    lines.append(summary + (":" if zombie_lines and len(zombie_lines) <= LIST_ZOMBIES else ""))
    if len(zombie_lines) <= LIST_ZOMBIES:
        lines.extend(zombie_lines)
    if waiting:
        lines.append("waiting off the board: " + ", ".join(waiting))
    return lines


def _header(game: Game) -> str:
    out = f"round {game.tick}"
    for _e, (rs, tally) in game.world.query(StalingradRound, Tally):
        if game.tick > 1 or rs.setup:
            out += f", {'characters' if rs.first == SURVIVORS else 'zombies'} first"
        counts = tally.counts
        out += (f"; escaped {counts.get('escaped', 0)}, characters killed {counts.get('characters_killed', 0)}, "
                f"zombies killed {counts.get('zombies_killed', 0)}, spawned {rs.spawned}")
        break
    if game.over:
        out += f"; over: {game.outcome}"
    return out
