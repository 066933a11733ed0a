"""Melee, ranged fire, surprise, Morale, infection and the board, with the book's worked numbers
forced through the dice ("Combat", "Damage & Infection", "Movement")."""

from __future__ import annotations

from typing import Any

from conftest import drive
from sza_helpers import STREET, clear_others, ctx, dice, laid_out, put, stamina, who, zombie

from ecs_zombie.components import Faction, Health, Kind, Markers, Position
from ecs_zombie.systems.sza import stage as stage_mod
from ecs_zombie.systems.sza import turn as turn_mod
from ecs_zombie.systems.sza.actions import options, perform
from ecs_zombie.systems.sza.combat import range_modifier, shoot
from ecs_zombie.systems.sza.components import Arms, Attributes, Infection, Stage
from ecs_zombie.systems.sza.moves import allowance, step_towards
from ecs_zombie.systems.sza.state import harm, rules
from ecs_zombie.systems.sza.zombies import zombie_act


def attacks(game: Any, attacker: int) -> list[dict[str, Any]]:
    return [d for _t, k, d in game.events if k == "attack" and d["attacker"] == attacker]


def test_bruce_long_running_engagement(make_game: Any) -> None:
    """Accuracy 55 - 5 running = 50; a roll of 20 hits; damage die + 5 running + 1 (Strength 60).
    The book's example rolls a d6 for the Fire Axe; the Weapons Table's 1d8 is followed (a 5 either way)."""
    game = laid_out(make_game)
    board, stage = ctx(game)
    bruce = who(game, "Bruce Long")
    attrs = game.world.get(bruce, Attributes)
    attrs.accuracy, attrs.strength = 55, 60  # the sample sheet's Bruce Long
    clear_others(game, [bruce])
    put(game, bruce, 7, 1)
    z = zombie(game, 9, 1)
    dice(game, 10, 10, 2, 10, 5)  # surprise 1d20s tie (no free attack), d100 = 20, d8 = 5
    drive(game, perform(game, bruce, f"engage:{z}:run", board, stage))
    hit = attacks(game, bruce)
    assert [(a["chance"], a["roll"], a["hit"]) for a in hit] == [(50, 20, True)]
    assert stamina(game, z) == 30 - 11
    assert game.world.get(bruce, Position).x == 9


def test_walking_and_stationary_modifiers(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    bruce = who(game, "Bruce Long")  # Accuracy 60, Strength 75 (+2), Fire Axe
    clear_others(game, [bruce])
    put(game, bruce, 7, 1)
    z = zombie(game, 8, 1)
    dice(game, 1, 10, 4)  # d100 = 10, d8 = 4
    drive(game, perform(game, bruce, f"engage:{z}:walk", board, stage))
    assert attacks(game, bruce)[-1]["chance"] == 57  # 60 - 3 walking
    assert stamina(game, z) == 30 - (4 + 3 + 2)
    dice(game, 1, 10, 4)
    drive(game, perform(game, bruce, "attack", board, stage))
    assert attacks(game, bruce)[-1]["chance"] == 63  # 60 + 3 stationary (Fire Axe)
    assert stamina(game, z) == 21 - (4 + 0 + 2)


def test_table_gives_plus_three_when_stationary(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    bruce = who(game, "Bruce Long")
    clear_others(game, [bruce])
    put(game, bruce, 9, 3)  # a dining table
    zombie(game, 9, 3)
    dice(game, 9, 9, 9, 9)
    drive(game, perform(game, bruce, "attack", board, stage))
    assert attacks(game, bruce)[-1]["chance"] == 66


def test_soldier_on_a_table_shoots_with_plus_three(make_game: Any) -> None:
    """Tables "provide a + 3 to Accuracy while a character ... is stationary and positioned on it";
    the SAR-21 is only ever fired stationary, so a Soldier shooting from a table gets the +3 too.
    SGT Connor (Accuracy 75) on a dining table, a zombie 2 squares along the row: 75 + 20 near + 3."""
    game = laid_out(make_game)
    board, stage = ctx(game)
    connor = who(game, "SGT Connor")
    clear_others(game, [connor])
    put(game, connor, 9, 3)  # a dining table
    z = zombie(game, 11, 3)
    dice(game, 9, 8, 1)  # 98 misses whatever the chance
    shoot(game, connor, z, board, stage)
    shot = [d for _t, k, d in game.events if k == "shot"][-1]
    assert (shot["squares"], shot["chance"]) == (2, 98)
    put(game, connor, 8, 3)  # off the table: no bonus
    dice(game, 9, 8, 1)
    shoot(game, connor, z, board, stage)
    assert [d for _t, k, d in game.events if k == "shot"][-1]["chance"] == 95


def test_soldier_medium_range_shot(make_game: Any) -> None:
    """4 squares is Medium range. The book's example adds 20 (Accuracy 50 -> 70%); the Weapons
    Table (Ranged) says +15, which is followed: 65%. A 25 hits; the 1d20 of 15 comes off Stamina."""
    game = laid_out(make_game)
    board, stage = ctx(game)
    connor = who(game, "SGT Connor")
    game.world.get(connor, Attributes).accuracy = 50
    clear_others(game, [connor])
    put(game, connor, 7, 2)
    z = zombie(game, 11, 2)
    assert f"shoot:{z}" in options(game, connor, board, stage)
    dice(game, 2, 5, 15)
    assert shoot(game, connor, z, board, stage)
    shot = [d for _t, k, d in game.events if k == "shot"][-1]
    assert (shot["squares"], shot["chance"], shot["roll"]) == (4, 65, 25)
    assert stamina(game, z) == 15
    dice(game, 6, 6)  # 66: would hit at the example's 70%, misses at the table's 65%
    assert not shoot(game, connor, z, board, stage)
    assert game.world.get(connor, Arms).rounds == 8


def test_range_bands_and_sight(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    assert [range_modifier(game, "sar21", n) for n in (0, 1, 2, 3, 4, 6, 7, 9, 10, 15)] == \
        [None, 20, 20, 20, 15, 15, 10, 10, None, None]
    connor = who(game, "SGT Connor")
    clear_others(game, [connor])
    put(game, connor, 23, 5)
    far = zombie(game, 33, 5)  # 10 squares down the corridor: always misses, so never offered
    through_wall = zombie(game, 23, 8)  # the empty room, behind the corridor's wall
    same = zombie(game, 7, 1)
    opts = options(game, connor, board, stage)
    assert f"shoot:{far}" not in opts and f"shoot:{through_wall}" not in opts
    put(game, connor, 7, 1)
    assert f"shoot:{same}" not in options(game, connor, board, stage)  # useless on the same square


def test_ammunition_and_reload(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    connor = who(game, "SGT Connor")
    clear_others(game, [connor])
    put(game, connor, 7, 2)
    z = zombie(game, 10, 2, stamina=500)
    arms = game.world.get(connor, Arms)
    for _ in range(10):
        shoot(game, connor, z, board, stage)
    assert arms.rounds == 0
    assert all(not o.startswith("shoot:") for o in options(game, connor, board, stage))
    assert not shoot(game, connor, z, board, stage) and arms.rounds == 0
    assert "reload" in options(game, connor, board, stage)
    drive(game, perform(game, connor, "reload", board, stage))
    assert (arms.rounds, arms.magazines) == (10, 0)
    arms.rounds = 3
    assert "reload" not in options(game, connor, board, stage)  # no magazine left


def test_morale_caps_attacks(make_game: Any) -> None:
    """Mary Jacobs (Morale 2) engaged with three zombies attacks two of them."""
    game = laid_out(make_game)
    board, stage = ctx(game)
    mary = who(game, "Mary Jacobs")
    clear_others(game, [mary])
    put(game, mary, 8, 2)
    zs = [zombie(game, 8, 2, stamina=100) for _ in range(3)]
    asked = drive(game, perform(game, mary, "attack", board, stage))
    assert len(attacks(game, mary)) == 2
    assert [d.kind for d in asked] == ["sza.melee_target", "sza.melee_target"]
    assert {a["target"] for a in attacks(game, mary)} < set(zs)


def test_surprise_free_attack(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    bruce = who(game, "Bruce Long")
    clear_others(game, [bruce])
    put(game, bruce, 7, 1)
    z = zombie(game, 9, 1, stamina=100)
    dice(game, 15, 3, 1, 10, 2, 1, 10, 2)  # Bruce wins 15-3: free attack, then his attack
    drive(game, perform(game, bruce, f"engage:{z}:run", board, stage))
    assert [a["why"] for a in attacks(game, bruce)] == ["surprise", "melee"]
    assert stamina(game, z) == 100 - 2 * (2 + 5 + 2)
    z2 = zombie(game, 11, 1, stamina=100)
    before = stamina(game, bruce)
    dice(game, 4, 18, 1, 10, 3, 9, 9)  # the zombie wins: its free attack (stationary, 10 hits, 1d8 3)
    put(game, bruce, 9, 2)
    drive(game, perform(game, bruce, f"engage:{z2}:run", board, stage))
    assert stamina(game, bruce) == before - (3 + 0 + 2)  # + the zombie's Strength 70 bonus


def test_infection_table_bands() -> None:
    r = _rules()
    assert [r.infection(s) for s in (40, 59, 60, 69, 70, 79, 80, 89, 90, 100)] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]


def _rules() -> Any:
    from ecs_zombie.ruleset import load_ruleset

    return load_ruleset("sza").tables["sza.rules"]


def test_infection_countdown_and_rising(make_game: Any) -> None:
    """Costa Wang (total Stamina 55) has 1 turn; Bruce Long (85) has 4. The countdown starts at the
    end of the turn after the one he was infected in; at 0 he rises with his own attributes."""
    game = laid_out(make_game)
    board, stage = ctx(game)
    costa, bruce = who(game, "Costa Wang"), who(game, "Bruce Long")
    harm(game, costa, 60, board, stage, "test")
    harm(game, bruce, 200, board, stage, "test")
    assert game.world.get(costa, Infection).infected and game.world.get(costa, Infection).turns_left == 1
    assert game.world.get(bruce, Infection).turns_left == 4
    risen_at = {}
    for turn in range(1, 7):
        stage_mod.infection(game)
        for ent in (costa, bruce):
            if game.world.get(ent, Faction).side == "zombies" and ent not in risen_at:
                risen_at[ent] = turn
    assert risen_at == {costa: 2, bruce: 5}
    assert game.world.get(costa, Kind).name == "risen"
    assert game.world.get(costa, Health).current == 55
    assert game.world.get(costa, Attributes).accuracy == 60


def test_infected_character_still_fights_but_uses_no_ability(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    mary = who(game, "Mary Jacobs")
    bruce = who(game, "Bruce Long")
    put(game, mary, 8, 2)
    put(game, bruce, 8, 2)
    harm(game, bruce, 100, board, stage, "test")
    harm(game, mary, 100, board, stage, "test")
    opts = options(game, mary, board, stage)
    assert not any(o.startswith("ability:") for o in opts)
    assert any(o.startswith("engage:") or o.startswith("goto:") for o in opts) or "attack" in opts


def test_risen_soldier_has_no_rifle(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    connor = who(game, "SGT Connor")
    harm(game, connor, 100, board, stage, "test")
    for _ in range(5):
        stage_mod.infection(game)
    arms = game.world.get(connor, Arms)
    assert game.world.get(connor, Faction).side == "zombies"
    assert (arms.melee, arms.ranged, arms.rounds) == ("bowie_knife", "", 0)


def test_doors_stop_movement(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    dexter = who(game, "Dexter")
    put(game, dexter, 4, 2)
    step_towards(game, dexter, board.cell(11, 2), 5, board, stage, True)
    assert (game.world.get(dexter, Position).x, game.world.get(dexter, Position).y) == (6, 2)
    step_towards(game, dexter, board.cell(11, 2), 5, board, stage, True)
    assert game.world.get(dexter, Position).x == 11


def test_movement_tables_indoor_outdoor(make_game: Any) -> None:
    game = laid_out(make_game)
    board, _stage = ctx(game)
    walks = {n: allowance(game, who(game, n), board) for n in ("Bruce Long", "SGT Connor", "Dexter", "Costa Wang",
                                                                "Mary Jacobs")}
    assert walks == {"Bruce Long": (1, 2), "SGT Connor": (2, 4), "Dexter": (3, 5), "Costa Wang": (2, 3),
                     "Mary Jacobs": (3, 4)}
    street = laid_out(make_game, STREET)
    sboard, _s = ctx(street)
    walks = {n: allowance(street, who(street, n), sboard) for n in ("Bruce Long", "SGT Connor", "Dexter",
                                                                     "Costa Wang", "Mary Jacobs")}
    assert walks == {"Bruce Long": (1, 2), "SGT Connor": (2, 3), "Dexter": (3, 4), "Costa Wang": (2, 3),
                     "Mary Jacobs": (2, 3)}


def test_grass_allows_walking_only(make_game: Any) -> None:
    game = laid_out(make_game, STREET)
    board, stage = ctx(game)
    dexter = who(game, "Dexter")
    put(game, dexter, 20, 0)  # grass
    z = zombie(game, 16, 0)
    opts = options(game, dexter, board, stage)
    assert f"approach:{z}" in opts and f"engage:{z}:run" not in opts
    connor = who(game, "SGT Connor")  # Combat Awareness: no environmental debuffs
    put(game, connor, 20, 6)
    z2 = zombie(game, 17, 6)
    assert f"engage:{z2}:run" in options(game, connor, board, stage)


def test_zombies_pick_a_different_victim_then_the_nearest(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    mary, dexter = who(game, "Mary Jacobs"), who(game, "Dexter")
    clear_others(game, [mary, dexter])
    put(game, mary, 8, 1)
    put(game, dexter, 12, 1)
    z1 = zombie(game, 8, 1)
    z2 = zombie(game, 9, 2)
    dice(game, *([9] * 10))
    drive(game, zombie_act(game, z2, board, stage))
    pos = game.world.get(z2, Position)
    assert (pos.x, pos.y) != (8, 1)  # not onto Mary, whom z1 already holds: towards Dexter
    assert z1


def test_zombies_spread_their_attacks_over_engaged_characters(make_game: Any) -> None:
    """"Play Criteria": the reader "should try to have each NPC zombie to attack a different player
    character, whenever possible". Two zombies locked in melee with Mary and Dexter on one square:
    the second goes for the character the first did not attack (the default policy used to send both
    at the weaker one, since both characters are held by both zombies). The next turn starts afresh."""
    game = laid_out(make_game)
    board, stage = ctx(game)
    mary, dexter = who(game, "Mary Jacobs"), who(game, "Dexter")
    clear_others(game, [mary, dexter])
    put(game, mary, 8, 1)
    put(game, dexter, 8, 1)
    z1 = zombie(game, 8, 1)
    z2 = zombie(game, 8, 1)
    dice(game, *([9] * 20))  # every attack misses (99)
    drive(game, zombie_act(game, z1, board, stage))
    drive(game, zombie_act(game, z2, board, stage))
    first, second = attacks(game, z1)[-1]["target"], attacks(game, z2)[-1]["target"]
    assert {first, second} == {mary, dexter}
    stage.built = True
    turn_mod.initiative(game)  # a new turn: last turn's victims are forgotten
    assert not [t for _e, m in game.world.query1(Markers) for t in m.tags if t.startswith("victim:")]


def test_no_running_from_grass(make_game: Any) -> None:
    """Grass Patches: "Only the walking movement is allowed". A character on grass with a zombie in
    walking reach may engage it walking, not running (no running modifiers, no Surprise); a zombie
    on grass walks too."""
    game = laid_out(make_game, STREET)
    board, stage = ctx(game)
    dexter = who(game, "Dexter")
    clear_others(game, [dexter])
    put(game, dexter, 20, 0)  # grass
    z = zombie(game, 18, 0)
    opts = options(game, dexter, board, stage)
    assert f"engage:{z}:walk" in opts and f"engage:{z}:run" not in opts
    put(game, dexter, 20, 3)  # the road
    z2 = zombie(game, 21, 0)  # on grass, 3 squares from Dexter: a walk of 1 gets it nowhere near
    dice(game, *([9] * 10))
    drive(game, zombie_act(game, z2, board, stage))
    moved = [d for _t, k, d in game.events if k == "move" and d["piece"] == z2]
    assert moved and moved[-1]["running"] is False
    pos = game.world.get(z2, Position)
    assert board.chebyshev(board.cell(21, 0), board.cell(pos.x, pos.y)) == 1  # walked 1, did not run 2


def test_hiding_in_a_pipe_room(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    costa = who(game, "Costa Wang")
    for ent in (who(game, n) for n in ("Bruce Long", "Mary Jacobs", "Dexter", "SGT Connor", "CPL Teoh", "Costa Wang")):
        put(game, ent, 15, 6)  # the pipe room off the kitchen
    z = zombie(game, 15, 6)
    drive(game, zombie_act(game, z, board, stage))
    assert not [d for _t, k, d in game.events if k == "attack"]
    assert costa


def test_stamina_never_exceeds_total_and_bandages(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    mary = who(game, "Mary Jacobs")
    h = game.world.get(mary, Health)
    h.current = 73
    drive(game, perform(game, mary, "bandage", board, stage))
    assert h.current == 75  # +5 but not above the total
    h.current = 0
    game.world.get(mary, Infection).infected = True
    assert "bandage" not in options(game, mary, board, stage)  # not from 0


def test_stage_state_is_a_component(make_game: Any) -> None:
    game = laid_out(make_game)
    assert game.world.query1(Stage)[0][1].built
    assert rules(game).numbers["water_uses"] == 3
