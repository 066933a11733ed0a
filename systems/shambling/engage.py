"""Assigning figures to battle: Stand and Receive or Counter-Charge (Night of the Shambling Dead, "Battle").

- A player facing zombies in the Front Line chooses to Stand and Receive or to Counter-Charge;
  zombies in Support, and zombies risen from within this turn, may only be Stood and Received.
- Stand and Receive: the narrator places zombies one by one on survivors of the same zone, every
  survivor having one before any has two.
- Counter-Charge: the player places Front Line figures one by one on the zombies, every zombie
  having one attacker before any has two. Leaving unwounded figures behind costs a 2d6 roll (+1 with
  the Hero among the chargers): `join_threshold` or less and 1d6 more unwounded figures must join.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence

from ecs_zombie.components import Engaged, Markers
from ecs_zombie.decisions import Decision
from ecs_zombie.engagement import engage as engage_pair
from ecs_zombie.game import Game
from ecs_zombie.schedule import system
from ecs_zombie.systems.shambling.board import (
    FRONT,
    SUPPORT,
    SURVIVORS,
    ZOMBIES,
    boards,
    figures,
    is_hero,
    is_wounded,
    player_side,
)

STAND, CHARGE = "stand", "counter-charge"


def link(game: Game, a: int, b: int) -> None:
    """Put two enemy figures in base-to-base contact."""
    engage_pair(game.world, a, b)
    game.log("contact", a=min(a, b), b=max(a, b))


def contacts(game: Game, ent: int) -> int:
    return len(game.world.get(ent, Engaged).opponents)


def least_engaged(game: Game, ents: Sequence[int]) -> list[int]:
    """The figures with the fewest opponents (the "one each before any has two" rule)."""
    table = game.world.raw()
    counts = [len(table[e][Engaged].opponents) for e in ents]
    if not counts:
        return []
    low = min(counts)
    return [e for n, e in zip(counts, ents, strict=True) if n == low]


def stand_and_receive(game: Game, board: int, zone: str, zombies: Sequence[int]
                      ) -> Generator[Decision, object, None]:
    """The narrator places each unengaged zombie on a least-engaged survivor of the zone."""
    table = game.world.raw()
    counts: dict[int, int] | None = None  # survivor -> opponents, kept as this loop links
    for z in zombies:
        if table[z][Engaged].opponents:
            continue
        if counts is None:
            counts = {e: len(table[e][Engaged].opponents) for e in figures(game, board, SURVIVORS, zone)}
        if not counts:
            return
        low = min(counts.values())
        targets = [e for e, n in counts.items() if n == low]
        target = yield from game.decide("narrator", "shambling.assign", targets, zombie=z, zone=zone)
        link(game, z, target)
        counts[target] += 1


def charge_one(game: Game, board: int, charger: int, zombies: Sequence[int]) -> Generator[Decision, object, None]:
    target = yield from game.decide(player_side(board), "shambling.charge_target", least_engaged(game, zombies),
                                    charger=charger)
    link(game, charger, target)
    game.world.get(charger, Markers).add("charging")


def counter_charge(game: Game, board: int, zombies: Sequence[int], join_threshold: int
                   ) -> Generator[Decision, object, None]:
    front = figures(game, board, SURVIVORS, FRONT)
    chargers: list[int] = []
    while True:
        rest = [f for f in front if f not in chargers]
        options: list[int | str] = ([] if not chargers else ["done"]) + rest
        if not rest:
            break
        choice = yield from game.decide(player_side(board), "shambling.charger", options)
        if choice == "done":
            break
        assert isinstance(choice, int)
        chargers.append(choice)
        yield from charge_one(game, board, choice, zombies)
    left = [f for f in front if f not in chargers and not is_wounded(game, f)]
    if left:
        bonus = 1 if any(is_hero(game, c) for c in chargers) else 0
        roll = game.roll("2d6", "counter-charge join roll") + bonus
        joining = 0
        if roll <= join_threshold:
            joining = min(game.roll("1d6", "counter-charge joiners"), len(left))
        game.log("join_roll", board=board, roll=roll, joining=joining)
        for _ in range(joining):
            pick = yield from game.decide(player_side(board), "shambling.join", left)
            left.remove(pick)
            chargers.append(pick)
            yield from charge_one(game, board, pick, zombies)
    # DESIGN CHOICE: zombies the chargers left without an attacker are placed by the narrator on the
    # chargers (each charger one before any two), so no zombie stands idle and the wounded left
    # behind stay shielded, which is what the text says a counter-charge is for.
    for z in zombies:
        if contacts(game, z):
            continue
        target = yield from game.decide("narrator", "shambling.assign", least_engaged(game, chargers), zombie=z,
                                        zone=FRONT)
        link(game, z, target)


@system("shambling.engage",
        reads=("Zone", "Faction", "Wounds", "Kind", "Markers", "Engaged", "Owner", "Tally"),
        writes=("Engaged", "Markers"),
        decides=("shambling.assign", "shambling.charge_target", "shambling.charger", "shambling.join",
                 "shambling.stance"))
def engage(game: Game, join_threshold: int = 7) -> Generator[Decision, object, None]:
    """Each zone holding zombies and survivors: the player's stance, then figures assigned to battle."""
    for seat, markers, _t in boards(game):
        markers.discard("counter_charge")
        table = game.world.raw()
        for ent in figures(game, seat):
            comps = table[ent]
            comps[Engaged].opponents.clear()
            comps[Markers].discard("charging")
        for zone in (FRONT, SUPPORT):
            zombies = figures(game, seat, ZOMBIES, zone)
            if not zombies or not figures(game, seat, SURVIVORS, zone):
                continue
            risen = any(table[z][Markers].has("stand_only") for z in zombies)
            options = [STAND] if zone == SUPPORT or risen else [STAND, CHARGE]
            stance = yield from game.decide(player_side(seat), "shambling.stance", options, zone=zone,
                                            zombies=len(zombies))
            game.log("stance", board=seat, zone=zone, stance=stance)
            if stance == CHARGE:
                markers.add("counter_charge")
                yield from counter_charge(game, seat, zombies, join_threshold)
            else:
                yield from stand_and_receive(game, seat, zone, zombies)
