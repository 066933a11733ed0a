"""Movement through play ("Movement", the MOVEMENT TABLES, "Buildings/indoor", "Grass Patches",
"Vehicles", Quick-Step): which engagements each class is offered at each distance, how far a
piece goes, and the vehicle's speed and capacity on boards made for the purpose."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sza_helpers import (
    STREET,
    alone,
    at,
    ctx,
    custom_scenario,
    d100,
    dice,
    drive,
    engaged_with,
    give,
    laid_out,
    logged,
    markers,
    put,
    reaches,
    run_system,
    vehicle,
    who,
    zombie,
)

from ecs_zombie.systems.sza.actions import options, perform
from ecs_zombie.systems.sza.moves import Reach, move_along, path, step_towards
from ecs_zombie.systems.sza.zombies import zombie_act

CLASS_OF = {"Bruce Long": "firefighter", "SGT Connor": "soldier", "Dexter": "convict", "Costa Wang": "politician",
            "Mary Jacobs": "paramedic"}
INDOOR = {"firefighter": (1, 2), "soldier": (2, 4), "convict": (3, 5), "politician": (2, 3), "paramedic": (3, 4)}
OUTDOOR = {"firefighter": (1, 2), "soldier": (2, 3), "convict": (3, 4), "politician": (2, 3), "paramedic": (2, 3)}


def offered(game: Any, ent: int, z: int) -> set[str]:
    """The engagement options against `z`: walk, run, approach."""
    board, st = ctx(game)
    out = set()
    for o in options(game, ent, board, st):
        if o in (f"engage:{z}:walk", f"engage:{z}:run", f"approach:{z}"):
            out.add(o.split(":")[-1] if o.startswith("engage") else "approach")
    return out


def reach(walk: int, run: int, d: int) -> set[str]:
    return ({"walk"} if d <= walk else set()) | ({"run"} if d <= run else {"approach"} if d > walk else set())


@pytest.mark.parametrize("name", sorted(CLASS_OF))
def test_movement_table_indoors(make_game: Any, name: str) -> None:
    """MOVEMENT TABLE (Indoors): Firefighter walks 1 / runs 2, Soldier 2/4, Prison Convict 3/5,
    Politician 2/3, Paramedic 3/4; "the maximum distances a character class may move at the chosen
    speed": a zombie that far is engaged walking or running; beyond it is only approached, a full run
    at a time. (SGT Connor's Combat Awareness changes nothing indoors.)"""
    walk, run = INDOOR[CLASS_OF[name]]
    for d in range(1, 7):
        game = laid_out(make_game)
        ent = alone(game, name, 7, 1)  # the dining room's top row: x 7..13, nothing in the way
        z = zombie(game, 7 + d, 1)
        assert offered(game, ent, z) == reach(walk, run, d), d
    board, st = ctx(game)
    put(game, ent, 7, 1)
    drive(game, perform(game, ent, f"approach:{z}", board, st))
    assert at(game, ent) == (7 + run, 1)


@pytest.mark.parametrize("name", sorted(CLASS_OF))
def test_movement_table_outdoors(make_game: Any, name: str) -> None:
    """MOVEMENT TABLE (Outdoors): Firefighter 1/2, Soldier 2/3, Prison Convict 3/4, Politician 2/3,
    Paramedic 2/3 (walk/run), on the street's road."""
    walk, run = OUTDOOR[CLASS_OF[name]]
    for d in range(1, 6):
        game = laid_out(make_game, STREET)
        ent = alone(game, name, 23, 1)  # row 1 east of the grass: x 12..23 of road
        z = zombie(game, 23 - d, 1)
        assert offered(game, ent, z) == reach(walk, run, d), d
    board, st = ctx(game)
    z = zombie(game, 16, 1)
    drive(game, perform(game, ent, f"approach:{z}", board, st))
    assert at(game, ent) == (23 - run, 1)


def test_diagonal_movement_included(make_game: Any) -> None:
    """"*diagonal movement included": three diagonal squares are a walk of 3 for the Paramedic."""
    game = laid_out(make_game)
    mary = alone(game, "Mary Jacobs", 7, 1)
    z = zombie(game, 10, 4)
    assert offered(game, mary, z) == {"walk", "run"}


def test_no_cutting_a_walls_corner(make_game: Any) -> None:
    """DESIGN CHOICE (the maps): a diagonal step needs both squares beside it open. From the planning
    room's (5, 1) to the dining room's (7, 1) the way goes down to the door and up again: 4 squares,
    a run for the Paramedic, not a walk."""
    game = laid_out(make_game)
    mary = alone(game, "Mary Jacobs", 5, 1)
    z = zombie(game, 7, 1)
    assert offered(game, mary, z) == {"run"}


def test_quick_step_adds_two_squares_indoors_only(make_game: Any) -> None:
    """Quick-Step: "move an additional 2 squares of movement (Indoors only)": the Prison Convict walks
    5 and runs 7 indoors (the level 2 corridors), 3 and 4 outdoors as before."""
    game = laid_out(make_game)
    dexter = alone(game, "Dexter", 23, 5)
    give(game, dexter, "quick_step")
    for d, expect in ((5, {"walk", "run"}), (6, {"run"}), (7, {"run"}), (8, {"approach"})):
        z = zombie(game, 23 + d, 5)
        assert offered(game, dexter, z) == expect, d
        game.world.delete(z)
    street = laid_out(make_game, STREET)
    d2 = alone(street, "Dexter", 23, 1)
    give(street, d2, "quick_step")
    for d, expect in ((3, {"walk", "run"}), (4, {"run"}), (5, {"approach"})):
        z = zombie(street, 23 - d, 1)
        assert offered(street, d2, z) == expect, d
        street.world.delete(z)


# -- the NPC zombie's movement (DESIGN CHOICE: walks 2 / runs 3 indoors, 1 / 2 outdoors) ---------

@pytest.mark.parametrize(("target", "start", "pace", "end"), [
    (None, (10, 2), "walk", (8, 2)), (None, (11, 2), "run", (8, 2)), (None, (12, 2), "", (9, 1)),
    (STREET, (21, 3), "walk", (20, 3)), (STREET, (22, 3), "run", (20, 3)), (STREET, (23, 3), "", (21, 2))])
def test_zombie_movement(make_game: Any, target: str | None, start: tuple[int, int], pace: str,
                         end: tuple[int, int]) -> None:
    """The game master's zombie walks onto a victim in walking reach, runs when only a run reaches,
    and otherwise runs towards it (DESIGN CHOICE: 2/3 squares indoors, 1/2 outdoors; among equally
    short ways the lowest-numbered square)."""
    game = laid_out(make_game, target) if target else laid_out(make_game)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 8 if not target else 20, 2 if not target else 3)
    z = zombie(game, *start)
    dice(game, *([10, 10] if pace == "run" else []), 9, 9)
    drive(game, zombie_act(game, z, board, st))
    assert at(game, z) == end
    assert [a["pace"] for a in logged(game, "attack")] == ([pace] if pace else [])
    assert engaged_with(game, z) == ([mary] if pace else [])


def test_mover_stops_on_an_enemys_square(make_game: Any) -> None:
    """DESIGN CHOICE: a mover may not pass through a square holding an enemy: landing on it engages."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 7, 1)
    first = zombie(game, 8, 1)
    second = zombie(game, 11, 1)
    step_towards(game, mary, board.cell(11, 1), 4, board, st, True)
    assert at(game, mary) == (8, 1) and engaged_with(game, mary) == [first]
    assert engaged_with(game, second) == []


# -- Grass Patches --------------------------------------------------------------------------------

def test_grass_allows_walking_only(make_game: Any) -> None:
    """Grass Patches: "Only the walking movement is allowed". A character on grass may engage walking,
    not running, and approaches at a walk; Combat Awareness (SGT Connor) ignores the grass."""
    game = laid_out(make_game, STREET)
    board, st = ctx(game)
    dexter = alone(game, "Dexter", 20, 0)  # grass
    near = zombie(game, 18, 0)
    assert offered(game, dexter, near) == {"walk"}
    far = zombie(game, 15, 1)
    assert offered(game, dexter, far) == {"approach"}
    game.world.delete(near)
    drive(game, perform(game, dexter, f"approach:{far}", board, st))
    assert logged(game, "move")[-1]["running"] is False and board.chebyshev(board.cell(20, 0), board.cell(*at(
        game, dexter))) == 3
    connor = who(game, "SGT Connor")
    put(game, connor, 20, 6)
    z2 = zombie(game, 17, 6)
    assert offered(game, connor, z2) == {"run"}  # 3 squares: beyond his walk of 2, his run of 3


def test_no_running_from_grass(make_game: Any) -> None:
    """A zombie on grass walks too: 1 square, not its run of 2."""
    game = laid_out(make_game, STREET)
    board, st = ctx(game)
    alone(game, "Dexter", 20, 3)
    z = zombie(game, 21, 0)  # on grass, 3 squares from Dexter
    dice(game, *([9] * 10))
    drive(game, zombie_act(game, z, board, st))
    assert [m["running"] for m in logged(game, "move", piece=z)] == [False]
    assert board.chebyshev(board.cell(21, 0), board.cell(*at(game, z))) == 1


def test_running_stops_at_grass_after_a_walks_worth(make_game: Any) -> None:
    """A run that would cross onto grass beyond a walk's reach stops before the grass: the Paramedic
    (walks 2, runs 3 outdoors) approaching over the verge."""
    game = laid_out(make_game, STREET)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 20, 3)
    z = zombie(game, 20, 0)  # on grass, 3 squares up
    step_towards(game, mary, board.cell(20, 0), 3, board, st, True)
    assert at(game, mary) == (19, 1) and engaged_with(game, mary) == [] and engaged_with(game, z) == []


def test_movers_keep_off_grass_on_equal_ways(make_game: Any) -> None:
    """DESIGN CHOICE: among equally short ways a mover keeps off grass (row 1's x 9..11 is grass)."""
    game = laid_out(make_game, STREET)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 12, 1)
    z = zombie(game, 8, 1)
    drive(game, perform(game, mary, f"approach:{z}", board, st))
    assert at(game, mary) == (9, 2)


def test_no_running_engagement_onto_grass(make_game: Any) -> None:
    """Grass Patches: "Only the walking movement is allowed". Dexter on the road with a zombie on the
    verge 3 squares away (his walk) may engage it walking only: no running modifiers, Surprise or
    One Shot, One Kill."""
    game = laid_out(make_game, STREET)
    dexter = alone(game, "Dexter", 20, 3)
    z = zombie(game, 20, 0)
    assert offered(game, dexter, z) == {"walk"}


# -- Buildings/indoor: doors ----------------------------------------------------------------------

def test_room_doors_do_not_stop_movement(make_game: Any) -> None:
    """"They must stop moving once they reach a door to a building ... Characters may also freely move
    inside the buildings": Dexter runs 5 from the planning room through its door into the dining room
    (to (9, 1): among equally short ways the lowest-numbered square, a DESIGN CHOICE)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    dexter = alone(game, "Dexter", 4, 2)
    step_towards(game, dexter, board.cell(11, 2), 5, board, st, True)
    assert at(game, dexter) == (9, 1)


def test_engagement_through_a_room_door(make_game: Any) -> None:
    """Dexter (runs 5 indoors) is offered a zombie 4 squares away through the planning room's door; the
    run reaches it and engages."""
    game = laid_out(make_game)
    board, st = ctx(game)
    dexter = alone(game, "Dexter", 4, 2)
    z = zombie(game, 8, 2, stamina=100)
    assert offered(game, dexter, z) == {"run"}
    dice(game, 10, 10, 6, 9, 9)
    drive(game, perform(game, dexter, f"engage:{z}:run", board, st))
    assert at(game, dexter) == (8, 2) and engaged_with(game, dexter) == [z]


HOUSE = """\
yard:
  title: Yard and House
  outdoor: true
  size: [10, 3]
  rooms:
    yard: {title: Yard, area: [0, 0, 4, 3]}
    house: {title: House, area: [5, 0, 5, 3], outdoor: false}
  features: [{kind: door, at: [4, 1]}]
  start_area: [0, 0, 2, 3]
"""
HOUSE_SCENARIO = """\
yard:
  title: Yard
  map: yard
  zombies: 0
  first: "1"
  events:
    "1": {title: Outside, exits: [{when: {flag: inside}, next: "2"}]}
    "2": {title: Inside, end: won}
"""


def house(tmp_path: Path) -> str:
    """A yard (outdoors) and a house (a room marked indoor) joined by a door at (4, 1)."""
    return custom_scenario(tmp_path, HOUSE, HOUSE_SCENARIO,
                           "  - {prefab: campaign, set: {SzaStage: {stages: [yard]}}}\n  - {prefab: dexter}\n")


def test_a_door_to_a_building_stops_movement(make_game: Any, tmp_path: Path) -> None:
    """"They must stop moving once they reach a door to a building. On their next turn, they can move
    through the door at their full movement rate": Dexter (runs 4 outdoors) stops on the house's door
    after 3 squares, then runs 4 on into the house."""
    game = laid_out(make_game, house(tmp_path))
    board, st = ctx(game)
    dexter = who(game, "Dexter")
    put(game, dexter, 1, 1)
    assert step_towards(game, dexter, board.cell(8, 1), 4, board, st, True) == board.cell(4, 1)
    assert step_towards(game, dexter, board.cell(8, 1), 4, board, st, True) == board.cell(8, 1)
    assert [m["to"] for m in logged(game, "move", piece=dexter)] == [[4, 1], [8, 1]]


def test_no_engagement_through_a_door_to_a_building(make_game: Any, tmp_path: Path) -> None:
    """A zombie inside the house 3 squares from Dexter (his walk) is not reached this turn: the door
    stops him, so he is offered to approach it, not to engage it. From the door he engages it."""
    game = laid_out(make_game, house(tmp_path))
    board, st = ctx(game)
    dexter = who(game, "Dexter")
    put(game, dexter, 3, 1)
    z = zombie(game, 6, 1)
    assert offered(game, dexter, z) == {"approach"}
    drive(game, perform(game, dexter, f"approach:{z}", board, st))
    assert at(game, dexter) == (4, 1) and engaged_with(game, dexter) == []
    assert offered(game, dexter, z) == {"walk", "run"}


def test_a_broken_window_is_a_door_to_the_building(make_game: Any) -> None:
    """DESIGN CHOICE: a broken window of the bungalow opens onto the garden; like a door to a building,
    a mover stops in it and goes on next turn: the Paramedic (walks 3, runs 4 indoors) climbs out of
    the store room's window (0, 7) into the garden (0, 14)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 3, 7)
    st.opened.append(board.cell(0, 7))
    assert step_towards(game, mary, board.cell(3, 14), 4, board, st, True) == board.cell(0, 7)
    assert step_towards(game, mary, board.cell(3, 14), 4, board, st, True) == board.cell(3, 14)
    assert board.room(board.cell(3, 14)) is not None and board.room(board.cell(3, 14)).title == "Garden"


def test_an_engagement_ending_on_grass_is_a_walking_one(make_game: Any) -> None:
    """Grass Patches: "Only the walking movement is allowed". Dexter, made to run onto the verge, engages
    the zombie there walking: no Surprise check, no One Shot, One Kill roll, and the walking modifiers
    (Accuracy 85 - 3 = 82; a crowbar's 1d10 4 + 3 + Strength 65's +1 = 8 damage)."""
    game = laid_out(make_game, STREET)
    board, st = ctx(game)
    dexter = alone(game, "Dexter", 20, 3)
    z = zombie(game, 20, 0)
    dice(game, *d100(82), 4)
    drive(game, perform(game, dexter, f"engage:{z}:run", board, st))
    assert at(game, dexter) == (20, 0) and engaged_with(game, dexter) == [z]
    assert [(a["pace"], a["chance"], a["hit"]) for a in logged(game, "attack")] == [("walk", 82, True)]
    assert not logged(game, "surprise") and not logged(game, "one_shot_one_kill")
    assert logged(game, "damage") == [{"target": z, "damage": 8, "stamina": 42, "source": "melee"}]


def test_sgt_connor_runs_onto_grass(make_game: Any) -> None:
    """Combat Awareness: SGT Connor "is not affected by the environmental debuffs": he may run onto the
    verge and engage there running (walks 2, runs 3 outdoors; the zombie is 3 squares up)."""
    game = laid_out(make_game, STREET)
    connor = alone(game, "SGT Connor", 20, 3)
    z = zombie(game, 20, 0)
    assert offered(game, connor, z) == {"run"}


# -- Vehicles (on boards made for the purpose) ----------------------------------------------------

LANE_SCENARIO = """\
lane:
  title: Lane
  map: lane
  zombies: 0
  first: "1"
  events:
    "1": {title: Drive, exits: [{when: {home: true}, next: "2"}]}
    "2": {title: Home, end: won}
"""
PARTY = "".join(f"  - {{prefab: {p}}}\n" for p in ("dexter", "mary_jacobs", "bruce_long", "costa_wang", "sgt_connor",
                                                  "cpl_teoh"))


def lane(tmp_path: Path, grass: tuple[int, int] | None = None, kind: str = "car", length: int = 22) -> str:
    """A one-row lane: the safe house at x 0, the vehicle at the far end, grass over [from, to)."""
    features = ["{kind: safehouse, at: [0, 0]}", f"{{kind: vehicle, at: [{length - 1}, 0], vehicle: {kind}}}"]
    if grass:
        features.append(f"{{kind: grass, area: [{grass[0]}, 0, {grass[1] - grass[0]}, 1]}}")
    board = (f"lane:\n  title: Lane\n  outdoor: true\n  size: [{length}, 2]\n"
             f"  rooms: {{road: {{title: Road, area: [0, 0, {length}, 1]}}, verge: {{title: Verge, "
             f"area: [{length - 4}, 1, 4, 1]}}}}\n"
             f"  features: [{', '.join(features)}]\n  start_area: [{length - 4}, 1, 4, 1]\n")
    return custom_scenario(tmp_path, board, LANE_SCENARIO,
                           "  - {prefab: campaign, set: {SzaStage: {stages: [lane]}}}\n" + PARTY)


def drive_once(make_game: Any, target: str) -> dict[str, Any]:
    game = laid_out(make_game, target)
    board, st = ctx(game)
    run_system(game, "sza.objective")  # no zombie: the vehicle may be approached
    _v, car = vehicle(game)
    car.unlocked = True
    dexter = who(game, "Dexter")
    car.passengers.append(dexter)
    drive(game, perform(game, dexter, "drive", board, st))
    return logged(game, "drove")[-1]


@pytest.mark.parametrize(("grass", "squares"), [(None, 15), ((1, 21), 13), ((15, 17), 13), ((1, 5), 15), ((7, 8), 13),
                                                ((6, 7), 14)])
def test_vehicle_speed_road_and_grass(make_game: Any, tmp_path: Path, grass: tuple[int, int] | None,
                                      squares: int) -> None:
    """Vehicles: "a standard movement speed of 15 squares per turn on a road and 13 squares per turn on
    grass patches" (DESIGN CHOICE: 13 when the way driven this turn crosses grass; grass met only after
    13 squares of road stops the car before it: at 13 when it is the 14th square, at 14 when the 15th)."""
    moved = drive_once(make_game, lane(tmp_path, grass))
    assert (moved["squares"], moved["to"]) == (squares, [21 - squares, 0])


def test_vehicle_speed_on_the_street(make_game: Any) -> None:
    """On the street's road the car drives 15 squares."""
    game = laid_out(make_game, STREET)
    board, st = ctx(game)
    run_system(game, "sza.objective")
    vent, car = vehicle(game)
    put(game, vent, 23, 3)
    car.unlocked = True
    dexter = who(game, "Dexter")
    car.passengers.append(dexter)
    drive(game, perform(game, dexter, "drive", board, st))
    assert logged(game, "drove")[-1]["squares"] == 15


@pytest.mark.parametrize(("kind", "capacity"), [("car", 5), ("truck", 5), ("motorcycle", 2)])
def test_vehicle_capacity(make_game: Any, tmp_path: Path, kind: str, capacity: int) -> None:
    """"For vehicles like a car or a truck, the personnel capacity is 5. For motorcycles ... 2"."""
    game = laid_out(make_game, lane(tmp_path, kind=kind))
    board, st = ctx(game)
    run_system(game, "sza.objective")
    _v, car = vehicle(game)
    assert car.capacity == capacity
    car.unlocked = True
    boarded = []
    for name in ("Dexter", "Mary Jacobs", "Bruce Long", "Costa Wang", "SGT Connor", "CPL Teoh"):
        ent = who(game, name)
        put(game, ent, 20, 1)
        if "board" in options(game, ent, board, st):
            drive(game, perform(game, ent, "board", board, st))
            boarded.append(ent)
    assert len(boarded) == capacity and car.passengers == boarded
    assert all(markers(game, e).has("aboard") and at(game, e) == (21, 0) for e in boarded)


# -- ways and their ends --------------------------------------------------------------------------

def test_a_way_into_the_boards_first_square(make_game: Any) -> None:
    """Square 0, the street's top-left corner, is a square like any other: a walk towards it from
    beside it ends on it."""
    game = laid_out(make_game, STREET)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 1, 0)
    assert path(game, mary, 0, 2, board, st) == [0]


def test_no_way_to_a_square_behind_a_locked_door(make_game: Any) -> None:
    """The panic room's locked door shuts its squares off: a way there is empty, at either pace,
    and the mover stays where it is."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 30, 5)
    inside = board.cell(32, 2)
    assert Reach(game, mary, board, st).way(inside) == []
    assert Reach(game, mary, board, st).paces(inside) == (False, False)
    assert path(game, mary, inside, 5, board, st, running=True) == []
    step_towards(game, mary, inside, 5, board, st, True)
    assert at(game, mary) == (30, 5)


def test_moving_onto_an_enemy_engages_it(make_game: Any) -> None:
    """A move along a way that ends on an enemy's square engages it (landing engages), also when
    the caller does not know the enemies' squares."""
    game = laid_out(make_game)
    board, _st = ctx(game)
    mary = alone(game, "Mary Jacobs", 7, 1)
    z = zombie(game, 9, 1)
    assert move_along(game, mary, [board.cell(8, 1), board.cell(9, 1)], board, False) == board.cell(9, 1)
    assert at(game, mary) == (9, 1) and engaged_with(game, mary) == [z]


def test_a_path_is_a_walk_that_stops_at_doors_unless_told(make_game: Any, tmp_path: Path) -> None:
    """`path` with no pace given is a walk, which may end on grass (the Paramedic from (20, 3) three
    squares up onto the verge; a run would stop before it); with no word on doors it stops on a
    door to a building (Dexter on the house's door at (4, 1)), as `reaches` asks."""
    game = laid_out(make_game, STREET)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 20, 3)
    assert path(game, mary, board.cell(20, 0), 3, board, st)[-1] == board.cell(20, 0)
    assert path(game, mary, board.cell(20, 0), 3, board, st, running=True)[-1] != board.cell(20, 0)
    game = laid_out(make_game, house(tmp_path))
    board, st = ctx(game)
    dexter = who(game, "Dexter")
    put(game, dexter, 1, 1)
    assert path(game, dexter, board.cell(8, 1), 4, board, st)[-1] == board.cell(4, 1)
    assert path(game, dexter, board.cell(8, 1), 4, board, st, doors=False)[-1] == board.cell(5, 1)
    assert not reaches(game, dexter, board.cell(5, 1), "run", board, st)
