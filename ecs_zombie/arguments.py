"""Command-line values checked before any work starts, each refused in one line (exit status 2).

A value that would only fail later wastes the work done before it: a seed a save cannot hold is
found when the game is saved, a missing plotting backend when a 100,000-game batch has played. So
every command checks what it was given first: seeds within what a save holds, players within the
scenario's seats (`new_game`), dice scripts of values a die can show (`dice.parse_script`), the
sides named in `--policy` among those the ruleset's decisions are asked of, file names without
control characters, and a plotting backend when `--plot` asks for one.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ecs_zombie.errors import GameError
from ecs_zombie.limits import SEED_MAX, SEED_MIN

if TYPE_CHECKING:
    from ecs_zombie.ruleset import Ruleset

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def check_seed(seed: int, option: str = "--seed") -> int:
    """A seed is what a save holds: a whole number from 0 to 2**64 - 1."""
    if not SEED_MIN <= seed <= SEED_MAX:
        raise GameError(f"{option} takes a whole number from {SEED_MIN} to {SEED_MAX} (what a save holds), got {seed}")
    return seed


def check_text(value: str, what: str) -> str:
    """A name or path given on the command line holds no control character (a NUL names no file)."""
    found = _CONTROL.search(value)
    if found:
        raise GameError(f"{what} holds the control character {found.group()!r}: {value!r}")
    return value


def sides_of(ruleset: Ruleset) -> list[str] | None:
    """The sides the ruleset's decisions are asked of, as documented (`player:N` stands for any seat);
    None when a decision the ruleset asks has no documented side (nothing to check against)."""
    from ecs_zombie.decisions import KINDS

    sides: set[str] = set()
    for step in ruleset.scheduled():
        for kind in step.spec.decides:
            info = KINDS.get(kind)
            if info is None or not info.side:
                return None
            sides.update(s.strip() for s in info.side.split("|") if s.strip())
    return sorted(sides)


def check_policy_sides(spec: str, ruleset: Ruleset, players: int) -> None:
    """Every side named in `--policy` (`narrator=random`, `player:2=first`) is one the ruleset's
    decisions are asked of, a seat among the game's players: a misspelt side would otherwise be
    ignored, and the policy meant for it never used."""
    from ecs_zombie.decisions import split_side

    named = [side for side in (split_side(p.strip())[0] for p in spec.split(",") if p.strip()) if side]
    if not named:
        return
    sides = sides_of(ruleset)
    if sides is None:
        return
    seats = "player:N" in sides
    for side in named:
        if side in sides:
            continue
        seat = re.fullmatch(r"player:(\d+)", side)
        if seat and seats and int(seat.group(1)) < players:
            continue
        if seat and seats:
            seat_range = "player:0" if players == 1 else f"player:0..player:{players - 1}"
            raise GameError(f"--policy names {side}, but this game has {players} player{'s' * (players > 1)} "
                            f"({seat_range})")
        from ecs_zombie.data import suggest

        seat_range = "player:0" if players == 1 else f"player:0..player:{players - 1}"
        known = ", ".join(s.replace("player:N", seat_range) for s in sides)
        hint = suggest(side, [s for s in sides if s != "player:N"] + [f"player:{i}" for i in range(players)] * seats)
        raise GameError(f"--policy names the side {side!r}, which no decision of ruleset {ruleset.id!r} is asked "
                        f"of{hint} (sides: {known}; see ecs-zombie decisions {ruleset.id})")
