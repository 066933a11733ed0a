"""Pieces coming and going: who is locked in melee with whom when a piece moves in, is eliminated,
rises or is cured, when the scenario's board is cleared, and what is kept in order for saves
("Combat Engagement": locked in battle "until either side has been eliminated"; "Damage &
Infection"; the campaign's hand-over between scenarios)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sza_helpers import (
    STREET,
    ZOMBIES,
    add_item,
    alone,
    at,
    ctx,
    custom_scenario,
    d100,
    dice,
    drive,
    engaged_with,
    exists,
    give,
    infection,
    items,
    kind,
    laid_out,
    logged,
    markers,
    put,
    run_system,
    set_stamina,
    side,
    stage,
    stamina,
    vehicle,
    who,
    zombie,
    zombies_on_board,
)

from ecs_zombie.systems.sza import stage as stage_mod
from ecs_zombie.systems.sza.actions import perform
from ecs_zombie.systems.sza.moves import step_towards
from ecs_zombie.systems.sza.state import engage_square, harm
from ecs_zombie.systems.sza.zombies import zombie_act


def test_allies_and_bystanders_do_not_stop_a_mover(make_game: Any) -> None:
    """Only an enemy's square stops a mover (and engages): an ally's square is walked through, and a
    zombie on the safe-house people's square engages nobody but characters."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary, bruce = who(game, "Mary Jacobs"), who(game, "Bruce Long")
    alone(game, "Mary Jacobs", 7, 1)
    put(game, bruce, 8, 1)
    step_towards(game, mary, board.cell(10, 1), 3, board, st, False)
    assert at(game, mary) == (10, 1) and engaged_with(game, mary) == []
    street = laid_out(make_game, STREET)
    home = (0, 2)  # Ah Heng's square
    z = zombie(street, *home)
    assert engaged_with(street, z) == []
    dexter = alone(street, "Dexter", *home)
    assert engage_square(street, dexter) == [z] and engaged_with(street, z) == [dexter]


def test_an_eliminated_zombie_lets_go(make_game: Any) -> None:
    """Locked in battle "until either side has been eliminated": a destroyed zombie leaves nobody
    engaged with it."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 8, 2)
    z = zombie(game, 8, 2, stamina=3)
    assert engaged_with(game, mary) == [z]
    dice(game, *d100(1), 4)
    drive(game, perform(game, mary, "attack", board, st))
    assert not exists(game, z) and engaged_with(game, mary) == []


def test_a_running_zombie_can_be_surprised(make_game: Any) -> None:
    """A zombie's running engagement rolls Surprise too; the character who wins it strikes first
    (stationary), and the zombie's move is a run. A walking one's move is not."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 8, 2)  # Accuracy 75, Pocket Knife +10 stationary
    z = zombie(game, 11, 2, stamina=100)
    dice(game, 3, 17, *d100(85), 4, 9, 9)  # the zombie 3, Mary 17: her free attack hits for 4
    drive(game, zombie_act(game, z, board, st))
    assert [(a["attacker"], a["why"], a["pace"]) for a in logged(game, "attack")] == \
        [(mary, "surprise", "still"), (z, "melee", "run")]
    assert stamina(game, z) == 96 and logged(game, "move", piece=z)[-1]["running"] is True
    z2 = zombie(game, 10, 4, stamina=100)
    dice(game, 9, 9)
    drive(game, zombie_act(game, z2, board, st))
    assert logged(game, "move", piece=z2)[-1]["running"] is False


def test_rising_breaks_every_tie(make_game: Any) -> None:
    """A character who rises is no longer locked with the zombies it fought, leaves the vehicle and
    loses this turn's states; on its square it engages the characters there."""
    game = laid_out(make_game, STREET)
    board, st = ctx(game)
    run_system(game, "sza.objective")
    costa, mary = who(game, "Costa Wang"), who(game, "Mary Jacobs")
    alone(game, "Costa Wang", 20, 3)
    z = zombie(game, 20, 3)
    _v, car = vehicle(game)
    car.passengers.append(costa)
    for tag in ("speech", "inspired", "traded", "boosted", "aboard"):
        markers(game, costa).add(tag)
    harm(game, costa, 60, board, st, "test")
    put(game, mary, 20, 3)
    stage_mod.infection(game)
    stage_mod.infection(game)
    assert side(game, costa) == ZOMBIES and kind(game, costa) == "risen"
    assert engaged_with(game, z) == [] and engaged_with(game, costa) == [mary]
    assert car.passengers == [] and markers(game, costa).tags == []


def test_a_cure_leaves_no_countdown(make_game: Any) -> None:
    game = laid_out(make_game)
    board, st = ctx(game)
    mary, dexter = who(game, "Mary Jacobs"), who(game, "Dexter")
    put(game, mary, 2, 2)
    put(game, dexter, 2, 3)
    harm(game, dexter, 80, board, st, "test")
    drive(game, perform(game, mary, f"ability:intravenous_injection:{dexter}", board, st))
    inf = infection(game, dexter)
    assert (inf.infected, inf.turns_left, inf.fresh) == (False, 0, False)


def test_tending_never_lifts_above_the_total(make_game: Any) -> None:
    game = laid_out(make_game)
    board, st = ctx(game)
    mary, bruce = who(game, "Mary Jacobs"), who(game, "Bruce Long")
    give(game, mary, "tending_to_wounds")
    put(game, mary, 2, 2)
    put(game, bruce, 3, 2)
    set_stamina(game, mary, 70)
    drive(game, perform(game, mary, "ability:tending_to_wounds", board, st))
    assert (stamina(game, mary), stamina(game, bruce)) == (75, 85)


def test_inventory_kept_in_order(make_game: Any) -> None:
    """Items are kept sorted by name, whatever order they came in (equal states save equally)."""
    game = laid_out(make_game)
    bruce = who(game, "Bruce Long")
    add_item(game, bruce, "water", 3)
    add_item(game, bruce, "bandage", 2)
    assert list(items(game, bruce)) == ["bandage", "oxygen_canister", "water"]


def test_the_board_is_cleared_between_scenarios(make_game: Any) -> None:
    """Winning a scenario clears its board: zombies gone, nobody engaged, this turn's states and
    once-per-combat uses forgotten, every character off the board at (0, 0)."""
    game = laid_out(make_game, "sza")
    st = stage(game)
    mary = who(game, "Mary Jacobs")
    put(game, mary, 3, 3)
    z = zombie(game, 3, 3)
    for tag in ("spent:morale_boost", "inspired", "traded", "aboard", "speech", "boosted"):
        markers(game, mary).add(tag)
    st.event, st.entered = "11", True
    run_system(game, "sza.objective")
    assert not exists(game, z) and zombies_on_board(game) == []
    assert engaged_with(game, mary) == [] and markers(game, mary).tags == ["offboard"]
    assert at(game, mary) == (0, 0)


def test_a_fresh_game_reports_nothing_done(make_game: Any) -> None:
    """Before the first turn: no counts, the first scenario, every character human and unhurt."""
    from ecs_zombie.registry import METRICS

    game = make_game("sza")
    assert METRICS["sza.metrics"](game) == {
        "scenario": "bungalow", "scenarios_won": 0, "event": "", "characters": 6, "infected": 0, "turned": 0,
        "stamina": 85 + 75 + 70 + 55 + 70 + 65, "zombies_destroyed": 0, "zombies_on_board": 0, "shots": 0,
        "salvaged": 0}
    st = stage(game)
    assert (st.built, st.index, st.turn, st.event_turns, st.entered, st.supply) == (False, 0, 0, 0, False, 0)


def test_metrics_count_the_infected_at_no_stamina(make_game: Any) -> None:
    """An infected character counts as infected, with no Stamina (never below 0) in the total."""
    from ecs_zombie.registry import METRICS

    game = laid_out(make_game)
    board, st = ctx(game)
    harm(game, who(game, "Costa Wang"), 70, board, st, "test")
    got = METRICS["sza.metrics"](game)
    assert (got["infected"], got["stamina"]) == (1, 85 + 75 + 70 + 70 + 65)


LOOP = """\
loop:
  title: Loop
  map: lane
  zombies: 0
  first: "1"
  events:
    "1": {title: One, exits: [{when: {}, next: "2"}]}
    "2": {title: Two, exits: [{when: {}, next: "1"}]}
doom:
  title: Doom
  map: lane
  zombies: 0
  first: "1"
  events:
    "1": {title: The End, end: lost}
"""
LANE = ("lane:\n  title: Lane\n  size: [3, 1]\n  rooms: {r: {title: R, area: [0, 0, 3, 1]}}\n  features: []\n"
        "  start: r\n")


def test_an_event_graph_that_loops_does_not_hang(make_game: Any, tmp_path: Path) -> None:
    """The events system follows at most as many exits in a turn as the graph has events, plus one,
    then lets the turn go on; an event that ends `lost` loses the game."""
    party = "  - {prefab: campaign, set: {SzaStage: {stages: [loop]}}}\n  - {prefab: dexter}\n"
    target = custom_scenario(tmp_path, LANE, LOOP, party)
    game = laid_out(make_game, target)
    drive(game, stage_mod.events(game))
    assert [e["event"] for e in logged(game, "event")] == ["1", "2", "1"] and stage(game).event == "2"
    (tmp_path / "d.yaml").write_text((tmp_path / "test.yaml").read_text().replace("[loop]", "[doom]"))
    doomed = laid_out(make_game, str(tmp_path / "d.yaml"))
    drive(doomed, stage_mod.events(doomed))
    run_system(doomed, "sza.objective")
    assert doomed.over and doomed.outcome == ZOMBIES


def test_entering_an_event_starts_its_turn_count(make_game: Any) -> None:
    """Turns spent in an event count from 0 when it is entered (and when a scenario is laid out); the
    turn it is entered in, without an exit holding, is its first."""
    game = laid_out(make_game)
    st = stage(game)
    assert st.event_turns == 0
    st.event, st.entered, st.event_turns = "3", True, 5
    st.flags.append("looted_counter")
    drive(game, stage_mod.events(game))
    assert st.event == "2" and st.event_turns == 1


def test_a_scenario_is_checked_when_its_board_is_laid_out(make_game: Any, tmp_path: Path) -> None:
    """What one table cannot check alone (a spawn list the map lacks) stops the game when the board is
    laid out, with the file and the field named."""
    import pytest

    from ecs_zombie.errors import DataError

    bad = LOOP.replace('"1": {title: One, exits', '"1": {title: One, steps: [{step: spawn, count: 1, at: roof}], exits')
    party = "  - {prefab: campaign, set: {SzaStage: {stages: [loop]}}}\n  - {prefab: dexter}\n"
    game = make_game(custom_scenario(tmp_path, LANE, bad, party))
    with pytest.raises(DataError, match="spawn list 'roof' is not on map 'lane'"):
        drive(game, stage_mod.build(game))


def test_safe_house_people_without_a_safe_house(make_game: Any, tmp_path: Path) -> None:
    """A scenario naming safe-house people on a board with no safe house puts them at (0, 0)."""
    scen = LOOP.replace("  map: lane\n  zombies: 0\n", "  map: lane\n  zombies: 0\n  npcs: [ah_heng, ah_booi]\n", 1)
    party = "  - {prefab: campaign, set: {SzaStage: {stages: [loop]}}}\n  - {prefab: dexter}\n"
    game = laid_out(make_game, custom_scenario(tmp_path, LANE, scen, party))
    assert [at(game, who(game, n)) for n in ("Ah Heng", "Ah Booi")] == [(0, 0), (0, 0)]


def test_resting_at_one_stamina(make_game: Any) -> None:
    """Resting heals anyone above 0 Stamina and below the total."""
    game = laid_out(make_game, STREET)
    mary = who(game, "Mary Jacobs")
    set_stamina(game, mary, 1)
    asked = drive(game, stage_mod.rest(game), {"sza.rest": lambda d: "done"})
    assert [d.options for d in asked if d.context["piece"] == mary] == [["done", "bandage"]]


PLAIN = """\
plain:
  Kind: {name: survivor}
  Faction: {side: survivors}
  Owner: {}
  Position: {}
  Wounds: {taken: 0, limit: 40}
  SzaAttributes: {}
  SzaCharacter: {name: Plain}
  SzaArms: {}
  SzaInventory: {}
  SzaInfection: {}
  Engaged: {}
  Markers: {tags: [offboard]}
bare_car:
  Kind: {name: vehicle}
  Position: {}
  SzaVehicle: {}
"""


def test_what_a_prefab_leaves_out(make_game: Any, tmp_path: Path) -> None:
    """A prefab that leaves fields out gets the components' defaults: attributes of 50 (Initiative and
    Morale 5), no abilities used or injection received, a bite and no rifle, no infection; a vehicle a
    locked car for 5. Read as the rules read them (totals, the order of play, the legal actions, the
    infection countdown)."""
    from sza_helpers import arms, attrs, character

    from ecs_zombie.systems.sza.actions import options
    from ecs_zombie.systems.sza.state import accuracy, morale, smarts, strength
    from ecs_zombie.systems.sza.turn import human_order

    (tmp_path / "plain.yaml").write_text(PLAIN)
    (tmp_path / "s.yaml").write_text("ruleset: sza\nprefabs: [plain.yaml]\nentities:\n"
                                     "  - {prefab: campaign, set: {SzaStage: {stages: [bungalow]}}}\n"
                                     "  - {prefab: plain}\n  - {prefab: mary_jacobs}\n  - {prefab: bare_car}\n")
    game = laid_out(make_game, str(tmp_path / "s.yaml"))
    board, st = ctx(game)
    p, mary = who(game, "Plain"), who(game, "Mary Jacobs")
    put(game, p, 1, 1)
    put(game, mary, 2, 1)
    assert (strength(game, p), accuracy(game, p, board, st), smarts(game, p, board, st), morale(game, p)) == \
        (50, 50, 50, 5)
    assert attrs(game, p).initiative == 5 and human_order(game, board, st) == [p, mary]  # 5 before her 4
    ch = character(game, p)
    assert (ch.cls, ch.abilities, ch.used, ch.injected) == ("", [], [], False)
    w = arms(game, p)
    assert (w.melee, w.ranged, w.rounds, w.magazines) == ("bite", "", 0, 0)
    inf = infection(game, p)
    assert (inf.infected, inf.turns_left, inf.fresh) == (False, 0, False) and items(game, p) == {}
    _v, car = vehicle(game)
    assert (car.kind, car.capacity, car.unlocked, car.passengers) == ("car", 5, False, [])
    opts = options(game, p, board, st)  # a locked car next to it: break in; no rifle: no reload
    assert "break_in" in opts and "reload" not in opts
    car.unlocked = True
    assert "board" in options(game, p, board, st)
    harm(game, p, 40, board, st, "test")
    assert f"ability:intravenous_injection:{p}" in options(game, mary, board, st)  # never injected before
    stage_mod.infection(game)
    stage_mod.infection(game)  # total Stamina 40: 1 turn after the turn of the infection
    assert side(game, p) == ZOMBIES


def test_items_come_and_go_one_at_a_time(make_game: Any) -> None:
    """An item added without a count is one; taking more than is held takes nothing (as a trade adds
    the item it gives)."""
    from ecs_zombie.systems.sza.components import Inventory

    inv = Inventory()
    inv.add("key")
    assert inv.items == {"key": 1}
    assert inv.take("key", 2) is False and inv.items == {"key": 1}
    assert inv.take("rope") is False
    assert inv.take("key") is True and inv.items == {}
    game = laid_out(make_game)
    board, st = ctx(game)
    mary, bruce = who(game, "Mary Jacobs"), who(game, "Bruce Long")
    put(game, mary, 2, 2)
    put(game, bruce, 3, 2)
    drive(game, perform(game, mary, f"give:bandage:{bruce}", board, st))
    assert items(game, bruce) == {"bandage": 1, "oxygen_canister": 1}


PASSAGE = """\
passage:
  title: Passage
  map: lane
  zombies: 2
  first: "1"
  events:
    "1": {title: Start, exits: [{when: {}, next: "2"}]}
    "2": {title: Ambush, steps: [{step: spawn, count: 1, at: s}], exits: [{when: {}, next: "3"}]}
    "3": {title: Out, end: won}
"""
LANE_SPAWN = LANE.replace("  start: r\n", "  spawns: {s: [[2, 0]]}\n  start: r\n")


def test_the_way_to_an_end_stops_at_an_event_with_steps(make_game: Any, tmp_path: Path) -> None:
    """At the end of a turn the scenario runs on to an end only through events with nothing to play
    on entering them: the way 1 -> 2 -> 3 (won) passes the ambush of event 2 (a spawn step), so the
    turn ends in event 1 and the scenario is not won yet; without the ambush it is won that turn."""
    party = "  - {prefab: campaign, set: {SzaStage: {stages: [passage]}}}\n  - {prefab: dexter}\n"
    game = laid_out(make_game, custom_scenario(tmp_path, LANE_SPAWN, PASSAGE, party))
    run_system(game, "sza.objective")
    assert stage(game).event == "1" and not game.over and not logged(game, "scenario_won")
    quiet = PASSAGE.replace(", steps: [{step: spawn, count: 1, at: s}]", "")
    (tmp_path / "quiet").mkdir()
    game = laid_out(make_game, custom_scenario(tmp_path / "quiet", LANE_SPAWN, quiet, party))
    run_system(game, "sza.objective")  # nothing to play on the way: won this turn
    assert [e["event"] for e in logged(game, "event")] == ["2", "3"] and logged(game, "scenario_won")
    assert (stage(game).event, stage(game).entered) == ("3", True)  # the end reached is entered
