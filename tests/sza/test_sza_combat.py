"""Infection and the game master's zombies through play ("Damage & Infection", INFECTION TABLE,
"Play Criteria", the map descriptions' hiding places). Dice are forced; expectations are literals."""

from __future__ import annotations

from typing import Any

import pytest
from sza_helpers import (
    STREET,
    ZOMBIES,
    alone,
    arms,
    at,
    attrs,
    character,
    clear_others,
    ctx,
    d100,
    dice,
    drive,
    engaged_with,
    infection,
    kind,
    laid_out,
    logged,
    markers,
    owner,
    put,
    set_stamina,
    side,
    stamina,
    total_stamina,
    who,
    zombie,
)

from ecs_zombie.systems.sza import stage as stage_mod
from ecs_zombie.systems.sza import turn as turn_mod
from ecs_zombie.systems.sza.actions import perform
from ecs_zombie.systems.sza.state import engage_square, harm
from ecs_zombie.systems.sza.zombies import zombie_act


@pytest.mark.parametrize(("total", "turns"), [(55, 1), (59, 1), (60, 2), (69, 2), (70, 3), (79, 3), (80, 4), (89, 4),
                                              (90, 5), (100, 5)])
def test_infection_table(make_game: Any, total: int, turns: int) -> None:
    """INFECTION TABLE (total Stamina): < 60 1 turn, 60-69 2, 70-79 3, 80-89 4, > 90 5 (DESIGN CHOICE:
    90 in the top band; the countdown starts at the end of the turn after the infection, so "1 Turn"
    leaves one full turn)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary = who(game, "Mary Jacobs")
    set_stamina(game, mary, 5, total)
    harm(game, mary, 5, board, st, "test")
    assert logged(game, "infected") == [{"character": mary, "turns": turns}]
    for _ in range(turns):
        stage_mod.infection(game)
        assert side(game, mary) != ZOMBIES
    stage_mod.infection(game)
    assert side(game, mary) == ZOMBIES
    assert logged(game, "risen") == [{"character": mary, "name": "Mary Jacobs"}]


def test_infection_countdown_and_rising(make_game: Any) -> None:
    """Costa Wang (total Stamina 55) has 1 turn; Bruce Long (85) has 4. At 0 he is "brought back to life
    in zombie form" with "the entire original main and derivative attributes": full Stamina, his own
    Accuracy and melee weapon, on the zombies' side, still played by his player."""
    game = laid_out(make_game)
    board, st = ctx(game)
    costa, bruce = who(game, "Costa Wang"), who(game, "Bruce Long")
    harm(game, costa, 60, board, st, "test")
    harm(game, bruce, 200, board, st, "test")
    assert (infection(game, costa).turns_left, infection(game, bruce).turns_left) == (1, 4)
    risen_at = {}
    for turn in range(1, 7):
        stage_mod.infection(game)
        for ent in (costa, bruce):
            if side(game, ent) == ZOMBIES and ent not in risen_at:
                risen_at[ent] = turn
    assert risen_at == {costa: 2, bruce: 5}
    assert kind(game, costa) == "risen" and stamina(game, costa) == total_stamina(game, costa) == 55
    a = attrs(game, costa)
    assert (a.strength, a.accuracy, a.smarts, a.initiative, a.morale) == (55, 60, 85, 7, 2)
    assert arms(game, costa).melee == "golf_club" and character(game, costa).abilities == []
    assert owner(game, costa) == 0


def test_a_risen_character_attacks_with_its_weapon_for_its_player(make_game: Any) -> None:
    """"The controlling player of that character now takes on the roles of the zombie": its choices
    are its player's; it attacks with its own weapon, Accuracy and Strength (Costa Wang: Golf Club
    1d8 and +5 stationary, Accuracy 60, Strength 55: +0) and its own Morale 2; it moves as a Politician
    (walks 2 indoors)."""
    game = laid_out(make_game, players=2)
    board, st = ctx(game)
    costa = alone(game, "Costa Wang", 8, 2)
    assert owner(game, costa) == 1  # the fourth character of two players' six
    harm(game, costa, 60, board, st, "test")
    stage_mod.infection(game)
    stage_mod.infection(game)
    mary, dexter = who(game, "Mary Jacobs"), who(game, "Dexter")
    put(game, mary, 10, 2)
    put(game, dexter, 8, 4)
    asked = drive(game, zombie_act(game, costa, board, st), {"sza.zombie_target": lambda d: dexter})
    assert [(d.side, d.kind) for d in asked] == [("player:1", "sza.zombie_target")]
    assert at(game, costa) == (8, 4)
    put(game, mary, 8, 4)
    engage_square(game, costa)
    dice(game, *d100(65), 8, *d100(66))
    asked = drive(game, zombie_act(game, costa, board, st))
    assert not asked  # Morale 2, two engaged: both attacked
    assert [(a["target"], a["chance"], a["hit"]) for a in logged(game, "attack", pace="still")] == \
        [(mary, 65, True), (dexter, 65, False)]
    assert stamina(game, mary) == 75 - 8


def test_zombies_pick_a_different_victim_then_the_nearest(make_game: Any) -> None:
    """"Should try to have each NPC zombie to attack a different player character, whenever possible":
    Mary is already held by one zombie, so the second runs 3 squares to Dexter and engages him."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary, dexter = who(game, "Mary Jacobs"), who(game, "Dexter")
    clear_others(game, [mary, dexter])
    put(game, mary, 8, 1)
    put(game, dexter, 12, 1)
    z1 = zombie(game, 8, 1)
    z2 = zombie(game, 9, 2)
    dice(game, *([9] * 10))
    drive(game, zombie_act(game, z2, board, st))
    assert at(game, z2) == (12, 1)
    assert engaged_with(game, z2) == [dexter] and engaged_with(game, z1) == [mary]
    assert [(a["attacker"], a["target"], a["pace"]) for a in logged(game, "attack", why="melee")] == \
        [(z2, dexter, "run")]
    assert markers(game, z2).has(f"victim:{dexter}")


def test_otherwise_the_nearest(make_game: Any) -> None:
    """"If not, the NPC zombie should attack the nearest character": Mary is held by one zombie and the
    second stands next to her; Dexter is 8 squares off, out of its reach this turn. It attacks Mary."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary, dexter = who(game, "Mary Jacobs"), who(game, "Dexter")
    clear_others(game, [mary, dexter])
    put(game, mary, 8, 1)
    put(game, dexter, 13, 6)
    zombie(game, 8, 1)
    z2 = zombie(game, 9, 2)
    dice(game, *([9] * 10))
    drive(game, zombie_act(game, z2, board, st))
    assert at(game, z2) == (8, 1) and mary in engaged_with(game, z2)


def test_zombies_spread_their_attacks_over_engaged_characters(make_game: Any) -> None:
    """"Play Criteria": each NPC zombie should attack a different character whenever possible. Two
    zombies locked in melee with Mary and Dexter on one square: the second goes for the character the
    first did not attack. The next turn starts afresh."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary, dexter = who(game, "Mary Jacobs"), who(game, "Dexter")
    clear_others(game, [mary, dexter])
    put(game, mary, 8, 1)
    put(game, dexter, 8, 1)
    z1 = zombie(game, 8, 1)
    z2 = zombie(game, 8, 1)
    dice(game, *([9] * 20))  # every attack misses (99)
    drive(game, zombie_act(game, z1, board, st))
    drive(game, zombie_act(game, z2, board, st))
    first, second = logged(game, "attack", attacker=z1)[-1]["target"], logged(game, "attack", attacker=z2)[-1]["target"]
    assert {first, second} == {mary, dexter}
    turn_mod.initiative(game)  # a new turn: last turn's victims are forgotten
    assert not [t for z in (z1, z2) for t in markers(game, z).tags if t.startswith("victim:")]


def test_hiding_in_a_pipe_room(make_game: Any) -> None:
    """Pipe Rooms: "No zombie may attack a character that is hiding inside this room": a zombie locked
    with all six there attacks nobody, and one outside does not come for them."""
    game = laid_out(make_game)
    board, st = ctx(game)
    everyone = [who(game, n) for n in ("Bruce Long", "Mary Jacobs", "Dexter", "Costa Wang", "SGT Connor", "CPL Teoh")]
    for ent in everyone:
        put(game, ent, 15, 6)  # the pipe room off the kitchen
    z = zombie(game, 15, 6)
    outside = zombie(game, 17, 3)
    dice(game, *([1] * 20))
    asked = drive(game, zombie_act(game, z, board, st))
    drive(game, zombie_act(game, outside, board, st))
    assert not asked and not logged(game, "attack") and not logged(game, "damage")
    assert at(game, outside) == (17, 3) and not logged(game, "move")
    assert sorted(engaged_with(game, z)) == sorted(everyone)
    put(game, everyone[1], 15, 4)  # Mary steps out into the kitchen: she is fair game
    drive(game, zombie_act(game, outside, board, st))
    assert at(game, outside) == (15, 4)


def test_bushes_hide_characters_from_zombies(make_game: Any) -> None:
    """Street: "Bushes may be utilized as hiding spots from the zombies. The zombies will not spot
    characters if they hide in them"."""
    game = laid_out(make_game, STREET)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 14, 0)  # a large bush
    z = zombie(game, 14, 2)
    drive(game, zombie_act(game, z, board, st))
    assert at(game, z) == (14, 2) and not logged(game, "move")
    put(game, mary, 13, 1)
    dice(game, 10, 10, 9, 9)
    drive(game, zombie_act(game, z, board, st))
    assert at(game, z) == (13, 1)


def test_a_bush_does_not_stop_a_zombie_already_in_melee(make_game: Any) -> None:
    """The bush hides from being spotted; a zombie locked in melee with Mary on the bush's square
    still attacks her."""
    game = laid_out(make_game, STREET)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 14, 0)
    z = zombie(game, 14, 0)
    dice(game, 1, 10, 5)
    drive(game, zombie_act(game, z, board, st))
    assert [(a["target"], a["pace"], a["hit"]) for a in logged(game, "attack")] == [(mary, "still", True)]
    assert stamina(game, mary) == 75 - (5 + 2)  # the bite 1d10 + Strength 70's +2


def test_zombies_do_not_run_onto_grass(make_game: Any) -> None:
    """Grass Patches: "Only the walking movement is allowed" (for zombies as for characters: a DESIGN
    CHOICE): a zombie (walks 1, runs 2 outdoors) 2 squares from Mary on the verge runs up to the
    verge's edge instead of engaging her running; next turn it walks onto her square."""
    game = laid_out(make_game, STREET)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 20, 0)
    z = zombie(game, 20, 2)
    dice(game, *([9] * 6))
    drive(game, zombie_act(game, z, board, st))
    assert at(game, z) == (19, 1) and engaged_with(game, z) == [] and not logged(game, "attack")
    assert not logged(game, "surprise")
    drive(game, zombie_act(game, z, board, st))
    assert at(game, z) == (20, 0) and engaged_with(game, z) == [mary]
    assert [(a["pace"], a["chance"]) for a in logged(game, "attack")] == [("walk", 67)]
    assert [m["running"] for m in logged(game, "move", piece=z)] == [True, False]


def test_gunfire_does_not_draw_the_zombies(make_game: Any) -> None:
    """DESIGN CHOICE ("projectile weapons like guns tend to draw the attention of zombies" is given as
    the reason melee is preferred, with no rule): a shot changes nothing in whom the zombies go for.
    SGT Connor shoots the zombie from 5 squares; it still goes for Mary, the nearest."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary, connor = who(game, "Mary Jacobs"), who(game, "SGT Connor")
    clear_others(game, [mary, connor])
    put(game, connor, 7, 1)
    put(game, mary, 12, 3)
    z = zombie(game, 12, 1, stamina=100)
    dice(game, 9, 9)
    drive(game, perform(game, connor, f"shoot:{z}", board, st))
    assert [s["hit"] for s in logged(game, "shot")] == [False]
    dice(game, *([9] * 6))
    drive(game, zombie_act(game, z, board, st))
    assert at(game, z) == (12, 3) and engaged_with(game, z) == [mary]
