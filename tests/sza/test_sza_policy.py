"""The default (`heuristic`) policy's answers (docs/sza.md, "Decisions": every kind has a heuristic):
the characters cure, heal, fight, shoot and head for the event's aim; the game master gives each
zombie a different victim where it can ("Play Criteria") and spawns near the party; the party takes
the choice its author lists first. Each is read from the action the policy takes in play."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sza_helpers import (
    NAMES,
    STREET,
    add_item,
    alone,
    arms,
    at,
    clear_others,
    ctx,
    custom_scenario,
    d100,
    dice,
    drive,
    give,
    items,
    laid_out,
    logged,
    markers,
    put,
    run_system,
    set_stamina,
    stage,
    stamina,
    vehicle,
    who,
    zombie,
)

from ecs_zombie.components import Markers
from ecs_zombie.decisions import Decision
from ecs_zombie.systems.sza import stage as stage_mod
from ecs_zombie.systems.sza.actions import act, k9, options
from ecs_zombie.systems.sza.board import UNSEEN
from ecs_zombie.systems.sza.heuristics import (
    _gift,
    _healing,
    _inspire,
    _left_behind,
    _reach,
    _useful,
    _worth,
    event_choice,
)
from ecs_zombie.systems.sza.state import harm
from ecs_zombie.systems.sza.zombies import zombie_act


def chosen(game: Any, ent: int, aim: str = "") -> str:
    """The action the default policy takes for `ent` this turn."""
    board, st = ctx(game)
    before = len(logged(game, "action"))
    drive(game, act(game, ent, board, st, aim))
    acts = logged(game, "action")
    assert len(acts) == before + 1
    return str(acts[-1]["action"])


def _mary_beside_bruce(make_game: Any) -> tuple[Any, int, int]:
    """The bungalow with Mary Jacobs at (2, 3) beside Bruce Long at (3, 3), the others parked."""
    game = laid_out(make_game)
    mary, bruce = who(game, "Mary Jacobs"), who(game, "Bruce Long")
    clear_others(game, [mary, bruce])
    put(game, mary, 2, 3)
    put(game, bruce, 3, 3)
    return game, mary, bruce


# -- characters -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("taken", "injected"), [(70, True), (69, False)])
def test_cure_the_infected_first(make_game: Any, taken: int, injected: bool) -> None:
    """An infected ally within reach is injected (Mary's Intravenous Injection) before anything else;
    the injection cures the infection, which comes at Stamina 0 or below, so Dexter at 1 Stamina
    (69 of his 70 taken) is not infected and Mary does not spend it on him."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary, dexter = who(game, "Mary Jacobs"), who(game, "Dexter")
    clear_others(game, [mary, dexter])
    put(game, mary, 2, 2)
    put(game, dexter, 3, 2)
    zombie(game, 4, 2)
    harm(game, dexter, taken, board, st, "test")
    assert stamina(game, dexter) == 70 - taken
    assert (chosen(game, mary) == f"ability:intravenous_injection:{dexter}") is injected


@pytest.mark.parametrize(("total", "current", "expect"), [(85, 20, True), (85, 28, True), (85, 30, False),
                                                          (90, 29, True), (90, 30, False)])
def test_vial_for_the_badly_hurt(make_game: Any, total: int, current: int, expect: bool) -> None:
    """The Vial of Antidote goes to an ally below a third of its total Stamina (85: 28 yes, 30 not;
    90: 29 yes, 30 not)."""
    game = laid_out(make_game)
    mary, bruce = who(game, "Mary Jacobs"), who(game, "Bruce Long")
    give(game, mary, "vial_of_antidote")
    clear_others(game, [mary, bruce])
    put(game, mary, 2, 2)
    put(game, bruce, 3, 2)
    set_stamina(game, bruce, current, total)
    assert (chosen(game, mary) == f"ability:vial_of_antidote:{bruce}") == expect


@pytest.mark.parametrize(("kit", "expect"), [({"water": 3, "bandage": 1}, "water"), ({"bandage": 1}, "bandage")])
def test_heal_when_below_half(make_game: Any, kit: dict[str, int], expect: str) -> None:
    """Below half Stamina a character heals: Fire Suit, then water, then a bandage."""
    game = laid_out(make_game)
    bruce = alone(game, "Bruce Long", 2, 2)
    for item, n in kit.items():
        add_item(game, bruce, item, n)
    set_stamina(game, bruce, 42)  # 85 total: below half
    zombie(game, 8, 2, stamina=100)
    assert chosen(game, bruce) == expect
    set_stamina(game, bruce, 42)
    give(game, bruce, "fire_suit")
    assert chosen(game, bruce) == "ability:fire_suit"
    set_stamina(game, bruce, 43)  # not below half: no healing, he goes for the zombie
    assert chosen(game, bruce).startswith(("engage:", "approach:"))


def test_attack_when_engaged_and_speak_when_outnumbered(make_game: Any) -> None:
    """Locked in melee, a character attacks; Costa first gives his Motivational Speech when more than
    one zombie holds him."""
    game = laid_out(make_game)
    costa = alone(game, "Costa Wang", 8, 2)
    zombie(game, 8, 2, stamina=100)
    dice(game, *([9] * 6))
    assert chosen(game, costa) == "attack"
    zombie(game, 8, 2, stamina=100)
    assert chosen(game, costa) == "ability:motivational_speech"


def test_tend_wounds_when_nothing_to_engage(make_game: Any) -> None:
    """The Paramedic tends the wounded rather than walk off, unless a zombie is in reach to engage."""
    game = laid_out(make_game)
    mary, bruce = who(game, "Mary Jacobs"), who(game, "Bruce Long")
    give(game, mary, "tending_to_wounds")
    clear_others(game, [mary, bruce])
    put(game, mary, 2, 2)
    put(game, bruce, 3, 2)
    set_stamina(game, bruce, 80)
    assert chosen(game, mary) == "ability:tending_to_wounds"
    zombie(game, 5, 2)
    assert chosen(game, mary).startswith("engage:")


def test_shoot_the_weakest_then_reload(make_game: Any) -> None:
    game = laid_out(make_game)
    connor = alone(game, "SGT Connor", 7, 2)
    zombie(game, 11, 2, stamina=40)
    weak = zombie(game, 7, 5, stamina=20)
    dice(game, *d100(99))
    assert chosen(game, connor) == f"shoot:{weak}"
    arms(game, connor).rounds = 0
    assert chosen(game, connor) == "reload"


def test_engage_the_nearest_running_only_when_needed(make_game: Any) -> None:
    """The nearest zombie, at a walk where a walk reaches; Dexter always runs (One Shot, One Kill)."""
    game = laid_out(make_game)
    mary = alone(game, "Mary Jacobs", 7, 1)  # walks 3, runs 4
    near = zombie(game, 9, 1, stamina=100)
    zombie(game, 11, 1, stamina=100)
    dice(game, *([9] * 4))
    assert chosen(game, mary) == f"engage:{near}:walk"
    game1 = laid_out(make_game)
    mary1 = alone(game1, "Mary Jacobs", 7, 1)
    at_walk = zombie(game1, 10, 1, stamina=100)  # exactly her walk of 3: walking still
    dice(game1, *([9] * 4))
    assert chosen(game1, mary1) == f"engage:{at_walk}:walk"
    game2 = laid_out(make_game)
    mary2 = alone(game2, "Mary Jacobs", 7, 1)
    far = zombie(game2, 11, 1, stamina=100)
    dice(game2, 10, 10, 9, 9)
    assert chosen(game2, mary2) == f"engage:{far}:run"
    game3 = laid_out(make_game)
    dexter = alone(game3, "Dexter", 7, 1)
    z = zombie(game3, 8, 1, stamina=100)
    dice(game3, 10, 10, 1, 9, 9)
    assert chosen(game3, dexter) == f"engage:{z}:run"


@pytest.mark.parametrize(("aim", "where", "expect"), [
    ("safe", (32, 3), "safe:"), ("locked_door", (32, 5), "unlock:"), ("fuse", (5, 7), "fuse:"),
    ("counter", (17, 2), "salvage:"), ("", (29, 10), "unlock:")])
def test_act_on_the_aim(make_game: Any, aim: str, where: tuple[int, int], expect: str) -> None:
    """Next to what the event aims at, act on it (a locked cabinet is always worth opening)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    bruce = alone(game, "Bruce Long", *where)
    if aim == "safe":
        st.opened.append(board.cell(32, 4))
    dice(game, 1, *d100(99))
    assert chosen(game, bruce, aim).startswith(expect)


def test_do_not_dither_at_a_window_or_the_fuse(make_game: Any) -> None:
    """A window is never broken (docs/sza.md: a broken window only opens the house), and the fuse box
    is fixed in a fight only when it is the aim: the character heads for the aim. Between fights
    (no zombie on the board) a character next to the fuse box fixes it (the dark Level 2
    corridors cost 10 Accuracy, "darkness_penalty")."""
    game = laid_out(make_game)
    bruce = alone(game, "Bruce Long", 5, 7)  # next to the fuse box
    far = zombie(game, 33, 6)  # on level 2, far out of reach
    assert chosen(game, bruce, "stairs") == "goto:stairs"
    put(game, bruce, 19, 3)  # beside the kitchen's window at (20, 3)
    assert chosen(game, bruce, "stairs") == "goto:stairs"
    game.world.delete(far)
    put(game, bruce, 5, 7)
    assert chosen(game, bruce, "stairs").startswith("fuse:")


def test_hunt_and_approach(make_game: Any) -> None:
    """Hunting (or with no aim), approach the nearest zombie out of reach; otherwise go for the aim."""
    game = laid_out(make_game)
    bruce = alone(game, "Bruce Long", 7, 1)
    zombie(game, 13, 6)
    near = zombie(game, 12, 1)
    assert chosen(game, bruce, "hunt") == f"approach:{near}"
    put(game, bruce, 7, 1)
    assert chosen(game, bruce, "stairs") == "goto:stairs"


def test_bandage_when_idle_and_hurt_then_wait(make_game: Any) -> None:
    game = laid_out(make_game)
    mary = alone(game, "Mary Jacobs", 2, 2)
    set_stamina(game, mary, 69)
    assert chosen(game, mary, "nowhere") == "bandage"
    set_stamina(game, mary, 70)
    assert chosen(game, mary, "nowhere") == "wait"


def test_the_car_the_policy_way(make_game: Any) -> None:
    """Aiming at the vehicle: break in, board; the driver drives once everyone who fits is aboard."""
    game = laid_out(make_game, STREET)
    board, st = ctx(game)
    run_system(game, "sza.objective")
    dexter = alone(game, "Dexter", 7, 2)
    dice(game, 10)
    assert chosen(game, dexter, "vehicle") == "break_in"
    assert chosen(game, dexter, "vehicle") == "board"
    _v, car = vehicle(game)
    mary = who(game, "Mary Jacobs")
    put(game, mary, 5, 2)
    assert "drive" in options(game, dexter, board, st)
    assert chosen(game, dexter, "vehicle") != "drive"  # Mary is not aboard yet
    assert chosen(game, mary, "vehicle") == "board"
    clear_others(game, [dexter, mary])
    for other in [e for e in stage_mod.roster(game) if e not in (dexter, mary)]:
        car.passengers.append(other)
    assert chosen(game, dexter, "vehicle") == "drive"
    drive(game, act(game, dexter, board, st, "vehicle"))
    assert vehicle(game)[1].passengers and at(game, dexter)[0] == 0  # at the safe house (x = 0)
    assert "drive" in options(game, dexter, board, st)
    assert chosen(game, dexter, "vehicle") != "drive"  # from there a drive only moves it one square


def test_the_car_leaves_when_the_last_one_who_fits_is_aboard(make_game: Any) -> None:
    """"Everyone who fits": six characters, five seats; the car leaves as the fifth boards (Mary,
    after Dexter and three others), not one passenger later."""
    game = laid_out(make_game, STREET)
    run_system(game, "sza.objective")
    dexter = alone(game, "Dexter", 7, 2)
    mary = who(game, "Mary Jacobs")
    put(game, mary, 5, 2)
    dice(game, 10)
    assert chosen(game, dexter, "vehicle") == "break_in"
    assert chosen(game, dexter, "vehicle") == "board"
    _v, car = vehicle(game)
    car.passengers += [e for e in stage_mod.roster(game) if e not in (dexter, mary)][:3]
    assert chosen(game, dexter, "vehicle") != "drive"  # four aboard: one seat and one character left
    assert chosen(game, mary, "vehicle") == "board"
    assert len(car.passengers) == car.capacity == 5
    assert chosen(game, dexter, "vehicle") == "drive"


def test_no_seat_left_walk_to_the_safe_house(make_game: Any) -> None:
    """The car seats 5 ("capacity 5"): a sixth character heading for it walks to the safe house."""
    game = laid_out(make_game, STREET)
    run_system(game, "sza.objective")
    _v, car = vehicle(game)
    car.unlocked = True
    mary = alone(game, "Mary Jacobs", 9, 3)
    car.passengers.extend(e for e in stage_mod.roster(game) if e != mary)
    assert len(car.passengers) == 5
    assert chosen(game, mary, "vehicle") == "goto:safehouse"


def test_hand_healing_to_a_hurt_ally_that_has_none(make_game: Any) -> None:
    """Trading ("give:<item>:<ally>" to an orthogonally adjacent character): between fights Mary, who
    carries 5 bandages and is unhurt, gives one to Bruce, 25 short with nothing to heal him; an item
    with no rule effect (the oxygen canister) is never given, nor healing to an ally that has some."""
    game, mary, bruce = _mary_beside_bruce(make_game)
    set_stamina(game, bruce, 60)
    assert chosen(game, mary, "stairs") == f"give:bandage:{bruce}"
    assert items(game, bruce)["bandage"] == 1
    assert not chosen(game, bruce, "stairs").startswith("give:")


def test_healing_never_goes_back_and_forth(make_game: Any) -> None:
    """A hurt giver keeps what it needs: Mary, 20 short, holds only a mineral water (3 uses of 10,
    which changes hands whole); Bruce is 25 short with nothing. Giving it would leave Mary short, so
    she does not (else Bruce, then 30 richer and still hurt, would hand it back, turn after turn)."""
    game, mary, bruce = _mary_beside_bruce(make_game)
    items(game, mary).clear()
    add_item(game, mary, "water", 3)
    set_stamina(game, mary, 55)
    set_stamina(game, bruce, 60)
    assert not chosen(game, mary, "stairs").startswith("give:")



@pytest.mark.parametrize(("left", "gift"), [(40, False), (39, True)])
def test_a_gift_in_a_fight_only_to_an_ally_under_half(make_game: Any, left: int, gift: bool) -> None:
    """With zombies on the board, healing goes only to an ally badly hurt: under half its total
    Stamina (docs/sza.md, trading: "Only between fights, or to an ally badly hurt"). At exactly
    half (40 of 80) Bruce gets nothing; at 39 he gets a bandage."""
    game, mary, bruce = _mary_beside_bruce(make_game)
    zombie(game, 33, 6)  # on level 2, far out of reach
    set_stamina(game, bruce, left, 80)
    assert (chosen(game, mary, "stairs") == f"give:bandage:{bruce}") is gift


# -- detours between fights: one free character per salvage spot within DETOUR squares ---------------

def test_between_fights_the_nearest_free_character_detours_for_loot(make_game: Any) -> None:
    """With no zombie on the board, a character two squares from the store room's cabinet (two
    bandages) goes for it on the way to its aim; the parked characters are three squares from it."""
    game = laid_out(make_game)
    bruce = alone(game, "Bruce Long", 3, 6)
    assert chosen(game, bruce, "stairs") == "goto:cabinet"


@pytest.mark.parametrize("aim", ["hunt", "stairs"])
def test_no_detour_while_zombies_are_about(make_game: Any, aim: str) -> None:
    """With a zombie anywhere on the board the character keeps to the matter in hand, two squares
    from the cabinet: its aim, or the zombie when hunting."""
    game = laid_out(make_game)
    bruce = alone(game, "Bruce Long", 3, 6)
    far = zombie(game, 33, 6)  # on level 2, far out of reach
    assert chosen(game, bruce, aim) == ("goto:stairs" if aim == "stairs" else f"approach:{far}")


def test_a_hunting_party_makes_no_detour(make_game: Any) -> None:
    """Hunting (no zombie on the board yet), the character makes no detour for the cabinet."""
    game = laid_out(make_game)
    bruce = alone(game, "Bruce Long", 3, 6)
    assert chosen(game, bruce, "hunt") != "goto:cabinet"


@pytest.mark.parametrize(("turn", "expect"), [(24, "goto:cabinet"), (25, "goto:stairs")])
def test_no_detours_late_in_a_scenario(make_game: Any, turn: int, expect: str) -> None:
    """From turn `DETOUR_TURNS` (25) of a scenario on, the party keeps to its aim."""
    game = laid_out(make_game)
    bruce = alone(game, "Bruce Long", 3, 6)
    stage(game).turn = turn
    assert chosen(game, bruce, "stairs") == expect


def _far_off(game: Any, keep: list[int]) -> None:
    """Every other character in the panic room, far from every salvage spot of level 1."""
    for name in NAMES:
        ent = who(game, name)
        if ent not in keep:
            put(game, ent, 33, 3)


@pytest.mark.parametrize(("where", "expect"), [((2, 4), "goto:cabinet"), ((1, 3), "goto:stairs")])
def test_a_detour_is_at_most_four_squares(make_game: Any, where: tuple[int, int], expect: str) -> None:
    """`DETOUR` is 4: the store room's cabinet at (1, 8) is four squares' walk from (2, 4) in the
    planning room and five from (1, 3). (The lights are on: the fuse box is then no detour.)"""
    game = laid_out(make_game)
    bruce = who(game, "Bruce Long")
    _far_off(game, [bruce])
    put(game, bruce, *where)
    stage(game).flags.append("lights")
    assert chosen(game, bruce, "stairs") == expect


@pytest.mark.parametrize(("aboard", "expect"), [(None, "goto:stairs"), ("Mary Jacobs", "goto:cabinet"),
                                                ("Bruce Long", "wait")])
def test_one_character_per_spot_the_nearest(make_game: Any, aboard: str | None, expect: str) -> None:
    """The free character nearest the spot goes; the others carry on: Bruce, two squares from the
    cabinet, leaves it to Mary, one square from it. A character aboard a vehicle is not free: Mary
    aboard does not take the spot from Bruce, and Bruce aboard goes nowhere on foot."""
    game = laid_out(make_game)
    mary, bruce = who(game, "Mary Jacobs"), who(game, "Bruce Long")
    clear_others(game, [mary, bruce])
    put(game, bruce, 3, 6)
    put(game, mary, 2, 7)
    stage(game).flags.append("lights")  # the fuse box, near them both, is then no detour
    if aboard:
        markers(game, who(game, aboard)).add("aboard")
    assert chosen(game, bruce, "stairs") == expect


@pytest.mark.parametrize(("armed", "expect"), [(False, "goto:stairs"), (True, "goto:locked_cabinet")])
def test_a_magazine_is_worth_a_detour_only_to_a_gun(make_game: Any, armed: bool, expect: str) -> None:
    """The locked cabinet holds a magazine ("loot" in rules.yaml): worth a detour only while someone
    carries a gun (Bruce two squares from it, in the level 2 store room)."""
    game = laid_out(make_game)
    bruce = alone(game, "Bruce Long", 28, 8)
    for name in NAMES:
        arms(game, who(game, name)).ranged = ""
    if armed:
        arms(game, who(game, "SGT Connor")).ranged = "sar21"
    assert chosen(game, bruce, "stairs") == expect

def _politician_and_mary(make_game: Any, zombies_on_mary: int) -> tuple[Any, int, int]:
    game = laid_out(make_game)
    costa, mary = who(game, "Costa Wang"), who(game, "Mary Jacobs")
    clear_others(game, [costa, mary])
    give(game, costa, "morale_boost", "inspire")
    put(game, costa, 4, 2)
    put(game, mary, 2, 2)
    for _ in range(zombies_on_mary):
        zombie(game, 2, 2)
    return game, costa, mary


def test_morale_boost_when_someone_is_outnumbered_and_inspire_an_ally_in_melee(make_game: Any) -> None:
    """Morale Boost (+1 Morale for the combat) when a character is locked in melee with more zombies
    than its Morale; Inspire (+5 for the turn, "within 2 squares") on an ally locked in melee when
    the Politician is too hurt to join the fight; unhurt, he joins it."""
    game, costa, mary = _politician_and_mary(make_game, 2)  # Mary's Morale is 2: both within it
    assert chosen(game, costa, "stairs").startswith("engage:")
    game, costa, mary = _politician_and_mary(make_game, 2)
    set_stamina(game, costa, 20)  # under half his Stamina
    assert chosen(game, costa, "stairs") == f"ability:inspire:{mary}"
    game, costa, mary = _politician_and_mary(make_game, 3)  # three on Mary, whose Morale is 2
    assert chosen(game, costa, "stairs") == "ability:morale_boost"


@pytest.mark.parametrize("turn, key, expect", [(10, False, "6"), (24, False, "6"), (25, False, "7"), (30, False, "7"),
                                              (10, True, "7")])
def test_event_5_the_ceiling_first_unless_late_or_holding_the_key(make_game: Any, turn: int, key: bool,
                                                                  expect: str) -> None:
    """Event 5: the party searches the false ceiling for the key first (6, no zombie comes in), even
    with a Lock-Picker in the party; with the key already in hand, or late in the scenario (turn 25
    on; the limit is 40), it goes straight for the panic room door (7)."""
    game = laid_out(make_game)
    give(game, who(game, "Dexter"), "lock_picking")
    if key:
        add_item(game, who(game, "Mary Jacobs"), "key")
    st = stage(game)
    st.event, st.entered, st.turn = "5", False, turn
    drive(game, stage_mod.events(game))
    assert st.event == expect


@pytest.mark.parametrize("away, expect", [(0, "6"), (1, "5")])
def test_event_4_the_car_when_it_seats_everyone(make_game: Any, away: int, expect: str) -> None:
    """Event 4: six characters and a car that seats 5 walk (6); five take the car (5)."""
    game = laid_out(make_game, STREET)
    for ent in stage_mod.roster(game)[:away]:
        game.world.get(ent, Markers).add("offboard")
    st = stage(game)
    st.event, st.entered = "4", False
    drive(game, stage_mod.events(game))
    assert st.event == expect


# -- the game master -------------------------------------------------------------------------------

def test_zombie_targets_prefer_the_unheld_then_the_nearest_then_the_weakest(make_game: Any) -> None:
    """"A different player character, whenever possible": first a character no other zombie went for
    this turn, then one fewest zombies hold, then the nearest, then the weakest."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary, dexter, bruce = who(game, "Mary Jacobs"), who(game, "Dexter"), who(game, "Bruce Long")
    clear_others(game, [mary, dexter, bruce])
    put(game, mary, 9, 1)
    put(game, dexter, 11, 1)
    put(game, bruce, 13, 4)
    z = zombie(game, 10, 3)
    dice(game, *([9] * 8))
    drive(game, zombie_act(game, z, board, st))
    assert logged(game, "attack")[-1]["target"] in (mary, dexter)
    picked = logged(game, "attack")[-1]["target"]
    z2 = zombie(game, 10, 3)
    drive(game, zombie_act(game, z2, board, st))
    other = dexter if picked == mary else mary
    assert logged(game, "attack")[-1]["target"] == other
    z3 = zombie(game, 12, 3)  # Mary and Dexter are taken this turn: Bruce, though not the nearest
    drive(game, zombie_act(game, z3, board, st))
    assert logged(game, "attack")[-1]["target"] == bruce



def test_a_zombie_goes_only_for_characters_it_has_a_way_to(make_game: Any) -> None:
    """A zombie's victim is chosen among the characters it has a way to: the party in the locked panic
    room are nobody's victims, and the zombie with no one else to go for stays where it is."""
    game = laid_out(make_game)
    board, st = ctx(game)
    for name in NAMES:
        put(game, who(game, name), 33, 3)  # everyone in the panic room, behind its locked door
    z = zombie(game, 30, 5)
    drive(game, zombie_act(game, z, board, st))
    assert not [t for t in markers(game, z).tags if t.startswith("victim:")]
    assert at(game, z) == (30, 5) and not logged(game, "move")

def test_the_weaker_of_two_equally_near(make_game: Any) -> None:
    game = laid_out(make_game)
    board, st = ctx(game)
    mary, dexter = who(game, "Mary Jacobs"), who(game, "Dexter")
    clear_others(game, [mary, dexter])
    put(game, mary, 9, 1)
    put(game, dexter, 11, 1)
    set_stamina(game, dexter, 30)
    z = zombie(game, 10, 3)
    dice(game, *([9] * 4))
    drive(game, zombie_act(game, z, board, st))
    assert logged(game, "attack")[-1]["target"] == dexter


def test_characters_and_the_dog_finish_off_the_weakest(make_game: Any) -> None:
    game = laid_out(make_game)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 8, 2)
    zs = [zombie(game, 8, 2, stamina=s) for s in (40, 20, 30)]
    dice(game, *([9] * 4))
    drive(game, act(game, mary, board, st, ""))
    assert [a["target"] for a in logged(game, "attack")] == [zs[1], zs[2]]
    teoh = alone(game, "CPL Teoh", 7, 1)
    zombie(game, 7, 2, stamina=45)
    weak = zombie(game, 8, 1, stamina=10)
    dice(game, 1)
    drive(game, k9(game, teoh, board, st))
    assert logged(game, "k9")[-1]["target"] == weak


def test_spawn_near_the_party_but_not_on_it(make_game: Any) -> None:
    """The game master brings zombies in at the nearest spawn square at least 3 squares from the party."""
    game = laid_out(make_game)
    for name in ("Bruce Long", "Mary Jacobs", "Dexter", "Costa Wang", "SGT Connor", "CPL Teoh"):
        put(game, who(game, name), 17, 9)  # the bedroom
    drive(game, stage_mod.spawn(game, 1, "level1"))
    assert logged(game, "spawned")[-1]["at"] == [12, 10]  # (19, 10) is 2 squares away; (12, 10) 5
    for name in ("Bruce Long", "Mary Jacobs", "Dexter", "Costa Wang", "SGT Connor", "CPL Teoh"):
        put(game, who(game, name), 28, 2)  # level 2: nothing on level 1 is reachable but by the stairs
    drive(game, stage_mod.spawn(game, 1, "level2"))
    assert logged(game, "spawned")[-1]["at"] == [23, 9]
    for name in ("Bruce Long", "Mary Jacobs", "Dexter", "Costa Wang", "SGT Connor", "CPL Teoh"):
        put(game, who(game, name), 4, 1)  # the kitchen: (1, 2) is 3 squares away, the next 6
    drive(game, stage_mod.spawn(game, 1, "level1"))
    assert logged(game, "spawned")[-1]["at"] == [1, 2]


def test_rest_heuristic(make_game: Any) -> None:
    """Resting: water when 10 or more short, a bandage when 5 or more, else done."""
    game = laid_out(make_game, STREET)
    ents = {who(game, n): n for n in ("Mary Jacobs", "Dexter", "CPL Teoh")}
    mary, dexter, teoh = list(ents)
    add_item(game, mary, "water")
    set_stamina(game, mary, 65)  # 10 short: water, then full
    set_stamina(game, dexter, 65)  # 5 short: a bandage
    set_stamina(game, teoh, 61)  # 4 short: done
    drive(game, stage_mod.rest(game))
    assert [(r["piece"], r["item"]) for r in logged(game, "rested")] == [(mary, "water"), (dexter, "bandage")]


def test_the_party_fixes_the_lights_first_and_takes_the_first_squares(make_game: Any) -> None:
    """Event 1: the party goes for the circuit breaker (the Level 2 corridors are dark); characters
    take the first free start squares."""
    game = laid_out(make_game)
    drive(game, stage_mod.events(game))
    assert stage(game).event == "4"
    assert [at(game, who(game, n)) for n in ("Bruce Long", "Mary Jacobs", "Dexter", "Costa Wang", "SGT Connor",
                                             "CPL Teoh")] == [(1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (1, 2)]


def test_otherwise_approach_the_first(make_game: Any) -> None:
    """With an aim that is nowhere on this board and zombies out of reach, approach the first zombie
    on the list (the one that came first)."""
    game = laid_out(make_game, STREET)
    mary = alone(game, "Mary Jacobs", 23, 3)
    first = zombie(game, 2, 3)
    zombie(game, 14, 3)
    assert chosen(game, mary, "stairs") == f"approach:{first}"


SPAWN_MAP = """\
pen:
  title: Pen
  size: [7, 3]
  rooms:
    yard: {title: Yard, area: [0, 0, 5, 3]}
    cell: {title: Cell, area: [6, 0, 1, 3]}
  features: []
  spawns:
    s: [[6, 1], [2, 1], [4, 0], [4, 2]]
  start: yard
"""
SPAWN_SCENARIO = """\
pen:
  title: Pen
  map: pen
  zombies: 5
  first: "1"
  events:
    "1": {title: Wait, end: won}
"""


def test_spawn_squares_on_a_small_board(make_game: Any, tmp_path: Path) -> None:
    """The nearest square at least 3 from the party, the first listed of equally near ones; when every
    reachable square is nearer than 3, the first of those rather than one the party cannot reach
    (the walled-off cell)."""
    target = custom_scenario(tmp_path, SPAWN_MAP, SPAWN_SCENARIO,
                             "  - {prefab: campaign, set: {SzaStage: {stages: [pen]}}}\n  - {prefab: dexter}\n")
    spots = []
    for where in ((0, 1), (2, 2)):  # (4, 0) and (4, 2) both 4 away; then (2, 1) 1 and (4, 0), (4, 2) 2
        game = laid_out(make_game, target)
        put(game, who(game, "Dexter"), *where)
        drive(game, stage_mod.spawn(game, 1, "s"))
        spots.append(logged(game, "spawned")[-1]["at"])
    assert spots == [[4, 0], [2, 1]]


def test_the_panic_room_door_is_left_to_a_free_lock_picker(make_game: Any) -> None:
    """Forcing the panic room's door is a Strength check a turn; a Lock-Picker opens it with no
    roll. So, aiming at the door, a character without Lock-Picking (and no key in the party) leaves
    it to a Lock-Picker free of melee; he forces it himself once the Lock-Picker is held in melee or
    someone holds the key, and the Lock-Picker always opens it. Not aiming at it, nobody does."""
    game = laid_out(make_game)
    board, st = ctx(game)
    door = board.features["locked_door"][0]
    unlock = f"unlock:{door}"
    bruce, dexter = who(game, "Bruce Long"), who(game, "Dexter")
    give(game, dexter, "lock_picking")
    assert _useful(game, st, unlock, "locked_door", None)  # nobody in particular: worth it
    assert not _useful(game, st, unlock, "fuse", bruce)
    assert not _useful(game, st, unlock, "locked_door", bruce)
    assert _useful(game, st, unlock, "locked_door", dexter)
    add_item(game, who(game, "Mary Jacobs"), "key")
    assert _useful(game, st, unlock, "locked_door", bruce)
    items(game, who(game, "Mary Jacobs"))["key"] = 0
    assert not _useful(game, st, unlock, "locked_door", bruce)
    x, y = at(game, dexter)
    zombie(game, x, y)  # Dexter locked in melee
    assert _useful(game, st, unlock, "locked_door", bruce)


def test_inspire_goes_to_an_ally_held_in_melee_not_yet_inspired(make_game: Any) -> None:
    """Inspire is worth a turn on an ally locked in melee, never on one free of it, nor twice on one
    already inspired this turn."""
    game, _costa, mary = _politician_and_mary(make_game, 1)
    bruce = who(game, "Bruce Long")
    put(game, bruce, 4, 3)
    opts = [f"ability:inspire:{bruce}", f"ability:inspire:{mary}", "wait"]
    assert _inspire(game, opts, [0, 1, 2]) == 1
    assert _inspire(game, opts, [0, 2]) is None  # Bruce is free of melee
    markers(game, mary).add("inspired")
    assert _inspire(game, opts, [0, 1, 2]) is None


def test_the_healing_a_character_carries(make_game: Any) -> None:
    """"bandages +5 ... mineral water +10": what a character's bandages and water would give back,
    counted for trading (2 bandages and a bottle: 20; a bottle alone: 10; nothing: 0)."""
    game = laid_out(make_game)
    mary = who(game, "Mary Jacobs")
    items(game, mary).clear()
    assert _healing(game, mary) == 0
    add_item(game, mary, "water")
    assert _healing(game, mary) == 10
    add_item(game, mary, "bandage")
    add_item(game, mary, "bandage")
    assert _healing(game, mary) == 20


@pytest.mark.parametrize("why", ["in melee", "infected"])
def test_no_gift_to_an_ally_in_melee_or_infected(make_game: Any, why: str) -> None:
    """Trading takes two turns: not with an ally locked in melee, nor with an infected one (what it
    needs is the cure). Bruce badly hurt (39 of 80) is worth Mary's bandage, but not then."""
    game, mary, bruce = _mary_beside_bruce(make_game)
    board, st = ctx(game)
    set_stamina(game, bruce, 39, 80)
    zombie(game, 33, 6)  # on level 2, far out of reach
    opts = [f"give:bandage:{bruce}"]
    assert _gift(game, mary, opts, [0]) == 0
    if why == "in melee":
        zombie(game, 3, 3)
    else:
        harm(game, bruce, 39, board, st, "test")
    assert _gift(game, mary, opts, [0]) is None


def test_a_hurt_giver_keeps_the_bandage_it_needs(make_game: Any) -> None:
    """A giver keeps what heals it: Mary, 5 short, holds one bandage (+5); Bruce, 25 short, has
    none. Giving it would leave her short, so she does not."""
    game, mary, bruce = _mary_beside_bruce(make_game)
    items(game, mary).clear()
    add_item(game, mary, "bandage")
    set_stamina(game, mary, 70)
    set_stamina(game, bruce, 60)
    assert not chosen(game, mary, "stairs").startswith("give:")
    put(game, mary, 2, 3)  # back beside Bruce, unhurt: the bandage can go
    set_stamina(game, mary, 75)
    assert chosen(game, mary, "stairs") == f"give:bandage:{bruce}"


@pytest.mark.parametrize(("mary_short", "bruce_short", "gift"), [(5, 25, True), (6, 25, False), (0, 10, True),
                                                                 (0, 9, False)])
def test_a_gift_at_its_bounds(make_game: Any, mary_short: int, bruce_short: int, gift: bool) -> None:
    """Healing goes to an ally 10 or more short (10 yes, 9 no), from a giver whose remaining items
    still heal all it is missing: Mary with two bandages (+5 each) gives one when 5 short (the
    other heals her 5), not when 6 short."""
    game, mary, bruce = _mary_beside_bruce(make_game)
    items(game, mary).clear()
    add_item(game, mary, "bandage", 2)
    items(game, bruce).clear()
    set_stamina(game, mary, 75 - mary_short)
    set_stamina(game, bruce, 85 - bruce_short)
    assert (_gift(game, mary, [f"give:bandage:{bruce}"], [0]) == 0) is gift


def test_a_magazine_goes_to_a_rifle_with_none_from_one_without(make_game: Any) -> None:
    """A spare magazine is worth a trade to a SAR-21 carrier with none left, from a character with
    no SAR-21 of its own: not to one who still has a spare, nor to one with no rifle, nor from a
    rifleman (he keeps it for his own)."""
    game = laid_out(make_game)
    mary, connor, bruce = who(game, "Mary Jacobs"), who(game, "SGT Connor"), who(game, "Bruce Long")
    clear_others(game, [mary, connor, bruce])
    for ent, xy in ((mary, (2, 3)), (connor, (3, 3)), (bruce, (2, 2))):
        put(game, ent, *xy)
    arms(game, connor).magazines = 0
    assert arms(game, connor).ranged and not arms(game, mary).ranged and not arms(game, bruce).ranged
    opts = [f"give:magazine:{connor}", f"give:magazine:{bruce}"]
    assert _gift(game, mary, opts, [0, 1]) == 0
    assert _gift(game, mary, opts, [1]) is None  # Bruce carries no rifle
    arms(game, mary).ranged = "sar21"
    assert _gift(game, mary, opts, [0]) is None
    arms(game, mary).ranged = ""
    arms(game, connor).magazines = 1
    assert _gift(game, mary, opts, [0]) is None


def test_left_behind_when_the_car_is_full_or_gone(make_game: Any) -> None:
    """Heading for the car, a character walks to the safe house instead when it is not aboard and
    every seat is taken, or when there is no car."""
    game = laid_out(make_game, STREET)
    roster = stage_mod.roster(game)
    ent, car = vehicle(game)
    me = roster[5]
    assert not _left_behind(game, me)
    car.passengers[:] = roster[:4]
    assert not _left_behind(game, me)  # a seat left
    car.passengers[:] = roster[:5]
    assert _left_behind(game, me)
    car.passengers[:] = roster[1:6]
    assert not _left_behind(game, me)  # aboard himself
    game.world.delete(ent)
    assert _left_behind(game, me)


def test_what_is_worth_a_detour(make_game: Any) -> None:
    """Healing always; a magazine while someone carries a SAR-21; the false ceiling's key while the
    panic room is shut and nobody holds one; the fuse box while the lights are off; the safe's
    documents never."""
    game = laid_out(make_game)
    st = stage(game)
    assert _worth(game, st, "cabinet") and _worth(game, st, "counter") and not _worth(game, st, "safe")
    assert _worth(game, st, "fuse")
    st.flags.append("lights")
    assert not _worth(game, st, "fuse")
    assert _worth(game, st, "locked_cabinet")
    for name in NAMES:
        arms(game, who(game, name)).ranged = ""
    assert not _worth(game, st, "locked_cabinet")
    assert _worth(game, st, "ceiling")
    add_item(game, who(game, "Dexter"), "key")
    assert not _worth(game, st, "ceiling")
    items(game, who(game, "Dexter"))["key"] = 0
    st.flags.append("opened_locked_door")
    assert not _worth(game, st, "ceiling")


def test_a_feature_not_walked_on_is_reached_beside_it(make_game: Any) -> None:
    """Squares to a feature: to its own square when it is walked on, else one more than to the
    nearest square beside it (the fuse box at (5, 6) sits in a wall); none beside it reachable,
    unreachable."""
    game = laid_out(make_game)
    board, _st = ctx(game)
    fuse = board.cell(5, 6)
    beside = board.around(fuse)
    assert _reach({fuse: 2}, board, fuse) == 2
    assert _reach({beside[0]: 3, beside[-1]: 5}, board, fuse) == 4
    assert _reach({}, board, fuse) == UNSEEN


def _event_choice(game: Any, event: str, options: list[str]) -> str:
    return options[event_choice(game, Decision("party", "sza.event_choice", options, {"event": event}))]


def test_event_choices_follow_the_text_not_the_list_order(make_game: Any) -> None:
    """The party's choice is read from the choices' texts, whatever their order: event 1 of the
    bungalow fixes the circuit breaker while the lights are off, else rushes for the stairs; event 1
    of the street clears it; event 4 takes the car when it seats every character, and walks when
    there is no car."""
    stairs, search, fuse = ("Rush for the stairs and the panic room", "Search the ground floor for supplies first",
                            "Fix the circuit breaker so the lights come back")
    game = laid_out(make_game)
    assert _event_choice(game, "1", [search, stairs, fuse]) == fuse
    stage(game).flags.append("lights")
    assert _event_choice(game, "1", [search, fuse, stairs]) == stairs
    street = laid_out(make_game, STREET)
    clear, creep = "Clear the street of zombies", "Creep from bush to bush"
    assert _event_choice(street, "1", [creep, clear]) == clear
    drive_off, walk = "Break into the car and drive", "Walk the rest of the way"
    for ent in stage_mod.roster(street)[1:]:
        markers(street, ent).add("offboard")  # one character left: the car seats him
    assert _event_choice(street, "4", [walk, drive_off]) == drive_off
    street.world.delete(vehicle(street)[0])
    assert _event_choice(street, "4", [drive_off, walk]) == walk
