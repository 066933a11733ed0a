"""Big boards (issue 18 point 2): the caches the zombie turn reads stay true through whole games,
zombies drawn on the map stand there at setup, and the big shipped scenario plays."""

from __future__ import annotations

from pathlib import Path

import pytest

from ecs_zombie import Game, new_game
from ecs_zombie.boards import render
from ecs_zombie.components import Faction, Position
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.errors import GameError
from ecs_zombie.systems.stalingrad import board
from ecs_zombie.systems.stalingrad.components import DoorState
from tests.helpers import ROOT
from tests.stalingrad.stalingrad_support import LEGEND, char, events, kind, make, wound_limit, wounds

HORDE = ROOT / "prefabs" / "scenarios" / "stalingrad-horde.yaml"


Square = tuple[int, int]


def fresh(game: Game) -> tuple[dict[Square, int], frozenset[Square], tuple[int, ...], tuple[int, ...]]:
    """What the caches should hold, computed from the components now."""
    figures = game.world.query(Position, Faction)
    occ = {(p.x, p.y): e for e, (p, _f) in figures}
    closed = frozenset((p.x, p.y) for _e, (d, p) in game.world.query(DoorState, Position) if not d.open)
    return (occ, closed, tuple(e for e, (_p, f) in figures if f.side == board.SURVIVORS),
            tuple(e for e, (_p, f) in figures if f.side == board.ZOMBIES))


def check(game: Game) -> None:
    assert (board.occupancy(game), board.closed_doors(game), board.characters(game), board.zombies(game)) == \
        fresh(game), game.tick


@pytest.mark.parametrize("ruleset", ["stalingrad", "stalingrad-shambling"])
@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_the_caches_stay_true_through_whole_games(ruleset: str, policy: str) -> None:
    """Occupancy, closed doors and the sides' figures, read from the world's memos after every round
    (and so through every move, door, spawn, push, kill and escape), equal a fresh computation."""
    for seed in range(12):
        game = new_game(ruleset, seed, policy=policy)
        game.play(PolicyTable(policy), on_tick=check)
        game.close()


def test_the_caches_stay_true_after_every_decision() -> None:
    """The same, checked at every decision of a game (mid-activation, mid-zombie turn)."""
    from ecs_zombie.stepper import Stepper

    game = new_game("stalingrad", 3, policy="random")
    stepper = Stepper(game, PolicyTable("random"))
    while stepper.pending is not None:
        check(game)
        stepper.answer(0)
    check(game)


def test_zombies_drawn_on_the_map_stand_there_from_setup(tmp_path: Path) -> None:
    """A square labelled zombie:<type> starts with a zombie of that type, with its type's hits, made
    row by row after the scenario's own figures."""
    legend = {**LEGEND, "w": {"terrain": "open", "labels": ["zombie:walker"]},
              "b": {"terrain": "open", "labels": ["zombie:brute"]}}
    rows = ["..b.", "w..w", "...."]
    game = make(tmp_path, [char("sergeant", 0, 2)], rows=rows, extra={"map": {"legend": legend, "rows": rows}},
                waves=[])
    made = [(kind(game, z), board.pos(game, z), wound_limit(game, z), wounds(game, z)) for z in board.zombies(game)]
    assert made == [("brute", (2, 0), 2, 0), ("walker", (0, 1), 1, 0), ("walker", (3, 1), 1, 0)]  # unhurt
    assert events(game, "horde") == [{"zombies": 3}]


def test_map_zombies_of_an_unknown_type_or_on_a_taken_square_are_refused(tmp_path: Path) -> None:
    legend = {**LEGEND, "g": {"terrain": "open", "labels": ["zombie:ghoul"]}}
    rows = ["g...", "...."]
    with pytest.raises(GameError, match="zombie of type 'ghoul' on \\(0, 0\\)"):
        make(tmp_path, [char("sergeant", 0, 1)], rows=rows, extra={"map": {"legend": legend, "rows": rows}},
             waves=[])
    legend = {**LEGEND, "w": {"terrain": "open", "labels": ["zombie:walker"]}}
    rows = ["w...", "...."]
    with pytest.raises(GameError, match="both stand on square \\(0, 0\\)"):
        make(tmp_path / "b", [char("sergeant", 0, 0)], rows=rows, extra={"map": {"legend": legend, "rows": rows}},
             waves=[])


def test_the_horde_scenario_plays_and_draws() -> None:
    """The big shipped scenario: 80 x 80, about two hundred zombies; two rounds play and draw."""
    game = new_game(str(HORDE), 1)
    game.play(PolicyTable("heuristic"), stop_after=2)
    lines = render(game)
    assert len(lines[2]) == 3 + 3 * 80 and len(board.zombies(game)) > 150
    check(game)
    game.close()


# The Tractor Works type table the horde scenario's spawn section follows (1d12).
TRACTOR_WORKS_TYPES = {**dict.fromkeys(range(1, 7), "walker"), 7: "runner", 8: "runner", 9: "brute", 10: "brute",
                       11: "lurker", 12: "lurker"}


def test_the_horde_brings_one_zombie_to_each_edge_square_every_third_round() -> None:
    """Design (horde scenario, `horde/spawn.yaml` and `horde/track.yaml`): "on each S round one
    zombie at each of the eight edge squares" (A..D north, F..J south), "a spawn every third" round;
    "each zombie's type by 1d12 as in Tractor Works". Six rounds: eight zombies on rounds 3 and 6,
    none on the others, one per edge square in the waves' order, each of the type its roll gives."""
    game = new_game(str(HORDE), 1)
    game.play(PolicyTable("heuristic"), stop_after=6)
    edge = [(12, 0), (30, 0), (48, 0), (66, 0), (12, 79), (30, 79), (48, 79), (66, 79)]
    spawned = [(i, e) for i, e in enumerate(game.events) if e[1] == "zombie_spawned"]
    assert [e[0] for _i, e in spawned] == [3] * 8 + [6] * 8
    assert [tuple(e[2]["square"]) for _i, e in spawned] == edge * 2
    for i, e in spawned:
        roll = game.events[i - 1]
        assert (roll[1], roll[2]["dice"], roll[2]["why"]) == ("roll", "1d12", "zombie type")
        assert e[2]["type"] == TRACTOR_WORKS_TYPES[roll[2]["values"][0]]
    game.close()


def test_the_horde_maps_doors_drawn_open_stand_open() -> None:
    """Design (horde scenario, `horde/map.yaml`): the city blocks' doors, 42 of them, of which 29
    are drawn standing open (`/`, the ruined blocks') and 13 shut (`+`): at setup the closed-door
    squares the zombies and characters must open are those 13."""
    game = new_game(str(HORDE), 1)
    game.step()  # the setup system makes the doors
    doors = game.world.query(DoorState, Position)
    assert len(doors) == 42 and sum(d.open for _e, (d, _p) in doors) == 29
    assert len(board.closed_doors(game)) == 13
    game.close()


@pytest.mark.parametrize(("escaped", "fallen", "rnd", "outcome"), [
    (2, 0, 5, board.SURVIVORS), (1, 0, 5, None), (1, 2, 5, None), (1, 3, 5, board.ZOMBIES), (0, 3, 5, board.ZOMBIES),
    (1, 0, 29, None), (1, 0, 30, board.ZOMBIES)])
def test_the_horde_is_won_by_two_escaping_by_round_thirty(escaped: int, fallen: int, rnd: int,
                                                           outcome: str | None) -> None:
    """Design (horde scenario, `horde/victory.yaml`): "two of the four characters must escape by the
    end of round 30; the zombies win when that can no longer happen" (its round track's length)."""
    from ecs_zombie.systems.stalingrad import round as rounds

    game = new_game(str(HORDE), 1)
    game.step()  # set up
    left = list(board.characters(game))
    assert len(left) == 4
    for ent in left[: escaped + fallen]:  # those who escaped, and those who fell, are off the board
        game.world.delete(ent)
    board.bump(game, "escaped", escaped)
    game.tick = rnd
    rounds.end_segment(game)
    assert game.outcome == outcome
    game.close()


def test_the_horde_types_each_zombie_by_the_tractor_works_die_at_every_edge() -> None:
    """Design (`horde/spawn.yaml`): "each zombie's type by 1d12 as in Tractor Works": 1-6 walker,
    7-8 runner, 9-10 brute, 11-12 lurker, forced at each threshold, one zombie to each edge square."""
    from tests.helpers import force, run_system

    game = new_game(str(HORDE), 1)
    game.step()  # set up
    game.tick = 3
    rolls = [6, 7, 8, 9, 10, 11, 12, 1]
    force(game, dice=rolls)
    run_system(game, "spawn")
    got = [e[2]["type"] for e in game.events if e[1] == "zombie_spawned"]
    assert got == [TRACTOR_WORKS_TYPES[r] for r in rolls] == [
        "walker", "runner", "runner", "brute", "brute", "lurker", "lurker", "walker"]
    game.close()
