"""The board drawing (`board: stalingrad.board`, issue 12 point 8): the square map as text with
terrain, doors, exits, spawn and search squares, characters and zombies with facing, face-down
zombies, wounds, stuns and locks, and a legend. The glyphs are the ones documented in
`systems/stalingrad/drawing.py` (a design choice: the text has no drawing)."""

from __future__ import annotations

from pathlib import Path

from ecs_zombie import new_game
from ecs_zombie.boards import render
from ecs_zombie.components import Position, Wounds
from ecs_zombie.ruleset import load_ruleset
from ecs_zombie.systems.stalingrad import spawn
from ecs_zombie.systems.stalingrad.components import SearchSpot
from tests.stalingrad.stalingrad_support import (
    HIDDEN,
    STUNNED,
    act_state,
    at,
    char,
    declare,
    face,
    lock,
    make,
    mark,
    run,
    set_covering,
    set_wounds,
    write_scenario,
    zombie,
)

ROWS = ["#A+/E.",
        "..%.?.",
        "......"]


def searched(game: object, x: int, y: int) -> None:
    for _e, (spot, p) in game.world.query(SearchSpot, Position):  # type: ignore[attr-defined]
        if (p.x, p.y) == (x, y):
            spot.searched = True


def test_the_map_with_every_kind_of_square_and_piece(tmp_path: Path) -> None:
    """Terrain glyphs, a wounded character facing east, a locked one facing north, a zombie facing
    west, a wounded brute, a stunned runner, a face-down walker; the legend and the piece lists."""
    game = make(tmp_path, [char("sergeant", 0, 1, facing=2), char("sniper", 1, 2, facing=0),
                           zombie("walker", 2, 2), zombie("brute", 5, 1), zombie("runner", 3, 2),
                           zombie("walker", 5, 2)], rows=ROWS, waves=[])
    sgt, sniper, walker, brute, runner, down = (at(game, 0, 1), at(game, 1, 2), at(game, 2, 2), at(game, 5, 1),
                                                at(game, 3, 2), at(game, 5, 2))
    set_wounds(game, sgt, 1)
    lock(game, sniper, walker)
    face(game, walker, 6)
    set_wounds(game, brute, 1)
    mark(game, runner, STUNNED)
    face(game, runner, 0)
    mark(game, down, HIDDEN)
    searched(game, 4, 1)
    lines = render(game)
    assert lines[:5] == [
        "round 1, characters first; escaped 0, characters killed 0, zombies killed 0, spawned 0",
        "    0  1  2  3  4  5",
        "0 ### A  +  /  E  . ",
        "1 *1→ . %%% .  - *b↓",
        "2  . !2↑ w←!r↑ .  z↓",
    ]
    assert lines[5].startswith("legend: ") and lines[6].startswith("pieces: ")
    assert lines[7:] == [
        "characters:",
        f"  1 sergeant #{sgt} at (0,1) facing E, wounds 1/3",
        f"  2 sniper #{sniper} at (1,2) facing N, wounds 0/3, locked by #{walker}",
        "zombies: 4 on the board (1 face down, 1 stunned, 1 wounded):",
        f"  walker #{walker} at (2,2)",
        f"  brute #{brute} at (5,1), hits 1/2",
        f"  runner #{runner} at (3,2), stunned",
        f"  walker #{down} at (5,2) face down",
    ]


def test_before_setup_after_the_end_and_with_zombies_waiting(tmp_path: Path) -> None:
    """Before setup the doors are as the map sets them and search squares unsearched; a zombie held
    off its spawn square is listed; a finished game says who won."""
    game = new_game(write_scenario(tmp_path, rows=ROWS, entities=[char("sergeant", 1, 0, facing=4)], waves=[]), 1)
    lines = render(game)
    assert lines[0] == "round 0; escaped 0, characters killed 0, zombies killed 0, spawned 0"
    assert lines[2:5] == ["0 ### 1↓ +  /  E  . ", "1  .  . %%% .  ?  . ", "2  .  .  .  .  .  . "]
    game.tick = 1
    assert render(game)[0] == "round 1; escaped 0, characters killed 0, zombies killed 0, spawned 0"  # no setup yet
    run(game, spawn.spawn_at(game, "brute", (1, 0)), {"stalingrad.push": [1, 1]})
    run(game, spawn.spawn_at(game, "walker", (1, 0)))
    held = max(e for e, _w in game.world.query1(Wounds))
    assert render(game)[-1] == f"waiting off the board: walker #{held} for (1,0)"
    game.end("survivors")
    assert render(game)[0].endswith("; over: survivors")


def test_a_horde_is_counted_not_listed(tmp_path: Path) -> None:
    """Up to 12 zombies are listed one by one; more are only counted."""
    horde = [zombie("walker", x, y) for y in range(1, 3) for x in range(6) if (x, y) != (2, 1)] + \
            [zombie("walker", 5, 0)]
    game = make(tmp_path, [char("sergeant", 0, 0), *horde], rows=["......"] * 3, waves=[])
    lines = render(game)
    assert lines[-13] == "zombies: 12 on the board (0 face down, 0 stunned, 0 wounded):"
    assert all(line.startswith("  walker #") for line in lines[-12:])
    game2 = make(tmp_path / "b", [char("sergeant", 0, 0), *horde, zombie("walker", 2, 1)], rows=["......"] * 3,
                 waves=[])
    assert render(game2)[-1] == "zombies: 13 on the board (0 face down, 0 stunned, 0 wounded)"


def test_both_rulesets_draw_their_board_with_it() -> None:
    for ruleset in ("stalingrad", "stalingrad-shambling"):
        assert load_ruleset(ruleset).board == "stalingrad.board"


def test_a_character_mid_activation_and_a_tenth_character(tmp_path: Path) -> None:
    """A character's line tells its declared mode with the MPs left while it is activating (the mode
    alone once it is done and has none left) and its covering token; the rows of a map of ten rows
    are numbered 0 to 9 in one column; a tenth character (past the digits 1-9) is drawn `@`."""
    rows = ["..........."] * 10
    chars = [char("sergeant", x, 0) for x in range(10)]
    game = make(tmp_path, chars, rows=rows, waves=[])
    first, second, third = at(game, 0, 0), at(game, 1, 0), at(game, 2, 0)
    declare(game, first, "walking", 2)
    act_state(game, first).activated = True  # under way, 2 MP still to spend
    declare(game, second, "walking", 0)
    act_state(game, second).activated = True
    set_covering(game, third, 0)  # a stationary character's covering token is 0
    lines = render(game)
    assert lines[1] == "  " + "".join(f"{x:>3}" for x in range(11))
    assert lines[2].startswith("0  1→ 2→ 3→") and lines[2].endswith(" @→ . ")
    assert lines[11].startswith("9  . ")
    chars_at = lines.index("characters:")
    assert lines[chars_at + 1] == f"  1 sergeant #{first} at (0,0) facing E, wounds 0/3, walking (2 MP left)"
    assert lines[chars_at + 2] == f"  2 sergeant #{second} at (1,0) facing E, wounds 0/3, walking"
    assert lines[chars_at + 3] == f"  3 sergeant #{third} at (2,0) facing E, wounds 0/3, covering 0"
    assert lines[chars_at + 10].startswith("  @ sergeant #")
