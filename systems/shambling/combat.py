"""Combat rounds (Night of the Shambling Dead, "Combat Phases").

Each turn's battle has `combat_rounds` (3) rounds. In each, the zombies strike first in a zone unless
the player counter-charged there: only the Front Line can be counter-charged, so in Support the
zombies always strike first, and a zone the zombies overrun into (all the survivors of the other
zone killed) Stands and Receives, zombies first, for the remaining rounds. A side's strike in a
zone sums the strength of its figures in contact with an enemy (survivor 2/1, hero 3/2, zombie 1/1
unwounded/wounded; +1 per unwounded survivor in Support to the Front Line's survivors; survivors
attacked in Support 1 each), rolls 1d6 on the CRT, and the defender places that many wounds among
figures that began the round in contact with the attackers (a roll of 6 puts the first on a Hero
present). After both strikes, victorious figures may engage another enemy, zombies whose zone has
no survivors left move into the other zone, and a board with zombies and no survivors has fallen
(sudden death).
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
    boards,
    figures,
    remove_figure,
    set_zone,
    side_of,
)
from ecs_zombie.systems.shambling.engage import link, stand_and_receive

OTHER_ZONE = {FRONT: SUPPORT, SUPPORT: FRONT}
ENEMY = {SURVIVORS: ZOMBIES, ZOMBIES: SURVIVORS}


def strength(game: Game, zone: str, side: str, attackers: list[int], supporters: list[int]) -> int:
    """A strike's combat strength: each attacker's by kind and wounds, +`support_bonus` for each
    unwounded supporter; survivors striking in Support count `support_defence` each."""
    table = game.tables["shambling.strength"]
    if side == SURVIVORS and zone == SUPPORT:
        return table.support_defence * len(attackers)
    ents = game.world.raw()
    by_kind = table.by_kind  # kind -> (unwounded, wounded)
    total = 0
    for e in attackers:
        comps = ents[e]
        total += by_kind[comps[Kind].name][comps[Wounds].taken > 0]
    return total + table.support_bonus * sum(1 for e in supporters if not ents[e][Wounds].taken)


STRIKE_PARAMS = ("board", "zone", "side", "attackers", "eligible", "supporters", "attacker_player", "defender_player")


@system("shambling.crt_strike", reads=("Kind", "Wounds"), writes=("Wounds",), calls={"kill": ("figure",)},
        decides=("shambling.wound",))
def crt_strike(game: Game, board: int, zone: str, side: str, attackers: list[int], eligible: list[int],
               supporters: list[int], attacker_player: str, defender_player: str
               ) -> Generator[Decision, object, None]:
    """One side's strike in one zone of a Shambling board, on the Combat Results Table: the `strike` step.

    `shambling.combat` runs the step `strike` once for each side in each zone where that side has
    figures in contact, in the order of strikes, passing plain data:

    - `board`: the seat whose board it is; `zone`: "front" or "support";
    - `side`: the striking side, "survivors" or "zombies";
    - `attackers`: the striking figures (that side's figures in the zone in contact with an enemy),
      by entity id, never empty;
    - `eligible`: the enemy figures the strike may hurt, by id: those that began the round in
      contact with one of the attackers and are still in play ("wounds can only be spread amongst
      figures who begin that round of combat in contact");
    - `supporters`: figures whose support adds to the strike: the survivors in Support when the
      survivors strike on the Front Line, else empty;
    - `attacker_player`, `defender_player`: the decision sides ("player:N" or "narrator") of the
      striking and of the struck side, for any choice the strike asks.

    What a strike system must do: hurt only figures in `eligible`, by raising their core `Wounds`
    (`taken`; a figure at its `limit` is dead). Whatever it leaves in play at its limit,
    `shambling.combat` removes as killed (counted on the board) right after the step. It must not
    move figures, change contacts, or end the game: the combat system does that. Its events are
    logged under `shambling.combat/strike`. A hybrid maps `strike` to another game's attack (e.g.
    each attacker attacks one eligible figure, chosen by `attacker_player`, and damages its
    Wounds), with its own tunables under `steps.strike.params`.

    This one needs of the figures only their `Kind` (survivor, hero or zombie: the keys of the
    `shambling.strength` table) and `Wounds`, and the tables `shambling.strength` and `shambling.crt`:
    strength from the table (see `strength`), 1d6 on the CRT for the number of wounds, which
    `defender_player` places one at a time among the eligible (a figure at its limit takes no
    more; wounds beyond what they can take are lost); on a 6 the first goes to a Hero among them.
    The CRT asks the attacker nothing. As soon as a figure reaches its limit it runs the step
    `kill` with `figure`: what the host game does with its dead (Shambling's `shambling.kill` takes
    it out of play, counted on its board, so that the log reads each wound then the removal)."""
    total = strength(game, zone, side, attackers, supporters)
    roll = game.roll("1d6", f"{side} strike in {zone} (board {board})")
    wounds = game.tables["shambling.crt"].wounds(roll, total)
    game.log("strike", board=board, zone=zone, side=side, strength=total, roll=roll, wounds=wounds)
    world = game.world
    alive = [e for e in eligible if world.exists(e)]
    for n in range(wounds):
        if not alive:
            return
        options = alive
        if roll == 6 and n == 0:
            options = [e for e in alive if world.get(e, Kind).name == "hero"] or alive
        target = yield from game.decide(defender_player, "shambling.wound", options, left=wounds - n)
        hurt = world.get(target, Wounds)
        hurt.taken += 1
        game.log("wound", figure=target, taken=hurt.taken)
        if hurt.taken >= hurt.limit:
            alive.remove(target)
            yield from game.run_step("kill", {"figure": target})


@system("shambling.kill",
        reads=("Zone", "Faction", "Wounds", "Kind", "Engaged", "Markers", "Owner", "Tally"),
        writes=("Engaged", "Tally"))
def kill(game: Game, figure: int) -> None:
    """A figure killed in a strike leaves play, counted on its board: the `kill` step, which
    Shambling's `strike` runs on each figure it kills."""
    remove_figure(game, figure, "killed")


def strike(game: Game, board: int, zone: str, side: str, began: dict[int, list[int]]
           ) -> Generator[Decision, object, None]:
    """`side` strikes in `zone` through the ruleset's `strike` step (see `crt_strike`), if any of
    its figures there is in contact; the figures the step leaves at their wound limit are removed."""
    ents = game.world.raw()
    attackers = [e for e in figures(game, board, side, zone) if ents[e][Engaged].opponents]
    if not attackers:
        return
    eligible = sorted({d for a in attackers for d in began.get(a, ()) if d in ents})
    supporters = list(figures(game, board, SURVIVORS, SUPPORT)) if side == SURVIVORS and zone == FRONT else []
    yield from game.run_step("strike", {
        "board": board, "zone": zone, "side": side, "attackers": attackers, "eligible": eligible,
        "supporters": supporters, "attacker_player": side_of(side, board),
        "defender_player": side_of(ENEMY[side], board)})
    world = game.world
    for ent in eligible:
        if world.exists(ent):
            hurt = world.get(ent, Wounds)
            if hurt.taken >= hurt.limit:
                remove_figure(game, ent, "killed")


def order_of(zone: str, standing: set[str]) -> tuple[str, str]:
    """Who strikes first in `zone`: the zombies where the survivors Stand and Receive, else the
    counter-chargers."""
    return (ZOMBIES, SURVIVORS) if zone in standing else (SURVIVORS, ZOMBIES)


def re_engage(game: Game, board: int, began: dict[int, list[int]], standing: set[str]
              ) -> Generator[Decision, object, None]:
    """A figure whose every opponent fell this round may engage another enemy in its zone; in each
    zone the side that struck first chooses first.

    DESIGN CHOICE: the text leaves the new target to the players; the owning side picks any enemy
    in the figure's zone, or stays. Not asked after the last round: a contact made then would
    strike nobody (contacts are made afresh at the next battle)."""
    ents = game.world.raw()
    victors: tuple[list[int], list[int]] = ([], [])  # those who struck first in their zone, then second
    for ent in began:  # in id order: only figures that were in contact can be victorious
        comps = ents.get(ent)
        if comps is not None and not comps[Engaged].opponents:
            side = comps[Faction].side
            victors[order_of(comps[Zone].name, standing).index(side)].append(ent)
    for group in victors:
        for ent in group:
            comps = ents[ent]
            side = comps[Faction].side
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


def advance(game: Game, board: int, standing: set[str]) -> Generator[Decision, object, None]:
    """Zombies in a zone with no survivors left move into the other zone, which must Stand and
    Receive for the rest of the turn (it joins `standing`).

    DESIGN CHOICE: "the next zone" is the board's other zone, Front Line and Support both ways; a
    Front Line that counter-charged and is then overrun from Support Stands and Receives (zombies
    strike first there) for the remaining rounds, as the text says of any zone overrun into."""
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
        standing.add(other)
        yield from stand_and_receive(game, board, other, zombies)


def fallen(game: Game, board: int) -> bool:
    return bool(figures(game, board, ZOMBIES)) and not figures(game, board, SURVIVORS)


@system("shambling.combat",
        reads=("Zone", "Faction", "Wounds", "Kind", "Markers", "Engaged", "Owner", "Tally"),
        writes=("Engaged", "Zone", "Markers", "Tally"),
        calls={"strike": STRIKE_PARAMS},
        decides=("shambling.assign", "shambling.re_engage"))
def combat(game: Game, rounds: int = 3) -> Generator[Decision, object, None]:
    """Three rounds of combat on every board where figures are in contact.

    The order of strikes is per zone: in each round every zone's first striker strikes (Front Line,
    then Support), then every zone's second. DESIGN CHOICE: the text's "when one player on a board
    has resolved all his combat rolls the other player ... makes his" assumes one order per board;
    with the chargers first on the Front Line and the zombies first in Support, the first strikes of
    both zones come before the second strikes of both."""
    for seat, markers, _t in boards(game):
        # Zones where the survivors Stand and Receive: Support always, the Front Line unless it
        # counter-charged, and any zone the zombies overrun into (see advance).
        standing = {SUPPORT} if markers.has("counter_charge") else {FRONT, SUPPORT}
        yield from advance(game, seat, standing)
        ents = game.world.raw()
        for rnd in range(1, rounds + 1):
            began = {}
            for e in figures(game, seat):
                ops = ents[e][Engaged].opponents
                if ops:
                    began[e] = list(ops)
            if not began:
                break
            game.log("combat_round", board=seat, round=rnd)
            for nth in (0, 1):
                for zone in (FRONT, SUPPORT):
                    yield from strike(game, seat, zone, order_of(zone, standing)[nth], began)
            if rnd < rounds:  # after the last round a new contact would strike nobody
                yield from re_engage(game, seat, began, standing)
            yield from advance(game, seat, standing)
            if fallen(game, seat):
                break
        if fallen(game, seat):
            markers.add("fallen")
            game.log("board_fallen", board=seat)
    if not boards(game):
        game.end(ZOMBIES)
