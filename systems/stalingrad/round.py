"""The round (Escape from Stalingrad Z, "Round", "Initiative segment", "End segment"), the game's
setup from the scenario's map, and the numbers a player wants at the end.

Initiative segment -> player turn and zombie turn (in initiative order) -> end segment.

DESIGN CHOICES: initiative ties are settled by the `initiative_ties` parameter (default `reroll`:
both sides roll again; `characters` or `zombies` give the tie to that side). The zombies' modifier
is the `zombie_initiative` parameter (−4, scenarios may change it) plus the largest `initiative`
bonus among the zombie types on the board. The end segment applies the scenario's victory table:
the characters win once `escape_needed` of them have escaped; they lose when too few are left to
manage it, or when round `by_round` (default: the round track's last) ends without it.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ecs_zombie.boards import SQUARE, require_grid
from ecs_zombie.components import Faction, Kind, Markers, Position, Wounds
from ecs_zombie.decisions import Decision
from ecs_zombie.errors import GameError
from ecs_zombie.game import Game
from ecs_zombie.registry import metrics
from ecs_zombie.schedule import system
from ecs_zombie.systems.stalingrad.board import PLAYER, SURVIVORS, ZOMBIES, characters, gmap, state, zombies, ztype
from ecs_zombie.systems.stalingrad.components import Arsenal, DoorState, SearchSpot


@system("stalingrad.setup",
        reads=("StalingradRound", "Kind", "Faction", "Wounds", "Tally", "Position"),
        writes=("StalingradRound", "Wounds"),
        creates=("DoorState", "SearchSpot", "Position", "Kind", "Faction", "Facing", "Wounds", "Markers"))
def setup(game: Game) -> None:
    """Before the first round: doors, search squares and standing zombies from the map; zombies' hits
    from their type.

    DESIGN CHOICE (scenarios): a map square labelled `zombie:<type>` starts with a zombie of that
    type (face up, like the scenario's own entities), made in map order (row by row) after the
    scenario's entities, so that a big horde is drawn on the map rather than listed."""
    rs, _tally = state(game)
    if rs.setup:
        return
    rs.setup = True
    require_grid(game.world.query1(Position), SQUARE, "Escape from Stalingrad Z")
    g = gmap(game)
    for sq in sorted(g.doors, key=lambda s: (s[1], s[0])):
        game.world.create(DoorState(g.doors[sq]), Position(sq[0], sq[1]))
    for sq in g.squares("search"):
        game.world.create(SearchSpot(False), Position(sq[0], sq[1]))
    types = game.tables["stalingrad.zombies"]
    horde = sorted((sq[1], sq[0], label.split(":", 1)[1]) for label, squares in g.labels.items()
                   if label.startswith("zombie:") for sq in squares)
    for y, x, name in horde:
        if name not in types:
            raise GameError(f"the map puts a zombie of type {name!r} on ({x}, {y}), not in the zombie table")
        parts = game.ruleset.prefabs["zombie"].make(Kind(name), Wounds(0, types[name].hits))
        game.world.create(*[Position(x, y) if isinstance(p, Position) else p for p in parts])
    if horde:
        game.log("horde", zombies=len(horde))
    standing: dict[tuple[int, int], int] = {}
    for ent, (p, _f) in game.world.query(Position, Faction):
        other = standing.setdefault((p.x, p.y), ent)
        if other != ent:
            raise GameError(f"figures {other} and {ent} both stand on square ({p.x}, {p.y}): one figure a square")
    for z in zombies(game):
        w = game.world.get(z, Wounds)
        w.limit = ztype(game, z).hits
    section = game.tables["stalingrad.spawn"]
    for label, _count in section.waves:
        if not g.squares(f"spawn:{label}"):
            raise GameError(f"the spawn section names square {label!r} but the map has no 'spawn:{label}' square")
    for _l, name in section.types:
        if name not in types:
            raise GameError(f"the spawn section names zombie type {name!r}, not in the zombie table")
    game.log("setup", doors=len(g.doors), search=len(g.squares("search")))


@system("stalingrad.initiative",
        reads=("StalingradRound", "Kind", "Faction", "Position", "Tally"),
        writes=("StalingradRound",),
        decides=("stalingrad.initiative_order",))
def initiative(game: Game, modifier: int = -4, ties: str = "reroll") -> Generator[Decision, object, None]:
    """Initiative segment: the characters go first in round 1; then 1d12 each, zombies modified; a
    winning player chooses first or second turn, winning zombies always go first."""
    rs, _t = state(game)
    if game.tick == 1:
        rs.first = SURVIVORS
        game.log("initiative", first=rs.first, why="first round")
        return
    bonus = max((ztype(game, z).initiative for z in zombies(game)), default=0)
    mod = modifier + bonus
    while True:
        player = game.roll("1d12", "initiative (characters)")
        zombie = game.roll("1d12", "initiative (zombies)") + mod
        winner = SURVIVORS if player > zombie else ZOMBIES if zombie > player else None
        if winner is None:
            if ties == "reroll":
                game.log("initiative_tie", characters=player, zombies=zombie)
                continue
            winner = ties
        break
    if winner == SURVIVORS:
        turn = yield from game.decide(PLAYER, "stalingrad.initiative_order", ["first", "second"])
        rs.first = SURVIVORS if turn == "first" else ZOMBIES
    else:
        rs.first = ZOMBIES
    game.log("initiative", characters=player, zombies=zombie, winner=winner, first=rs.first)


@system("stalingrad.turns",
        reads=("StalingradRound", "Tally"),
        step_params=("survivors", "zombies"))
def turns(game: Game, survivors: list[str], zombies: list[str]) -> Generator[Decision, object, None]:
    """The player turn and the zombie turn, in initiative order; each a list of the ruleset's steps."""
    rs, _t = state(game)
    order = [survivors, zombies] if rs.first == SURVIVORS else [zombies, survivors]
    for steps in order:
        for name in steps:
            yield from game.run_step(name, {})
            if game.over:
                return


def escaped(game: Game) -> int:
    return state(game)[1].counts.get("escaped", 0)


@system("stalingrad.end_segment",
        reads=("StalingradRound", "Tally", "Faction", "Position", "Markers"),
        writes=("Markers",))
def end_segment(game: Game) -> None:
    """End segment: the scenario's victory and defeat conditions."""
    for _e, m in game.world.query1(Markers):
        m.discard("arrived")
    v = game.tables["stalingrad.victory"]
    last = v.by_round or game.tables["stalingrad.track"].rounds
    out, left = escaped(game), len(characters(game))
    if out >= v.escape_needed:
        game.end(SURVIVORS)
    elif out + left < v.escape_needed or game.tick >= last:
        game.end(ZOMBIES)


@metrics("stalingrad.metrics")
def stalingrad_metrics(game: Game) -> dict[str, Any]:
    counts = state(game)[1].counts
    ammo = sum(sum(a.ammo.values()) for _e, a in game.world.query1(Arsenal))
    on_board = sum(1 for _e, (_p, f) in game.world.query(Position, Faction) if f.side == ZOMBIES)
    return {
        "characters_escaped": counts.get("escaped", 0),
        "characters_left": len(characters(game)),
        "characters_killed": counts.get("characters_killed", 0),
        "wounds_taken": counts.get("wounds_taken", 0),
        "ammo_spent": counts.get("ammo_spent", 0),
        "ammo_left": ammo,
        "zombies_killed": counts.get("zombies_killed", 0),
        "zombies_on_board": on_board,
        "zombies_spawned": state(game)[0].spawned,
    }
