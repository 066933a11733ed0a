"""Zombie phase, scripted: movement by shortest path with its ties, full distance, never ending on
a zombie; activation; wounds; pins (0 hit points, six neighbours); stun markers."""

from __future__ import annotations

from typing import Any

from ecs_zombie import hexgrid
from tests.director.director_setup import at, hp, put, run_system, setup, state, tags, zombie, zombies_at


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


def test_zombie_moves_its_full_x_by_the_shortest_path(make_game: Any) -> None:
    """"should always move their full distance (until they reach an adjacent hex)": X = 2."""
    game = make_game("director")
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
    blockers = [zombie(game, -1, 0, "stun"), zombie(game, -1, -1, "stun"), zombie(game, -2, -1, "stun")]
    z = zombie(game, 1, 0)
    run_system(game, "director.zombie_move")
    spots = list(zombies_at(game))
    assert len(spots) == 4 and at(game, z) not in {at(game, b) for b in blockers}
    assert at(game, z) not in {(-2, 0), (-2, 2)}
    assert [at(game, b) for b in blockers] == [(-1, 0), (-1, -1), (-2, -1)]  # stunned: no move


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
