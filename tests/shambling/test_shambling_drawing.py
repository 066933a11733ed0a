"""Shambling's board drawn as text (`board: shambling`): each board's two zones, the figures in each
by kind, wounds and contact, the board's state and counts; what `replay --show` prints."""

from __future__ import annotations

from pathlib import Path

from ecs_zombie.boards import render
from tests.helpers import run_cli
from tests.shambling.shambling_setup import (
    HERO,
    SURVIVOR,
    board,
    board_markers,
    link,
    tally,
    undeployed,
)

LEGEND = "H hero, S survivor, Z zombie; * wounded, + in contact"


def test_a_known_position(make_game) -> None:
    """Board 0 counter-charged: a hero and two survivors (one wounded) on the Front Line, the hero
    in contact with two zombies (one wounded) and a third zombie free; a wounded survivor in
    Support; board 1 fallen with one zombie left on its Support zone. Two zombies destroyed and
    one survivor killed on board 0."""
    g = make_game("shambling", 1, players=2)
    for ent in undeployed(g, 0) + undeployed(g, 1)[1:]:
        g.world.delete(ent)
    ids = board(g, front=[(HERO, 0), (SURVIVOR, 0), (SURVIVOR, 1)], support=[(SURVIVOR, 1)],
                zombies_front=[0, 1, 0])
    hero = ids["front"][0]
    z1, z2, _z3 = ids["zombies_front"]
    link(g, hero, z1)
    link(g, hero, z2)
    board_markers(g, 0).add("counter_charge")
    tally(g, 0).update({"zombies_destroyed": 2, "survivors_killed": 1})
    board(g, zombies_support=1, seat=1)
    board_markers(g, 1).add("fallen")
    assert render(g) == [
        LEGEND,
        "board 0 (player 0): counter-charge",
        "  zone        | survivors              | zombies",
        "  Front Line  | H+ S S*                | Z+ Z*+ Z",
        "  Support     | S*                     | -",
        "  survivors killed 1 · zombies destroyed 2",
        "board 1 (player 1): fallen",
        "  zone        | survivors              | zombies",
        "  Front Line  | -                      | -",
        "  Support     | -                      | Z",
        "  not yet deployed 1",
    ]


def test_a_crowded_zone_wraps_in_its_column(make_game) -> None:
    """Fifteen zombies on a Front Line take two lines of their column; the zone is named once."""
    g = make_game("shambling", 1)
    for ent in undeployed(g):
        g.world.delete(ent)
    board(g, front=[(SURVIVOR, 0)], zombies_front=15)
    lines = render(g)
    assert lines[3:5] == [
        "  Front Line  | S                      | Z Z Z Z Z Z Z Z Z Z Z",
        "              |                        | Z Z Z Z",
    ]


def test_replay_show_draws_the_boards(tmp_path: Path) -> None:
    """`replay --show` prints each tick's boards as the ruleset draws them."""
    saved = tmp_path / "game.replay"
    made = run_cli("run", "shambling", "--seed", "3", "--players", "2", "--record", str(saved))
    assert made.returncode == 0, made.stderr
    shown = run_cli("replay", str(saved), "--show")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[1:3] == [f"  {LEGEND}", "  board 0 (player 0)"]
    turns = [line for line in lines if line.startswith("turn ")]
    assert len(turns) >= 2
    assert sum(line.startswith(("  board 1 (player 1)", "  board 1 (player 1):")) for line in lines) == len(turns)


def test_a_crowded_survivor_column_wraps_beside_a_short_zombie_column(make_game) -> None:
    """Twelve survivors take two lines beside one zombie; a line of survivors is filled to exactly
    its column's width (11 tokens of 2 characters less a space: 22) before it wraps; figures not
    yet deployed are counted first, before the board's tallies."""
    g = make_game("shambling", 1)
    for ent in undeployed(g)[1:]:
        g.world.delete(ent)
    board(g, front=[(SURVIVOR, 1)] + [(SURVIVOR, 0)] * 11, zombies_front=1)
    tally(g, 0).update({"zombies_destroyed": 3})
    lines = render(g)
    assert lines[3:7] == [
        "  Front Line  | S* S S S S S S S S S S | Z",
        "              | S                      |",
        "  Support     | -                      | -",
        "  not yet deployed 1 · zombies destroyed 3",
    ]
