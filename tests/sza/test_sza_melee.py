"""Melee through play ("Engagement", "Combat Sequence (Melee)", WEAPONS TABLE (Melee), BONUS ATTACK
VALUE TABLE, "Damage & Infection", the map descriptions' room effects). Dice are forced; every
expected chance, damage and Stamina is worked from the book's numbers and written as a literal."""

from __future__ import annotations

from typing import Any

import pytest
from sza_helpers import (
    STREET,
    alone,
    arms,
    at,
    attrs,
    ctx,
    d100,
    dice,
    drive,
    engaged_with,
    exists,
    infection,
    laid_out,
    logged,
    put,
    rolled,
    set_attrs,
    set_stamina,
    stamina,
    who,
    zombie,
)

from ecs_zombie.systems.sza import stage as stage_mod
from ecs_zombie.systems.sza.actions import perform
from ecs_zombie.systems.sza.combat import strike
from ecs_zombie.systems.sza.state import accuracy, harm
from ecs_zombie.systems.sza.zombies import zombie_act

# WEAPONS TABLE (Melee): damage die sides; Stationery Accuracy modifier. Every weapon: running
# -5 accuracy / +5 damage, walking -3 / +3 (and DESIGN CHOICE: no damage modifier when stationary).
WEAPONS = {
    "fire_axe": (8, 3), "police_baton": (8, 5), "screwdriver": (4, 10), "golf_club": (8, 5),
    "bowie_knife": (6, 7), "baseball_bat": (6, 7), "crowbar": (10, 3), "bayonet": (8, 5),
    "cricket_bat": (6, 7), "pocket_knife": (4, 10),
}
PACES = {"run": (-5, 5), "walk": (-3, 3)}


def bruce_with(game: Any, weapon: str) -> int:
    """Bruce Long alone in the dining room, Accuracy 60 and Strength 50 (no Bonus Attack Value)."""
    bruce = alone(game, "Bruce Long", 7, 1)
    set_attrs(game, bruce, accuracy=60, strength=50)
    arms(game, bruce).melee = weapon
    return bruce


@pytest.mark.parametrize("weapon", sorted(WEAPONS))
@pytest.mark.parametrize("pace", ["run", "walk", "still"])
def test_weapons_table_melee(make_game: Any, weapon: str, pace: str) -> None:
    """"Subtract the appropriate Accuracy Modifier ... to the character's total Accuracy" when
    walking or running, add the Stationery one when stationary; a d100 "less than or equal to" the
    chance hits; damage is the weapon's dice plus the engagement's damage modifier (Strength 50
    adds +0)."""
    sides, still = WEAPONS[weapon]
    acc_mod, dmg_mod = PACES.get(pace, (still, 0))
    game = laid_out(make_game)
    board, st = ctx(game)
    bruce = bruce_with(game, weapon)
    chance = 60 + acc_mod
    if pace == "still":
        put(game, bruce, 8, 1)
    z = zombie(game, 8, 1, stamina=100)
    if pace == "still":
        dice(game, *d100(chance), sides)
        drive(game, perform(game, bruce, "attack", board, st))
    else:
        surprise = [10, 10] if pace == "run" else []  # a tied Surprise check: no free attack
        dice(game, *surprise, *d100(chance), sides)
        drive(game, perform(game, bruce, f"engage:{z}:{pace}", board, st))
    assert [(a["target"], a["pace"], a["chance"], a["roll"], a["hit"]) for a in logged(game, "attack")] == \
        [(z, pace, chance, chance, True)]
    assert rolled(game, "melee damage") == [(f"1d{sides}", [sides])]
    assert stamina(game, z) == 100 - (sides + dmg_mod)


@pytest.mark.parametrize(("pace", "chance"), [("run", 55), ("walk", 57), ("still", 63)])
def test_a_roll_over_the_chance_misses(make_game: Any, pace: str, chance: int) -> None:
    """"If the number rolled is higher than the character's chance to hit, the attacking character
    misses": one over the chance (Fire Axe, Accuracy 60) misses and deals nothing."""
    game = laid_out(make_game)
    board, st = ctx(game)
    bruce = bruce_with(game, "fire_axe")
    if pace == "still":
        put(game, bruce, 8, 1)
    z = zombie(game, 8, 1, stamina=100)
    if pace == "still":
        dice(game, *d100(chance + 1))
        drive(game, perform(game, bruce, "attack", board, st))
    else:
        dice(game, *([10, 10] if pace == "run" else []), *d100(chance + 1))
        drive(game, perform(game, bruce, f"engage:{z}:{pace}", board, st))
    assert [(a["chance"], a["roll"], a["hit"]) for a in logged(game, "attack")] == [(chance, chance + 1, False)]
    assert stamina(game, z) == 100 and not rolled(game, "melee damage")


@pytest.mark.parametrize(("strength", "bonus"), [(50, 0), (59, 0), (60, 1), (69, 1), (70, 2), (79, 2), (80, 3),
                                                 (89, 3), (90, 4), (100, 4)])
def test_bonus_attack_value_table(make_game: Any, strength: int, bonus: int) -> None:
    """BONUS ATTACK VALUE TABLE (Strength): < 60 +0, 60-69 +1, 70-79 +2, 80-89 +3, > 90 +4 (DESIGN
    CHOICE: 90 is in the top band), added to the weapon's damage."""
    game = laid_out(make_game)
    board, st = ctx(game)
    bruce = bruce_with(game, "fire_axe")
    set_attrs(game, bruce, strength=strength)
    put(game, bruce, 8, 1)
    z = zombie(game, 8, 1, stamina=100)
    dice(game, 1, 10, 5)  # d100 10 hits; the d8 shows 5
    drive(game, perform(game, bruce, "attack", board, st))
    assert stamina(game, z) == 100 - (5 + bonus)


def test_book_example_bruce_long_running(make_game: Any) -> None:
    """The book's example: Accuracy 55, running -5: a 50% chance; 20 hits; the die's 5, +5 running,
    +1 Bonus Attack Value (Strength 60): 11 off the zombie's Stamina. (The example rolls a d6 for the
    Fire Axe; the WEAPONS TABLE's 1d8 is followed, a 5 either way.)"""
    game = laid_out(make_game)
    board, st = ctx(game)
    bruce = alone(game, "Bruce Long", 7, 1)
    set_attrs(game, bruce, accuracy=55, strength=60)
    z = zombie(game, 9, 1, stamina=30)
    dice(game, 10, 10, 2, 10, 5)  # Surprise 1d20s tie (no free attack), d100 20, d8 5
    drive(game, perform(game, bruce, f"engage:{z}:run", board, st))
    assert [(a["chance"], a["roll"], a["hit"]) for a in logged(game, "attack")] == [(50, 20, True)]
    assert stamina(game, z) == 19
    assert at(game, bruce) == (9, 1) and engaged_with(game, bruce) == [z]


# -- the NPC zombie (DESIGN CHOICE: Stamina 50, Strength 70, Accuracy 70, Morale 1, a 1d10 bite) --

@pytest.mark.parametrize(("start", "pace", "chance", "dmg_mod"), [((8, 2), "still", 70, 0), ((10, 2), "walk", 67, 3),
                                                                  ((11, 2), "run", 65, 5)])
def test_zombie_bite(make_game: Any, start: tuple[int, int], pace: str, chance: int, dmg_mod: int) -> None:
    """The NPC zombie (DESIGN CHOICE): Accuracy 70, a 1d10 bite with the WEAPONS TABLE's movement
    modifiers and no stationary one, Strength 70 (+2). It walks 2 squares indoors and runs 3."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 8, 2)
    z = zombie(game, *start)
    dice(game, *([10, 10] if pace == "run" else []), *d100(chance), 10)
    drive(game, zombie_act(game, z, board, st))
    assert [(a["attacker"], a["pace"], a["chance"], a["hit"]) for a in logged(game, "attack")] == \
        [(z, pace, chance, True)]
    assert rolled(game, "melee damage") == [("1d10", [10])]
    assert stamina(game, mary) == 75 - (10 + dmg_mod + 2)


def test_zombie_stamina_50_and_elimination_at_zero(make_game: Any) -> None:
    """A zombie at 0 Stamina or below is eliminated (DESIGN CHOICE: the NPC zombie has Stamina 50)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    z = zombie(game, 12, 6)
    assert stamina(game, z) == 50
    harm(game, z, 49, board, st, "test")
    assert exists(game, z) and stamina(game, z) == 1
    harm(game, z, 1, board, st, "test")
    assert not exists(game, z)
    assert logged(game, "destroyed") == [{"piece": z, "piece_kind": "zombie", "why": "test"}]


def test_zombie_morale_one_attacks_one_character(make_game: Any) -> None:
    """"The zombie may now choose to attack either green or blue, but not both (zombies are stupid)"
    (DESIGN CHOICE: Morale 1): locked with two characters, it attacks one of them."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary, dexter = who(game, "Mary Jacobs"), who(game, "Dexter")
    alone(game, "Mary Jacobs", 8, 2)
    put(game, dexter, 8, 2)
    z = zombie(game, 8, 2)
    dice(game, 9, 9, 9, 9)
    asked = drive(game, zombie_act(game, z, board, st), {"sza.zombie_target": dexter})
    assert [d.kind for d in asked] == ["sza.zombie_target"] and set(asked[0].options) == {mary, dexter}
    assert [a["target"] for a in logged(game, "attack")] == [dexter]


def test_morale_attacks_every_engaged_zombie_within_it(make_game: Any) -> None:
    """"Green has a Morale derivative attribute of 3, meaning that he can attack up to 3 zombies per
    turn. Green is engaged in combat with 2 zombies ... attack both": no choice to make."""
    game = laid_out(make_game)
    board, st = ctx(game)
    connor = alone(game, "SGT Connor", 8, 2)  # Morale 3
    zs = [zombie(game, 8, 2, stamina=100) for _ in range(2)]
    asked = drive(game, perform(game, connor, "attack", board, st))
    assert not asked and [a["target"] for a in logged(game, "attack")] == zs


def test_morale_caps_attacks(make_game: Any) -> None:
    """Mary Jacobs (Morale 2) engaged with three zombies attacks two of them, chosen one at a time."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 8, 2)
    zs = [zombie(game, 8, 2, stamina=100) for _ in range(3)]
    asked = drive(game, perform(game, mary, "attack", board, st), {"sza.melee_target": lambda d: d.options[-1]})
    assert [d.kind for d in asked] == ["sza.melee_target", "sza.melee_target"]
    assert [a["target"] for a in logged(game, "attack")] == [zs[2], zs[1]]


# -- Damage & Infection --------------------------------------------------------------------------

def test_stamina_at_zero_infects(make_game: Any) -> None:
    """"When the Stamina reaches 0 or goes below it, the character is Infected": a bite leaving 1
    does not infect; one leaving exactly 0 does."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 8, 2)
    z = zombie(game, 8, 2)
    set_stamina(game, mary, 13)  # a bite of 10 + 2 (Strength 70) = 12
    dice(game, 1, 10, 10)
    drive(game, zombie_act(game, z, board, st))
    assert stamina(game, mary) == 1 and not infection(game, mary).infected
    set_stamina(game, mary, 12)
    dice(game, 1, 10, 10)
    drive(game, zombie_act(game, z, board, st))
    assert stamina(game, mary) == 0 and infection(game, mary).infected
    assert logged(game, "infected") == [{"character": mary, "turns": 3}]  # total Stamina 75: 3 turns


# -- the map descriptions' room effects ---------------------------------------------------------

def test_tables_and_counters_give_plus_three_when_stationary(make_game: Any) -> None:
    """"Tables provide a + 3 to Accuracy while a character or zombie is stationery and positioned on
    it" (dining room, planning room, level 2 corridors); kitchen counter tops likewise. Not when
    walking onto it; a zombie on a table gets it too."""
    game = laid_out(make_game)
    board, st = ctx(game)
    bruce = alone(game, "Bruce Long", 9, 3)  # a dining table; Accuracy 60, Fire Axe +3 stationary
    z = zombie(game, 9, 3, stamina=100)
    dice(game, 9, 9)
    drive(game, perform(game, bruce, "attack", board, st))
    put(game, bruce, 16, 1)  # a kitchen counter
    z2 = zombie(game, 16, 1, stamina=100)
    game.world.delete(z)
    dice(game, 9, 9)
    drive(game, perform(game, bruce, "attack", board, st))
    put(game, bruce, 17, 2)  # beside the counter: no bonus; then walk onto the counter square
    z3 = zombie(game, 17, 1, stamina=100)
    game.world.delete(z2)
    dice(game, 9, 9)
    drive(game, perform(game, bruce, f"engage:{z3}:walk", board, st))
    dice(game, 9, 9)
    drive(game, zombie_act(game, z3, board, st))  # the zombie, stationary on the counter
    assert [a["chance"] for a in logged(game, "attack")] == [66, 66, 57, 73]


def test_darkness_costs_characters_ten_until_the_lights(make_game: Any) -> None:
    """Store Room: "extremely dark" (DESIGN CHOICE: -10 Accuracy, `darkness_penalty`) for
    characters, not for zombies, until the fuse box is fixed."""
    game = laid_out(make_game)
    board, st = ctx(game)
    bruce = alone(game, "Bruce Long", 2, 7)
    z = zombie(game, 2, 7, stamina=100)
    dice(game, 9, 9, 9, 9)
    drive(game, perform(game, bruce, "attack", board, st))
    drive(game, zombie_act(game, z, board, st))
    st.flags.append("lights")
    dice(game, 9, 9)
    drive(game, perform(game, bruce, "attack", board, st))
    assert [a["chance"] for a in logged(game, "attack")] == [53, 70, 63]



def test_darkness_is_no_penalty_to_zombies_nor_the_risen(make_game: Any) -> None:
    """The dark Store Room's -10 (DESIGN CHOICE, `darkness_penalty`) is the characters' alone: a
    zombie's total Accuracy there is its own, and so is that of a character risen as a zombie
    (which keeps its infection) - the total that orders the zombies' initiative."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 2, 7)
    z = zombie(game, 2, 8)
    own = attrs(game, mary).accuracy
    assert accuracy(game, mary, board, st) == own - 10
    assert accuracy(game, z, board, st) == attrs(game, z).accuracy
    set_stamina(game, mary, 5, 50)
    harm(game, mary, 5, board, st, "test")
    for _ in range(3):
        stage_mod.infection(game)
    assert logged(game, "risen") and infection(game, mary).infected
    assert accuracy(game, mary, board, st) == own

def test_darkness_penalty_is_a_parameter(make_game: Any) -> None:
    game = laid_out(make_game, params={"darkness_penalty": 25})
    board, st = ctx(game)
    bruce = alone(game, "Bruce Long", 2, 7)
    zombie(game, 2, 7, stamina=100)
    dice(game, 9, 9)
    drive(game, perform(game, bruce, "attack", board, st))
    assert [a["chance"] for a in logged(game, "attack")] == [38]


def test_wardrobe_takes_three_off_zombies(make_game: Any) -> None:
    """Walk-In Wardrobe: "Good cover against zombies. -3 to zombies' Accuracy" (not to characters)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 8, 9)
    z = zombie(game, 8, 9, stamina=100)
    dice(game, 9, 9, 9, 9)
    drive(game, zombie_act(game, z, board, st))
    drive(game, perform(game, mary, "attack", board, st))  # Accuracy 75, Pocket Knife +10
    assert [a["chance"] for a in logged(game, "attack")] == [67, 85]


# -- Surprise ------------------------------------------------------------------------------------

def test_surprise_free_attack(make_game: Any) -> None:
    """Surprise: "roll a 1d20 ... the party with the higher score is the winner" and gets "a free
    attack before proper combat begins"; "A draw ... the SURPRISE CHECK failed". The engaged side's
    free attack is stationary (DESIGN CHOICE)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    bruce = alone(game, "Bruce Long", 7, 1)  # Accuracy 60, Strength 75 (+2), Fire Axe
    z = zombie(game, 9, 1, stamina=100)
    dice(game, 15, 3, 1, 10, 2, 1, 10, 2)  # Bruce wins 15-3: free attack, then his attack
    drive(game, perform(game, bruce, f"engage:{z}:run", board, st))
    assert [(a["why"], a["pace"], a["chance"]) for a in logged(game, "attack", attacker=bruce)] == \
        [("surprise", "run", 55), ("melee", "run", 55)]
    assert rolled(game, "surprise (engaging)") == [("1d20", [15])]
    assert logged(game, "surprise") == [{"mover": bruce, "target": z, "rolls": [15, 3]}]
    assert stamina(game, z) == 100 - 2 * (2 + 5 + 2)
    z2 = zombie(game, 11, 1, stamina=100)
    before = stamina(game, bruce)
    put(game, bruce, 9, 2)
    dice(game, 4, 18, 1, 10, 3, 9, 9)  # the zombie wins: its free attack (stationary, 10 hits, 1d10 3)
    drive(game, perform(game, bruce, f"engage:{z2}:run", board, st))
    assert [(a["why"], a["pace"], a["chance"]) for a in logged(game, "attack", attacker=z2)] == \
        [("surprise", "still", 70)]
    assert stamina(game, bruce) == before - (3 + 0 + 2)
    z3 = zombie(game, 13, 1, stamina=100)
    put(game, bruce, 11, 2)
    dice(game, 7, 7, 9, 9)  # a draw: no free attack for anyone; Bruce's own attack misses
    drive(game, perform(game, bruce, f"engage:{z3}:run", board, st))
    assert [a["why"] for a in logged(game, "attack", target=z3)] == ["melee"]
    assert not logged(game, "attack", attacker=z3)


def test_surprise_is_a_parameter(make_game: Any) -> None:
    """The game master "permits" Surprise: with `surprise` off a running engagement rolls none."""
    game = laid_out(make_game, params={"surprise": False})
    board, st = ctx(game)
    bruce = alone(game, "Bruce Long", 7, 1)
    z = zombie(game, 9, 1, stamina=100)
    dice(game, 9, 9)
    drive(game, perform(game, bruce, f"engage:{z}:run", board, st))
    assert not logged(game, "surprise") and [a["why"] for a in logged(game, "attack")] == ["melee"]


def test_walking_engagement_has_no_surprise(make_game: Any) -> None:
    """Surprise "usually happens when the character engages a zombie in combat while running"."""
    game = laid_out(make_game)
    board, st = ctx(game)
    bruce = alone(game, "Bruce Long", 7, 1)
    z = zombie(game, 8, 1, stamina=100)
    dice(game, 9, 9)
    drive(game, perform(game, bruce, f"engage:{z}:walk", board, st))
    assert not logged(game, "surprise") and not rolled(game, "surprise (engaging)")


@pytest.mark.parametrize(("pace", "chance", "dmg_mod"), [("run", 65, 5), ("walk", 67, 3), ("still", 75, 0)])
def test_ah_booi_and_his_parang(make_game: Any, pace: str, chance: int, dmg_mod: int) -> None:
    """NPC Bio Data: Ah Booi, "Accuracy - 70, Damage (Parang) - 1d6" (DESIGN CHOICE: the parang's
    modifiers those of a bowie-knife-like blade, +5 stationary; Strength 50: +0). The safe-house
    people do not fight in the scenarios; his statistics are what a fight would use."""
    game = laid_out(make_game, STREET)
    board, st = ctx(game)
    booi = who(game, "Ah Booi")
    z = zombie(game, *at(game, booi), stamina=100)
    dice(game, *d100(chance), 6)
    strike(game, booi, z, pace, board, st)
    assert [(a["chance"], a["hit"]) for a in logged(game, "attack")] == [(chance, True)]
    assert rolled(game, "melee damage") == [("1d6", [6])] and stamina(game, z) == 100 - (6 + dmg_mod)



def test_a_piece_of_neither_side_engages_both_in_id_order(make_game: Any) -> None:
    """A piece of neither side (a hybrid's third party) landing on a square engages every piece of
    both sides there, in entity id order whatever side each is on: a zombie made before a character
    comes first."""
    from ecs_zombie.components import Engaged, Faction
    from ecs_zombie.systems.sza.state import engage_square

    game = laid_out(make_game)
    first = zombie(game, 10, 2)
    later = zombie(game, 11, 2)
    game.world.add(later, Faction("survivors"))  # a character made after the zombie
    put(game, later, 10, 2)
    third = zombie(game, 12, 2)
    game.world.add(third, Faction("bystanders"))
    put(game, third, 10, 2)
    assert engage_square(game, third) == [first, later]
    assert game.world.get(third, Engaged).opponents == [first, later]


def test_all_targets_that_fit_the_morale_are_attacked_without_a_choice(make_game: Any) -> None:
    """Morale: "all of them when they fit": two zombies for a Morale of 2 are both attacked, and
    nobody is asked which."""
    from ecs_zombie.systems.sza.state import morale, morale_targets

    game = laid_out(make_game)
    mary = who(game, "Mary Jacobs")
    assert morale(game, mary) == 2
    zs = [zombie(game, 20 + i, 2) for i in range(3)]
    both = morale_targets(game, mary, zs[:2], "sza.melee_target")
    with pytest.raises(StopIteration) as done:
        next(both)  # no decision: the generator ends at once with both targets
    assert done.value.value == zs[:2]
    assert len(drive(game, morale_targets(game, mary, zs, "sza.melee_target"))) == 2  # 3 for 2: asked twice
