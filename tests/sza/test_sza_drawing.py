"""The board drawn as text (`board: sza.board`, issue 12): the current map with its walls, doors,
windows, furniture and features, the pieces (engaged ones marked), the vehicle and a legend. The
expected drawings are written from the maps (prefabs/sza/maps.yaml, pinned in test_sza_maps.py) and
the drawing's documented symbols."""

from __future__ import annotations

from typing import Any

from sza_helpers import BUNGALOW, STREET, ctx, drive, laid_out, markers, put, run_system, stage, vehicle, who, zombie

from ecs_zombie.boards import describe, render
from ecs_zombie.components import Engaged, Faction
from ecs_zombie.systems.sza import stage as stage_mod
from ecs_zombie.systems.sza.components import Character, Infection, Stage
from ecs_zombie.systems.sza.drawing import _legend, draw, numbers
from tests.helpers import run_cli

STREET_NOW = [
    "The Street: scenario 1 of 1 (Safe House), turn 1, event 1 (The Street)",
    "   0         1         2",
    "   012345678901234567890123",
    " 0 ,,,,,,,,,,,,,,4\",,,,,,,,",
    " 1 .........,,,...........6",
    " 2 H.....V.........%.......",
    " 3 H...........%.......X...",
    " 4 H......%................",
    " 5 ...z...............%.&..",
    " 6 ,,,,,\",,,,,,,,,,,\"\"\",,,,",
    "legend:  1.. characters (below)  & several characters  X pieces locked in melee  z zombie  V vehicle",
    "         . floor  % debris  , grass  \" bush  H safe house",
]


def test_the_street(make_game: Any) -> None:
    """The street: grass verges, bushes, debris, the safe house; Bruce locked in melee (X), Mary and
    Dexter on one square (&), Costa in a bush, SGT Connor in the car (V), a zombie (z). The safe
    house's people are listed, not drawn."""
    game = laid_out(make_game, STREET)
    places = {"Bruce Long": (20, 3), "Mary Jacobs": (21, 5), "Dexter": (21, 5), "Costa Wang": (14, 0),
              "SGT Connor": (6, 2), "CPL Teoh": (23, 1)}
    for name, xy in places.items():
        put(game, who(game, name), *xy)
    z = zombie(game, 20, 3)
    far = zombie(game, 3, 5)
    _v, car = vehicle(game)
    car.unlocked = True
    car.passengers.append(who(game, "SGT Connor"))
    markers(game, who(game, "SGT Connor")).add("aboard")
    lines = render(game)
    assert lines[:len(STREET_NOW)] == STREET_NOW
    assert lines[len(STREET_NOW):] == [
        f"  1 Bruce Long (firefighter) at (20,3): Stamina 85/85, engaged with z{z}",
        "  2 Mary Jacobs (paramedic) at (21,5): Stamina 75/75",
        "  3 Dexter (convict) at (21,5): Stamina 70/70",
        "  4 Costa Wang (politician) at (14,0): Stamina 55/55",
        "  5 SGT Connor (soldier) at (6,2): Stamina 70/70, aboard",
        "  6 CPL Teoh (soldier) at (23,1): Stamina 65/65",
        f"  z{z} zombie at (20,3): Stamina 50/50, engaged with 1",
        f"  z{far} zombie at (3,5): Stamina 50/50",
        "  in the safe house (they do not fight): Ah Heng, Ah Booi, Randy Mutu, Mrs Camellia Chan, Cynthia Chan",
        "  V car at (6,2): open, aboard 5 (1/5)"]


def rows(game: Any) -> list[str]:
    """The map's rows without their numbers."""
    return [line[3:] for line in render(game)[3:3 + ctx(game)[0].height]]


def test_the_bungalow_as_the_game_changes_it(make_game: Any) -> None:
    """The bungalow's rows: walls (#), doors (+), the locked panic-room door (L, + once open), windows
    (W, O once broken), tables, counters, cabinets, the safe, the fuse box, the false ceiling, beds,
    the stairs; dark rooms (:) until the lights are fixed, pipe rooms (~), the garden below (_);
    searched features become x."""
    game = laid_out(make_game, BUNGALOW)
    board, st = ctx(game)
    for ent in [who(game, n) for n in ("Bruce Long", "Mary Jacobs", "Dexter", "Costa Wang", "SGT Connor",
                                      "CPL Teoh")]:
        put(game, ent, 3, 3)
    before = rows(game)
    assert before == [
        "##########W#################W######",
        "#.....#.......#.ccc.###~~#k..k#...#",
        "W.tt..+.......+.....###~~#....#.S.#",
        "#..&..#..tt...#.....W##~~#....#...#",
        "#.....#.......#.....####+##+####L##",
        "##+####.b.....#+##+####:::::::::::#",
        "#:::#F#.......#~~#..###:::::t::::>#",
        "W:::+.##+###+##~~#..####+####+#####",
        "#k::#.#...#...#########....#...####",
        "#+#####...#...+.....##W..^.#...####",
        "#~~####...#...#.....W##....#..K####",
        "#~~#########W##..b.>##########W####",
        "###################################",
        "___________________________________",
        "___________________________________"]
    st.opened += [board.cell(0, 7), board.cell(32, 4)]
    st.looted += [board.cell(1, 8), board.cell(32, 2)]
    st.flags.append("lights")
    zombie(game, 0, 14)
    after = rows(game)
    assert after[7] == "O...+.##+###+##~~#..####+####+#####"
    assert after[8] == "#x..#.#...#...#########....#...####"
    assert after[2][32] == "x" and after[4][32] == "+" and ":" not in "".join(after)
    assert after[14] == "z__________________________________"
    lines = render(game)
    assert "O broken window" in " ".join(lines) and "W window" in " ".join(lines)


def test_between_the_scenarios(make_game: Any) -> None:
    """Once a scenario is won and before the next is laid out there is no board: the drawing says so
    and lists the characters, off the board."""
    game = laid_out(make_game, "sza")
    st = stage(game)
    st.event, st.entered = "11", True
    run_system(game, "sza.objective")
    lines = render(game)
    assert lines[0] == "No board laid out (scenario 2 of 2 comes next; played: bungalow:won)"
    assert lines[1] == "  1 Bruce Long (firefighter) off the board: Stamina 85/85"
    drive(game, stage_mod.build(game))
    assert render(game)[0] == "The Street: scenario 2 of 2 (Safe House), turn 1, event 1 (The Street)"


def test_replay_show_draws_the_board(tmp_path: Any) -> None:
    """`ecs-zombie replay --show` prints the ruleset's drawing turn by turn."""
    replay = tmp_path / "g.replay"
    assert run_cli("run", "sza", "--seed", "3", "--stop-after", "1", "--record", str(replay)).returncode == 0
    res = run_cli("replay", str(replay), "--show", "--until", "1")
    assert res.returncode == 0, res.stderr
    assert "The Bungalow: scenario 1 of 2 (This Place Isn't Safe Anymore), turn 1" in res.stdout
    assert "   0 ##########W#################W######" in res.stdout


def test_what_is_drawn_and_what_is_not(make_game: Any) -> None:
    """X marks a square where pieces of both sides are locked in melee, and only that: a zombie and a
    character on one square, not engaged, show the character; an engaged zombie alone shows z. A
    piece off the board (marked `offboard`, or standing past the board's edge) is not drawn, and
    with no character drawn the legend has no entry for them."""
    game = laid_out(make_game, STREET)
    names = ("Bruce Long", "Mary Jacobs", "Dexter", "Costa Wang", "SGT Connor", "CPL Teoh")
    for i, name in enumerate(names):
        put(game, who(game, name), 10 + i, 3)
    idle = zombie(game, 2, 1)
    put(game, who(game, "Costa Wang"), 2, 1)  # onto the zombie's square: no engagement
    lone = zombie(game, 4, 5)
    game.world.get(lone, Engaged).opponents.append(who(game, "Bruce Long"))  # engaged, its opponent elsewhere
    risen = zombie(game, 6, 5)  # a risen character: numbered in the roster, drawn as the zombie it is
    game.world.add(risen, Infection(infected=True))
    game.world.add(risen, Character(name="risen"))
    markers(game, who(game, "Mary Jacobs")).add("offboard")
    put(game, who(game, "Dexter"), 24, 3)  # one square past the right edge
    put(game, who(game, "CPL Teoh"), 15, 7)  # one square past the bottom edge
    grid = rows(game)
    assert grid[1][2] == "4" and grid[5][4] == "z" and grid[5][6] == "z" and game.world.exists(idle)
    assert grid[3][10:16] == "1.%.5."  # Mary off the board, Dexter and CPL Teoh past its edges, Costa moved
    for name in names:
        markers(game, who(game, name)).add("offboard")
    lines = render(game)
    assert not any("characters (below)" in line for line in lines)


def test_the_tenth_character_is_drawn_at(make_game: Any) -> None:
    """Characters are numbered 1 to 9 by entity id (those with an infection record, risen ones
    included); a tenth is drawn `@` (four more characters than the book's six: a hybrid's party),
    and the legend still reads "1.. characters (below)"."""
    game = laid_out(make_game, STREET)
    more = [zombie(game, x, 5) for x in (1, 3, 5, 7)]
    for i, ent in enumerate(more):  # made characters: an infection record, a name, the survivors' side
        game.world.add(ent, Infection())
        game.world.add(ent, Character(name=f"extra {i}"))
        game.world.add(ent, Faction("survivors"))
    nums = numbers(game)
    assert [nums[e] for e in sorted(nums)] == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "@"]
    assert rows(game)[5][7] == "@"
    legend = [line for line in render(game) if line.startswith("legend:")]
    assert legend[0].startswith("legend:  1.. characters (below)") and "@ " not in legend[0]


def test_no_stage_is_drawn_as_the_plain_description(make_game: Any) -> None:
    """With no SZA stage in the world (a hybrid playing SZA's tables without its scenarios) the
    drawing falls back to the engine's description of the pieces."""
    game = laid_out(make_game, STREET)
    for ent, _s in game.world.query1(Stage):
        game.world.delete(ent)
    assert draw(game) == describe(game)


def test_the_legend_wraps_at_100_characters() -> None:
    """The legend's lines hold at most 100 characters: an entry that would pass the 100th goes on
    the next line, indented under the first entry."""
    fits = _legend({"z": "zombie", "V": "v" * 79})
    assert fits == ["legend:  z zombie  V " + "v" * 79] and len(fits[0]) == 100
    wraps = _legend({"z": "zombie", "V": "v" * 80})
    assert wraps == ["legend:  z zombie", "         V " + "v" * 80]


def test_an_infected_character_reads_with_the_turns_it_has_left(make_game: Any) -> None:
    """The roster says who is infected: "infected this turn" while the infection is fresh (the
    countdown starts at the end of the next turn), then how many turns are left."""
    game = laid_out(make_game, STREET)
    bruce = who(game, "Bruce Long")
    inf = game.world.get(bruce, Infection)
    inf.infected, inf.turns_left, inf.fresh = True, 3, True
    assert "Stamina 85/85, infected this turn" in next(line for line in render(game) if "Bruce Long" in line)
    inf.fresh = False
    assert "Stamina 85/85, infected (3 turns left)" in next(line for line in render(game) if "Bruce Long" in line)
