"""Combat rounds (Night of the Shambling Dead, "Combat Phases").

Each turn's battle has `combat_rounds` (3) rounds. In each, the zombies strike first unless the
player counter-charged. A side's strike in a zone sums the strength of its figures in contact with
an enemy (survivor 2/1, hero 3/2, zombie 1/1 unwounded/wounded; +1 per unwounded survivor in
Support to the Front Line's survivors; survivors attacked in Support 1 each), rolls 1d6 on the CRT,
and the defender places that many wounds among figures that began the round in contact with the
attackers (a roll of 6 puts the first on a Hero present). After both strikes, victorious figures
may engage another enemy, zombies whose zone has no survivors left move into the other zone, and a
board with zombies and no survivors has fallen (sudden death).
"""

from __future__ import annotations

from collections.abc import Generator

from ecs_zombie.components import Engaged, Faction, Kind, Markers, Wounds, Zone
from ecs_zombie.decisions import Decision
from ecs_zombie.game import Game
from ecs_zombie.schedule import system
from ecs_zombie.systems.shambling.board import (
    FRONT,
    SUPPORT,
    SURVIVORS,
    ZOMBIES,
    allocate_wounds,
    boards,
    figures,
    set_zone,
    side_of,
)
from ecs_zombie.systems.shambling.engage import link, stand_and_receive

OTHER_ZONE = {FRONT: SUPPORT, SUPPORT: FRONT}
ENEMY = {SURVIVORS: ZOMBIES, ZOMBIES: SURVIVORS}


def strength(game: Game, board: int, zone: str, side: str, attackers: list[int]) -> int:
    table = game.tables["shambling.strength"]
    if side == SURVIVORS and zone == SUPPORT:
        return table.support_defence * len(attackers)
    ents = game.world.raw()
    by_kind = table.by_kind  # kind -> (unwounded, wounded)
    total = 0
    for e in attackers:
        comps = ents[e]
        total += by_kind[comps[Kind].name][comps[Wounds].taken > 0]
    if side == SURVIVORS and zone == FRONT:
        support = figures(game, board, SURVIVORS, SUPPORT)
        total += table.support_bonus * sum(1 for e in support if not ents[e][Wounds].taken)
    return total


def strike(game: Game, board: int, zone: str, side: str, began: dict[int, list[int]]
           ) -> Generator[Decision, int, None]:
    ents = game.world.raw()
    attackers = [e for e in figures(game, board, side, zone) if ents[e][Engaged].opponents]
    if not attackers:
        return
    total = strength(game, board, zone, side, attackers)
    roll = game.roll("1d6", f"{side} strike in {zone} (board {board})")
    wounds = game.tables["shambling.crt"].wounds(roll, total)
    eligible = sorted({d for a in attackers for d in began.get(a, ()) if d in ents})
    game.log("strike", board=board, zone=zone, side=side, strength=total, roll=roll, wounds=wounds)
    yield from allocate_wounds(game, wounds, eligible, side_of(ENEMY[side], board), roll == 6)


def re_engage(game: Game, board: int, began: dict[int, list[int]], order: tuple[str, str]
              ) -> Generator[Decision, int, None]:
    """A figure whose every opponent fell this round may engage another enemy in its zone.

    DESIGN CHOICE: the text leaves the new target to the players; the owning side picks any enemy
    in the figure's zone, or stays."""
    ents = game.world.raw()
    victors: dict[str, list[int]] = {side: [] for side in order}
    for ent in began:  # in id order: only figures that were in contact can be victorious
        comps = ents.get(ent)
        if comps is not None and not comps[Engaged].opponents:
            victors[comps[Faction].side].append(ent)
    for side in order:
        for ent in victors[side]:
            comps = ents[ent]
            if comps[Engaged].opponents:  # engaged meanwhile by a victor of the other side
                continue
            enemies = figures(game, board, ENEMY[side], comps[Zone].name)
            if not enemies:
                continue
            options: list[int | str] = ["stay", *enemies]
            choice = yield from game.decide(side_of(side, board), "shambling.re_engage", options, figure=ent)
            if choice != "stay":
                assert isinstance(choice, int)
                link(game, ent, choice)


def advance(game: Game, board: int) -> Generator[Decision, int, None]:
    """Zombies in a zone with no survivors left move into the other zone, which must Stand and Receive.

    DESIGN CHOICE: "the next zone" is the board's other zone, Front Line and Support both ways."""
    for zone in (FRONT, SUPPORT):
        zombies = figures(game, board, ZOMBIES, zone)
        other = OTHER_ZONE[zone]
        if not zombies or figures(game, board, SURVIVORS, zone) or not figures(game, board, SURVIVORS, other):
            continue
        for z in zombies:
            set_zone(game, z, other)
            game.world.get(z, Engaged).opponents.clear()
            game.world.get(z, Markers).add("stand_only")
        game.log("zombies_advance", board=board, into=other, zombies=len(zombies))
        yield from stand_and_receive(game, board, other, zombies)


def fallen(game: Game, board: int) -> bool:
    return bool(figures(game, board, ZOMBIES)) and not figures(game, board, SURVIVORS)


@system("shambling.combat", reads=("Zone", "Faction", "Wounds", "Kind", "Markers", "Engaged"),
        writes=("Wounds", "Engaged", "Zone", "Markers"))
def combat(game: Game) -> Generator[Decision, int, None]:
    """Three rounds of combat on every board where figures are in contact."""
    for seat, markers, _t in boards(game):
        yield from advance(game, seat)
        order = (SURVIVORS, ZOMBIES) if markers.has("counter_charge") else (ZOMBIES, SURVIVORS)
        ents = game.world.raw()
        for rnd in range(1, game.params["combat_rounds"] + 1):
            began = {}
            for e in figures(game, seat):
                ops = ents[e][Engaged].opponents
                if ops:
                    began[e] = list(ops)
            if not began:
                break
            game.log("combat_round", board=seat, round=rnd)
            for side in order:
                for zone in (FRONT, SUPPORT):
                    yield from strike(game, seat, zone, side, began)
            yield from re_engage(game, seat, began, order)
            yield from advance(game, seat)
            if fallen(game, seat):
                break
        if fallen(game, seat):
            markers.add("fallen")
            game.log("board_fallen", board=seat)
    if not boards(game):
        game.end(ZOMBIES)
