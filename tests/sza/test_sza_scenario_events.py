"""The scenarios' numbered events (DESIGN CHOICE: the book says Scenario 1 "is written in a series of
numbered events" the party chooses among unanimously, and prints none; prefabs/sza/scenarios.yaml
builds them): each event's zombies, choices, exits and aim, walked through the `sza.events` system."""

from __future__ import annotations

from typing import Any

import pytest
from sza_helpers import (
    BUNGALOW,
    STREET,
    ctx,
    drive,
    kinds,
    laid_out,
    logged,
    put,
    run_system,
    stage,
    vehicle,
    who,
    zombie,
)

from ecs_zombie.systems.sza import stage as stage_mod
from ecs_zombie.systems.sza.stage import condition
from ecs_zombie.systems.sza.state import engage_square

# (scenario, event, zombies it brings in and from where, the choices it offers -> next events)
ENTERING = [
    (BUNGALOW, "1", 3, "level1", ["2", "3", "4"]),
    (BUNGALOW, "3", 2, "level1", []),
    (BUNGALOW, "4a", 2, "level1", []),
    (BUNGALOW, "5", 3, "level2", ["6", "7", "8"]),
    (BUNGALOW, "7", 2, "level2", []),
    (BUNGALOW, "8", 2, "level2", []),
    (BUNGALOW, "9", 3, "level2", []),
    (STREET, "1", 5, "road", ["2", "3"]),
    (STREET, "4", 0, "", ["5", "6"]),
]
SPAWNS = {"level1": [[1, 2], [10, 1], [19, 3], [19, 10], [12, 10], [1, 7]],
          "level2": [[28, 1], [23, 9], [30, 10], [33, 6]],
          "road": [[10, 3], [13, 1], [4, 5], [9, 5], [15, 4], [2, 1]]}


@pytest.mark.parametrize(("target", "event", "count", "at", "choices"), ENTERING)
def test_entering_an_event(make_game: Any, target: str, event: str, count: int, at: str, choices: list[str]) -> None:
    """Entering an event brings in its zombies at its spawn squares (the squares inside the windows,
    the stairs, the road) and lets the party choose among its choices."""
    asked_choices: list[list[str]] = []
    for pick, nxt in enumerate(choices or [None]):
        game = laid_out(make_game, target)
        st = stage(game)
        st.event, st.entered = event, False
        supply = st.supply
        asked = drive(game, stage_mod.events(game), {
            "sza.event_choice": lambda d, i=pick: d.options[i],
            "sza.spawn_point": lambda d: d.options[0],
            "sza.rest": "done"})
        seq = kinds(game, "event", "spawned")
        spawned = seq[1:].index("event") if "event" in seq[1:] else len(seq) - 1
        assert spawned == count and (nxt is not None or supply - st.supply == count)
        if count:
            first = next(d.options for d in asked if d.kind == "sza.spawn_point")
            assert first == [ctx(game)[0].cell(x, y) for x, y in SPAWNS[at]]
        asked_choices += [d.options for d in asked if d.kind == "sza.event_choice"]
        if nxt is not None:
            assert logged(game, "event")[1]["event"] == nxt
    assert len(asked_choices) == len(choices) and all(len(c) == len(choices) for c in asked_choices)


# (scenario, event, what holds, next event or None to stay)
EXITS = [
    (BUNGALOW, "2", {}, None),
    (BUNGALOW, "2", {"room": "corridor"}, "5"),
    (BUNGALOW, "3", {"turns": 7}, None),
    (BUNGALOW, "3", {"turns": 8}, "2"),
    (BUNGALOW, "3", {"flag": "looted_counter"}, "2"),
    (BUNGALOW, "4", {"turns": 7}, None),
    (BUNGALOW, "4", {"turns": 8}, "2"),
    (BUNGALOW, "4", {"flag": "lights"}, "4a"),
    (BUNGALOW, "6", {"turns": 7}, None),
    (BUNGALOW, "6", {"turns": 8}, "7"),
    (BUNGALOW, "6", {"flag": "looted_ceiling"}, "7"),
    (BUNGALOW, "7", {"turns": 30}, None),
    (BUNGALOW, "7", {"flag": "opened_locked_door"}, "9"),
    (BUNGALOW, "8", {"turns": 5}, None),
    (BUNGALOW, "8", {"turns": 6}, "7"),
    (BUNGALOW, "8", {"flag": "looted_op_cabinet"}, "7"),
    (BUNGALOW, "9", {"turns": 30}, None),
    (BUNGALOW, "9", {"flag": "looted_safe"}, "10"),
    (BUNGALOW, "10", {"engaged": True}, None),
    (BUNGALOW, "10", {}, "11"),
    (STREET, "2", {"zombie": True}, None),
    (STREET, "2", {}, "4"),
    (STREET, "3", {"zombie": True, "turns": 2}, None),
    (STREET, "3", {"zombie": True, "turns": 3}, "2"),
    (STREET, "3", {}, "4"),
    (STREET, "5", {"turns": 9}, None),
    (STREET, "5", {"turns": 10}, "6"),
    (STREET, "5", {"home": True}, "7"),
    (STREET, "6", {"turns": 30}, None),
    (STREET, "6", {"home": True}, "7"),
]


ENDS = {BUNGALOW: ("11",), STREET: ("7",)}  # the scenarios' ends (won)


@pytest.mark.parametrize(("target", "event", "holds", "nxt"), EXITS)
def test_event_exits(make_game: Any, target: str, event: str, holds: dict[str, Any], nxt: str | None) -> None:
    """Each turn the first exit whose conditions hold leads on; `turns` counts the turns spent in the
    event (DESIGN CHOICE: how long the party may dither before the story moves on)."""
    game = laid_out(make_game, target)
    st = stage(game)
    st.event, st.entered, st.event_turns = event, True, holds.get("turns", 0)
    if "flag" in holds:
        st.flags.append(holds["flag"])
    if "room" in holds:
        put(game, who(game, "Dexter"), 25, 5)
    if holds.get("engaged"):
        zombie(game, 3, 3)
        put(game, who(game, "Mary Jacobs"), 3, 3)
        engage_square(game, who(game, "Mary Jacobs"))
    if holds.get("zombie"):
        zombie(game, 10, 3)
    if holds.get("home"):
        for i, n in enumerate(("Bruce Long", "Mary Jacobs", "Dexter", "Costa Wang", "SGT Connor", "CPL Teoh")):
            put(game, who(game, n), 0, 2 + i % 3)
    drive(game, stage_mod.events(game), {"sza.event_choice": lambda d: d.options[0]})
    if nxt in ENDS.get(target, ()):  # an exit into an end is followed when the outcome is declared
        assert st.event == event and not logged(game, "event")
        run_system(game, "sza.objective")
    entered = [e["event"] for e in logged(game, "event")]
    if nxt is None:
        assert st.event == event and not entered and st.event_turns == holds.get("turns", 0) + 1
    else:
        assert entered[0] == nxt


def test_conditions(make_game: Any) -> None:
    """The exits' conditions: clear (no zombie), free (no character engaged), aboard (every character in
    the vehicle), home (every character in the safe house), room, flag and turns all at once."""
    game = laid_out(make_game, STREET)
    _board, st = ctx(game)
    everyone = [who(game, n) for n in ("Bruce Long", "Mary Jacobs", "Dexter", "Costa Wang", "SGT Connor", "CPL Teoh")]
    assert condition(game, st, {}) and condition(game, st, {"clear": True}) and condition(game, st, {"free": True})
    assert not condition(game, st, {"aboard": True}) and not condition(game, st, {"home": True})
    _v, car = vehicle(game)
    car.passengers.extend(everyone[:5])
    assert not condition(game, st, {"aboard": True})
    car.passengers.append(everyone[5])
    assert condition(game, st, {"aboard": True})
    z = zombie(game, 20, 3)
    assert not condition(game, st, {"clear": True}) and condition(game, st, {"free": True})
    put(game, everyone[0], 20, 3)
    engage_square(game, everyone[0])
    assert not condition(game, st, {"free": True})
    game.world.delete(z)
    assert condition(game, st, {"free": True, "clear": True})
    assert condition(game, st, {"room": "street"}) and not condition(game, st, {"room": "corridor"})
    st.flags.append("x")
    st.event_turns = 2
    assert condition(game, st, {"flag": "x", "turns": 2}) and not condition(game, st, {"flag": "x", "turns": 3})
    assert not condition(game, st, {"flag": "y"})


@pytest.mark.parametrize(("target", "event", "aim"), [
    (BUNGALOW, "1", ""), (BUNGALOW, "2", "stairs"), (BUNGALOW, "3", "counter"), (BUNGALOW, "4", "fuse"),
    (BUNGALOW, "6", "ceiling"), (BUNGALOW, "7", "locked_door"), (BUNGALOW, "8", "op_cabinet"), (BUNGALOW, "9", "safe"),
    (BUNGALOW, "10", "hunt"), (STREET, "2", "hunt"), (STREET, "3", "bush"), (STREET, "5", "vehicle"),
    (STREET, "6", "safehouse")])
def test_each_event_aims_the_party(make_game: Any, target: str, event: str, aim: str) -> None:
    """An event's `aim` is where the party heads (what the default policy walks towards)."""
    game = laid_out(make_game, target)
    st = stage(game)
    st.event, st.entered, st.order = event, True, ["humans"]
    asked = run_system(game, "sza.turn")
    aims = {d.context["aim"] for d in asked if d.kind == "sza.action"}
    assert aims == {aim}
