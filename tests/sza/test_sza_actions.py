"""Other actions through play: checks in the style of the Break Check, salvaging and its loot,
locked doors, bandages and water, trading, resting before Scenario 2 ("Additional Actions",
"Replenishing Stamina", the map descriptions, "Reward"). Dice are forced; expectations are literals."""

from __future__ import annotations

from typing import Any

import pytest
from sza_helpers import (
    STREET,
    add_item,
    alone,
    arms,
    ctx,
    d100,
    dice,
    drive,
    give,
    infection,
    items,
    laid_out,
    logged,
    put,
    run_system,
    set_stamina,
    stamina,
    vehicle,
    who,
    with_rules,
    zombie,
)

from ecs_zombie.systems.sza import stage as stage_mod
from ecs_zombie.systems.sza.actions import options, perform
from ecs_zombie.systems.sza.turn import initiative

# (check, action's feature square, where the character stands, Bruce's bonus, Costa's bonus, target).
# Bruce Long: Strength 75 (+2), Smarts 50 (+0). Costa Wang: Strength 55 (+0), Smarts 85 (+3).
CHECKS = [
    ("window", "window", (0, 7), (1, 7), 0, 3, 5),  # the book: "1d10 ... a 5 (including the Bonus modifier)"
    ("force_door", "unlock", (32, 4), (32, 5), 2, 0, 8),  # DESIGN CHOICE: Strength, 8
    ("lock", "unlock", (30, 10), (29, 10), 2, 0, 7),  # DESIGN CHOICE: a locked cabinet, Strength, 7
    ("safe", "safe", (32, 2), (32, 3), 2, 3, 7),  # DESIGN CHOICE: the better bonus, 7
    ("fuse", "fuse", (5, 6), (5, 7), 0, 3, 6),  # DESIGN CHOICE: Smarts, 6
]


@pytest.mark.parametrize(("check", "verb", "feature", "stand", "bruce_bonus", "costa_bonus", "target"), CHECKS)
def test_checks(make_game: Any, check: str, verb: str, feature: tuple[int, int], stand: tuple[int, int],
                bruce_bonus: int, costa_bonus: int, target: int) -> None:
    """Checks are "a 1d10 ... (including the Bonus modifier) and above": the die plus the character's
    Smarts or Strength bonus against a target; one short fails, the target succeeds."""
    for name, bonus in (("Bruce Long", bruce_bonus), ("Costa Wang", costa_bonus)):
        game = laid_out(make_game)
        board, st = ctx(game)
        ent = alone(game, name, *stand)
        cell = board.cell(*feature)
        if check == "safe":
            st.opened.append(board.cell(32, 4))
        option = f"{verb}:{cell}"
        assert option in options(game, ent, board, st)
        short = target - bonus - 1
        if short >= 1:
            dice(game, short)
            drive(game, perform(game, ent, option, board, st))
        dice(game, target - bonus)
        drive(game, perform(game, ent, option, board, st))
        expect = ([(short, False)] if short >= 1 else []) + [(target - bonus, True)]
        assert [(c["roll"], c["success"]) for c in logged(game, "check", check=check)] == expect, name
        assert {(c["bonus"], c["target"], c["piece"]) for c in logged(game, "check")} == {(bonus, target, ent)}


def test_check_outcomes(make_game: Any) -> None:
    """What each successful check does: a broken window opens its square, a forced door or cabinet
    opens, the safe gives the documents, the fuse box brings the lights back; each is a flag of the
    stage."""
    game = laid_out(make_game)
    board, st = ctx(game)
    bruce = alone(game, "Bruce Long", 1, 7)
    window = board.cell(0, 7)
    dice(game, 10)
    drive(game, perform(game, bruce, f"window:{window}", board, st))
    assert window in st.opened and logged(game, "window_broken") == [{"piece": bruce, "cell": window}]
    put(game, bruce, 5, 7)
    dice(game, 10)
    drive(game, perform(game, bruce, f"fuse:{board.cell(5, 6)}", board, st))
    assert "lights" in st.flags and logged(game, "lights_on") == [{"piece": bruce}]
    assert f"fuse:{board.cell(5, 6)}" not in options(game, bruce, board, st)
    put(game, bruce, 32, 5)
    door = board.cell(32, 4)
    dice(game, 10)
    drive(game, perform(game, bruce, f"unlock:{door}", board, st))
    assert door in st.opened and "opened_locked_door" in st.flags
    assert logged(game, "unlocked") == [{"piece": bruce, "cell": door, "how": "force"}]
    put(game, bruce, 32, 3)
    safe = board.cell(32, 2)
    dice(game, 10)
    drive(game, perform(game, bruce, f"safe:{safe}", board, st))
    assert items(game, bruce)["documents"] == 1 and safe in st.looted and "looted_safe" in st.flags
    assert f"safe:{safe}" not in options(game, bruce, board, st)
    # the stage's flags are a set, kept in name order (not in the order things happened)
    assert st.flags == ["lights", "looted_safe", "opened_locked_door"]


def test_vehicle_break_in_check(make_game: Any) -> None:
    """"Any Character may use their Smarts or Strength attribute to try and break into a vehicle"
    (DESIGN CHOICE: 1d10 + the better bonus >= 6): Costa's Smarts +3, Bruce's Strength +2."""
    for name, short, enough in (("Costa Wang", 2, 3), ("Bruce Long", 3, 4)):
        game = laid_out(make_game, STREET)
        board, st = ctx(game)
        run_system(game, "sza.objective")  # no zombie on the street: the car may be approached
        ent = alone(game, name, 7, 2)
        _v, car = vehicle(game)
        dice(game, short)
        drive(game, perform(game, ent, "break_in", board, st))
        assert not car.unlocked
        dice(game, enough)
        drive(game, perform(game, ent, "break_in", board, st))
        assert car.unlocked and logged(game, "vehicle_open") == [{"piece": ent}]
        assert [c["target"] for c in logged(game, "check", check="vehicle")] == [6, 6]


def test_lock_picking_opens_without_a_roll(make_game: Any) -> None:
    """Lock-Picking: "Enables the Prison Convict to open locked doors" (no check)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    dexter = alone(game, "Dexter", 32, 5)
    give(game, dexter, "lock_picking")
    door = board.cell(32, 4)
    dice(game)  # no die may be rolled
    drive(game, perform(game, dexter, f"unlock:{door}", board, st))
    assert door in st.opened and logged(game, "unlocked") == [{"piece": dexter, "cell": door, "how": "lock-picking"}]
    assert not logged(game, "check") and not logged(game, "roll")


def test_the_key_opens_the_panic_room(make_game: Any) -> None:
    """DESIGN CHOICE: the false ceiling's key opens the locked door, carried by anyone next to it."""
    game = laid_out(make_game)
    board, st = ctx(game)
    bruce, mary = who(game, "Bruce Long"), who(game, "Mary Jacobs")
    alone(game, "Bruce Long", 32, 5)
    put(game, mary, 31, 5)
    add_item(game, mary, "key")
    door = board.cell(32, 4)
    dice(game)
    drive(game, perform(game, bruce, f"unlock:{door}", board, st))
    assert logged(game, "unlocked") == [{"piece": bruce, "cell": door, "how": "key"}]
    st.opened.remove(door)
    put(game, mary, 29, 5)  # too far from the door: the key does not count; a check is rolled
    dice(game, 1)
    drive(game, perform(game, bruce, f"unlock:{door}", board, st))
    assert door not in st.opened and len(logged(game, "check", check="force_door")) == 1


# -- Salvaging -----------------------------------------------------------------------------------

# DESIGN CHOICE loot: (feature square, a square next to it, what it gives).
LOOT = [
    ((1, 8), (2, 8), {"bandage": 2}),  # the store room cabinet
    ((17, 1), (17, 2), {"water": 3}),  # a kitchen counter: a bottle of mineral water, 3 uses
    ((26, 1), (26, 2), {"bandage": 3}),  # an operation room cabinet
    ((25, 9), (25, 10), {"key": 1}),  # the false ceiling
]


@pytest.mark.parametrize(("feature", "stand", "loot"), LOOT)
def test_salvaging(make_game: Any, feature: tuple[int, int], stand: tuple[int, int], loot: dict[str, int]) -> None:
    """Salvaging (DESIGN CHOICE: a d100 at or under total Smarts; a failed search may be tried again;
    a feature is emptied once looted). Costa Wang: Smarts 85, no items."""
    game = laid_out(make_game)
    board, st = ctx(game)
    costa = alone(game, "Costa Wang", *stand)
    cell = board.cell(*feature)
    dice(game, *d100(86))
    drive(game, perform(game, costa, f"salvage:{cell}", board, st))
    assert items(game, costa) == {} and cell not in st.looted
    dice(game, *d100(85))
    drive(game, perform(game, costa, f"salvage:{cell}", board, st))
    assert items(game, costa) == loot and cell in st.looted
    assert [(s["roll"], s["target"], s["success"]) for s in logged(game, "salvage")] == \
        [(86, 85, False), (85, 85, True)]
    assert logged(game, "looted") == [{"piece": costa, "cell": cell, "items": loot}]
    assert f"salvage:{cell}" not in options(game, costa, board, st)


def test_locked_cabinet_in_the_smelly_store_room(make_game: Any) -> None:
    """Level 2 Store Room: "-5 to character's Smarts attribute"; its "locked cabinet" must be opened
    before it is searched (DESIGN CHOICE: it holds a magazine, which goes into a Soldier's SAR-21)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 29, 10)  # Smarts 75, 70 in here
    cell = board.cell(30, 10)
    assert f"salvage:{cell}" not in options(game, mary, board, st)
    st.opened.append(cell)
    dice(game, *d100(71), *d100(70))
    drive(game, perform(game, mary, f"salvage:{cell}", board, st))
    drive(game, perform(game, mary, f"salvage:{cell}", board, st))
    assert [(s["target"], s["success"]) for s in logged(game, "salvage")] == [(70, False), (70, True)]
    assert items(game, mary)["magazine"] == 1
    game2 = laid_out(make_game)
    board2, st2 = ctx(game2)
    connor = alone(game2, "SGT Connor", 29, 10)  # Combat Awareness: no smell; Smarts 55
    st2.opened.append(cell)
    dice(game2, *d100(55))
    drive(game2, perform(game2, connor, f"salvage:{cell}", board2, st2))
    assert arms(game2, connor).magazines == 2 and "magazine" not in items(game2, connor)


# -- Replenishing Stamina ------------------------------------------------------------------------

def test_bandages(make_game: Any) -> None:
    """"These Bandages per use, recovers 5 points of Stamina. [They] neither help to replenish a
    character's Stamina who has gone to 0 nor will it replenish additional Stamina above the total"."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary = who(game, "Mary Jacobs")  # 5 bandages, total Stamina 75
    set_stamina(game, mary, 60)
    drive(game, perform(game, mary, "bandage", board, st))
    assert stamina(game, mary) == 65 and items(game, mary)["bandage"] == 4
    set_stamina(game, mary, 73)
    drive(game, perform(game, mary, "bandage", board, st))
    assert stamina(game, mary) == 75 and items(game, mary)["bandage"] == 3
    assert "bandage" not in options(game, mary, board, st)  # at full Stamina
    set_stamina(game, mary, 0)
    infection(game, mary).infected = True
    assert "bandage" not in options(game, mary, board, st)


def test_mineral_water(make_game: Any) -> None:
    """The safe's "bottle of mineral water (Can be used 3 times: Replenishes 10 points of health per use)"."""
    game = laid_out(make_game)
    board, st = ctx(game)
    bruce = who(game, "Bruce Long")  # total Stamina 85
    add_item(game, bruce, "water", 3)
    set_stamina(game, bruce, 50)
    for _ in range(3):
        assert "water" in options(game, bruce, board, st)
        drive(game, perform(game, bruce, "water", board, st))
    assert stamina(game, bruce) == 80 and "water" not in items(game, bruce)
    assert "water" not in options(game, bruce, board, st)


def test_rest_before_the_street(make_game: Any) -> None:
    """Reward: "The characters may use these items to heal themselves before the start of the next
    scenario": the rest step offers bandages (+5) and water (+10) until done."""
    game = laid_out(make_game, STREET)
    mary, bruce = who(game, "Mary Jacobs"), who(game, "Bruce Long")
    set_stamina(game, mary, 50)
    set_stamina(game, bruce, 70)
    add_item(game, bruce, "water", 3)
    picks = {mary: iter(["bandage", "bandage", "done"]), bruce: iter(["water", "water", "done"])}
    asked = drive(game, stage_mod.rest(game), {"sza.rest": lambda d: next(picks[d.context["piece"]])
                                               if d.context["piece"] in picks else "done"})
    assert stamina(game, mary) == 60 and stamina(game, bruce) == 85  # 70 + 10 + 5 (not above 85)
    assert [(r["piece"], r["item"], r["stamina"]) for r in logged(game, "rested")] == \
        [(bruce, "water", 80), (bruce, "water", 85), (mary, "bandage", 55), (mary, "bandage", 60)]
    assert items(game, bruce)["water"] == 1
    assert {d.kind for d in asked} == {"sza.rest"}


# -- Trading -------------------------------------------------------------------------------------

def test_trading(make_game: Any) -> None:
    """Trading: "A trade may only take place if characters are adjacent to each other, horizontally or
    vertically"; "Once a character engages in a trade, he/she may not move or attack until the next
    round" (DESIGN CHOICE: both of them)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary, bruce = who(game, "Mary Jacobs"), who(game, "Bruce Long")
    alone(game, "Mary Jacobs", 8, 2)
    put(game, bruce, 9, 3)  # diagonal: no trade
    assert f"give:bandage:{bruce}" not in options(game, mary, board, st)
    put(game, bruce, 8, 3)
    drive(game, perform(game, mary, f"give:bandage:{bruce}", board, st))
    assert items(game, bruce)["bandage"] == 1 and items(game, mary)["bandage"] == 4
    assert logged(game, "trade") == [{"giver": mary, "taker": bruce, "item": "bandage", "n": 1}]
    zombie(game, 10, 3)
    for ent in (mary, bruce):
        assert not [o for o in options(game, ent, board, st) if o.startswith(("engage:", "goto:", "approach:"))]
    initiative(game)  # the next round
    assert [o for o in options(game, bruce, board, st) if o.startswith("engage:")]


def test_trading_any_item_and_a_magazine_reaches_the_rifle(make_game: Any) -> None:
    """Trading "useful items ... (e.g. Bandages)": not bandages only. A magazine traded to the Soldier
    becomes a spare for the SAR-21 ("may only reload ... if he/she possesses an available magazine");
    a bottle of mineral water changes hands with its uses."""
    game = laid_out(make_game)
    board, st = ctx(game)
    dexter, connor = who(game, "Dexter"), who(game, "SGT Connor")
    put(game, dexter, 2, 2)
    put(game, connor, 3, 2)
    add_item(game, dexter, "magazine")
    add_item(game, dexter, "water", 3)
    opts = options(game, dexter, board, st)
    assert {f"give:magazine:{connor}", f"give:water:{connor}", f"give:rope:{connor}"} <= set(opts)
    drive(game, perform(game, dexter, f"give:magazine:{connor}", board, st))
    assert arms(game, connor).magazines == 2 and "magazine" not in items(game, dexter)
    arms(game, connor).rounds = 0
    assert "reload" in options(game, connor, board, st)
    drive(game, perform(game, dexter, f"give:water:{connor}", board, st))
    assert "water" not in items(game, dexter) and items(game, connor)["water"] == 3 + 3
    initiative(game)
    drive(game, perform(game, connor, f"give:water:{dexter}", board, st))  # one bottle of his two
    assert items(game, connor)["water"] == 3 and items(game, dexter)["water"] == 3
    assert [t["n"] for t in logged(game, "trade")] == [1, 3, 3]


def test_a_bandage_the_table_makes_worth_nothing_heals_nothing(make_game: Any, tmp_path: Any) -> None:
    """The healing is the rules table's number, whatever it is: a table whose bandage gives 0 leaves
    a resting character's Stamina where it was."""
    game = laid_out(make_game, with_rules(tmp_path, STREET, bandage=0))
    mary = who(game, "Mary Jacobs")
    set_stamina(game, mary, 50)
    picks = iter(["bandage", "done"])
    drive(game, stage_mod.rest(game), {"sza.rest": lambda d: next(picks) if d.context["piece"] == mary else "done"})
    assert stamina(game, mary) == 50
    assert [(r["item"], r["stamina"]) for r in logged(game, "rested")] == [("bandage", 50)]
