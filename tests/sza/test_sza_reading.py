"""How SZA's options read at the terminal (`ecs-zombie play`, `systems/sza/decisions.py`): a piece
by its name and where it is, a square by its coordinates with its room and feature (from the maps,
prefabs/sza/maps.yaml), an ability and an item in words. An option of another form reads as written."""

from __future__ import annotations

from typing import Any

import pytest
from sza_helpers import ctx, laid_out, who, zombie

from ecs_zombie.reading import Reading


def test_an_actions_options_read_as_words(make_game: Any) -> None:
    game = laid_out(make_game)
    board, _st = ctx(game)
    z = zombie(game, 10, 2)
    bruce = who(game, "Bruce Long")
    reading = Reading(game)
    read = {o: reading.option(o, "sza.action") for o in (
        f"approach:{z}", f"shoot:{z}", f"engage:{z}:run", f"salvage:{board.cell(1, 8)}", f"fuse:{board.cell(5, 6)}",
        f"give:bandage:{bruce}", "goto:locked_door", f"ability:inspire:{bruce}", "ability:morale_boost", "wait")}
    assert list(read.values()) == [
        "approach zombie (at (10, 2))", "shoot zombie (at (10, 2))", "engage zombie (at (10, 2)) (run)",
        "salvage at (1, 8) [Store Room, cabinet]", "fuse at (5, 6) [Circuit Breaker Room, fuse]",
        "give bandage to Bruce Long (survivor)", "go to the locked door", "ability: inspire on Bruce Long (survivor)",
        "ability: morale boost", "wait"]


@pytest.mark.parametrize("option", ["approach:1:2", "approach:near", "engage:near:run", "engage:1",
                                    "salvage:1:2", "salvage:near", "give:bandage", "give:bandage:bruce",
                                    "goto:a:b", "ability"])
def test_an_option_of_another_form_reads_as_written(make_game: Any, option: str) -> None:
    """A verb whose arguments are not the ones it takes (a number where a piece or square is named)
    is not read as that verb: it stays as written."""
    assert Reading(laid_out(make_game)).option(option, "sza.action") == option


def test_start_and_spawn_squares_read_with_their_room_and_feature(make_game: Any) -> None:
    """A start square or a spawn point reads as its coordinates, then its room and feature; a wall
    square (no room, no feature) as its coordinates alone; who stands there is named."""
    game = laid_out(make_game)
    board, _st = ctx(game)
    reading = Reading(game)
    assert reading.option(board.cell(2, 2), "sza.start_square").endswith("[Planning Room, table]")
    assert reading.option(board.cell(2, 2), "sza.start_square").startswith("(2, 2)")
    assert reading.option(board.cell(0, 0), "sza.spawn_point") == "(0, 0)"
    assert reading.option(board.cell(3, 1), "sza.spawn_point") == "(3, 1): Dexter (survivor) [Planning Room]"
