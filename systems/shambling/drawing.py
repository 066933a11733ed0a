"""Shambling's board as text: each player's board, its two zones, and who stands in each.

What `replay --show`, `view`, `play` and the web page draw for a ruleset that says `board:
shambling`. One block per board, by seat:

    H hero, S survivor, Z zombie; * wounded, + in contact
    board 0 (player 0): counter-charge
      zone        | survivors              | zombies
      Front Line  | H S S S S+ S+          | Z+ Z+ Z*
      Support     | S* S*                  | -
      survivors killed 1 · zombies destroyed 4

A figure is the first letter of its kind (H hero, S survivor, Z zombie), `*` when wounded, `+`
when in contact with an enemy; figures in id order, wrapped onto further lines of the same zone
when many. A fallen board says so and still shows what is on it. The last line
counts the survivors not yet deployed (before turn 1's deployment), then the board's own tallies
(`Tally`) in name order; what is zero is left out, and the line too when nothing is left.
"""

from __future__ import annotations

from ecs_zombie.components import Engaged, Faction, Kind, Markers, Owner, Tally, Wounds, Zone
from ecs_zombie.game import Game
from ecs_zombie.registry import board
from ecs_zombie.systems.shambling.board import FRONT, SUPPORT, SURVIVORS, ZOMBIES

ZONE_NAMES = {FRONT: "Front Line", SUPPORT: "Support"}
COLUMN = 22  # characters of figures per line in a zone's column
STATES = ("counter_charge", "fallen")  # board markers worth showing
LEGEND = "H hero, S survivor, Z zombie; * wounded, + in contact"


def token(game: Game, ent: int) -> str:
    """One figure: its kind's initial, `*` if wounded, `+` if in contact with an enemy."""
    world = game.world
    hurt = world.try_get(ent, Wounds)
    engaged = world.try_get(ent, Engaged)
    return (world.get(ent, Kind).name[:1].upper() + ("*" if hurt is not None and hurt.taken else "")
            + ("+" if engaged is not None and engaged.opponents else ""))


def wrap(tokens: list[str], width: int = COLUMN) -> list[str]:
    """Tokens joined by spaces in lines of at most `width` characters (a lone `-` for none)."""
    lines: list[str] = []
    for tok in tokens:
        if lines and len(lines[-1]) + 1 + len(tok) <= width:
            lines[-1] += " " + tok
        else:
            lines.append(tok)
    return lines or ["-"]


@board("shambling")
def draw(game: Game) -> list[str]:
    """Every board's zones and figures as lines of text (see the module docstring)."""
    world = game.world
    seats = sorted((owner.player, markers, tally) for _e, (kind, owner, markers, tally)
                   in world.query(Kind, Owner, Markers, Tally) if kind.name == "board")
    placed: dict[tuple[int, str, str], list[int]] = {}
    waiting: dict[int, int] = {}
    for ent, (where, faction) in sorted(world.query(Zone, Faction)):
        if where.name:
            placed.setdefault((where.board, where.name, faction.side), []).append(ent)
        elif faction.side == SURVIVORS:
            waiting[where.board] = waiting.get(where.board, 0) + 1
    lines: list[str] = []
    for seat, markers, tally in seats:
        shown = [m.replace("_", "-") for m in STATES if markers.has(m)]
        lines.append(f"board {seat} (player {seat})" + (": " + ", ".join(shown) if shown else ""))
        lines.append(f"  {'zone':<11} | {'survivors':<{COLUMN}} | zombies")
        for zone in (FRONT, SUPPORT):
            ours = wrap([token(game, e) for e in placed.get((seat, zone, SURVIVORS), [])])
            theirs = wrap([token(game, e) for e in placed.get((seat, zone, ZOMBIES), [])])
            for n in range(max(len(ours), len(theirs))):
                label = ZONE_NAMES[zone] if n == 0 else ""
                left = ours[n] if n < len(ours) else ""
                right = theirs[n] if n < len(theirs) else ""
                lines.append(f"  {label:<11} | {left:<{COLUMN}} | {right}".rstrip())
        counts = [f"{name.replace('_', ' ')} {value}" for name, value in sorted(tally.counts.items()) if value]
        if waiting.get(seat):
            counts.insert(0, f"not yet deployed {waiting[seat]}")
        if counts:
            lines.append("  " + " · ".join(counts))
    return [LEGEND, *lines] if lines else []
