"""Small systems for the tests of `ecs_zombie.testing` (tests/engine/test_engine_testing.py): one
with a bound parameter, one that asks, one that keeps state outside components (the bug the
save-and-reload check exists for), one that writes what it does not declare, and the end."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ecs_zombie.components import Tally
from ecs_zombie.decisions import Decision
from ecs_zombie.game import Game
from ecs_zombie.registry import metrics
from ecs_zombie.schedule import system

CALLS = {"forgetful": 0}  # BUG (planted): counts calls across games, never saved


@system("testing.bound", reads=("Tally",))
def bound(game: Game, amount: int = 1) -> None:
    game.log("bound", amount=amount)


@system("testing.ask", reads=("Tally",), decides=("testing.pick",))
def ask(game: Game) -> Generator[Decision, object, None]:
    for _ in range(2):
        choice = yield from game.decide("player:0", "testing.pick", [1, 2, 3])
        game.log("picked", value=choice)


@system("testing.forgetful", reads=("Tally",))
def forgetful(game: Game) -> None:
    """Rolls one die more each time it runs, whatever the game: a module global, not a component."""
    CALLS["forgetful"] += 1
    game.roll(f"{1 + CALLS['forgetful'] % 4}d6", "forgetful")


@system("testing.sneaky", reads=("Tally",))
def sneaky(game: Game) -> None:
    """Writes Tally without declaring it (strict mode refuses)."""
    _ent, tally = game.world.query1(Tally)[0]
    tally.bump("sneaked")


@system("testing.end", reads=("Tally",), writes=("Tally",))
def end(game: Game) -> None:
    _ent, tally = game.world.query1(Tally)[0]
    tally.bump("turns")
    game.roll("1d6", "every turn")
    if game.tick >= 3:
        game.end("survivors")


@metrics("testing.metrics")
def testing_metrics(game: Game) -> dict[str, Any]:
    return {}
