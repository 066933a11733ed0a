"""Every class ability and every pre-generated character's signature ability, each forced through
the dice (SZA "Class Specific Ability Table", "Pre-Generated Characters")."""

from __future__ import annotations

from typing import Any

from conftest import drive
from sza_helpers import STREET, clear_others, ctx, dice, laid_out, put, stamina, who, zombie

from ecs_zombie.components import Health, Markers, Position
from ecs_zombie.systems.sza import stage as stage_mod
from ecs_zombie.systems.sza.actions import k9, options, perform
from ecs_zombie.systems.sza.combat import engagement, shoot, strike
from ecs_zombie.systems.sza.components import Attributes, Character, Infection, Inventory
from ecs_zombie.systems.sza.moves import allowance
from ecs_zombie.systems.sza.state import accuracy, harm, morale, smarts
from ecs_zombie.systems.sza.zombies import zombie_act


def give(game: Any, ent: int, *abilities: str) -> None:
    game.world.get(ent, Character).abilities = list(abilities)


def test_fire_suit_once_adds_20_within_total(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    bruce = who(game, "Bruce Long")
    give(game, bruce, "fire_suit")
    game.world.get(bruce, Health).current = 50
    assert "ability:fire_suit" in options(game, bruce, board, stage)
    drive(game, perform(game, bruce, "ability:fire_suit", board, stage))
    assert stamina(game, bruce) == 70
    game.world.get(bruce, Health).current = 80
    assert "ability:fire_suit" not in options(game, bruce, board, stage)  # once


def test_fire_helmet_takes_3_off_zombie_damage(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    bruce = who(game, "Bruce Long")
    give(game, bruce, "fire_helmet")
    z = zombie(game, 8, 1)
    put(game, bruce, 8, 1)
    dice(game, 1, 10, 6)  # hits; 1d8 6 + 0 stationary + 2 (zombie Strength 70) = 8, minus 3
    strike(game, z, bruce, "still", board, stage)
    assert stamina(game, bruce) == 85 - 5


def test_cqc_adds_3_to_melee_damage(make_game: Any) -> None:
    """DESIGN CHOICE: CQC's "melee attack bonus" is read as Bonus Attack Value (damage)."""
    game = laid_out(make_game)
    board, stage = ctx(game)
    connor = who(game, "SGT Connor")
    give(game, connor, "cqc")
    z = zombie(game, 8, 1)
    put(game, connor, 8, 1)
    dice(game, 1, 10, 4)
    strike(game, connor, z, "still", board, stage)
    assert stamina(game, z) == 30 - (4 + 0 + 3 + 3)  # d6 + stationary + Strength 85 (+3) + CQC


def test_sharp_shooter_adds_3_to_ranged_damage(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    connor = who(game, "SGT Connor")
    give(game, connor, "sharp_shooter")
    clear_others(game, [connor])
    put(game, connor, 7, 2)
    z = zombie(game, 11, 2)
    dice(game, 2, 5, 15)
    shoot(game, connor, z, board, stage)
    assert stamina(game, z) == 30 - 18


def test_lock_picking_opens_without_a_roll(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    dexter = who(game, "Dexter")
    give(game, dexter, "lock_picking")
    put(game, dexter, 32, 5)
    door = board.cell(32, 4)
    assert f"unlock:{door}" in options(game, dexter, board, stage)
    dice(game)  # no die may be rolled
    drive(game, perform(game, dexter, f"unlock:{door}", board, stage))
    assert door in stage.opened and "opened_locked_door" in stage.flags
    assert not [d for _t, k, d in game.events if k == "check"]


def test_forcing_a_locked_door_and_the_key(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    bruce = who(game, "Bruce Long")  # Strength 75: +2
    put(game, bruce, 32, 5)
    door = board.cell(32, 4)
    dice(game, 5)  # 5 + 2 < 8
    drive(game, perform(game, bruce, f"unlock:{door}", board, stage))
    assert door not in stage.opened
    dice(game, 6)
    drive(game, perform(game, bruce, f"unlock:{door}", board, stage))
    assert door in stage.opened
    stage.opened.remove(door)
    game.world.get(bruce, Inventory).add("key")
    dice(game)
    drive(game, perform(game, bruce, f"unlock:{door}", board, stage))
    assert door in stage.opened


def test_quick_step_adds_two_squares_indoors_only(make_game: Any) -> None:
    game = laid_out(make_game)
    board, _stage = ctx(game)
    dexter = who(game, "Dexter")
    give(game, dexter, "quick_step")
    assert allowance(game, dexter, board) == (5, 7)
    street = laid_out(make_game, STREET)
    sboard, _s = ctx(street)
    d2 = who(street, "Dexter")
    give(street, d2, "quick_step")
    assert allowance(street, d2, sboard) == (3, 4)


def test_morale_boost_once_per_combat(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    costa, mary = who(game, "Costa Wang"), who(game, "Mary Jacobs")
    give(game, costa, "morale_boost")
    z = zombie(game, 12, 6)
    assert morale(game, mary) == 2
    drive(game, perform(game, costa, "ability:morale_boost", board, stage))
    assert morale(game, mary) == 3
    assert "ability:morale_boost" not in options(game, costa, board, stage)
    game.world.delete(z)
    stage_mod.objective(game)  # the combat is over: the boost ends, the ability comes back
    zombie(game, 12, 6)
    assert morale(game, mary) == 2
    assert "ability:morale_boost" in options(game, costa, board, stage)


def test_inspire_adds_5_for_the_turn(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    costa, mary = who(game, "Costa Wang"), who(game, "Mary Jacobs")
    give(game, costa, "inspire")
    zombie(game, 12, 6)
    put(game, costa, 2, 2)
    put(game, mary, 3, 3)
    assert f"ability:inspire:{mary}" in options(game, costa, board, stage)
    before = accuracy(game, mary, board, stage), smarts(game, mary, board, stage)
    drive(game, perform(game, costa, f"ability:inspire:{mary}", board, stage))
    assert (accuracy(game, mary, board, stage), smarts(game, mary, board, stage)) == (before[0] + 5, before[1] + 5)
    from ecs_zombie.systems.sza.turn import initiative

    initiative(game)  # next turn
    assert accuracy(game, mary, board, stage) == before[0]


def test_tending_to_wounds(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    mary, bruce, dexter, costa = (who(game, n) for n in ("Mary Jacobs", "Bruce Long", "Dexter", "Costa Wang"))
    give(game, mary, "tending_to_wounds")
    put(game, mary, 2, 2)
    put(game, bruce, 4, 4)  # 2 squares, diagonally
    put(game, dexter, 5, 2)  # 3 squares away
    put(game, costa, 2, 3)
    for ent, cur in ((bruce, 50), (dexter, 50), (costa, 53)):
        game.world.get(ent, Health).current = cur
    drive(game, perform(game, mary, "ability:tending_to_wounds", board, stage))
    assert (stamina(game, bruce), stamina(game, dexter), stamina(game, costa)) == (55, 50, 55)


def test_vial_of_antidote_cures_or_heals_once(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    mary, bruce = who(game, "Mary Jacobs"), who(game, "Bruce Long")
    give(game, mary, "vial_of_antidote")
    put(game, mary, 2, 2)
    put(game, bruce, 3, 2)
    harm(game, bruce, 90, board, stage, "test")
    assert game.world.get(bruce, Infection).infected
    drive(game, perform(game, mary, f"ability:vial_of_antidote:{bruce}", board, stage))
    assert not game.world.get(bruce, Infection).infected and stamina(game, bruce) == 10
    assert not any(o.startswith("ability:vial") for o in options(game, mary, board, stage))


def test_vial_of_antidote_full_health(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    mary, bruce = who(game, "Mary Jacobs"), who(game, "Bruce Long")
    give(game, mary, "vial_of_antidote")
    put(game, mary, 2, 2)
    put(game, bruce, 3, 2)
    game.world.get(bruce, Health).current = 12
    drive(game, perform(game, mary, f"ability:vial_of_antidote:{bruce}", board, stage))
    assert stamina(game, bruce) == 85


def test_intravenous_injection_once_per_target(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    mary, dexter = who(game, "Mary Jacobs"), who(game, "Dexter")
    put(game, mary, 2, 2)
    put(game, dexter, 2, 3)
    assert not any(o.startswith("ability:intravenous") for o in options(game, mary, board, stage))  # only infected
    harm(game, dexter, 80, board, stage, "test")
    drive(game, perform(game, mary, f"ability:intravenous_injection:{dexter}", board, stage))
    assert not game.world.get(dexter, Infection).infected
    harm(game, dexter, 80, board, stage, "test")
    assert not any(o.startswith("ability:intravenous") for o in options(game, mary, board, stage))


def test_bright_yellow_fire_suit_draws_adjacent_zombies(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    bruce, mary = who(game, "Bruce Long"), who(game, "Mary Jacobs")
    clear_others(game, [bruce, mary])
    put(game, bruce, 8, 1)
    put(game, mary, 10, 2)
    z = zombie(game, 9, 2)  # next to both; Mary is nearer by path than... no matter: Bruce
    dice(game, *([9] * 10))
    asked = drive(game, zombie_act(game, z, board, stage))
    pos = game.world.get(z, Position)
    assert (pos.x, pos.y) == (8, 1)
    assert not [d for d in asked if d.kind == "sza.zombie_target"]


def test_one_shot_one_kill(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    dexter = who(game, "Dexter")
    clear_others(game, [dexter])
    put(game, dexter, 7, 1)
    z = zombie(game, 11, 1, stamina=100)
    dice(game, 10, 10, 7)  # surprise tie, then the 1d10: 7 kills outright
    drive(game, perform(game, dexter, f"engage:{z}:run", board, stage))
    assert not game.world.exists(z)
    z2 = zombie(game, 9, 3, stamina=100)
    dice(game, 10, 10, 6, 9, 9)  # 6 fails: a normal attack (99 misses)
    drive(game, perform(game, dexter, f"engage:{z2}:run", board, stage))
    assert game.world.exists(z2) and stamina(game, z2) == 100


def test_motivational_speech(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    costa, bruce, dexter = who(game, "Costa Wang"), who(game, "Bruce Long"), who(game, "Dexter")
    zombie(game, 12, 6)
    put(game, costa, 2, 2)
    put(game, bruce, 4, 2)
    put(game, dexter, 5, 2)
    drive(game, perform(game, costa, "ability:motivational_speech", board, stage))
    assert game.world.get(costa, Markers).has("speech")
    harm(game, bruce, 10, board, stage, "test")
    harm(game, dexter, 10, board, stage, "test")
    assert (stamina(game, bruce), stamina(game, dexter)) == (78, 60)


def test_combat_awareness_ignores_darkness_and_smell(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    connor, teoh = who(game, "SGT Connor"), who(game, "CPL Teoh")
    put(game, connor, 25, 5)
    put(game, teoh, 26, 5)  # the level 2 corridors: dark
    assert accuracy(game, connor, board, stage) == 75
    assert accuracy(game, teoh, board, stage) == 60
    put(game, connor, 29, 9)
    put(game, teoh, 29, 9)  # the level 2 store room: -5 Smarts
    assert (smarts(game, connor, board, stage), smarts(game, teoh, board, stage)) == (55, 60)
    stage.flags.append("lights")
    put(game, teoh, 26, 5)
    assert accuracy(game, teoh, board, stage) == 70


def test_k9_companion(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    teoh = who(game, "CPL Teoh")
    put(game, teoh, 7, 1)
    z = zombie(game, 8, 2)
    dice(game, 4)
    drive(game, k9(game, teoh, board, stage))
    assert stamina(game, z) == 30
    dice(game, 5)
    drive(game, k9(game, teoh, board, stage))
    assert stamina(game, z) == 27


def test_soldier_engagement_uses_morale_and_strength(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    connor = who(game, "SGT Connor")
    assert game.world.get(connor, Attributes).morale == 3
    clear_others(game, [connor])
    put(game, connor, 8, 1)
    z = zombie(game, 9, 1)
    dice(game, 1, 10, 2)
    engagement(game, connor, z, "walk", board, stage)
    assert stamina(game, z) == 30 - (2 + 3 + 3)
