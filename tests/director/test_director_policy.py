"""The `heuristic` policy's documented play (systems/director/heuristics.py), through the systems
that ask: not rules, but the play every batch figure and the docs' tables rest on."""

from __future__ import annotations

from typing import Any

import pytest

from ecs_zombie import hexgrid
from ecs_zombie.decisions import Decision
from ecs_zombie.systems.director import heuristics
from ecs_zombie.systems.director.board import side
from ecs_zombie.systems.director.components import AttackHand
from ecs_zombie.systems.director.players import acquire_weapon
from tests.director.director_setup import (
    at,
    director_hand,
    east_tile,
    equip,
    events,
    faces,
    force,
    give_hand,
    hp,
    item,
    lay_after,
    loadout,
    mark,
    markers,
    max_hp,
    only,
    put,
    run_system,
    setup,
    start_tile,
    state,
    stay,
    zombie,
    zombies_at,
)


def _pair(game: Any, p0_at: tuple[int, int], p1_at: tuple[int, int] = (-2, 2)) -> tuple[int, int]:
    p0, p1 = setup(game)
    put(game, p0, *p0_at)
    put(game, p1, *p1_at)
    give_hand(game, p1, [])
    return p0, p1


def test_survivors_head_for_the_deepest_tile_and_shun_zombies(make_game: Any) -> None:
    """"push toward the next open exit ... avoid ending next to zombies" (2 a hex of distance to the
    deepest tile's centre, 3 a zombie beside): toward the alley's centre (5, 0) as far as Y allows,
    (2, 0); with a zombie beside (2, 0), one hex farther but clear of it, (1, 1)."""
    game = make_game("director")
    p0, _p1 = _pair(game, (-2, 0))
    east_tile(game)
    run_system(game, "director.player_move")
    assert at(game, p0) == (2, 0)
    put(game, p0, -2, 0)
    zombie(game, 3, -1, "stun")
    run_system(game, "director.player_move")
    assert at(game, p0) == (1, 1)


def test_suppressing_fire_gets_the_highest_card_when_there_is_a_horde(make_game: Any) -> None:
    """"when there is a horde, add the highest card" (a slimed player's is blind)."""
    game = make_game("director")
    p0, _p1 = _pair(game, (0, 0))
    give_hand(game, p0, ["P1", "P3", "P2"])
    director_hand(game, ["SHAMBLERS"])
    run_system(game, "director.suppress")
    assert faces(game, [c for c, _s in state(game).pile]) == ["P3"]


def test_no_suppressing_fire_without_a_horde(make_game: Any) -> None:
    """With no director card in hand there is nothing to suppress: no card is spent."""
    game = make_game("director")
    p0, _p1 = _pair(game, (0, 0))
    give_hand(game, p0, ["P1", "P3"])
    state(game).hand = []
    run_system(game, "director.suppress")
    assert state(game).pile == []


def test_a_stacked_zombie_goes_where_it_is_farthest_from_the_survivors(make_game: Any) -> None:
    """The first player (a survivor) places a stacked zombie ("place the 2nd zombie on an adjacent
    hex. The first player decides which hex") on the offered hex farthest from every survivor by
    steps along the tiles: of (1, -1), (1, 0), (2, -2), (2, 0) around the taken hex 1, (2, -2) and
    (2, 0) are 2 steps from p0 on (0, 0); the first of them, (2, -2)."""
    game = make_game("director")
    p0, _p1 = _pair(game, (0, 0))
    zombie(game, 2, -1)
    director_hand(game, ["SHAMBLERS"])
    give_hand(game, p0, [])
    force(game, dice=[1])
    run_system(game, "director.resolve")
    assert sorted(zombies_at(game)) == [(2, -2), (2, -1)]


def test_the_move_shuns_a_hex_beside_a_zombie_even_one_step_nearer(make_game: Any) -> None:
    """"avoid ending next to zombies" (3 a zombie beside, 2 a step of route): asked directly, of
    (1, 0) beside a zombie on (2, -1) and (-1, 0) clear, both a step from the goal, the clear one;
    of (1, 0) and (1, 1) clear but a step farther, still the clear one (2 + 3 against 2 + 2); but
    the goal itself beside a zombie before a clear hex two steps off it (0 + 3 against 4)."""
    game = make_game("director")
    p0, _p1 = _pair(game, (0, -2))
    zombie(game, 2, -1)
    ask = {"survivor": p0, "at": [0, -2]}
    assert heuristics.move(game, Decision(side(0), "director.move", [[1, 0], [-1, 0]], ask)) == 1
    assert heuristics.move(game, Decision(side(0), "director.move", [[1, 0], [1, 1]], ask)) == 1
    assert heuristics.move(game, Decision(side(0), "director.move", [[-1, 0], [1, 1]], ask)) == 0
    zombie(game, -1, 1)  # beside the goal (0, 0): the goal with one zombie (0 + 3) beats a clear hex
    # two steps off it (2 + 2), and the weight is 3, not 4 (a tie would take the first)
    assert heuristics.move(game, Decision(side(0), "director.move", [[-2, 0], [0, 0]], ask)) == 1


def test_a_stacked_zombie_goes_farthest_from_the_survivors_still_up(make_game: Any) -> None:
    """The stacked zombie's hex is the offered one farthest, by steps, from every survivor still
    up: with survivors on (0, -2) and (1, -2), of (1, -1), (1, 0), (2, -2), (2, 0) it is (2, 0),
    3 steps from the nearer; with the second down on (1, 1), beside it, still (2, 0): a survivor
    down is not counted."""
    game = make_game("director")
    _p0, p1 = _pair(game, (0, -2), (1, -2))
    options = [[1, -1], [1, 0], [2, -2], [2, 0]]
    assert heuristics.stack(game, Decision(side(0), "director.stack", options, {"hex": [2, -1]})) == 3
    hp(game, p1, 0)  # p1 down: only p0 on (0, -2) counts; (2, 0) is 4 from it, the farthest still
    put(game, p1, 1, 1)
    assert heuristics.stack(game, Decision(side(0), "director.stack", options, {"hex": [2, -1]})) == 3


def test_items_are_taken_and_guns_taken_in_hand(make_game: Any) -> None:
    """Pick-ups: take what fits; a gun found goes in hand over a pistol, an item found does not; with
    the slot full, leave it."""
    game = make_game("director")
    p0, _p1 = _pair(game, (-2, 0))
    item(game, "shotgun", -1, 0)
    item(game, "medkit", 0, 0)
    run_system(game, "director.player_move", {"director.move": only(0, [0, 0], stay)})
    assert loadout(game, p0).hand == "shotgun" and loadout(game, p0).items == ["medkit"]
    item(game, "rifle", 1, 0)
    run_system(game, "director.player_move", {"director.move": only(0, [1, 0], stay)})
    assert loadout(game, p0).weapons == ["pistol", "shotgun"] and loadout(game, p0).hand == "shotgun"


def test_action_priorities(make_game: Any) -> None:
    """Revive a downed friend first (one with no zombie beside them); else use the item in hand;
    else shoot a clean shot; else melee; else reload a short pistol hand."""
    game = make_game("director")
    p0, p1 = _pair(game, (0, 0), (1, 0))
    hp(game, p1, 0)
    give_hand(game, p0, ["P3"])

    def act() -> str:
        since = mark(game)
        run_system(game, "director.actions")
        return next(e["action"] for e in events(game, "action", since) if e["survivor"] == p0)

    assert act() == "revive"
    hp(game, p1, 6)
    equip(game, p0, "pills", ["pills"])
    assert act() == "use"
    z = zombie(game, -1, 0)
    assert act() == "shoot" and not game.world.exists(z)
    zombie(game, 0, -1)
    give_hand(game, p0, ["PMISS"])
    assert act() == "melee"
    for z in zombies_at(game).values():
        game.world.delete(z)
    give_hand(game, p0, ["P1"])
    assert act() == "reload"


def test_swap_to_a_needed_heal_or_a_better_gun(make_game: Any) -> None:
    """With nothing better to do: a primary gun over the pistol; the med kit in hand only when it
    would not be wasted (4 or more down); else reload."""
    game = make_game("director")
    p0, _p1 = _pair(game, (0, 0))
    give_hand(game, p0, ["P1", "P1", "P2", "P3"])
    acquire_weapon(game, p0, "shotgun")
    equip(game, p0, "pistol")
    since = mark(game)
    run_system(game, "director.actions")
    assert events(game, "action", since)[0]["action"] == "swap:shotgun"
    game2 = make_game("director")
    q0, _q1 = _pair(game2, (0, 0))
    give_hand(game2, q0, ["P1", "P1", "P2", "P3"])
    equip(game2, q0, "pistol", ["medkit"])
    for life, action in ((5, "reload"), (4, "swap:medkit")):
        hp(game2, q0, life)
        equip(game2, q0, "pistol")
        since = mark(game2)
        run_system(game2, "director.actions")
        assert events(game2, "action", since)[0]["action"] == action


def test_shooting_plays_the_highest_card_at_the_zombie_nearest_a_survivor(make_game: Any) -> None:
    """"shoot the zombie nearest any survivor with the highest card that reaches it": the 3 first,
    at the zombie beside the friend in the corner, then the 2 at the other."""
    game = make_game("director")
    p0, _p1 = _pair(game, (-2, 0), (2, -2))
    give_hand(game, p0, ["P1", "P3", "P2"])
    beside = zombie(game, 1, -1)
    other = zombie(game, 0, 1)
    since = mark(game)
    run_system(game, "director.actions", {"director.action": only(0, "shoot")})
    assert [e["zombie"] for e in events(game, "zombie_killed", since)] == [beside, other]
    assert faces(game, game.world.get(p0, AttackHand).cards["pistol"]) == ["P1"]


def test_melee_strikes_as_many_as_it_can(make_game: Any) -> None:
    """Melee: the largest group offered (two adjacent zombies over one)."""
    game = make_game("director")
    _pair(game, (0, 0))
    a = zombie(game, 1, 0)
    b = zombie(game, 1, -1)
    run_system(game, "director.actions", {"director.action": only(0, "melee")})
    assert at(game, a) == (2, 0) and at(game, b) == (2, -2)


def test_heal_the_weakest_and_throw_where_most_zombies_are(make_game: Any) -> None:
    """Items: heal whoever is lowest; throw at the hex with most zombies within 1."""
    game = make_game("director")
    p0, p1 = _pair(game, (0, 0), (1, 0))
    hp(game, p0, 5)
    hp(game, p1, 3)
    equip(game, p0, "medkit", ["medkit"])
    run_system(game, "director.actions", {"director.action": only(0, "use")})
    assert (hp(game, p0), hp(game, p1)) == (5, 7)
    put(game, p1, -2, 2)
    equip(game, p0, "pipebomb", ["pipebomb"])
    zombie(game, -2, 0)
    for h in ((2, -2), (2, -1), (1, -2)):
        zombie(game, *h)
    run_system(game, "director.actions", {"director.action": only(0, "use")})
    assert list(zombies_at(game)) == [(-2, 0)]


def test_a_downed_friend_within_reach_draws_the_mover(make_game: Any) -> None:
    """Moves also weigh 3 a hex of distance to a downed friend within 4 hexes of the mover's start:
    from (-2, 0) with the friend down on (0, 2), the mover ends beside them rather than at (2, 0)."""
    game = make_game("director")
    p0, p1 = _pair(game, (-2, 0), (0, 2))
    east_tile(game)
    hp(game, p1, 0)
    markers(game, p1).add("pinned")
    run_system(game, "director.player_move")
    assert hexgrid.distance(at(game, p0), (0, 2)) == 1



@pytest.mark.parametrize(("left", "drawn"), [(0, True), (1, False)])
def test_a_friend_is_down_at_zero_hit_points(make_game: Any, left: int, drawn: bool) -> None:
    """Down is 0 hit points or fewer: a friend on (2, 0) at 0 draws the mover (who started 4 hexes
    off) to (1, 0) beside them; at 1 hit point they are up, and the tie goes to the first, (-1, 0)."""
    game = make_game("director")
    p0, p1 = _pair(game, (0, -2), (2, 0))
    hp(game, p1, left)
    options = [[-1, 0], [1, 0]]
    near = {"survivor": p0, "at": [-2, 0]}
    assert heuristics.move(game, Decision(side(0), "director.move", options, near)) == (1 if drawn else 0)

def test_a_downed_friend_draws_only_from_within_four_hexes_of_the_start(make_game: Any) -> None:
    """"within 4 hexes": of (-1, 0) and (1, 0), a step from the goal alike, (1, 0) beside a friend
    down on (2, 0) is taken by a mover who started 4 hexes from the friend, and not by one who
    started 5 away (a tie: the first); and the friend's weight is 3 a hex."""
    game = make_game("director")
    p0, p1 = _pair(game, (0, -2), (2, 0))
    hp(game, p1, 0)
    options = [[-1, 0], [1, 0]]
    near = {"survivor": p0, "at": [-2, 0]}
    far = {"survivor": p0, "at": [-3, 0]}
    assert heuristics.move(game, Decision(side(0), "director.move", options, near)) == 1
    assert heuristics.move(game, Decision(side(0), "director.move", options, far)) == 0
    # 3 a hex of distance to the friend against 2 a step of route: the goal (0, 0), 2 from the
    # friend (0 + 6), before (2, -1) beside them but 2 steps off the goal (4 + 3); at 4 a hex, a tie
    assert heuristics.move(game, Decision(side(0), "director.move", [[2, -1], [0, 0]], near)) == 1


def test_moves_prefer_items_and_shun_burning_hexes(make_game: Any) -> None:
    """An item on a hex is worth 1, a burning hex costs 2 (a hex nearer the goal is worth 2): pills
    one hex farther do not beat (2, 0); a burning (2, 0) is passed over for a hex one farther; and
    of those, the one with the pills, (2, -1)."""
    game = make_game("director")
    p0, _p1 = _pair(game, (-2, 0))
    east_tile(game)
    item(game, "pills", 1, 1)  # one hex farther from the alley's centre than (2, 0): 2 worse, 1 better
    run_system(game, "director.player_move")
    assert at(game, p0) == (2, 0)
    game2 = make_game("director")
    q0, _q1 = _pair(game2, (-2, 0))
    east_tile(game2)
    start_tile(game2)[1].hazards = [[2, 0]]
    run_system(game2, "director.player_move")
    assert at(game2, q0) != (2, 0) and hexgrid.distance(at(game2, q0), (5, 0)) == 4
    game3 = make_game("director")
    r0, _r1 = _pair(game3, (-2, 0))
    east_tile(game3)
    item(game3, "pills", 2, -1)  # as far from the centre as (1, 1)
    start_tile(game3)[1].hazards = [[2, 0]]
    run_system(game3, "director.player_move")
    assert at(game3, r0) == (2, -1)


def test_no_shot_through_a_friend_when_there_is_something_else_to_do(make_game: Any) -> None:
    """A "clean shot" hits without passing a friend: with the only zombie behind a friend, the
    survivor reloads its short hand instead of shooting."""
    game = make_game("director")
    p0, p1 = _pair(game, (-2, 0), (-1, 0))
    give_hand(game, p0, ["P3"])
    zombie(game, 0, 0)
    markers(game, p1).add("hurt")
    since = mark(game)
    run_system(game, "director.actions")
    assert next(e["action"] for e in events(game, "action", since) if e["survivor"] == p0) == "reload"


def test_a_found_gun_is_taken_in_hand_unless_a_primary_is_held(make_game: Any) -> None:
    """Equip a found gun over a pistol or an item in hand, not over a primary gun."""
    game = make_game("director")
    p0, _p1 = _pair(game, (-2, 0))
    equip(game, p0, "pills", ["pills"])
    item(game, "shotgun", -1, 0)
    run_system(game, "director.player_move", {"director.move": only(0, [-1, 0], stay)})
    assert loadout(game, p0).hand == "shotgun"


def test_the_target_through_no_friend_first(make_game: Any) -> None:
    """Of the zombies a card reaches, one whose shot passes no friend before a nearer one that does."""
    game = make_game("director")
    p0, p1 = _pair(game, (-2, 0), (-1, 0))
    give_hand(game, p0, ["P3"])
    behind = zombie(game, 0, 0)  # its only short route passes p1
    clear = zombie(game, -2, 2)
    run_system(game, "director.actions", {"director.action": only(0, "shoot"), "director.card": lambda d: d.options[1]
                                          if len(d.options) > 1 else "done"})
    assert not game.world.exists(clear) and game.world.exists(behind) and hp(game, p1) == 8


def test_the_highest_card_and_never_a_miss_by_choice(make_game: Any) -> None:
    """Shooting plays the highest card (the earliest dealt of equals), never the Miss while another
    card can fire."""
    game = make_game("director")
    p0, _p1 = _pair(game, (0, 0))
    miss, low, high1, high2 = give_hand(game, p0, ["PMISS", "P1", "P3", "P3"])
    zombie(game, 1, 0)
    run_system(game, "director.actions", {"director.action": only(0, "shoot")})
    held_now = game.world.get(p0, AttackHand).cards["pistol"]
    assert miss in held_now and low in held_now and (high1 in held_now) != (high2 in held_now)
    assert min(high1, high2) not in held_now


def test_survivors_steer_by_the_route_along_the_tiles(make_game: Any) -> None:
    """Tiles join only where an exit meets the next tile's entry, so the goal is measured in steps
    along the tiles. The route turns back north (street, a left bend, another left bend, then an
    alley with the open exit, centre (10, -10)): from (-1, 0) the street's corner (2, -2) is nearest
    that centre as the crow flies, but a wall away (15 steps); the survivor takes the exit side
    instead, (3, 0) on the first bend (12 steps)."""
    game = make_game("director")
    p0, _p1 = _pair(game, (-1, 0))
    bend = east_tile(game, "BEND_LEFT")
    (second,) = lay_after(game, bend, ["BEND_LEFT", "QUIET"])
    lay_after(game, second, ["ALLEY", "QUIET"])
    run_system(game, "director.player_move")
    assert at(game, p0) == (3, 0)


def test_no_revive_of_a_friend_with_a_zombie_beside_them(make_game: Any) -> None:
    """"A revived player has their Hit Points reset to 1, though will still be pinned", and in the
    next Zombie phase every adjacent zombie wounds them: a friend with a zombie beside them is not
    revived (the reviver reloads its short hand instead: the only shot passes the friend); with the
    zombie gone, they are."""
    game = make_game("director")
    p0, p1 = _pair(game, (0, 0), (1, 0))
    hp(game, p1, 0)
    markers(game, p1).add("pinned")
    give_hand(game, p0, ["P3"])
    z = zombie(game, 2, 0)

    def act() -> str:
        since = mark(game)
        run_system(game, "director.actions")
        return next(e["action"] for e in events(game, "action", since) if e["survivor"] == p0)

    assert act() == "reload" and hp(game, p1) == 0
    game.world.delete(z)
    assert act() == "revive" and hp(game, p1) == 1


def test_reload_only_a_hand_worth_replacing(make_game: Any) -> None:
    """"Reload: ... discard their current hand of cards, and draw a new hand": with nothing else to
    do, a full pistol hand with a card above 1 is kept (no action); a hand of nothing above a 1 is
    reloaded; a shotgun hand (its stack runs dry) only when empty or nothing above a 1."""
    game = make_game("director")
    p0, _p1 = _pair(game, (0, 0))

    def act() -> str:
        since = mark(game)
        run_system(game, "director.actions")
        return next((e["action"] for e in events(game, "action", since) if e["survivor"] == p0), "none")

    give_hand(game, p0, ["P1", "P1", "P2", "PMISS"])
    assert act() == "none"
    give_hand(game, p0, ["P1", "P1", "P1", "PMISS"])
    assert act() == "reload"
    acquire_weapon(game, p0, "shotgun")
    equip(game, p0, "shotgun")
    give_hand(game, p0, ["S3"], "shotgun")
    assert act() == "none"
    give_hand(game, p0, ["S1"], "shotgun")
    assert act() == "reload"


def test_a_mover_hurt_this_round_does_not_wait_beside_a_downed_friend(make_game: Any) -> None:
    """Revive only "if they took no damage from any source this round": a mover already hurt this
    round cannot revive, so the downed friend on (0, 2) does not draw them and they head for the
    exit, (2, 0); nor does a friend with a zombie beside them."""
    game = make_game("director")
    p0, p1 = _pair(game, (-2, 0), (0, 2))
    east_tile(game)
    hp(game, p1, 0)
    markers(game, p1).add("pinned")
    markers(game, p0).add("hurt")
    run_system(game, "director.player_move")
    assert at(game, p0) == (2, 0)
    put(game, p0, -2, 0)
    markers(game, p0).discard("hurt")
    zombie(game, -1, 2, "stun")
    run_system(game, "director.player_move")
    assert at(game, p0) == (2, 0)


def test_a_throwable_is_taken_in_hand_for_three_zombies(make_game: Any) -> None:
    """A thrown item kills every zombie within its radius ("Use Item ... Pipe Bomb, Molotov"), a
    shot one a card: with a pipe bomb carried and three zombies within 1 of a hex it reaches, the
    survivor takes it in hand (to throw next action) rather than shoot; with two, they shoot."""
    game = make_game("director")
    p0, _p1 = _pair(game, (0, 0))
    equip(game, p0, "pistol", ["pipebomb"])
    give_hand(game, p0, ["P3", "P2"])
    for h in ((2, -2), (2, -1)):
        zombie(game, *h)

    def act() -> str:
        since = mark(game)
        run_system(game, "director.actions")
        return next(e["action"] for e in events(game, "action", since) if e["survivor"] == p0)

    assert act() == "shoot"
    for h in ((2, -2), (2, -1), (1, -2)):
        zombie(game, *h)
    give_hand(game, p0, ["P3", "P2"])
    assert act() == "swap:pipebomb"


def test_revive_the_first_friend_with_no_zombie_beside(make_game: Any) -> None:
    """Of two downed friends offered, the first with no zombie beside them: the second offered when
    a zombie stands beside the first; with a zombie beside each, the first offered."""
    game = make_game("director", players=3)
    p0, p1, p2 = setup(game)
    put(game, p0, 0, 0)
    put(game, p1, 1, 0)
    put(game, p2, -1, 0)
    hp(game, p1, 0)
    hp(game, p2, 0)
    zombie(game, 2, 0)  # beside p1 only
    assert heuristics.revive(game, Decision(side(0), "director.revive", [p1, p2], {})) == 1
    zombie(game, -2, 0)  # beside p2 too
    assert heuristics.revive(game, Decision(side(0), "director.revive", [p1, p2], {})) == 0


def _ask(game: Any, kind: str, options: list[Any], **context: Any) -> Any:
    """The heuristic's answer to a decision of `kind` with these options and context."""
    return options[getattr(heuristics, kind.split(".")[1])(game, Decision(side(0), kind, options, context))]


def test_a_burning_hex_costs_as_much_as_a_step_of_route(make_game: Any) -> None:
    """A hazard costs 2, as one more step of route does: a burning (2, 0) and the clear (1, 1) one
    step farther from the goal tie, and the first offered is taken."""
    game = make_game("director")
    p0, _p1 = _pair(game, (-2, 0))
    east_tile(game)
    start_tile(game)[1].hazards = [[2, 0]]
    assert _ask(game, "director.move", [[2, 0], [1, 1]], survivor=p0, at=[-2, 0]) == [2, 0]
    assert _ask(game, "director.move", [[1, 1], [2, 0]], survivor=p0, at=[-2, 0]) == [1, 1]


def test_a_stacked_zombie_goes_far_from_a_survivor_at_one_hit_point(make_game: Any) -> None:
    """A survivor at 1 hit point is up: the stacked zombie goes to the hex farthest from them, (1, 0),
    not weighed from the friend down at 0 on (2, 0)."""
    game = make_game("director")
    p0, p1 = _pair(game, (-2, 0), (2, 0))
    hp(game, p0, 1)
    hp(game, p1, 0)
    assert _ask(game, "director.stack", [[-1, 0], [1, 0]]) == [1, 0]


@pytest.mark.parametrize(("item_name", "want"), [("shotgun", "equip"), ("pills", "keep")])
def test_only_a_gun_is_taken_in_hand_over_the_pistol(make_game: Any, item_name: str, want: str) -> None:
    """Picking up: a gun goes in hand in place of the pistol; an item that is no gun does not."""
    game = make_game("director")
    p0, _p1 = _pair(game, (0, 0))
    assert _ask(game, "director.equip", ["keep", "equip"], survivor=p0, item=item_name) == want


def test_a_carried_item_is_taken_in_hand_only_when_it_serves(make_game: Any) -> None:
    """An unhurt survivor with no zombie near keeps the pistol in hand: not the pills (2 hit points:
    only when 2 short), not the molotov (3 zombies within its reach, 2); with 2 short, the pills;
    with three zombies together 2 hexes off, the molotov; a gun for the pistol always."""
    game = make_game("director")
    p0, _p1 = _pair(game, (0, 0))
    give_hand(game, p0, ["P1"])
    options = ["swap:pills", "swap:molotov", "none"]
    assert _ask(game, "director.action", options, survivor=p0) == "none"
    assert _ask(game, "director.action", ["swap:shotgun", "none"], survivor=p0) == "swap:shotgun"
    equip(game, p0, "pills", ["pills"])  # pills in hand, the pistol carried: a gun still goes in hand
    assert _ask(game, "director.action", ["swap:shotgun", "none"], survivor=p0) == "swap:shotgun"
    equip(game, p0, "pistol")
    hp(game, p0, max_hp(game, p0) - 2)
    assert _ask(game, "director.action", options, survivor=p0) == "swap:pills"
    hp(game, p0, max_hp(game, p0))
    for q, r in ((2, 0), (2, -1), (1, 1)):  # two hexes off (the molotov's reach), one of them beside the others
        zombie(game, q, r)
    assert _ask(game, "director.action", options, survivor=p0) == "swap:molotov"


def test_a_friend_at_one_hit_point_needs_no_revive(make_game: Any) -> None:
    """Revive is for a friend down (0 hit points or fewer): beside a friend at 1, the survivor does
    something else; at 0, revives."""
    game = make_game("director")
    p0, p1 = _pair(game, (0, 0), (1, 0))
    hp(game, p1, 1)
    assert _ask(game, "director.action", ["revive", "none"], survivor=p0) == "none"
    hp(game, p1, 0)
    assert _ask(game, "director.action", ["revive", "none"], survivor=p0) == "revive"


def test_a_shot_goes_round_a_friend_when_another_target_will_do(make_game: Any) -> None:
    """The zombie nearest any survivor, never through a friend when another target will do: of two
    zombies, the nearer one's route crossing a friend, the other is shot; with no crossing, the
    nearer."""
    game = make_game("director")
    p0, _p1 = _pair(game, (0, 0), (-2, 2))
    near, far = zombie(game, 1, 0), zombie(game, 3, 0)
    assert _ask(game, "director.target", [near, far], survivor=p0, crossings=[1, 0]) == far
    assert _ask(game, "director.target", [near, far], survivor=p0, crossings=[0, 0]) == near


def test_a_thrown_item_goes_where_it_catches_most(make_game: Any) -> None:
    """A pipe bomb or molotov is thrown at the offered hex with the most zombies within 1 of it (the
    first offered on a tie)."""
    game = make_game("director")
    p0, _p1 = _pair(game, (0, 0))
    for q, r in ((2, 0), (2, -1), (-2, 0)):
        zombie(game, q, r)
    assert _ask(game, "director.item_target", [[-2, 0], [2, 0], [1, 1]], survivor=p0, item="molotov") == [2, 0]
    assert _ask(game, "director.item_target", [[-2, 1], [-2, 0]], survivor=p0, item="molotov") == [-2, 1]
