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
