"""The Director game's board drawn as text (`board: director`, systems/director/drawing.py), as
`replay --show`, `view` and the replay page show it (issue 12, point 8: "the Director game's hex
tiles"). The layout is the documented one: hex (q, r) on row r at column 2q + r, a row half a hex
right of the one above; a tile's empty hexes show the order it was laid in; `|` between two hexes of
a row on tiles that do not connect; A-D survivors by seat (lower case when down), Z/z/x zombies
active/inactive/stunned, + items."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ecs_zombie.boards import render
from ecs_zombie.components import Kind
from ecs_zombie.systems.director.components import MapTile
from tests.director.director_setup import east_tile, hp, item, pacer, put, setup, state, tile, zombie
from tests.helpers import run_cli

LEGEND = "A-D survivor (a-d down)  Z/z/x zombie active/inactive/stunned  + item  # ladder  ~ hazard  1-9 tile  | wall"


def test_a_known_position_is_drawn_hex_by_hex(make_game: Any) -> None:
    """The start tile (1, centre (0, 0)) and an alley laid against its exit (2, centre (5, 0), its
    two wall hexes (5, -1) and (5, 1) blank), and a one-hex stub tile (3) at (2, 1) touching both
    without an exit: walls on either side of it. Survivor A at the street's exit, B down on the
    alley's entry side, an active, an inactive and a stunned zombie, pills on the floor."""
    game = make_game("director")
    p0, p1 = setup(game)
    alley = east_tile(game, "ALLEY", "QUIET")
    tile(game, alley).order = 2  # the second tile laid (the set-up's own were taken away)
    game.world.create(Kind("tile"), MapTile(name="STUB", order=3, hexes=[[2, 1]], depth=1))
    put(game, p0, 2, 0)
    put(game, p1, 4, 0)
    hp(game, p1, -1)
    zombie(game, 6, 0)
    zombie(game, -1, 0, "inactive")
    zombie(game, 0, 1, "stun")
    item(game, "pills", 1, -1)
    state(game).hand, state(game).lurking = [], []
    assert game.ruleset.board == "director"
    assert render(game) == [
        "  1 1 1     2 2 2",
        " 1 1 + 1   2   2 2",
        "1 z 1 1 A 2 b 2 Z 2",
        " 1 1 x 1|3|2 2   2",
        "  1 1 1     2 2 2",
        "tiles: 1=STREET  2=ALLEY (QUIET, 1 open exit)  3=STUB",
        "A (2,0) 8/8 hp, pistol in hand",
        "b (4,0) -1/8 hp, pistol in hand",
        "director: 0 cards in hand, 0 lurking",
        LEGEND,
    ]


def test_the_adaptive_ruleset_draws_the_same_board_and_its_pacing(make_game: Any) -> None:
    """`director-adaptive` names the same drawing; its director line says the pacer's mode."""
    game = make_game("director-adaptive")
    p0, p1 = setup(game)
    put(game, p0, 0, 0)
    put(game, p1, 1, 0)
    state(game).hand, state(game).lurking = [], []
    pacer(game)
    lines = render(game)
    assert lines[:5] == ["  1 1 1", " 1 1 1 1", "1 1 A B 1", " 1 1 1 1", "  1 1 1"]
    assert lines[-2] == "director: 0 cards in hand, 0 lurking, pacing build up"


def test_replay_show_draws_the_hex_tiles(tmp_path: Path) -> None:
    """`replay --show` prints the drawing under each round's figures."""
    rec = run_cli("run", "director", "--seed", "5", "--record", str(tmp_path / "g.replay"))
    assert rec.returncode == 0, rec.stderr
    out = run_cli("replay", str(tmp_path / "g.replay"), "--show")
    assert out.returncode == 0, out.stderr
    assert out.stdout.count(LEGEND) >= 2
    assert "  tiles: 1=STREET" in out.stdout


def test_the_survivor_lines_and_a_tile_laid_tenth_or_later(make_game: Any) -> None:
    """A survivor at 1 hit point is still up (upper case) and one at exactly 0 is down (lower
    case); a survivor with nothing in hand says nothing about the hand; one held by a special says
    by what. A tile laid twelfth shows its order's last digit, 2; an item shows where no figure
    stands on it."""
    from ecs_zombie.systems.director.components import HeldBy, Loadout

    game = make_game("director")
    p0, p1 = setup(game)
    tile(game, min(e for e, _t in game.world.query1(MapTile))).order = 12
    put(game, p0, 0, 0)
    put(game, p1, 1, 0)
    hp(game, p0, 1)
    hp(game, p1, 0)
    game.world.get(p0, Loadout).hand = ""
    game.world.add(p1, HeldBy("smoker", 2, 1))
    item(game, "pills", 0, 0)  # under survivor A: a figure is drawn over an item
    item(game, "pills", -1, 0)
    lines = render(game)
    assert lines[2] == "2 + A b 2"
    assert "A (0,0) 1/8 hp" in lines and "b (1,0) 0/8 hp, pistol in hand, held by a smoker" in lines
