"""Systems that break their declarations on purpose, one way each, for the strict-mode tests."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ecs_zombie.components import Faction, Kind, Markers, Owner, Tally, Wounds
from ecs_zombie.decisions import Decision
from ecs_zombie.game import Game
from ecs_zombie.registry import metrics
from ecs_zombie.schedule import system


def _first(game: Game) -> int:
    return game.world.query1(Faction)[0][0]


@system("strict_test.honest", reads=("Faction", "Wounds", "Markers"), writes=("Wounds",), creates=("Kind",),
        decides=("strict_test.pick",), calls=("nested", "quiet"))
def honest(game: Game, mode: str = "") -> Generator[Decision, object, None]:
    """Does only what it declares; with `mode` it breaks one declaration (the test says which)."""
    ent = _first(game)
    game.world.get(ent, Wounds).taken += 0
    if mode == "read":
        game.world.get(ent, Owner)
    elif mode == "raw_read":
        _ = game.world.raw()[ent][Tally]
    elif mode == "write":
        game.world.get(ent, Markers).add("marked")
    elif mode == "create":
        game.world.create(Tally())
    elif mode == "remove":
        game.world.remove(ent, Markers)
    elif mode == "param":
        _ = game.params["knob"]
    elif mode == "param_get":
        _ = game.params.get("knob")
    elif mode == "replace":
        game.world.add(ent, Markers())
    elif mode == "add":
        game.world.add(ent, Tally())
    elif mode == "delete":
        game.world.delete(ent)
    elif mode == "count":
        _ = game.world.count(Owner)
    elif mode == "query1":
        game.world.query1(Owner)
    elif mode == "query":
        game.world.query(Faction, Owner)
    elif mode == "try_get":
        game.world.try_get(ent, Owner)
    elif mode == "has":
        game.world.has(ent, Owner)
    elif mode == "index":
        _ = game.world.index("strict_test.by_owner", (Owner,), lambda owner: (owner.player,))
    elif mode == "decide":
        yield from game.decide("player:0", "strict_test.other", ["a", "b"])
    elif mode == "step":
        yield from game.run_step("undeclared", {})
    elif mode == "in_step":
        yield from game.run_step("nested", {})
    elif mode == "own":  # an entity it made is its own: anything may be added to it
        made = game.world.create(Kind("token"))
        game.world.add(made, Tally())
    elif mode == "after_decision":
        yield from game.decide("player:0", "strict_test.pick", ["a", "b"])
        game.world.get(ent, Markers).add("late")
    elif mode == "before_step":  # its own change, then an honest step: the change is still its own
        game.world.get(ent, Markers).add("early")
        yield from game.run_step("quiet", {})


@system("strict_test.quiet", reads=("Faction",))
def quiet(game: Game) -> None:
    """A step that only reads what it declares."""
    _first(game)


@system("strict_test.nested", reads=("Faction", "Markers"))
def nested(game: Game) -> None:
    """A step that writes Markers without declaring it: the step is named, not its caller."""
    game.world.get(_first(game), Markers).add("from_the_step")


@system("strict_test.end", reads=("Faction",), uses=("knob",))
def end(game: Game) -> None:
    """Ends the game after one tick (and declares the ruleset parameter `knob`, which it uses)."""
    game.end("survivors")


@metrics("strict_test.metrics")
def strict_metrics(game: Game) -> dict[str, Any]:
    return {}
