"""Every event kind the SZA systems log appears where its rule produces it, with all of its fields
(replays and debugging read them). Kinds pinned with their rule elsewhere are listed in PINNED_ELSEWHERE
with the test that pins them; the last test checks that no kind the systems log is left unpinned."""

from __future__ import annotations

import re
from typing import Any

from sza_helpers import (
    BUNGALOW,
    HUMANS,
    STREET,
    add_item,
    alone,
    ctx,
    d100,
    dice,
    drive,
    laid_out,
    logged,
    put,
    set_stamina,
    stage,
    who,
    zombie,
)

from ecs_zombie.systems.sza import stage as stage_mod
from ecs_zombie.systems.sza.actions import act, perform
from ecs_zombie.systems.sza.combat import shoot
from ecs_zombie.systems.sza.state import harm
from ecs_zombie.systems.sza.turn import initiative
from tests.helpers import ROOT

PINNED_ELSEWHERE = {
    "k9": "test_sza_abilities.py::test_k9_companion",
    "reload": "test_sza_ranged.py::test_ammunition_and_reload",
    "lights_on": "test_sza_actions.py::test_check_outcomes",
    "window_broken": "test_sza_actions.py::test_check_outcomes",
    "unlocked": "test_sza_actions.py::test_check_outcomes",
    "trade": "test_sza_actions.py::test_trading",
    "looted": "test_sza_actions.py::test_salvaging",
    "vehicle_open": "test_sza_actions.py::test_vehicle_break_in_check",
    "boarded": "test_sza_campaign.py::test_vehicle_break_in_board_and_drive",
    "drove": "test_sza_campaign.py::test_vehicle_break_in_board_and_drive",
    "alighted": "test_sza_campaign.py::test_getting_out_of_the_car",
    "destroyed": "test_sza_melee.py::test_zombie_stamina_50_and_elimination_at_zero",
    "infected": "test_sza_melee.py::test_stamina_at_zero_infects",
    "cured": "test_sza_abilities.py::test_vial_of_antidote_cures_or_heals_once",
    "surprise": "test_sza_melee.py::test_surprise_free_attack",
    "one_shot_one_kill": "test_sza_abilities.py::test_one_shot_one_kill",
    "scenario": "test_sza_campaign.py::test_setting_up_scenario_1",
    "risen": "test_sza_combat.py::test_infection_table",
    "overrun": "test_sza_campaign.py::test_turn_limit",
    "scenario_won": "test_sza_campaign.py::test_scenario_1_won_with_the_documents_and_nobody_engaged",
}
PINNED_HERE = {"initiative", "move", "action", "attack", "damage", "shot", "check", "salvage", "ability", "spawned",
               "rested", "event"}


def test_initiative_event(make_game: Any) -> None:
    """Initiative: each side's total (1d10 + the Initiative of its most accurate piece) and who goes first."""
    game = laid_out(make_game)
    zombie(game, 12, 6)
    dice(game, 4, 3)
    initiative(game)
    assert logged(game, "initiative") == [{"humans": 10, "zombies": 10, "first": HUMANS}]


def test_action_move_attack_and_damage_events(make_game: Any) -> None:
    """A walking engagement: the action chosen, the move (square reached, not running), the attack
    (pace, chance, roll, hit, why) and the damage (after reductions, the Stamina left, its source)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    bruce = alone(game, "Bruce Long", 7, 1)  # Accuracy 60, Strength 75 (+2), Fire Axe
    z = zombie(game, 8, 1)
    dice(game, *d100(40), 6)
    drive(game, act(game, bruce, board, st, ""), {"sza.action": f"engage:{z}:walk"})
    assert logged(game, "action") == [{"piece": bruce, "action": f"engage:{z}:walk"}]
    assert logged(game, "move") == [{"piece": bruce, "to": [8, 1], "running": False}]
    assert logged(game, "attack") == [{"attacker": bruce, "target": z, "pace": "walk", "chance": 57, "roll": 40,
                                       "hit": True, "why": "melee"}]
    assert logged(game, "damage") == [{"target": z, "damage": 6 + 3 + 2, "stamina": 50 - 11, "source": "melee"}]


def test_shot_events(make_game: Any) -> None:
    """A shot in range logs its squares, chance, roll and hit; one out of range no chance at all."""
    game = laid_out(make_game)
    board, st = ctx(game)
    connor = alone(game, "SGT Connor", 23, 5)
    z = zombie(game, 25, 5)
    dice(game, *d100(96))
    shoot(game, connor, z, board, st)
    far = zombie(game, 33, 5)
    dice(game, *d100(5))
    shoot(game, connor, far, board, st)
    assert logged(game, "shot") == [
        {"shooter": connor, "target": z, "squares": 2, "chance": 95, "roll": 96, "hit": False},
        {"shooter": connor, "target": far, "squares": 10, "roll": 5, "hit": False}]


def test_check_and_salvage_events(make_game: Any) -> None:
    game = laid_out(make_game)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 1, 7)  # Smarts 75: +2
    window = board.cell(0, 7)
    dice(game, 3)
    drive(game, perform(game, mary, f"window:{window}", board, st))
    assert logged(game, "check") == [{"piece": mary, "check": "window", "roll": 3, "bonus": 2, "target": 5,
                                      "success": True}]
    put(game, mary, 2, 8)
    cabinet = board.cell(1, 8)
    dice(game, *d100(76))
    drive(game, perform(game, mary, f"salvage:{cabinet}", board, st))
    assert logged(game, "salvage") == [{"piece": mary, "cell": cabinet, "roll": 76, "target": 75, "success": False}]


def test_ability_event(make_game: Any) -> None:
    """An ability used: who, which, and its target (the user itself when it has none)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary, dexter = who(game, "Mary Jacobs"), who(game, "Dexter")
    put(game, mary, 2, 2)
    put(game, dexter, 3, 2)
    harm(game, dexter, 80, board, st, "test")
    drive(game, perform(game, mary, f"ability:intravenous_injection:{dexter}", board, st))
    costa = who(game, "Costa Wang")
    zombie(game, 12, 6)
    drive(game, perform(game, costa, "ability:motivational_speech", board, st))
    assert logged(game, "ability") == [
        {"piece": mary, "ability": "intravenous_injection", "target": dexter},
        {"piece": costa, "ability": "motivational_speech", "target": costa}]


def test_spawned_and_event_events(make_game: Any) -> None:
    """Entering a numbered event logs it; its spawn step logs each zombie brought in and where."""
    game = laid_out(make_game, BUNGALOW)
    drive(game, stage_mod.events(game), {"sza.spawn_point": lambda d: d.options[0],
                                         "sza.event_choice": lambda d: d.options[0]})
    assert logged(game, "event")[0] == {"scenario": "bungalow", "event": "1", "title": "Banging on the Windows"}
    spawned = logged(game, "spawned")
    assert [s["at"] for s in spawned] == [[1, 2]] * 3
    assert len({s["zombie"] for s in spawned}) == 3 and stage(game).supply == 12


def test_rested_event(make_game: Any) -> None:
    game = laid_out(make_game, STREET)
    mary = who(game, "Mary Jacobs")
    set_stamina(game, mary, 50)
    add_item(game, mary, "water")
    drive(game, stage_mod.rest(game), {"sza.rest": lambda d: "water" if "water" in d.options else "done"})
    assert logged(game, "rested") == [{"piece": mary, "item": "water", "stamina": 60}]


def test_every_logged_kind_is_pinned() -> None:
    """Each kind passed to `game.log` under systems/sza is pinned here or by the test named above."""
    kinds = set()
    for path in sorted((ROOT / "systems" / "sza").glob("*.py")):
        kinds |= set(re.findall(r"game\.log\(\"([a-z_0-9]+)\"", path.read_text()))
    assert kinds <= PINNED_HERE | set(PINNED_ELSEWHERE)
    assert not PINNED_HERE & set(PINNED_ELSEWHERE)
    for where in PINNED_ELSEWHERE.values():
        file, name = where.split("::")
        assert f"def {name}(" in (ROOT / "tests" / "sza" / file).read_text(), where
