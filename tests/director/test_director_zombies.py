"""Zombie phase, scripted: movement by shortest path with its ties, full distance, never ending on
a zombie; activation; wounds; pins (0 hit points, six neighbours); stun markers."""

from __future__ import annotations

from typing import Any

import pytest

from ecs_zombie import hexgrid
from ecs_zombie.systems.director.tiles import lay, tileset
from tests.director.director_setup import (
    at,
    events,
    hp,
    ladders,
    lay_after,
    mark,
    put,
    run_defaults,
    run_system,
    setup,
    start_tile,
    state,
    tags,
    tiles,
    zombie,
    zombies_at,
)


def test_zombie_goes_for_the_nearer_player_then_fewest_hp_then_recent_first(make_game: Any) -> None:
    """Move Zombies: equal distance -> least hit points; tied -> most recent first player; moving
    stops when adjacent."""
    game = make_game("director")
    p0, p1 = setup(game)
    put(game, p0, -2, 0)
    put(game, p1, 2, 0)
    z = zombie(game, 0, 0)
    hp(game, p1, 5)
    run_system(game, "director.zombie_move")
    assert at(game, z) == (1, 0)
    put(game, z, 0, 0)
    hp(game, p1, 8)
    state(game).first = 1
    run_system(game, "director.zombie_move")
    assert at(game, z) == (1, 0)
    put(game, z, 0, 0)
    state(game).first = 0
    run_system(game, "director.zombie_move")
    assert at(game, z) == (-1, 0)


@pytest.mark.parametrize("ruleset", ["director", "director-adaptive", "director-sza"])
def test_zombie_moves_its_full_x_by_the_shortest_path(make_game: Any, ruleset: str) -> None:
    """"should always move their full distance (until they reach an adjacent hex)": X = 2 (design), in
    the Director game and in each hybrid built on it (each declares X afresh)."""
    game = make_game(ruleset)
    p0, p1 = setup(game)
    put(game, p0, -2, 0)
    put(game, p1, -2, 2)
    z = zombie(game, 2, 0)
    run_system(game, "director.zombie_move")
    assert hexgrid.distance(at(game, z), (2, 0)) == 2 and hexgrid.distance(at(game, z), (-2, 0)) == 2


def test_zombies_pass_through_zombies_but_never_end_on_one_nor_enter_players(make_game: Any) -> None:
    """"Zombies may move through hexes occupied by other zombies, but may not finish moving in them.
    Zombies may not enter, or pass through the same hex as a player model.\""""
    game = make_game("director")
    p0, p1 = setup(game)
    put(game, p0, -2, 0)
    put(game, p1, -2, 2)
    blocker = zombie(game, 0, 0, "stun")
    z = zombie(game, 1, 0)
    run_system(game, "director.zombie_move")
    assert (at(game, z), at(game, blocker)) == ((-1, 0), (0, 0))  # through the stunned zombie
    assert events(game, "zombie_moved") == [{"zombie": z, "to": [-1, 0], "target": p0}]


def test_a_zombie_whose_shortest_paths_all_end_on_zombies_stops_short(make_game: Any) -> None:
    """"may not finish moving" on a zombie (design: of its shortest paths it stops on the farthest
    free hex): the only shortest path goes (0, 0) -> (-1, 0), and (-1, 0) is taken."""
    game = make_game("director")
    p0, p1 = setup(game)
    put(game, p0, -2, 0)
    put(game, p1, -2, 2)
    blockers = [zombie(game, -1, 0, "stun"), zombie(game, -1, -1, "stun"), zombie(game, -2, -1, "stun")]
    z = zombie(game, 1, 0)
    run_system(game, "director.zombie_move")
    assert at(game, z) == (0, 0)
    assert [at(game, b) for b in blockers] == [(-1, 0), (-1, -1), (-2, -1)]  # stunned: no move
    put(game, z, 1, 0)
    zombie(game, 0, 0, "stun")  # now every hex of its shortest path is taken: it stays
    run_system(game, "director.zombie_move")
    assert at(game, z) == (1, 0)


def test_inactive_zombie_next_to_a_player_activates_and_attacks_but_did_not_move(make_game: Any) -> None:
    """Activate Inactive Zombies, then Wound Players: 1 hit point per adjacent unstunned zombie."""
    game = make_game("director")
    p0, _p1 = setup(game)
    put(game, p0, 0, 0)
    lying = zombie(game, 1, 0, "inactive")
    far = zombie(game, 2, -2, "inactive")
    zombie(game, 0, 1, "stun")
    zombie(game, -1, 0)
    run_system(game, "director.zombie_move")
    assert at(game, lying) == (1, 0) and at(game, far) == (2, -2)
    run_system(game, "director.activate")
    assert "inactive" not in tags(game, lying) and "inactive" in tags(game, far)
    run_system(game, "director.zombie_attack")
    assert hp(game, p0) == 6  # the active and the just-activated one; the stunned one does not bite
    run_system(game, "director.unstun")
    assert all("stun" not in tags(game, z) for z in zombies_at(game).values())


def test_pinned_at_zero_or_surrounded_on_six_hexes(make_game: Any) -> None:
    """Pin Players: at 0 HP or less; or "all 6 adjacent hexes are occupied with a zombie"."""
    game = make_game("director", players=3)
    p0, p1, p2 = setup(game)
    put(game, p0, 0, 0)
    put(game, p1, -2, 2)
    put(game, p2, 2, -2)
    for h in hexgrid.neighbours((0, 0))[:5]:
        zombie(game, *h, "stun")
    hp(game, p1, 0)
    run_system(game, "director.pin")
    assert "pinned" not in tags(game, p0) and "pinned" in tags(game, p1) and "pinned" not in tags(game, p2)
    zombie(game, *hexgrid.neighbours((0, 0))[5], "stun")
    run_system(game, "director.pin")
    assert "pinned" in tags(game, p0) and hp(game, p0) == 8


def test_zombies_still_approach_a_player_below_zero(make_game: Any) -> None:
    """"Zombies will approach and attack a player on less than 0HP"."""
    game = make_game("director")
    p0, p1 = setup(game)
    put(game, p0, -2, 0)
    put(game, p1, 2, -2)
    hp(game, p0, -3)
    z = zombie(game, 0, 0)
    run_system(game, "director.zombie_move")
    assert hexgrid.distance(at(game, z), (-2, 0)) == 1
    run_system(game, "director.zombie_attack")
    assert hp(game, p0) == -4


def test_zombie_takes_another_shortest_path_to_move_its_full_distance(make_game: Any) -> None:
    """"The zombies should always take the shortest possible path ... and should always move their
    full distance" and "may not finish moving" on a zombie: when the first shortest path ends on a
    zombie, another shortest path of the full X = 2 is taken rather than stopping short."""
    game = make_game("director")
    p0, p1 = setup(game)
    put(game, p0, -2, 0)
    put(game, p1, 20, 20)  # off the map: out of every zombie's reach
    blocker = zombie(game, 0, 0, "stun")
    z = zombie(game, 1, 1)
    run_system(game, "director.zombie_move")
    assert at(game, blocker) == (0, 0)
    assert at(game, z) == (-1, 1)  # two steps (formerly it backed up to (1, 0), one step short)
    assert hexgrid.distance(at(game, z), (1, 1)) == 2


@pytest.mark.parametrize(("x", "expected"), [(None, (0, 0)), (1, (1, 0)), (3, (-1, 0)), ("default", (0, 0))])
def test_zombie_move_is_the_x_parameter(make_game: Any, x: Any, expected: tuple[int, int]) -> None:
    """"move X hexes towards the nearest player model" (design: X = `zombie_move`, 2, tunable; the
    system's own default is 2 too): with X = 1 the zombie moves one hex, with X = 3 three."""
    game = make_game("director", params={"zombie_move": x} if isinstance(x, int) else {})
    p0, p1 = setup(game)
    put(game, p0, -2, 0)
    put(game, p1, -2, 2)
    z = zombie(game, 2, 0)
    if x == "default":
        run_defaults(game, "director.zombie_move")
    else:
        run_system(game, "director.zombie_move")
    assert at(game, z) == expected


def test_zombies_do_not_climb_ladders(make_game: Any) -> None:
    """Design: zombies do not climb ladders ("Zombies do not trigger any special effects in
    hexes"): survivors beyond a ladder are out of reach and the zombie stays put."""
    game = make_game("director")
    p0, p1 = setup(game)
    s_ent, s_tile = start_tile(game)
    lay(game, tileset(game).tiles["ALLEY"], 0, (5, 0), s_ent, 1, False, 0)  # blocks the exit
    s_tile.exits[0]["state"] = "open"
    lay_after(game, s_ent, ["ALLEY", "QUIET"])  # laid apart, centre (11, 0), entry (9, 0)
    assert ladders(game) == {(2, 0): [9, 0], (9, 0): [2, 0]}
    for ent, t in tiles(game).items():
        if t.center == [5, 0]:
            game.world.delete(ent)
    put(game, p0, 11, 0)
    put(game, p1, 12, 0)
    z = zombie(game, 1, 0)
    since = mark(game)
    run_system(game, "director.zombie_move")
    assert at(game, z) == (1, 0) and events(game, "zombie_moved", since) == []


def test_activation_and_wounds_are_logged(make_game: Any) -> None:
    """Activate Inactive Zombies ("Place the models on their feet") and Wound Players (1HP per
    adjacent zombie), each logged with who and how much."""
    game = make_game("director")
    p0, p1 = setup(game)
    put(game, p0, 0, 0)
    put(game, p1, -2, 2)
    lying = zombie(game, 1, 0, "inactive")
    zombie(game, -1, 0)
    zombie(game, 0, -1)
    since = mark(game)
    run_system(game, "director.activate")
    run_system(game, "director.zombie_attack")
    assert events(game, "zombie_activated", since) == [{"zombie": lying}]
    assert events(game, "damage", since) == [{"survivor": p0, "amount": 3, "hp": 5, "why": "zombies"}]
    assert "hurt" in tags(game, p0) and "hurt" not in tags(game, p1)


def test_pins_are_logged_with_their_cause(make_game: Any) -> None:
    """Pin Players: "reduce a player to 0HP or less" or "completely surrounded by zombies"."""
    game = make_game("director", players=3)
    p0, p1, p2 = setup(game)
    put(game, p0, 0, 0)
    put(game, p1, -2, 2)
    put(game, p2, 2, -2)
    for h in hexgrid.neighbours((0, 0)):
        zombie(game, *h, "stun")
    hp(game, p1, -1)
    since = mark(game)
    run_system(game, "director.pin")
    assert events(game, "pinned", since) == [{"survivor": p0, "why": "surrounded"},
                                             {"survivor": p1, "why": "0 hit points"}]
    run_system(game, "director.pin")  # already pinned: no second event
    assert len(events(game, "pinned", since)) == 2


def test_the_nearer_player_before_the_weaker(make_game: Any) -> None:
    """"move X hexes towards the nearest player model": the nearer player is the target even with
    more hit points than a farther one (hit points only break ties of distance)."""
    game = make_game("director")
    p0, p1 = setup(game)
    put(game, p0, -2, 0)
    put(game, p1, 2, -2)
    hp(game, p0, 2)
    z = zombie(game, 1, 0)
    run_system(game, "director.zombie_move")
    assert at(game, z) == (2, -1) and events(game, "zombie_moved")[0]["target"] == p1  # one step: adjacent


def test_a_later_zombie_neither_ends_where_an_earlier_one_went_nor_is_blocked_by_where_it_was(
        make_game: Any) -> None:
    """"may not finish moving" on another zombie: the first zombie (by id) takes (-1, 0); the second,
    whose only shortest path ends there, stops on (0, 0), which the first has just left."""
    game = make_game("director")
    p0, p1 = setup(game)
    put(game, p0, -2, 0)
    put(game, p1, -2, 2)
    z1 = zombie(game, 0, 0)
    z2 = zombie(game, 1, 0)
    run_system(game, "director.zombie_move")
    assert (at(game, z1), at(game, z2)) == ((-1, 0), (0, 0))


def test_one_hit_point_left_is_not_pinned(make_game: Any) -> None:
    """Pin Players: "0HP or less" - a player on 1 stays up."""
    game = make_game("director")
    p0, p1 = setup(game)
    hp(game, p0, 1)
    hp(game, p1, 0)
    run_system(game, "director.pin")
    assert "pinned" not in tags(game, p0) and "pinned" in tags(game, p1)
