"""The table read as text where a ruleset draws no board (`Reading.pieces`, what `ecs-zombie play`
and `replay --show` print then): the pieces by zone (with the board's number when there are several
players), then by square in row order, then those not on the table, each with its state."""

from __future__ import annotations

from ecs_zombie import new_game
from ecs_zombie.reading import Reading


def test_pieces_by_zone_with_the_board_when_several_play() -> None:
    """Night of the Shambling Dead after its first turn: each player's front and support, the board
    named only with two players; a wounded survivor shows its wounds."""
    two = new_game("shambling", 1, players=2)
    two.play(stop_after=1)
    lines = Reading(two).pieces()
    assert [line.split(":")[0] for line in lines] == ["board 0, front", "board 0, support", "board 1, front",
                                                       "board 1, support"]
    assert lines[1].startswith("board 0, support: survivor 1 [1 of 2 wounds], survivor 7")
    one = new_game("shambling", 1)
    one.play(stop_after=1)
    lines = Reading(one).pieces()
    assert lines[0].startswith("front: hero, survivor 2") and lines[1].startswith("support: survivor 1 [1 of 2")
    two.close()
    one.close()


def test_pieces_by_square_in_row_order_then_those_off_the_table() -> None:
    """Escape from Stalingrad Z's figures by square, row by row; Night of the Shambling Dead's before
    they are placed, off the table; a table with no piece says so."""
    game = new_game("stalingrad", 1)
    lines = Reading(game).pieces()
    assert lines[:3] == ["(7, 1): brute", "(10, 3): walker 1", "(2, 8): sergeant"]
    fresh = new_game("shambling", 1)
    assert Reading(fresh).pieces() == ["not on the table: hero, " + ", ".join(f"survivor {i}" for i in range(1, 10))]
    reading = Reading(game)
    for ent in list(reading.labels):
        game.world.delete(ent)
    assert Reading(game).pieces() == ["(no pieces on the table)"]
    game.close()
    fresh.close()
