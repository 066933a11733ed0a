"""The Soldier's SAR-21 through play ("Combat Sequence (Ranged) - Soldier", Weapons Table (Ranged),
"Ammunition (Soldier only)"). Dice are forced; expected chances and damage are the book's numbers."""

from __future__ import annotations

from typing import Any

import pytest
from sza_helpers import (
    STREET,
    alone,
    arms,
    at,
    ctx,
    d100,
    dice,
    drive,
    laid_out,
    logged,
    put,
    rolled,
    run_system,
    set_attrs,
    stamina,
    vehicle,
    zombie,
)

from ecs_zombie.systems.sza.actions import options, perform
from ecs_zombie.systems.sza.combat import shoot


def shots(game: Any) -> list[tuple[Any, ...]]:
    return [(s["squares"], s.get("chance"), s["roll"], s["hit"]) for s in logged(game, "shot")]


# SGT Connor (Accuracy 75) at the west end of the level 2 corridors (row 5, x 23..33); Combat
# Awareness spares him the corridor's darkness. Range Accuracy Modifier: Near (2-3) +20, Medium
# (4-6) +15, Far (7-9) +10 (DESIGN CHOICE: 1 square counts as near).
RANGES = [(1, 95), (2, 95), (3, 95), (4, 90), (5, 90), (6, 90), (7, 85), (8, 85), (9, 85)]


@pytest.mark.parametrize(("squares", "chance"), RANGES)
def test_range_accuracy_modifier(make_game: Any, squares: int, chance: int) -> None:
    """Weapons Table (Ranged): "Add the Range Accuracy Modifier for the associated range ... to the
    total Accuracy"; a d100 at or under it hits; 1d20 damage and "no Bonus Attack values from the
    Strength attribute" (Connor's Strength 85 would add 3)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    connor = alone(game, "SGT Connor", 23, 5)
    z = zombie(game, 23 + squares, 5, stamina=100)
    assert f"shoot:{z}" in options(game, connor, board, st)
    dice(game, *d100(chance), 20)
    drive(game, perform(game, connor, f"shoot:{z}", board, st))
    assert shots(game) == [(squares, chance, chance, True)]
    assert rolled(game, "shot damage") == [("1d20", [20])]
    assert stamina(game, z) == 80
    dice(game, *d100(chance + 1))
    shoot(game, connor, z, board, st)
    assert shots(game)[-1] == (squares, chance, chance + 1, False) and stamina(game, z) == 80
    assert at(game, connor) == (23, 5)  # "The character cannot move if he/she wishes to attack with this weapon"


def test_ten_squares_and_more_always_miss(make_game: Any) -> None:
    """"The SAR-21 will always miss at ranges 10 squares and above": never offered, and a shot
    fired anyway misses whatever the roll (the round is spent)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    connor = alone(game, "SGT Connor", 23, 5)
    z = zombie(game, 33, 5, stamina=100)
    assert f"shoot:{z}" not in options(game, connor, board, st)
    dice(game, 1, 10)
    assert not shoot(game, connor, z, board, st)
    assert shots(game) == [(10, None, 10, False)] and stamina(game, z) == 100 and arms(game, connor).rounds == 9


def test_book_example_medium_range(make_game: Any) -> None:
    """4 squares is Medium range. The book's example adds 20 (Accuracy 50 -> 70%); the Weapons
    Table (Ranged) says +15, which is followed: 65%. A 25 hits; the 1d20 of 15 comes off Stamina."""
    game = laid_out(make_game)
    board, st = ctx(game)
    connor = alone(game, "SGT Connor", 7, 2)
    set_attrs(game, connor, accuracy=50)
    z = zombie(game, 11, 2, stamina=30)
    dice(game, 2, 5, 15)
    assert shoot(game, connor, z, board, st)
    assert shots(game) == [(4, 65, 25, True)]
    assert stamina(game, z) == 15
    dice(game, 6, 6)  # 66: would hit at the example's 70%, misses at the table's 65%
    assert not shoot(game, connor, z, board, st)


def test_soldier_on_a_table_shoots_with_plus_three(make_game: Any) -> None:
    """Tables "provide a + 3 to Accuracy while a character ... is stationary and positioned on it";
    the SAR-21 is only ever fired stationary, so a Soldier shooting from a table gets the +3 too.
    SGT Connor (Accuracy 75) on a dining table, a zombie 2 squares along the row: 75 + 20 near + 3."""
    game = laid_out(make_game)
    board, st = ctx(game)
    connor = alone(game, "SGT Connor", 9, 3)  # a dining table
    z = zombie(game, 11, 3)
    dice(game, 9, 8, 1)  # 98 misses whatever the chance
    shoot(game, connor, z, board, st)
    put(game, connor, 8, 3)  # off the table: no bonus (3 squares: still near)
    dice(game, 9, 8, 1)
    shoot(game, connor, z, board, st)
    assert [(s[0], s[1]) for s in shots(game)] == [(2, 98), (3, 95)]


def test_direct_sight_only_along_rows_and_columns(make_game: Any) -> None:
    """"Only if he/she has direct sight of the target ... horizontally and vertically"; "Targets behind
    a wall also not do count"; "rendered useless at melee range (... on the same square)"."""
    game = laid_out(make_game)
    board, st = ctx(game)
    connor = alone(game, "SGT Connor", 23, 5)
    column = zombie(game, 23, 6)
    diagonal = zombie(game, 25, 6)
    through_wall = zombie(game, 23, 8)  # the empty room, behind the corridor's wall
    behind_door = zombie(game, 32, 2)  # the panic room, behind its locked door (column x 32)
    opts = options(game, connor, board, st)
    assert f"shoot:{column}" in opts
    assert not {f"shoot:{diagonal}", f"shoot:{through_wall}"} & set(opts)
    put(game, connor, 32, 5)
    assert f"shoot:{behind_door}" not in options(game, connor, board, st)
    st.opened.append(board.cell(32, 4))
    assert f"shoot:{behind_door}" in options(game, connor, board, st)
    put(game, connor, 30, 6)
    assert f"shoot:{column}" in options(game, connor, board, st)  # 7 squares along row 6
    same = zombie(game, 30, 6)  # engaged now: locked in melee, no shooting at all
    assert not [o for o in options(game, connor, board, st) if o.startswith("shoot:")]
    dice(game, *d100(1))
    assert not shoot(game, connor, same, board, st)  # fired anyway, it misses
    assert shots(game)[-1] == (0, None, 1, False) and stamina(game, same) == 50


def test_debris_and_the_car_block_sight(make_game: Any) -> None:
    """The street's debris and the car stand in the line of fire (DESIGN CHOICE: they block sight)."""
    game = laid_out(make_game, STREET)
    board, st = ctx(game)
    connor = alone(game, "SGT Connor", 14, 3)
    behind_debris = zombie(game, 10, 3)  # debris at (12, 3)
    clear = zombie(game, 17, 3)
    opts = options(game, connor, board, st)
    assert f"shoot:{clear}" in opts and f"shoot:{behind_debris}" not in opts
    put(game, connor, 9, 2)
    behind_car = zombie(game, 4, 2)  # the car at (6, 2)
    assert f"shoot:{behind_car}" not in options(game, connor, board, st)
    run_system(game, "sza.objective")  # not a matter of the car being approachable
    assert f"shoot:{behind_car}" not in options(game, connor, board, st)


def test_ammunition_and_reload(make_game: Any) -> None:
    """"The SAR-21 has an initial magazine of 10 rounds"; "When the weapon is out of ammunition, the
    Soldier may not fire the weapon unless it is reloaded"; reloading needs an available magazine and
    takes the turn (DESIGN CHOICE: SGT Connor carries one spare)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    connor = alone(game, "SGT Connor", 7, 2)
    z = zombie(game, 10, 2, stamina=500)
    a = arms(game, connor)
    assert (a.rounds, a.magazines) == (10, 1)
    assert "reload" not in options(game, connor, board, st)  # a full magazine
    for _ in range(9):
        shoot(game, connor, z, board, st)
    assert a.rounds == 1 and f"shoot:{z}" in options(game, connor, board, st)
    shoot(game, connor, z, board, st)
    assert a.rounds == 0
    assert all(not o.startswith("shoot:") for o in options(game, connor, board, st))
    assert not shoot(game, connor, z, board, st) and len(logged(game, "shot")) == 10
    assert "reload" in options(game, connor, board, st)
    drive(game, perform(game, connor, "reload", board, st))
    assert (a.rounds, a.magazines) == (10, 0)
    assert logged(game, "reload") == [{"piece": connor, "magazines": 0}]
    a.rounds = 3
    assert "reload" not in options(game, connor, board, st)  # no magazine left


def test_the_car_does_not_block_the_sight_of_one_inside_it(make_game: Any) -> None:
    """The car stands in the line of fire of others, not of a Soldier aboard it (DESIGN CHOICE)."""
    game = laid_out(make_game, STREET)
    board, st = ctx(game)
    run_system(game, "sza.objective")
    _v, car = vehicle(game)
    car.unlocked = True
    connor = alone(game, "SGT Connor", 7, 2)
    drive(game, perform(game, connor, "board", board, st))
    z = zombie(game, 10, 2)
    assert f"shoot:{z}" in options(game, connor, board, st)
