"""The campaign: scenarios played in sequence inside one game (SZA "Scenario", "Reward").

The `Stage` component (on the campaign entity) lists the scenarios to play and which one is on.
At the start of a turn whose scenario is not laid out, `sza.stage` builds it from the tables: the
board's state, the safe-house NPCs, the vehicle, and the characters placed on the start squares
("Player characters chose a desired grid location inside the Planning Room" / "on the street
map"). When a scenario is won, `sza.objective` hands out its reward, clears its board (zombies,
NPCs, vehicle) and moves to the next scenario, carrying the surviving characters with their
Stamina, infection, items and spent abilities; the next turn builds the next board. A save taken
in between resumes the campaign: everything is in components.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ecs_zombie.components import Engaged, Faction, Kind, Markers, Owner, Position, Wounds
from ecs_zombie.decisions import Decision
from ecs_zombie.game import Game
from ecs_zombie.registry import metrics
from ecs_zombie.schedule import system
from ecs_zombie.systems.sza.actions import vehicle_of
from ecs_zombie.systems.sza.components import Arms, Character, Infection, Inventory, Stage, Vehicle
from ecs_zombie.systems.sza.state import (
    SURVIVORS,
    ZOMBIES,
    board_of,
    cell_of,
    characters,
    engage_square,
    opponents,
    rules,
    scenario_def,
    stage_of,
    tally,
    unlink_all,
    zombie_ids,
)
from ecs_zombie.systems.sza.tables import cross_check

PER_TURN = ("speech", "inspired", "traded", "boosted", "aboard")


def roster(game: Game) -> list[int]:
    """Every character still human, on or off the board. Kept by the world (`World.memo`): which
    entities have a Faction, a Character and an Infection changes only when one of those comes or
    goes, and a Faction is frozen (a character rising gets a new one)."""
    return list(game.world.memo(("sza.roster",), (Faction, Character, Infection), lambda: tuple(
        ent for ent, (faction, _c, _i) in game.world.query(Faction, Character, Infection)
        if faction.side == SURVIVORS)))


@system("sza.stage",
        reads=("SzaStage", "Faction", "SzaCharacter", "SzaInfection", "Markers", "Position"),
        writes=("SzaStage", "Markers", "Position", "Owner"),
        creates=("Kind", "Faction", "Position", "SzaVehicle", "Wounds", "SzaArms", "SzaAttributes", "SzaCharacter"),
        decides=("sza.start_square",))
def build(game: Game) -> Generator[Decision, object, None]:
    """Lay out the current scenario's board when it is not yet built; count the scenario's turns."""
    _ent, stage = stage_of(game)
    if stage.built:
        stage.turn += 1
        return
    scen = scenario_def(game, stage)
    cross_check(game.tables["sza.scenarios"], game.tables["sza.maps"], game.ruleset.prefabs)
    board = board_of(game, stage)
    world = game.world
    stage.built, stage.turn = True, 1
    stage.event, stage.event_turns, stage.entered = scen.first, 0, False
    stage.opened, stage.looted, stage.flags, stage.order = [], [], [], []
    stage.supply = scen.zombies
    game.log("scenario", scenario=scen.id, title=scen.title, stage=stage.index + 1)
    homes = board.features.get("safehouse", [])
    for i, npc in enumerate(scen.npcs):
        x, y = board.xy(homes[i % len(homes)]) if homes else (0, 0)
        world.create(*game.ruleset.prefabs[npc].build({"Position": {"x": x, "y": y}}))
    if board.vehicle:
        vcell = board.features["vehicle"][0]
        x, y = board.xy(vcell)
        cap = int(rules(game).numbers["vehicle_capacity"].get(board.vehicle, 5))
        world.create(*game.ruleset.prefabs["vehicle"].build(
            {"Position": {"x": x, "y": y}, "SzaVehicle": {"kind": board.vehicle, "capacity": cap}}))
    taken: set[int] = set()
    for n, ent in enumerate(roster(game)):
        world.get(ent, Owner).player = n % game.players
        free = [c for c in board.start if c not in taken] or list(board.start)
        where = yield from game.decide(f"player:{n % game.players}", "sza.start_square", free, piece=ent)
        taken.add(where)
        pos = world.get(ent, Position)
        pos.x, pos.y = board.xy(where)
        world.get(ent, Markers).discard("offboard")


@system("sza.spawn",
        reads=("SzaStage", "Position", "Faction", "Markers"),
        writes=("SzaStage", "Engaged"),
        creates=("Kind", "Faction", "Position", "Wounds", "SzaAttributes", "SzaArms", "Engaged", "Markers"),
        decides=("sza.spawn_point",))
def spawn(game: Game, count: int, at: str, prefab: str = "zombie",
          components: dict[str, dict[str, Any]] | None = None) -> Generator[Decision, object, None]:
    """Event step: the game master brings `count` zombies (while counters last) in at `at`'s squares.

    `prefab` and `components` (overrides, like a scenario's `set:`) let an event bring other zombies:
    the NPC zombie's statistics are a DESIGN CHOICE, overridable per event."""
    _ent, stage = stage_of(game)
    board = board_of(game, stage)
    points = board.spawns[at]
    template = game.ruleset.prefabs[prefab]
    for _ in range(min(count, stage.supply)):
        cell = yield from game.decide("gm", "sza.spawn_point", list(points), spawn=at)
        x, y = board.xy(cell)
        overrides = {k: dict(v) for k, v in (components or {}).items()}
        overrides["Position"] = {"x": x, "y": y}
        z = game.world.create(*template.build(overrides))
        stage.supply -= 1
        engage_square(game, z)
        game.log("spawned", zombie=z, at=[x, y])


@system("sza.rest",
        reads=("Wounds", "SzaInventory", "SzaInfection", "SzaCharacter", "Faction", "Markers", "Owner"),
        writes=("Wounds", "SzaInventory"),
        decides=("sza.rest",))
def rest(game: Game) -> Generator[Decision, object, None]:
    """Event step: before the scenario, each character may use the items it carries to heal
    ("The characters may use these items to heal themselves before the start of the next scenario")."""
    r = rules(game)
    world = game.world
    for ent in characters(game):
        while True:
            h, inv = world.get(ent, Wounds), world.get(ent, Inventory)
            opts = ["done"]
            if 0 < h.left < h.limit and not world.get(ent, Infection).infected:
                opts += [item for item in ("bandage", "water") if inv.items.get(item, 0) > 0]
            pick = yield from game.decide(f"player:{world.get(ent, Owner).player}", "sza.rest", opts, piece=ent)
            if pick == "done":
                break
            inv.take(pick)
            gained = max(0, min(int(r.numbers[pick]), h.limit - h.left))
            h.left += gained
            game.log("rested", piece=ent, item=pick, stamina=h.left)


def condition(game: Game, stage: Stage, when: dict[str, Any]) -> bool:
    """Whether an event exit's conditions all hold (see prefabs/sza/scenarios.yaml)."""
    world = game.world
    if "flag" in when and when["flag"] not in stage.flags:
        return False
    if "turns" in when and stage.event_turns < int(when["turns"]):
        return False
    board = board_of(game, stage)
    chars = characters(game)
    if "room" in when and not any(board.room_at.get(cell_of(board, world.get(c, Position))) == when["room"]
                                  for c in chars):
        return False
    if when.get("clear") and zombie_ids(game):
        return False
    if when.get("free") and any(opponents(game, c) for c in chars):
        return False
    if when.get("aboard"):
        veh = vehicle_of(game)
        if veh is None or any(c not in veh[1].passengers for c in chars):
            return False
    if when.get("home"):
        homes = set(board.features.get("safehouse", ()))
        if not chars or any(cell_of(board, world.get(c, Position)) not in homes for c in chars):
            return False
    return True


@system("sza.events",
        reads=("SzaStage", "Position", "Faction", "Markers", "SzaCharacter", "Engaged", "SzaVehicle", "Tally"),
        writes=("SzaStage", "Tally"),
        calls="*",
        decides=("sza.event_choice",))
def events(game: Game) -> Generator[Decision, object, None]:
    """The numbered events: run an event's steps when it is reached, let the party choose among
    its choices (side `party`: "All players must agree unanimously on one choice"), and follow the
    first exit whose conditions hold. An event graph is data (`sza.scenarios`).

    An exit into an end is left to `sza.objective`, which follows it at the end of the turn: the
    winning criteria are checked when the outcome is declared, not a turn of zombies earlier."""
    _ent, stage = stage_of(game)
    if not stage.built:
        return
    scen = scenario_def(game, stage)
    for _hop in range(len(scen.events) + 1):
        ev = scen.events[stage.event]
        if not stage.entered:
            stage.entered = True
            game.log("event", scenario=scen.id, event=ev.id, title=ev.title)
            for name, params in ev.steps:
                yield from game.run_step(name, params)
            if ev.choices:
                text = yield from game.decide("party", "sza.event_choice", [c[0] for c in ev.choices], event=ev.id)
                _go(game, stage, dict(ev.choices)[text])
                continue
        if ev.end:
            return
        nxt = next((n for when, n in ev.exits if condition(game, stage, when)), None)
        if nxt is None:
            stage.event_turns += 1
            return
        if scen.events[nxt].end:
            return  # declared by sza.objective at the end of the turn, the criteria checked then
        _go(game, stage, nxt)


def _go(game: Game, stage: Stage, event: str) -> None:
    stage.event, stage.event_turns, stage.entered = event, 0, False
    tally(game).bump("events")


def _to_end(game: Game, stage: Stage) -> list[str]:
    """The events from the current one to an end, each by the first exit that holds now, through
    events that have no steps and no choices (nothing to play on entering them); [] when the way
    does not reach an end this turn."""
    scen = scenario_def(game, stage)
    way: list[str] = []
    ev = scen.events[stage.event]
    while not ev.end:
        nxt = next((n for when, n in ev.exits if condition(game, stage, when)), None)
        if nxt is None or nxt in way:
            return []
        ev = scen.events[nxt]
        if (ev.steps or ev.choices) and not ev.end:
            return []
        way.append(nxt)
    return way


@system("sza.infection",
        reads=("SzaStage", "SzaInfection", "Faction", "SzaCharacter", "Markers", "Position", "Tally"),
        writes=("SzaInfection", "Faction", "Kind", "SzaCharacter", "SzaArms", "Wounds", "Engaged", "Markers",
                "SzaVehicle", "Tally"))
def infection(game: Game) -> None:
    """End of turn: the Infection Table's countdown. A character infected this turn starts counting
    at the end of the next; at 0 it rises as a zombie with its own attributes and melee weapon (no
    ranged weapon, no abilities), on the zombies' side, played by the same player."""
    _ent, stage = stage_of(game)
    if not stage.built:
        return
    world = game.world
    for ent in characters(game):
        inf = world.get(ent, Infection)
        if not inf.infected:
            continue
        if inf.fresh:
            inf.fresh = False
            continue
        inf.turns_left -= 1
        if inf.turns_left > 0:
            continue
        unlink_all(game, ent)
        for _v, vehicle in world.query1(Vehicle):
            if ent in vehicle.passengers:
                vehicle.passengers.remove(ent)
        world.add(ent, Faction(ZOMBIES))
        world.get(ent, Kind).name = "risen"
        ch = world.get(ent, Character)
        ch.abilities = []
        arms = world.get(ent, Arms)
        arms.ranged, arms.rounds, arms.magazines = "", 0, 0
        h = world.get(ent, Wounds)
        h.left = h.limit
        for tag in PER_TURN:
            world.get(ent, Markers).discard(tag)
        engage_square(game, ent)
        tally(game).bump("characters_turned")
        game.log("risen", character=ent, name=ch.name)


@system("sza.objective",
        reads=("SzaStage", "Faction", "Kind", "SzaCharacter", "SzaInfection", "Markers", "Position", "Engaged",
               "Wounds", "SzaArms", "SzaAttributes", "SzaVehicle", "Owner"),
        writes=("SzaStage", "Markers", "SzaInventory", "Engaged", "Position", "Tally"))
def objective(game: Game, turn_limit: int = 40) -> None:
    """End of turn: a scenario whose event graph reaches its end now is won (reward, next scenario
    or the campaign's end); no character left human loses the game; a scenario still running after
    `scenario_turn_limit` turns is lost, the house overrun (DESIGN CHOICE: every game ends).

    The exits into an end are followed here, at the end of the turn, so that the winning criteria
    hold when the win is declared (Scenario 1: "fend off any zombies currently engaged in combat with
    them") and the turn that meets them is the last: the documents taken with nobody engaged win at
    the end of that same turn."""
    _ent, stage = stage_of(game)
    world = game.world
    if not roster(game):
        game.end(ZOMBIES)
        return
    if not stage.built:
        return
    if not zombie_ids(game):  # the combat is over: once-per-combat abilities come back
        for _e, markers in world.query1(Markers):
            tags = markers.tags
            if tags:  # `markers.discard` of each, inline: every piece is visited
                for tag in [t for t in tags if t.startswith("spent:")] + ["boosted"]:
                    if tag in tags:
                        tags.remove(tag)
    scen = scenario_def(game, stage)
    board = board_of(game, stage)
    # "All zombies have to be eliminated before the vehicle may be approached"
    if board.vehicle and not zombie_ids(game):
        for cell in board.features["vehicle"]:
            if cell not in stage.opened:
                stage.opened.append(cell)
                stage.opened.sort()
    for event in _to_end(game, stage):
        _go(game, stage, event)
        stage.entered = True
        game.log("event", scenario=scen.id, event=event, title=scen.events[event].title)
    ev = scen.events[stage.event]
    if ev.end == "lost":
        game.end(ZOMBIES)
        return
    if ev.end != "won":
        if stage.turn >= turn_limit:
            stage.results.append(f"{scen.id}:lost")
            game.log("overrun", scenario=scen.id)
            game.end(ZOMBIES)
        return
    stage.results.append(f"{scen.id}:won")
    tally(game).bump("scenarios_won")
    game.log("scenario_won", scenario=scen.id)
    for ent in roster(game):
        inv = world.get(ent, Inventory)
        for item, n in sorted(scen.reward.items()):
            inv.add(item, n)
    teardown(game)
    stage.index += 1
    stage.built = False
    if stage.index >= len(stage.stages):
        game.end(SURVIVORS)


def teardown(game: Game) -> None:
    """Clear the finished scenario's board; characters step off it, keeping everything they carry."""
    world = game.world
    for ent, kind in world.query1(Kind):
        if kind.name in ("zombie", "risen", "npc", "vehicle"):
            world.delete(ent)
    for ent in roster(game):  # the only pieces left, so no melee link outlives the board
        world.get(ent, Engaged).opponents.clear()
        markers = world.get(ent, Markers)
        for tag in [t for t in markers.tags if t.startswith("spent:")] + list(PER_TURN):
            markers.discard(tag)
        markers.add("offboard")
        pos = world.get(ent, Position)
        pos.x, pos.y = 0, 0


@metrics("sza.metrics")
def sza_metrics(game: Game) -> dict[str, Any]:
    _ent, stage = stage_of(game)
    counts = tally(game).counts
    world = game.world
    chars = roster(game)
    infected = sum(1 for c in chars if world.get(c, Infection).infected)
    stamina = sum(max(0, world.get(c, Wounds).left) for c in chars)
    return {
        "scenario": stage.stages[min(stage.index, len(stage.stages) - 1)],
        "scenarios_won": counts.get("scenarios_won", 0),
        "event": stage.event,
        "characters": len(chars),
        "infected": infected,
        "turned": counts.get("characters_turned", 0),
        "stamina": stamina,
        "zombies_destroyed": counts.get("zombies_destroyed", 0) + counts.get("risen_destroyed", 0),
        "zombies_on_board": len(zombie_ids(game)),
        "shots": counts.get("shots", 0),
        "salvaged": counts.get("salvaged", 0),
    }

