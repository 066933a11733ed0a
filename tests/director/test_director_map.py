"""The map and the Admin phase, scripted: a tile at every open exit with its tile card, blocked
exits turned into ladders to a tile laid apart (crossing costs Z, stopping on the entrance blocks
it), vacated-tile removal, the first-player token, and the end of the game."""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from ecs_zombie import hexgrid
from ecs_zombie.components import Markers, Position
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.errors import GameError
from ecs_zombie.systems.director.board import Board, kill_zombie, tally
from ecs_zombie.systems.director.components import LadderLink, MapTile
from ecs_zombie.systems.director.players import reachable
from ecs_zombie.systems.director.tiles import explore, lay, tileset
from tests.director.director_setup import (
    TILE_CARDS,
    TILE_STACK,
    at,
    director_hand,
    east_tile,
    events,
    faces,
    floor_items,
    force,
    hand_faces,
    hp,
    intensity,
    ladders,
    loadout,
    mark,
    markers,
    max_hp,
    put,
    run_system,
    set_max_hp,
    setup,
    state,
    tags,
    zombie,
    zombies_at,
)


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
    assert t.depth == 1  # one further along the route than the tile whose exit it continues
    links = {(p.x, p.y): link.to for _e, (p, link) in game.world.query(Position, LadderLink)}
    assert links == {(2, 0): [9, 0], (9, 0): [2, 0]} and t.entry == [9, 0]
    covered = {h for e, tt in tiles(game).items() if e != far for h in hexgrid.within(tuple(tt.center), 2)}
    assert all(hexgrid.distance(tuple(t.center), h) > 3 for h in covered)


@pytest.mark.parametrize("ruleset", ["director", "director-adaptive", "director-sza"])
def test_crossing_a_ladder_costs_z_and_stopping_on_it_blocks_it(make_game: Any, ruleset: str) -> None:
    """Ladder/Sewer: "moving onto the Ladder/Sewer Hex and spending Z movement points. If the player
    does not have enough movement points left to reach the other end, they stop on the entrance
    (thus blocking the route for the other players!)". Z = 2 (design), in each hybrid too."""
    game = make_game(ruleset)
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
    # with points to climb back, the far end's ladder leads to the entrance at 3 + 2: no dearer than
    # its one step on foot, so the entrance stays at 1, reached from the start
    _s, best, parent = reachable(game, Board(game), p0, 6)
    assert best[(2, 0)] == 1 and parent[(2, 0)] == (1, 0) and best[(9, 0)] == 3
    _s, best, _p = reachable(game, Board(game), p0, 2)
    assert (9, 0) not in best and best[(2, 0)] == 1
    put(game, p0, 2, 0)  # stopped on the entrance
    _s, best, _p = reachable(game, Board(game), p1, 4)
    assert (9, 0) not in best


def test_z_is_the_ladder_cost_parameter(make_game: Any) -> None:
    """Z is the ruleset's `ladder_cost` (design 2, tunable): at 3, the far end costs 1 + 3 points."""
    game = make_game("director", params={"ladder_cost": 3})
    p0, p1 = setup(game)
    s_ent, s_tile = start(game)
    lay(game, tileset(game).tiles["ALLEY"], 0, (5, 0), s_ent, 1, False, 0)
    s_tile.exits[0]["state"] = "open"
    lay_after(game, s_ent, ["ALLEY", "QUIET"])
    put(game, p0, 1, 0)
    put(game, p1, 0, 0)
    assert {link.cost for _e, link in game.world.query1(LadderLink)} == {3}
    _s, best, _p = reachable(game, Board(game), p0, 4)
    assert best[(9, 0)] == 4


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
    assert tally(game).counts["tiles_removed"] == 1


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


# -- set-up ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 4])
def test_setup_survivors_and_their_pistols(make_game: Any, players: int) -> None:
    """Set-up (design): survivors have 8 hit points, a pistol in hand with a loaded 4-card clip, and
    stand on the start tile (the street, at the origin) nearest its entry [-2, 0]."""
    game = make_game("director", players=players)
    since = mark(game)
    ps = setup(game, keep_map=True)
    spots = [(-2, 0), (-2, 1), (-1, -1), (-1, 0)][:players]
    assert [at(game, p) for p in ps] == spots
    for p in ps:
        assert (hp(game, p), max_hp(game, p)) == (8, 8)
        assert (loadout(game, p).hand, loadout(game, p).weapons) == ("pistol", ["pistol"])
        assert len(hand_faces(game, p)) == 4
    assert events(game, "setup", since) == [{"start": [-2, 0]}]
    placed = events(game, "tile_placed", since)
    assert placed[0] == {"tile": start(game)[0], "name": "STREET", "center": [0, 0], "rotation": 0}
    assert len(placed) == 2 and placed[1]["center"] == [5, 0]  # the street's exit gets its tile


def test_at_most_four_players(make_game: Any) -> None:
    """Design: the ammo box holds 4 stacks of each gun's cards, so a game takes at most 4 players:
    the scenarios say so (refused when the game is made), and the setup rule holds it too."""
    with pytest.raises(GameError, match=r"players must be 1\.\.4, got 5"):
        make_game("director", players=5)
    game = make_game("director", players=4)
    box = copy.copy(game.tables["director.weapons"])  # the loaded table is shared: change a copy
    box.copies = 6  # an ammo box of 6 stacks: 3 players
    game.tables = {**game.tables, "director.weapons": box}
    with pytest.raises(GameError, match="at most 3 players"):
        setup(game)


def test_the_tile_stack(make_game: Any) -> None:
    """Design: 2 alleys, 2 left bends, 2 right bends, 1 crossroads and the safe room (8 tiles); the
    street is the start tile and is not in the stack."""
    game = make_game("director")
    setup(game)
    stack = game.deck(TILE_STACK)[1]
    assert Counter(faces(game, [*stack.draw, *stack.discard])) == Counter(
        {"ALLEY": 2, "BEND_LEFT": 2, "BEND_RIGHT": 2, "CROSSROADS": 1, "SAFEROOM": 1})


def test_the_tile_card_deck(make_game: Any) -> None:
    """Design: 20 tile cards (docs/director.md lists them; tile_cards.yaml gives the counts)."""
    game = make_game("director")
    setup(game)
    deck = game.deck(TILE_CARDS)[1]
    assert Counter(faces(game, [*deck.draw, *deck.discard])) == Counter({
        "QUIET": 3, "WANDERERS": 3, "CROWD": 2, "SUPPLIES": 2, "AMMO_CACHE": 2, "GUN_SHOP": 1,
        "SNIPER_NEST": 1, "PHARMACY": 1, "ORDNANCE": 1, "GAS_STATION": 1, "BURNING_CAR": 1, "CAR_ALARM": 1,
        "SEWER_GRATES": 1})


# (tile, walled hexes, exits) laid unrotated against the street's exit (centre (5, 0)): design.
SHAPES = [
    ("ALLEY", [(5, -1), (5, 1)], [((7, 0), 0)]),
    ("BEND_LEFT", [(6, 0)], [((7, -2), 1)]),
    ("BEND_RIGHT", [(5, 0)], [((5, 2), 5)]),
    ("CROSSROADS", [], [((7, 0), 0), ((5, 2), 5)]),
    ("SAFEROOM", [], []),
]


@pytest.mark.parametrize(("face", "walls", "exits"), SHAPES)
def test_each_tiles_shape(make_game: Any, face: str, walls: list[tuple[int, int]],
                          exits: list[tuple[tuple[int, int], int]]) -> None:
    """Tiles (design): a radius-2 hexagon minus its walls, entered at its west corner; exits at
    corners with a direction. A survivor can step anywhere on it but onto a wall."""
    game = make_game("director")
    p0, p1 = setup(game)
    new = east_tile(game, face, "QUIET") if face != "SAFEROOM" else lay_after(game, _open(game), [face])[0]
    t = tiles(game)[new]
    assert t.entry == [3, 0] and len(t.hexes) == 19 - len(walls)
    assert all([q, r] not in t.hexes for q, r in walls)
    assert [((e["hex"][0], e["hex"][1]), e["dir"]) for e in t.exits] == exits
    assert t.safe is (face == "SAFEROOM") and t.card == ("" if face == "SAFEROOM" else "QUIET")
    put(game, p0, 5, -2)
    put(game, p1, -2, 2)
    _s, best, _p = reachable(game, Board(game), p0, 10)
    on_tile = [h for h in best if hexgrid.distance(h, (5, 0)) <= 2]
    assert all(w not in best for w in walls) and len(on_tile) == 19 - len(walls)


def _open(game: Any) -> int:
    s_ent, s_tile = start(game)
    s_tile.exits[0]["state"] = "open"
    return s_ent


def test_a_tile_is_turned_to_meet_the_exit(make_game: Any) -> None:
    """Place New Tile: "place it against the edge so that the entry point aligns with the current
    exit point": after a left bend (exit north-east) the next tile is turned one sixth."""
    game = make_game("director")
    setup(game)
    (bend,) = lay_after(game, _open(game), ["BEND_LEFT", "QUIET"])
    since = mark(game)
    (alley,) = lay_after(game, bend, ["ALLEY", "QUIET"])
    assert events(game, "tile_placed", since) == [{"tile": alley, "name": "ALLEY", "center": [10, -5], "rotation": 1}]
    assert events(game, "tile_card", since) == [{"tile": alley, "card": "QUIET"}]
    t = tiles(game)[alley]
    assert t.entry == [8, -3] and t.exits[0]["hex"] == [12, -7] and t.exits[0]["dir"] == 1
    assert (t.depth, t.main, t.parent) == (2, True, bend)


# (tile card, inactive zombies, items, hazard hexes, director modifier, ongoing effects): design.
TILE_CARD_ROWS = [
    ("QUIET", 0, [], 0, 0, []),
    ("WANDERERS", 2, [], 0, 0, []),
    ("CROWD", 3, [], 0, 0, []),
    ("SUPPLIES", 1, ["medkit"], 0, 0, []),
    ("AMMO_CACHE", 0, ["ammo"], 0, 0, []),
    ("GUN_SHOP", 1, ["shotgun"], 0, 0, []),
    ("SNIPER_NEST", 0, ["rifle"], 0, 0, []),
    ("PHARMACY", 0, ["pills"], 0, 0, []),
    ("ORDNANCE", 1, ["pipebomb", "molotov"], 0, 0, []),
    ("GAS_STATION", 0, ["petrol"], 0, 0, []),
    ("BURNING_CAR", 0, [], 2, 0, ["Burning car"]),
    ("CAR_ALARM", 0, [], 0, 1, ["Car alarm"]),
    ("SEWER_GRATES", 0, [], 0, 0, ["Sewer grates", "zombies_here"]),
]


@pytest.mark.parametrize(("card", "zombies", "items", "hazards", "director_mod", "effects"), TILE_CARD_ROWS)
def test_each_tile_card(make_game: Any, card: str, zombies: int, items: list[str], hazards: int,
                        director_mod: int, effects: list[str]) -> None:
    """Draw Tile Card: "specifying any initial zombies/hazards"; "The Tile should immediately have
    any initial items/zombies/other placed on it" on the hexes a D6 gives; an ongoing card is kept
    beside its tile. Initial zombies lie inactive."""
    game = make_game("director")
    setup(game)
    since = mark(game)
    new = east_tile(game, "ALLEY", card, dice=[1, 2, 3, 4, 5])
    t = tiles(game)[new]
    spawn = [(7, -1), (6, -2), (4, -1), (3, 1), (4, 2)]  # the alley's hexes 1..5
    placed = events(game, "zombie_placed", since)
    assert [(p["at"][0], p["at"][1]) for p in placed] == spawn[:zombies]
    assert all(p["active"] is False for p in placed)
    assert all("inactive" in tags(game, z) for z in zombies_at(game).values()) and len(zombies_at(game)) == zombies
    assert floor_items(game) == sorted((*spawn[zombies + k], name) for k, name in enumerate(items))
    assert [(i["item"], (i["at"][0], i["at"][1])) for i in events(game, "item_placed", since)] == [
        (name, spawn[zombies + k]) for k, name in enumerate(items)]
    assert len(t.hazards) == hazards and t.director_mod == director_mod and t.effects == effects
    if hazards:
        assert sorted((h[0], h[1]) for h in t.hazards) == sorted(spawn[:hazards])


def test_an_exhausted_stack_closes_the_exit(make_game: Any) -> None:
    """Design: once the tile stack is spent, remaining open exits become dead ends."""
    game = make_game("director")
    setup(game)
    s_ent = _open(game)
    stack = game.deck(TILE_STACK)[1]
    stack.discard.extend(stack.draw)
    stack.draw.clear()
    since = mark(game)
    explore(game, s_ent)
    assert start(game)[1].exits[0]["state"] == "closed" and len(tiles(game)) == 1
    assert events(game, "exit_closed", since) == [{"tile": s_ent, "exit": 0}]


def test_ladder_and_removal_events(make_game: Any) -> None:
    """Blocked Exits (a ladder from the exit to the entry of a tile laid apart) and Remove Vacated
    Tiles are logged with the tiles concerned."""
    game = make_game("director")
    p0, p1 = setup(game)
    s_ent, s_tile = start(game)
    blocker = lay(game, tileset(game).tiles["ALLEY"], 0, (5, 0), s_ent, 1, True, 0)
    s_tile.exits[0]["state"] = "open"
    since = mark(game)
    (far,) = lay_after(game, s_ent, ["ALLEY", "QUIET"])
    assert events(game, "ladder", since) == [{"tile": s_ent, "exit": 0, "to": far, "at": [2, 0], "far": [9, 0]}]
    assert game.metrics()["ladders"] == 1
    tiles(game)[far].depth = 1
    put(game, p0, 10, 0)
    put(game, p1, 11, 0)
    since = mark(game)
    run_system(game, "director.remove_tiles")
    assert events(game, "tile_removed", since) == [{"tile": s_ent, "name": "STREET"},
                                                   {"tile": blocker, "name": "ALLEY"}]


def test_the_safe_room_is_never_removed(make_game: Any) -> None:
    """Design: the safe room, once laid, stays (even behind every player)."""
    game = make_game("director")
    p0, p1 = setup(game)
    s_ent, _t = start(game)
    safe = lay(game, tileset(game).tiles["SAFEROOM"], 0, (5, 0), s_ent, 1, True, 0)
    far = lay(game, tileset(game).tiles["ALLEY"], 0, (10, 0), safe, 2, True, 0)
    lay(game, tileset(game).tiles["ALLEY"], 0, (15, 0), far, 3, True, 0)
    put(game, p0, 15, 0)
    put(game, p1, 16, 0)
    run_system(game, "director.remove_tiles")
    assert sorted(t.name for t in tiles(game).values()) == ["ALLEY", "ALLEY", "SAFEROOM"]


def test_first_player_and_timeout(make_game: Any) -> None:
    """The first-player token's move is logged; the game stops at round 30 (design: `max_ticks`)."""
    game = make_game("director")
    p0, p1 = setup(game)
    since = mark(game)
    run_system(game, "director.rotate")
    assert events(game, "first_player", since) == [{"seat": 1}]
    for p in (p0, p1):
        set_max_hp(game, p, 99)
    game.tick = 28
    force(game, dice=[1], cards=["SHAMBLERS"])
    game.play(PolicyTable("heuristic"), stop_after=29)
    assert (game.tick, game.over) == (29, False)
    game.play(PolicyTable("heuristic"), stop_after=30)
    assert (game.tick, game.outcome) == (30, "timeout")


def test_a_tile_laid_apart_goes_further_until_it_is_clear(make_game: Any) -> None:
    """Blocked Exits: "place it away from the current Map" (design: along the exit's direction, at
    least two hexes clear of every laid tile): with (5, 0) and (10, 0) taken it lands on (16, 0)."""
    game = make_game("director")
    setup(game)
    s_ent, s_tile = start(game)
    ts = tileset(game)
    lay(game, ts.tiles["ALLEY"], 0, (5, 0), s_ent, 1, False, 0)
    lay(game, ts.tiles["ALLEY"], 0, (10, 0), s_ent, 1, False, 0)
    s_tile.exits[0]["state"] = "open"
    (far,) = lay_after(game, s_ent, ["ALLEY", "QUIET"])
    assert tiles(game)[far].center == [16, 0] and tiles(game)[far].entry == [14, 0]


@pytest.mark.parametrize("blocker", [(1, 4), (5, -4)])
def test_a_tile_touching_only_the_rim_blocks_the_exit(make_game: Any, blocker: tuple[int, int]) -> None:
    """Blocked Exits: "the exit from a tile goes into a previously laid tile": a tile covering a
    single rim hex of where the new tile would lie ((3, 2), or (5, -2)) blocks it; the new tile is
    laid apart at the first clear spot along the exit, (11, 0)."""
    game = make_game("director")
    setup(game)
    s_ent, s_tile = start(game)
    lay(game, tileset(game).tiles["ALLEY"], 0, blocker, s_ent, 1, False, 0)
    s_tile.exits[0]["state"] = "open"
    (far,) = lay_after(game, s_ent, ["ALLEY", "QUIET"])
    assert s_tile.exits[0]["state"] == "ladder" and tiles(game)[far].center == [11, 0]


def test_a_blocked_exit_to_the_south_east(make_game: Any) -> None:
    """Blocked Exits along another direction: a right bend's exit (5, 2) opens south-east; with
    (5, 5) taken, the ladder runs from (5, 2) to the entry (5, 9) of a tile centred on (5, 11)."""
    game = make_game("director")
    setup(game)
    bend = east_tile(game, "BEND_RIGHT")
    lay(game, tileset(game).tiles["ALLEY"], 0, (5, 5), bend, 2, False, 0)
    (far,) = lay_after(game, bend, ["ALLEY", "QUIET"])
    assert tiles(game)[far].center == [5, 11] and tiles(game)[far].entry == [5, 9]
    assert ladders(game) == {(5, 2): [5, 9], (5, 9): [5, 2]}


def test_exits_turn_with_their_tile(make_game: Any) -> None:
    """A tile laid turned has its exits turned too: a right bend after a right bend is turned five
    sixths, so its exit opens south-west (direction 4)."""
    game = make_game("director")
    setup(game)
    first = east_tile(game, "BEND_RIGHT")
    (second,) = lay_after(game, first, ["BEND_RIGHT", "QUIET"])
    assert [e["dir"] for e in tiles(game)[second].exits] == [4]


def test_tiles_are_numbered_in_the_order_they_are_laid(make_game: Any) -> None:
    """Tiles keep the order they were laid in (ties of the rear tile and of the team's goal)."""
    game = make_game("director")
    setup(game)
    cross = east_tile(game, "CROSSROADS")
    east, branch = lay_after(game, cross, ["ALLEY", "QUIET", "ALLEY", "QUIET"])
    orders = [tiles(game)[e].order for e in (start(game)[0], cross, east, branch)]
    assert orders == sorted(orders) and len(set(orders)) == 4 and orders[3] - orders[1] == 2


def test_two_hazards_on_one_hex_make_one_hazard_hex(make_game: Any) -> None:
    """Burning car: its two hazard hexes come from two D6; the same number twice burns one hex."""
    game = make_game("director")
    setup(game)
    new = east_tile(game, "ALLEY", "BURNING_CAR", dice=[3, 3])
    assert tiles(game)[new].hazards == [[4, -1]]


def test_setup_runs_before_round_one_only(make_game: Any) -> None:
    """Set-up happens once, before round 1: the set-up system does nothing in later rounds."""
    game = make_game("director")
    setup(game)
    before = len(tiles(game))
    game.tick = 2
    since = mark(game)
    run_system(game, "director.setup")
    assert len(tiles(game)) == before and events(game, "setup", since) == []


def test_nobody_standing_is_no_survivors_win(make_game: Any) -> None:
    """Design victory: "every survivor above 0 hit points" on the safe room needs at least one
    survivor up; two down (not yet pinned) on the safe room win nothing."""
    game = make_game("director")
    p0, p1 = setup(game)
    s_ent, _t = start(game)
    lay(game, tileset(game).tiles["SAFEROOM"], 0, (5, 0), s_ent, 1, True, 0)
    put(game, p0, 5, 0)
    put(game, p1, 6, 0)
    hp(game, p0, 0)
    hp(game, p1, -1)
    run_system(game, "director.victory")
    assert not game.over


def test_the_games_figures(make_game: Any) -> None:
    """The metrics a batch reports (`director.metrics`) count what happened, one by one."""
    game = make_game("director")
    p0, p1 = setup(game)
    s_ent, _t = start(game)
    lay(game, tileset(game).tiles["SAFEROOM"], 0, (5, 0), s_ent, 1, True, 0)
    put(game, p0, 5, 0)
    put(game, p1, 0, 0)
    zombie(game, 1, 0)
    zombie(game, -1, 1)
    run_system(game, "director.zombie_attack")  # p1: 2 damage
    hp(game, p0, -2)
    kill_zombie(game, zombies_at(game)[(1, 0)], "test")
    director_hand(game, ["BOOMER", "SHAMBLERS"])  # horde 3, no fire: a Boomer and 3 zombies
    force(game, dice=[1, 2, 3])
    run_system(game, "director.resolve")
    intensity(game, p0, 30)
    intensity(game, p1, 45)
    assert game.metrics() == {
        "survivors_up": 1, "survivors_down": 1, "in_safe_room": 1, "hit_points": 6, "zombies_on_map": 4,
        "zombies_spawned": 3, "zombies_killed": 1, "specials": 1, "tiles_placed": 3, "ladders": 0,
        "damage_taken": 2, "intensity_mean": 37.5, "intensity_max": 45, "director_mode": "none",
        "pacer_cycles": 0}


def test_survivors_go_by_seat_whatever_order_the_scenario_lists_them(make_game: Any, tmp_path: Path) -> None:
    """"Starting with the first player": survivors act (and are placed at set-up) by seat, from the
    first player clockwise, not in the order a scenario happens to list them."""
    path = tmp_path / "seats.yaml"
    path.write_text("""ruleset: director
name: survivors listed seat 1 first
players: 2
entities:
  - {prefab: director}
  - {prefab: survivor, set: {Owner: {player: 1}}}
  - {prefab: survivor, set: {Owner: {player: 0}}}
decks:
  - {name: director, table: director.cards}
  - {name: tiles, table: director.tiles}
  - {name: tile_cards, table: director.tile_cards}
  - {name: ammo, table: director.weapons}
""")
    game = make_game(str(path))
    seat0, seat1 = setup(game)
    assert (at(game, seat0), at(game, seat1)) == ((-2, 0), (-2, 1))


@pytest.mark.parametrize(("dice", "second"), [([1, 1], (6, -2)), ([6, 6], (7, -1))])
def test_a_tile_cards_second_zombie_due_on_the_same_hex_takes_the_next_number(
        make_game: Any, dice: list[int], second: tuple[int, int]) -> None:
    """Design: a tile card's piece due on a taken numbered hex goes on the next number (6 -> 1)."""
    game = make_game("director")
    setup(game)
    east_tile(game, "ALLEY", "WANDERERS", dice=dice)
    first = {1: (7, -1), 6: (6, 1)}[dice[0]]
    assert sorted(zombies_at(game)) == sorted([first, second])


def test_a_tile_level_with_the_team_stays(make_game: Any) -> None:
    """Design for "only along the main route": a tile goes only when it lies behind every player
    (its depth below the shallowest player's); one as deep as the team, even far off, stays."""
    game = make_game("director")
    p0, p1 = setup(game)
    s_ent, _t = start(game)
    near = lay(game, tileset(game).tiles["ALLEY"], 0, (5, 0), s_ent, 1, True, 0)
    far = lay(game, tileset(game).tiles["ALLEY"], 0, (5, 20), s_ent, 1, True, 0)
    put(game, p0, 6, 0)
    put(game, p1, 7, 0)
    run_system(game, "director.remove_tiles")
    assert set(tiles(game)) == {s_ent, near, far}


def test_the_decks_are_shuffled_at_set_up(make_game: Any) -> None:
    """Set-up (design): the director deck, the tile cards and the tile stack are shuffled: their
    order differs from game to game (seeds 1..6)."""
    orders = set()
    for seed in range(1, 7):
        game = make_game("director", seed=seed)
        setup(game, keep_map=True)
        orders.add(tuple(tuple(faces(game, game.deck(name)[1].draw)[-5:]) for name in ("director", TILE_CARDS,
                                                                                        TILE_STACK)))
    per_deck = list(zip(*orders, strict=True))
    assert all(len(set(d)) > 1 for d in per_deck)


def test_a_survivor_with_nothing_in_hand_takes_their_first_gun(make_game: Any, tmp_path: Path) -> None:
    """Set-up (design): a survivor a scenario leaves empty-handed takes their first weapon."""
    path = tmp_path / "empty.yaml"
    path.write_text("""ruleset: director
name: empty hands
players: 1
entities:
  - {prefab: director}
  - {prefab: survivor, per_player: true, set: {Owner: {player: $player}, Loadout: {hand: "", weapons: [pistol]}}}
decks:
  - {name: director, table: director.cards}
  - {name: tiles, table: director.tiles}
  - {name: tile_cards, table: director.tile_cards}
  - {name: ammo, table: director.weapons}
""")
    game = make_game(str(path))
    (p0,) = setup(game)
    assert loadout(game, p0).hand == "pistol"


def test_one_player_keeps_the_first_player_token(make_game: Any) -> None:
    """"The First Player token moves round the table clockwise by 1 player": alone, back to seat 0."""
    game = make_game("director", players=1)
    setup(game)
    run_system(game, "director.rotate")
    assert events(game, "first_player") == [{"seat": 0}]


def test_one_hit_point_is_up_for_both_ends(make_game: Any) -> None:
    """Design victory: a pinned survivor on 1 hit point is not down (no zombies' win), and a
    survivor on 1 off the safe room keeps the others from winning."""
    game = make_game("director")
    p0, p1 = setup(game)
    s_ent, _t = start(game)
    lay(game, tileset(game).tiles["SAFEROOM"], 0, (5, 0), s_ent, 1, True, 0)
    for p in (p0, p1):
        markers(game, p).add("pinned")
    hp(game, p0, 0)
    hp(game, p1, 1)
    run_system(game, "director.victory")
    assert not game.over
    put(game, p0, 5, 0)
    hp(game, p0, 5)
    run_system(game, "director.victory")
    assert not game.over


def test_the_figures_of_a_fresh_game(make_game: Any) -> None:
    """Before anything happens every count is 0; the mean intensity is kept to 2 decimals."""
    game = make_game("director", players=3)
    ps = setup(game)
    for p, v in zip(ps, (10, 10, 11), strict=True):
        intensity(game, p, v)
    hp(game, ps[0], 1)
    hp(game, ps[1], 0)
    m = game.metrics()
    assert {k: m[k] for k in ("zombies_spawned", "zombies_killed", "specials", "ladders", "damage_taken")} == {
        "zombies_spawned": 0, "zombies_killed": 0, "specials": 0, "ladders": 0, "damage_taken": 0}
    assert (m["intensity_mean"], m["intensity_max"], m["survivors_up"], m["survivors_down"]) == (10.33, 11, 2, 1)
    assert m["hit_points"] == 9
    assert m["tiles_placed"] == 2 and m["zombies_on_map"] == 0


def test_a_walk_with_no_targets_goes_through_the_whole_map(make_game: Any) -> None:
    """`Board.bfs_avoiding` stops early only for targets it is given: without them (as a rule of
    another game may ask) it walks every hex it can reach, as `bfs` through every hex does: the
    start tile's 19 hexes from its centre, 0 to 2 steps."""
    game = make_game("director")
    setup(game)
    board = Board(game)
    walked = board.bfs_avoiding([(0, 0)], ())
    assert walked == board.bfs([(0, 0)], lambda _h: True)
    assert len(walked) == 19 and sorted(set(walked.values())) == [0, 1, 2]
