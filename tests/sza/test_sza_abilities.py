"""Every class ability and every pre-generated character's signature ability, each through play with
forced dice (SZA "Class Specific Ability Table", "Pre-Generated Characters"). Numbers are the book's
(or the DESIGN CHOICE the YAML marks), written as literals."""

from __future__ import annotations

from typing import Any

import pytest
from sza_helpers import (
    STREET,
    ZOMBIES,
    alone,
    arms,
    character,
    clear_others,
    ctx,
    d100,
    dice,
    drive,
    exists,
    give,
    infection,
    laid_out,
    logged,
    markers,
    put,
    rolled,
    run_system,
    set_attrs,
    set_stamina,
    side,
    stamina,
    who,
    zombie,
)

from ecs_zombie.systems.sza import stage as stage_mod
from ecs_zombie.systems.sza.actions import act, k9, options, perform
from ecs_zombie.systems.sza.combat import shoot, strike
from ecs_zombie.systems.sza.state import engage_square, harm
from ecs_zombie.systems.sza.turn import initiative
from ecs_zombie.systems.sza.zombies import zombie_act


def ability_options(game: Any, ent: int) -> list[str]:
    board, st = ctx(game)
    return [o for o in options(game, ent, board, st) if o.startswith("ability:")]


# -- Firefighter ----------------------------------------------------------------------------------

def test_fire_suit_once_adds_20_within_total(make_game: Any) -> None:
    """Fire Suit: "Can only be used once: Add 20 points of health" (DESIGN CHOICE: never above the
    total Stamina)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    bruce = who(game, "Bruce Long")  # total Stamina 85
    give(game, bruce, "fire_suit")
    assert ability_options(game, bruce) == []  # unhurt: nothing to add
    set_stamina(game, bruce, 50)
    assert ability_options(game, bruce) == ["ability:fire_suit"]
    drive(game, perform(game, bruce, "ability:fire_suit", board, st))
    assert stamina(game, bruce) == 70
    set_stamina(game, bruce, 40)
    assert ability_options(game, bruce) == []  # once
    game2 = laid_out(make_game)
    b2 = who(game2, "Bruce Long")
    give(game2, b2, "fire_suit")
    set_stamina(game2, b2, 80)
    drive(game2, perform(game2, b2, "ability:fire_suit", *ctx(game2)))
    assert stamina(game2, b2) == 85


def test_fire_helmet_takes_3_off_zombie_damage(make_game: Any) -> None:
    """Fire Helmet: "Zombies' attacks deal 3 less damage to the Firefighter" (never below 0)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    bruce = alone(game, "Bruce Long", 8, 1)
    give(game, bruce, "fire_helmet")
    z = zombie(game, 8, 1)
    dice(game, 1, 10, 6)  # hits; 1d10 6 + 0 stationary + 2 (zombie Strength 70) = 8, minus 3
    strike(game, z, bruce, "still", board, st)
    assert stamina(game, bruce) == 85 - 5
    set_attrs(game, z, strength=50)
    dice(game, 1, 10, 2)  # 2 + 0 + 0 = 2, minus 3: nothing
    strike(game, z, bruce, "still", board, st)
    assert stamina(game, bruce) == 80
    assert [d["damage"] for d in logged(game, "damage")] == [5, 0]


def test_cqc_adds_3_to_melee_damage(make_game: Any) -> None:
    """CQC: "an additional melee attack bonus of 3" (DESIGN CHOICE: read as Bonus Attack Value,
    damage; the chance to hit is unchanged)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    connor = alone(game, "SGT Connor", 8, 1)  # Accuracy 75, Strength 85 (+3), Bowie Knife (+7 stationary)
    give(game, connor, "cqc")
    z = zombie(game, 8, 1)
    dice(game, 1, 10, 4)
    strike(game, connor, z, "still", board, st)
    assert logged(game, "attack")[0]["chance"] == 82
    assert stamina(game, z) == 50 - (4 + 0 + 3 + 3)


def test_sharp_shooter_adds_3_to_ranged_damage(make_game: Any) -> None:
    """Sharp Shooter: "an additional ranged attack bonus of 3" (DESIGN CHOICE: damage, as CQC)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    connor = alone(game, "SGT Connor", 7, 2)
    give(game, connor, "sharp_shooter")
    z = zombie(game, 11, 2)
    dice(game, 2, 5, 15)
    shoot(game, connor, z, board, st)
    assert logged(game, "shot")[0]["chance"] == 75 + 15
    assert stamina(game, z) == 50 - 18


# -- Politician -----------------------------------------------------------------------------------

def test_morale_boost_once_per_combat(make_game: Any) -> None:
    """Morale Boost: "Can only be used once per combat: All characters get +1 to their Morale": Mary
    (Morale 2) then attacks all three zombies she is locked with. It lasts the combat (DESIGN CHOICE:
    a combat ends when no zombie is left on the board) and comes back for the next."""
    game = laid_out(make_game)
    board, st = ctx(game)
    costa, mary = who(game, "Costa Wang"), who(game, "Mary Jacobs")
    give(game, costa, "morale_boost")
    assert ability_options(game, costa) == []  # no combat, no boost
    clear_others(game, [costa, mary])
    put(game, mary, 8, 2)
    zs = [zombie(game, 8, 2, stamina=100) for _ in range(3)]
    drive(game, perform(game, costa, "ability:morale_boost", board, st))
    assert ability_options(game, costa) == []
    dice(game, *([9] * 6))
    asked = drive(game, perform(game, mary, "attack", board, st))
    assert not asked and [a["target"] for a in logged(game, "attack")] == zs
    fourth = zombie(game, 8, 2, stamina=100)  # +1, not more: Morale 3 attacks three of four
    dice(game, *([9] * 8))
    drive(game, perform(game, mary, "attack", board, st))
    assert len(logged(game, "attack")) == 3 + 3
    game.world.delete(fourth)
    initiative(game)  # a new turn of the same combat: still boosted, still spent
    assert ability_options(game, costa) == []
    for z in zs:
        game.world.delete(z)
    run_system(game, "sza.objective")  # the combat is over: the boost ends, the ability comes back
    zs = [zombie(game, 8, 2, stamina=100) for _ in range(3)]
    assert ability_options(game, costa) == ["ability:morale_boost"]
    dice(game, *([9] * 4))
    asked = drive(game, perform(game, mary, "attack", board, st))
    assert len(asked) == 2 and len(logged(game, "attack")) == 3 + 3 + 2


def test_inspire(make_game: Any) -> None:
    """Inspire: "Can only be used once per combat: Target character gets +5 to all main attributes for
    that turn" (DESIGN CHOICE: Strength, Accuracy and Smarts, not Stamina; a target within 2 squares)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    costa, mary, dexter = who(game, "Costa Wang"), who(game, "Mary Jacobs"), who(game, "Dexter")
    give(game, costa, "inspire")
    clear_others(game, [costa, mary, dexter])
    put(game, costa, 2, 2)
    put(game, mary, 4, 4)  # 2 squares, diagonally
    put(game, dexter, 5, 2)  # 3 squares
    z = zombie(game, 4, 4, stamina=100)
    assert f"ability:inspire:{mary}" in ability_options(game, costa)
    assert f"ability:inspire:{dexter}" not in ability_options(game, costa)
    drive(game, perform(game, costa, f"ability:inspire:{mary}", board, st))
    assert ability_options(game, costa) == []
    assert stamina(game, mary) == 75
    dice(game, 1, 10, 4)  # Accuracy 75 + 5 + 10 (Pocket Knife); d4 4 + Strength 55 + 5 = 60: +1
    drive(game, perform(game, mary, "attack", board, st))
    assert logged(game, "attack")[0]["chance"] == 90 and stamina(game, z) == 100 - 5
    put(game, mary, 3, 8)  # beside the store room's cabinet: salvage at Smarts 75 + 5
    dice(game, *d100(80))
    drive(game, perform(game, mary, f"salvage:{board.cell(1, 8)}", board, st))
    assert [(s["target"], s["success"]) for s in logged(game, "salvage")] == [(80, True)]
    initiative(game)  # the next turn: the +5 is gone
    put(game, mary, 4, 4)
    dice(game, 1, 10, 4)
    drive(game, perform(game, mary, "attack", board, st))
    assert logged(game, "attack")[-1]["chance"] == 85 and stamina(game, z) == 95 - 4


def test_motivational_speech(make_game: Any) -> None:
    """Motivational Speech: "All character within a 2 square radius of Costa gets a -3 in the amount
    of damage taken from zombies" (DESIGN CHOICE: until Costa's next activation)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    costa, bruce, dexter = who(game, "Costa Wang"), who(game, "Bruce Long"), who(game, "Dexter")
    zombie(game, 12, 6)
    put(game, costa, 2, 2)
    put(game, bruce, 4, 2)
    put(game, dexter, 5, 2)
    assert "ability:motivational_speech" in ability_options(game, costa)
    drive(game, perform(game, costa, "ability:motivational_speech", board, st))
    harm(game, bruce, 10, board, st, "test")
    harm(game, dexter, 10, board, st, "test")
    harm(game, costa, 2, board, st, "test")
    assert (stamina(game, bruce), stamina(game, dexter), stamina(game, costa)) == (78, 60, 55)
    dice(game, *([9] * 4))
    drive(game, act(game, costa, board, st, ""), {"sza.action": "wait"})  # Costa's next activation
    harm(game, bruce, 10, board, st, "test")
    assert stamina(game, bruce) == 68 and not markers(game, costa).has("speech")


# -- Paramedic ------------------------------------------------------------------------------------

def test_tending_to_wounds(make_game: Any) -> None:
    """Tending to Wounds: "All characters within 2 squares (diagonals included) of the Paramedic
    replenish 5 points of health" (the infected excepted; not above the total)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary, bruce, dexter, costa, connor = (who(game, n) for n in ("Mary Jacobs", "Bruce Long", "Dexter", "Costa Wang",
                                                                  "SGT Connor"))
    give(game, mary, "tending_to_wounds")
    assert ability_options(game, mary) == []  # nobody hurt
    put(game, mary, 2, 2)
    put(game, bruce, 4, 4)  # 2 squares, diagonally
    put(game, dexter, 5, 2)  # 3 squares away
    put(game, costa, 2, 3)
    put(game, connor, 3, 3)
    for ent, cur in ((bruce, 50), (dexter, 50), (costa, 53), (mary, 60), (connor, 0)):
        set_stamina(game, ent, cur)
    infection(game, connor).infected = True
    drive(game, perform(game, mary, "ability:tending_to_wounds", board, st))
    assert [stamina(game, e) for e in (bruce, dexter, costa, mary, connor)] == [55, 50, 55, 65, 0]


def test_vial_of_antidote_cures_or_heals_once(make_game: Any) -> None:
    """Vial Of Antidote: "Can only be used once: Target character is healed from infection when
    infected OR target character recovers full health" (DESIGN CHOICE: a target within 1 square; a
    cure leaves `cured_stamina`, 10)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary, bruce, dexter = who(game, "Mary Jacobs"), who(game, "Bruce Long"), who(game, "Dexter")
    give(game, mary, "vial_of_antidote")
    put(game, mary, 2, 2)
    put(game, bruce, 3, 3)
    put(game, dexter, 4, 2)
    harm(game, bruce, 90, board, st, "test")
    harm(game, dexter, 90, board, st, "test")
    assert infection(game, bruce).infected
    assert ability_options(game, mary) == [f"ability:vial_of_antidote:{bruce}"]  # Dexter is 2 squares away
    drive(game, perform(game, mary, f"ability:vial_of_antidote:{bruce}", board, st))
    assert not infection(game, bruce).infected and stamina(game, bruce) == 10
    assert logged(game, "cured") == [{"character": bruce, "how": "vial of antidote", "stamina": 10}]
    put(game, dexter, 3, 2)
    assert ability_options(game, mary) == []
    game2 = laid_out(make_game, params={"cured_stamina": 30})
    b2, st2 = ctx(game2)
    m2, br2 = who(game2, "Mary Jacobs"), who(game2, "Bruce Long")
    give(game2, m2, "vial_of_antidote")
    put(game2, m2, 2, 2)
    put(game2, br2, 3, 2)
    harm(game2, br2, 90, b2, st2, "test")
    drive(game2, perform(game2, m2, f"ability:vial_of_antidote:{br2}", b2, st2))
    assert stamina(game2, br2) == 30


def test_vial_of_antidote_full_health(make_game: Any) -> None:
    game = laid_out(make_game)
    board, st = ctx(game)
    mary, bruce = who(game, "Mary Jacobs"), who(game, "Bruce Long")
    give(game, mary, "vial_of_antidote")
    put(game, mary, 2, 2)
    put(game, bruce, 3, 2)
    set_stamina(game, bruce, 12)
    drive(game, perform(game, mary, f"ability:vial_of_antidote:{bruce}", board, st))
    assert stamina(game, bruce) == 85 and character(game, mary).used == ["vial_of_antidote"]


def test_intravenous_injection_once_per_target(make_game: Any) -> None:
    """Intravenous Injection: "Can only be used on an infected character: Target character is no
    longer infected. Target character may only receive an Intravenous Injection once" (DESIGN CHOICE:
    within 1 square)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary, dexter, bruce = who(game, "Mary Jacobs"), who(game, "Dexter"), who(game, "Bruce Long")
    put(game, mary, 2, 2)
    put(game, dexter, 2, 3)
    put(game, bruce, 4, 2)
    assert ability_options(game, mary) == []  # only the infected
    harm(game, dexter, 80, board, st, "test")
    harm(game, bruce, 90, board, st, "test")
    assert ability_options(game, mary) == [f"ability:intravenous_injection:{dexter}"]  # Bruce: 2 squares away
    drive(game, perform(game, mary, f"ability:intravenous_injection:{dexter}", board, st))
    assert not infection(game, dexter).infected and stamina(game, dexter) == 10
    harm(game, dexter, 80, board, st, "test")
    assert ability_options(game, mary) == []
    put(game, bruce, 3, 2)
    assert ability_options(game, mary) == [f"ability:intravenous_injection:{bruce}"]  # once per target, not per game


# -- Prison Convict -------------------------------------------------------------------------------

def test_one_shot_one_kill(make_game: Any) -> None:
    """One Shot, One Kill: "Whenever Dexter engages a Zombie in combat while running ... Roll a 1d10.
    The result ... has to be a 7 and above": the zombie is eliminated "regardless of damage dealt"."""
    game = laid_out(make_game)
    board, st = ctx(game)
    dexter = alone(game, "Dexter", 7, 1)
    z = zombie(game, 11, 1, stamina=100)
    dice(game, 10, 10, 7)  # Surprise tie, then the 1d10: 7 kills outright
    drive(game, perform(game, dexter, f"engage:{z}:run", board, st))
    assert not exists(game, z) and not logged(game, "attack")
    assert rolled(game, "one shot, one kill") == [("1d10", [7])]
    assert logged(game, "one_shot_one_kill") == [{"character": dexter, "target": z, "roll": 7}]
    z2 = zombie(game, 9, 3, stamina=100)
    dice(game, 10, 10, 6, 9, 9)  # 6 fails: a normal attack (99 misses)
    drive(game, perform(game, dexter, f"engage:{z2}:run", board, st))
    assert exists(game, z2) and stamina(game, z2) == 100 and len(logged(game, "attack")) == 1
    z3 = zombie(game, 8, 3, stamina=100)
    dice(game, 9, 9)  # walking: no roll of the ability at all
    drive(game, perform(game, dexter, f"engage:{z3}:walk", board, st))
    assert len(logged(game, "one_shot_one_kill")) == 2 and exists(game, z3)


# -- the other pre-generated characters -----------------------------------------------------------

def test_bright_yellow_fire_suit_draws_adjacent_zombies(make_game: Any) -> None:
    """Bright Yellow Fire Suit: "All zombies adjacent to Bruce Long will attack him instead of others"."""
    game = laid_out(make_game)
    board, st = ctx(game)
    bruce, mary = who(game, "Bruce Long"), who(game, "Mary Jacobs")
    clear_others(game, [bruce, mary])
    put(game, bruce, 8, 1)
    put(game, mary, 10, 2)
    z = zombie(game, 9, 2)  # next to both
    dice(game, *([9] * 10))
    asked = drive(game, zombie_act(game, z, board, st))
    assert [a["target"] for a in logged(game, "attack")] == [bruce]
    assert not [d for d in asked if d.kind == "sza.zombie_target"]
    put(game, mary, 12, 2)
    put(game, bruce, 8, 2)
    z2 = zombie(game, 12, 2)  # locked with Mary; Bruce 4 squares away: no pull
    dice(game, *([9] * 4))
    drive(game, zombie_act(game, z2, board, st))
    assert logged(game, "attack")[-1]["target"] == mary
    put(game, bruce, 12, 2)
    engage_square(game, bruce)  # now Bruce is locked with z2 as well: z2 attacks him
    dice(game, *([9] * 4))
    drive(game, zombie_act(game, z2, board, st))
    assert logged(game, "attack")[-1]["target"] == bruce


def test_combat_awareness_ignores_darkness_and_smell(make_game: Any) -> None:
    """Combat Awareness: "not affected by the environmental debuffs": SGT Connor keeps his Accuracy 75
    in the dark corridors (CPL Teoh loses 10) and his Smarts 55 in the smelly store room (Teoh -5)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    connor, teoh = who(game, "SGT Connor"), who(game, "CPL Teoh")
    clear_others(game, [connor, teoh])
    put(game, connor, 25, 5)
    put(game, teoh, 26, 5)
    z1 = zombie(game, 25, 5, stamina=100)
    z2 = zombie(game, 26, 5, stamina=100)
    dice(game, *([9] * 4))
    drive(game, perform(game, connor, "attack", board, st))  # Bowie Knife +7
    drive(game, perform(game, teoh, "attack", board, st))
    assert [(a["attacker"], a["chance"]) for a in logged(game, "attack")] == [(connor, 82), (teoh, 67)]
    game.world.delete(z1)
    game.world.delete(z2)
    put(game, connor, 29, 10)
    put(game, teoh, 29, 9)
    st.opened.append(board.cell(30, 10))
    dice(game, *([9] * 4))
    drive(game, perform(game, connor, f"salvage:{board.cell(30, 10)}", board, st))
    drive(game, perform(game, teoh, f"salvage:{board.cell(30, 10)}", board, st))
    assert [s["target"] for s in logged(game, "salvage")] == [55, 60]


def test_k9_companion(make_game: Any) -> None:
    """K9 Companion: "Roll a 1d6. The dog is successful in dealing damage when the result rolled is 5
    and above. Each successful dog attack deals 3 points of damage" (DESIGN CHOICE: a free attack at
    CPL Teoh's activation on a zombie on his square or next to it)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    teoh = alone(game, "CPL Teoh", 7, 1)
    far = zombie(game, 9, 3)
    drive(game, k9(game, teoh, board, st))
    assert not rolled(game, "K9 companion")  # 2 squares away: out of reach
    z = zombie(game, 8, 2)
    dice(game, 4)
    drive(game, k9(game, teoh, board, st))
    assert stamina(game, z) == 50
    dice(game, 5)
    drive(game, k9(game, teoh, board, st))
    assert stamina(game, z) == 47 and stamina(game, far) == 50
    assert rolled(game, "K9 companion") == [("1d6", [4]), ("1d6", [5])]
    assert logged(game, "k9") == [{"handler": teoh, "target": z, "roll": 4}, {"handler": teoh, "target": z, "roll": 5}]
    dice(game, 6, 9, 9)  # at his activation, then his own action as well
    drive(game, act(game, teoh, board, st, ""), {"sza.action": f"engage:{z}:walk"})
    assert stamina(game, z) == 44 and len(logged(game, "attack", attacker=teoh)) == 1


# -- infection takes the abilities away ------------------------------------------------------------

def test_infected_character_still_fights_but_uses_no_ability(make_game: Any) -> None:
    """"An infected character may still be able to move and attack, but however may not be able to use
    any of the special abilities" (DESIGN CHOICE: passive ones included)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 8, 2)
    bruce = who(game, "Bruce Long")
    give(game, bruce, "fire_helmet")
    put(game, bruce, 2, 2)
    harm(game, mary, 100, board, st, "test")
    harm(game, bruce, 100, board, st, "test")
    put(game, mary, 3, 2)
    assert ability_options(game, mary) == []
    z = zombie(game, 8, 2, stamina=100)
    put(game, mary, 8, 2)
    engage_square(game, mary)
    assert "attack" in options(game, mary, board, st)
    dice(game, 1, 10, 4)
    drive(game, perform(game, mary, "attack", board, st))
    assert stamina(game, z) == 96
    put(game, bruce, 8, 2)
    before = stamina(game, bruce)
    dice(game, 1, 10, 6)
    strike(game, z, bruce, "still", board, st)
    assert stamina(game, bruce) == before - 8  # no Fire Helmet: 6 + 2


def test_risen_soldier_has_no_rifle(make_game: Any) -> None:
    """"These player controlled zombies are unable to use ranged weapons ... the damage inflicted will
    be according to the melee weapon chosen"."""
    game = laid_out(make_game, STREET)
    board, st = ctx(game)
    connor = who(game, "SGT Connor")
    harm(game, connor, 100, board, st, "test")
    for _ in range(4):  # total Stamina 70: 3 turns, counted from the end of the next turn
        stage_mod.infection(game)
    a = arms(game, connor)
    assert side(game, connor) == ZOMBIES
    assert (a.melee, a.ranged, a.rounds, a.magazines) == ("bowie_knife", "", 0, 0)
    assert character(game, connor).abilities == []


@pytest.mark.parametrize("name", ["Bruce Long", "Mary Jacobs"])
def test_abilities_are_offered_only_in_combat_where_the_text_says(make_game: Any, name: str) -> None:
    """Morale Boost, Inspire and Motivational Speech are combat abilities: offered only with zombies
    on the board; Tending to Wounds and the cures whenever someone needs them."""
    game = laid_out(make_game)
    costa = who(game, "Costa Wang")
    target = who(game, name)
    for a in ("morale_boost", "inspire", "motivational_speech"):
        give(game, costa, a)
        assert ability_options(game, costa) == []
    zombie(game, 12, 6)
    put(game, costa, 2, 2)
    put(game, target, 3, 2)
    for a in ("morale_boost", "motivational_speech"):
        give(game, costa, a)
        assert ability_options(game, costa) == [f"ability:{a}"]
    give(game, costa, "inspire")
    assert f"ability:inspire:{target}" in ability_options(game, costa)


def test_a_square_of_no_room_has_no_room_effect(make_game: Any) -> None:
    """Darkness and a room's Smarts modifier belong to rooms: a character standing in a broken
    window (a square of no room, here the store room's) is neither in the dark nor smelling it;
    Combat Awareness ignores both inside the room."""
    from ecs_zombie.systems.sza.state import room_effects

    game = laid_out(make_game)
    board, st = ctx(game)
    teoh, connor = who(game, "CPL Teoh"), who(game, "SGT Connor")
    window = board.cell(0, 7)
    assert board.room(window) is None and board.room(board.cell(1, 7)).dark
    put(game, teoh, 1, 7)
    assert room_effects(game, board, st, teoh)[0] is True
    st.flags.append("lights")  # the fuse box fixed: the store room is lit
    assert room_effects(game, board, st, teoh)[0] is False
    st.flags.remove("lights")
    put(game, teoh, 0, 7)
    assert room_effects(game, board, st, teoh) == (False, 0)
    put(game, connor, 1, 7)
    assert room_effects(game, board, st, connor) == (False, 0)
