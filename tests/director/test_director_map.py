"""The map and the Admin phase, scripted: a tile at every open exit with its tile card, blocked
exits turned into ladders to a tile laid apart (crossing costs Z, stopping on the entrance blocks
it), vacated-tile removal, the first-player token, and the end of the game."""

from __future__ import annotations

from typing import Any

from ecs_zombie import hexgrid
from ecs_zombie.components import Markers, Position
from ecs_zombie.systems.director.board import Board
from ecs_zombie.systems.director.components import LadderLink, MapTile
from ecs_zombie.systems.director.players import reachable
from ecs_zombie.systems.director.tiles import explore, lay, tileset
from tests.director.director_setup import force, hp, put, run_system, setup, state, tags, zombie, zombies_at


def tiles(game: Any) -> dict[int, MapTile]:
    return dict(game.world.query1(MapTile))


def start(game: Any) -> tuple[int, MapTile]:
    ent = min(tiles(game))
    return ent, tiles(game)[ent]


def lay_after(game: Any, parent: int, cards: list[str]) -> list[int]:
    before = set(tiles(game))
    force(game, cards=cards)
    explore(game, parent)
    return sorted(set(tiles(game)) - before)


def test_a_tile_at_every_open_exit_entry_aligned_with_its_card(make_game: Any) -> None:
    """Place New Tile: "place it against the edge so that the entry point aligns with the current
    exit point. Do this for each and every exit"; Draw Tile Card for each tile placed."""
    game = make_game("director")
    setup(game)
    s_ent, s_tile = start(game)
    s_tile.exits[0]["state"] = "open"
    (cross,) = lay_after(game, s_ent, ["CROSSROADS", "QUIET"])
    assert tiles(game)[cross].center == [5, 0]
    east, south = lay_after(game, cross, ["ALLEY", "WANDERERS", "BEND_LEFT", "QUIET"])
    c = tiles(game)[cross]
    for ex, new in zip(c.exits, (east, south), strict=True):
        t = tiles(game)[new]
        assert ex["state"] == "placed" and ex["to"] == new
        assert tuple(t.entry) == hexgrid.neighbour(tuple(ex["hex"]), ex["dir"])
    assert tiles(game)[east].center == [10, 0] and tiles(game)[south].center == [5, 5]
    assert (tiles(game)[east].main, tiles(game)[south].main) == (True, False)
    assert (tiles(game)[east].card, tiles(game)[south].card) == ("WANDERERS", "QUIET")
    # WANDERERS: two inactive zombies on the hexes the D6 gave
    on_east = [z for h, z in zombies_at(game).items() if Board(game).tile_of.get(h) == east]
    assert len(on_east) == 2 and all("inactive" in tags(game, z) for z in on_east)


def test_blocked_exit_becomes_a_ladder_to_a_tile_laid_apart(make_game: Any) -> None:
    """Blocked Exits: "Place a Ladder/Sewer Hex on the Exit point ... place it away from the current
    Map, and place the other end of the Ladder/Sewer on the Tile Entrance"."""
    game = make_game("director")
    setup(game)
    s_ent, s_tile = start(game)
    ts = tileset(game)
    lay(game, ts.tiles["ALLEY"], 0, (5, 0), s_ent, 1, False, 0)  # something already where the exit leads
    s_tile.exits[0]["state"] = "open"
    (far,) = lay_after(game, s_ent, ["BEND_RIGHT", "QUIET"])
    t = tiles(game)[far]
    assert s_tile.exits[0]["state"] == "ladder" and t.section == 1 and t.center == [11, 0]
    links = {(p.x, p.y): link.to for _e, (p, link) in game.world.query(Position, LadderLink)}
    assert links == {(2, 0): [9, 0], (9, 0): [2, 0]} and t.entry == [9, 0]
    covered = {h for e, tt in tiles(game).items() if e != far for h in hexgrid.within(tuple(tt.center), 2)}
    assert all(hexgrid.distance(tuple(t.center), h) > 3 for h in covered)


def test_crossing_a_ladder_costs_z_and_stopping_on_it_blocks_it(make_game: Any) -> None:
    """Ladder/Sewer: "moving onto the Ladder/Sewer Hex and spending Z movement points. If the player
    does not have enough movement points left to reach the other end, they stop on the entrance
    (thus blocking the route for the other players!)". Z = 2."""
    game = make_game("director")
    p0, p1 = setup(game)
    s_ent, s_tile = start(game)
    lay(game, tileset(game).tiles["ALLEY"], 0, (5, 0), s_ent, 1, False, 0)
    s_tile.exits[0]["state"] = "open"
    lay_after(game, s_ent, ["ALLEY", "QUIET"])
    for z in zombies_at(game).values():
        game.world.delete(z)
    put(game, p0, 1, 0)
    put(game, p1, 0, 0)
    _s, best, _p = reachable(game, Board(game), p0, 4)
    assert best[(9, 0)] == 3 and best[(10, 0)] == 4
    _s, best, _p = reachable(game, Board(game), p0, 2)
    assert (9, 0) not in best and best[(2, 0)] == 1
    put(game, p0, 2, 0)  # stopped on the entrance
    _s, best, _p = reachable(game, Board(game), p1, 4)
    assert (9, 0) not in best


def _chain(game: Any) -> tuple[int, int, int]:
    s_ent, s_tile = start(game)
    s_tile.exits[0]["state"] = "open"
    (t1,) = lay_after(game, s_ent, ["ALLEY", "QUIET"])
    (t2,) = lay_after(game, t1, ["ALLEY", "QUIET"])
    return s_ent, t1, t2


def test_vacated_tiles_go_when_no_player_is_on_or_next_to_them(make_game: Any) -> None:
    """Remove Vacated Tiles: "Tile has no players on it, or any adjacent tile"."""
    game = make_game("director")
    p0, p1 = setup(game)
    s0, t1, t2 = _chain(game)
    put(game, p0, 4, 0)
    put(game, p1, 5, 0)
    run_system(game, "director.remove_tiles")
    assert set(tiles(game)) == {s0, t1, t2}
    z = zombie(game, 0, 0)
    put(game, p0, 9, 0)
    put(game, p1, 10, 0)
    run_system(game, "director.remove_tiles")
    assert set(tiles(game)) == {t1, t2} and not game.world.exists(z)


def test_nothing_goes_while_players_are_on_a_branch(make_game: Any) -> None:
    """"If there was a branch on the route, tiles are only removed as players progress along the
    main route, not along the branch" (design: no removal while anyone stands on a branch)."""
    game = make_game("director")
    p0, p1 = setup(game)
    s0, t1, t2 = _chain(game)
    tiles(game)[t2].main = False
    put(game, p0, 9, 0)
    put(game, p1, 10, 0)
    run_system(game, "director.remove_tiles")
    assert set(tiles(game)) == {s0, t1, t2}


def test_a_section_left_behind_a_ladder_goes(make_game: Any) -> None:
    """"All players have passed through a Sewer/Ladder, leaving a full section of the board"."""
    game = make_game("director")
    p0, p1 = setup(game)
    s_ent, s_tile = start(game)
    blocker = lay(game, tileset(game).tiles["ALLEY"], 0, (5, 0), s_ent, 1, True, 0)
    s_tile.exits[0]["state"] = "open"
    (far,) = lay_after(game, s_ent, ["ALLEY", "QUIET"])
    tiles(game)[far].depth = 1
    put(game, p0, 10, 0)
    put(game, p1, 11, 0)
    run_system(game, "director.remove_tiles")
    assert set(tiles(game)) == {far}
    assert blocker not in tiles(game)


def test_first_player_token_moves_clockwise(make_game: Any) -> None:
    """Move the First Player token: "round the table clockwise by 1 player"."""
    game = make_game("director", players=3)
    p0, _p1, _p2 = setup(game)
    game.world.get(p0, Markers).add("hurt")
    seen = []
    for _ in range(4):
        run_system(game, "director.rotate")
        seen.append(state(game).first)
    assert seen == [1, 2, 0, 1] and "hurt" not in tags(game, p0)


def test_zombies_win_when_every_player_is_pinned_at_zero_or_less(make_game: Any) -> None:
    """DESIGN CHOICE (no victory in the text): every player pinned at 0 or below ends the game."""
    game = make_game("director")
    p0, p1 = setup(game)
    for p in (p0, p1):
        game.world.get(p, Markers).add("pinned")
    hp(game, p0, 0)
    run_system(game, "director.victory")
    assert not game.over
    hp(game, p1, -1)
    run_system(game, "director.victory")
    assert game.outcome == "zombies"


def test_survivors_win_when_everyone_standing_reaches_the_safe_room(make_game: Any) -> None:
    """DESIGN CHOICE: the safe room is the bottom of the tile stack; every survivor above 0 hit
    points on it wins (a downed friend left behind does not stop it)."""
    game = make_game("director")
    p0, p1 = setup(game)
    s_ent, _t = start(game)
    lay(game, tileset(game).tiles["SAFEROOM"], 0, (5, 0), s_ent, 1, True, 0)
    put(game, p0, 5, 0)
    put(game, p1, 0, 0)
    run_system(game, "director.victory")
    assert not game.over
    hp(game, p1, 0)
    run_system(game, "director.victory")
    assert game.outcome == "survivors"


def test_the_safe_room_is_at_the_bottom_of_the_stack(make_game: Any) -> None:
    """Set-up (design): the tile stack is shuffled and the safe room put at its bottom."""
    for seed in range(5):
        game = make_game("director", seed=seed)
        setup(game, keep_map=True)
        stack = game.deck("tiles")[1]
        from ecs_zombie.components import Card

        assert game.world.get(stack.draw[0], Card).face == "SAFEROOM"


def test_moving_on_a_tile_with_open_exits_lays_tiles_even_without_changing_tile(make_game: Any) -> None:
    """New Tile Required?: "If, at any point in their movement, a player moves onto a Tile with one
    or more Open Exits ... a new tile should be placed". A survivor who got onto such a tile
    without laying tiles (steered there by a Jockey, which lays none) lays them with their own next
    move, even one within that tile."""
    game = make_game("director")
    p0, p1 = setup(game)
    _s_ent, s_tile = start(game)
    s_tile.exits[0]["state"] = "open"
    put(game, p0, -2, 0)
    put(game, p1, -2, 2)
    force(game, cards=["ALLEY", "QUIET"])
    run_system(game, "director.player_move", {
        "director.move": lambda d: [0, 0] if d.side == "player:0" else d.context["at"]})
    assert s_tile.exits[0]["state"] == "placed"
    assert [t.name for _e, t in sorted(tiles(game).items())] == ["STREET", "ALLEY"]
