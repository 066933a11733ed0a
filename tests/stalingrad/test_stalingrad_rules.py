"""Escape from Stalingrad Z, rule by rule, with forced dice and exact outcomes.

Weapons (prefabs/stalingrad/weapons.yaml): tt33 PB 3 RM 2 hit 6 ROF 1; ppsh PB 3 RM 2 hit 5 ROF 3;
fists hit 7; grenade PB 1 RM 1 hit 2. The commissar carries tt33 (4 ammo), 2 grenades and fists;
the sergeant a ppsh (4 ammo) and fists.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ecs_zombie.grid import sight
from ecs_zombie.systems.stalingrad import activation, attack, round, spawn, zombies
from ecs_zombie.systems.stalingrad.board import gmap, hit_zombie, spend_ammo, state, stun_zombie
from ecs_zombie.systems.stalingrad.components import Arsenal
from ecs_zombie.systems.stalingrad.tables import Weapon
from tests.stalingrad.stalingrad_support import (
    ARRIVED,
    CHARACTERS,
    HIDDEN,
    RUNNING,
    SEARCHING,
    STATIONARY,
    STRUCK,
    STUNNED,
    WALKING,
    ZOMBIES,
    act_state,
    ammo,
    asked,
    at,
    char,
    covering,
    declare,
    dice,
    events,
    face,
    facing,
    first,
    gear,
    gone,
    has,
    lock,
    lockers,
    make,
    mark,
    move_to,
    rolls,
    rule,
    run,
    set_ammo,
    set_covering,
    set_mode,
    set_wounds,
    tally,
    waiting,
    where,
    wound_limit,
    wounds,
    zombie,
)

ROWS = ["............"] * 8

def test_hit_number_rises_by_one_per_rm_or_part() -> None:
    """Normal fire 3a-3b: PB 3, RM 2: range 3 -> primary; range 4 -> +1 (part of RM); 7 -> +2."""
    w = Weapon("w", pb=3, rm=2, hit=6, rof=1, fire=True, h=False, grenade=False)
    assert [attack.hit_number(w, r) for r in (1, 3, 4, 5, 6, 7, 8)] == [6, 6, 7, 7, 8, 8, 9]


def test_roll_of_hit_plus_three_kills_a_one_hit_zombie(tmp_path: Path) -> None:
    """Normal fire 5a: target at range 7 (PB 3, RM 2 -> hit # 6 + 2 = 8); a roll of 11 kills."""
    game = make(tmp_path, [char("commissar", 1, 1), zombie("walker", 8, 1)])
    com, walker = at(game, 1, 1), at(game, 8, 1)
    set_mode(game, com, STATIONARY)
    dice(game, [11])
    run(game, attack.normal_fire(game, com, "tt33"))
    assert events(game, "attack")[0]["hit"] == 8
    assert gone(game, walker)
    assert tally(game)["zombies_killed"] == 1


def test_roll_of_hit_number_stuns(tmp_path: Path) -> None:
    """Normal fire 5b: hit # 8; a 10 (>= 8, < 11) stuns the zombie and does not kill it."""
    game = make(tmp_path, [char("commissar", 1, 1), zombie("walker", 8, 1)])
    com, walker = at(game, 1, 1), at(game, 8, 1)
    set_mode(game, com, STATIONARY)
    dice(game, [10])
    run(game, attack.normal_fire(game, com, "tt33"))
    assert not gone(game, walker)
    assert has(game, walker, STUNNED)


def test_a_one_reduces_ammo(tmp_path: Path) -> None:
    """Normal fire 5d: a roll of 1 costs one ammo; the zombie is untouched."""
    game = make(tmp_path, [char("commissar", 1, 1), zombie("walker", 4, 1)])
    com, walker = at(game, 1, 1), at(game, 4, 1)
    set_mode(game, com, STATIONARY)
    dice(game, [1])
    run(game, attack.normal_fire(game, com, "tt33"))
    assert ammo(game, com)["tt33"] == 3
    assert not gone(game, walker) and not has(game, walker, STUNNED)


def test_a_two_wounds_the_first_intervening_character(tmp_path: Path) -> None:
    """Normal fire 5c: range 4 (hit # 6 + 1) plus 1 for the character in the way = 8; a 2 wounds him."""
    game = make(tmp_path, [char("commissar", 1, 1), char("sniper", 3, 1), zombie("walker", 5, 1)])
    com, sniper = at(game, 1, 1), at(game, 3, 1)
    set_mode(game, com, STATIONARY)
    dice(game, [2])
    run(game, attack.normal_fire(game, com, "tt33"))
    assert events(game, "attack")[0]["hit"] == 8
    assert wounds(game, sniper) == 1


def test_hit_number_above_twelve_fails_without_dice(tmp_path: Path) -> None:
    """Normal fire 3c: range 10 -> 6 + 4 = 10, running +4 = 14 > 12: the attack fails, no die rolled."""
    game = make(tmp_path, [char("commissar", 1, 1), zombie("walker", 11, 1)])
    com = at(game, 1, 1)
    set_mode(game, com, RUNNING)
    dice(game, [12])
    run(game, attack.normal_fire(game, com, "tt33"))
    assert events(game, "attack_fails")[0]["hit"] == 14
    assert rolls(game) == []


def test_nearest_target_ties_are_offered_to_the_player(tmp_path: Path) -> None:
    """Normal fire 1: the nearest zombie in front arc and LOF; two at range 3: the player chooses."""
    game = make(tmp_path, [char("commissar", 1, 1), zombie("walker", 4, 1), zombie("walker", 3, 2),
                           zombie("walker", 6, 1)])
    com, a, b = at(game, 1, 1), at(game, 4, 1), at(game, 3, 2)
    set_mode(game, com, STATIONARY)
    dice(game, [12])
    asked = run(game, attack.normal_fire(game, com, "tt33"), {"stalingrad.target": b})
    assert asked[0].kind == "stalingrad.target" and sorted(asked[0].options) == sorted([a, b])
    assert gone(game, b) and not gone(game, a)


def test_only_the_front_arc_is_a_target(tmp_path: Path) -> None:
    """Normal fire 1: a zombie behind the character (rear arc) is not a target."""
    game = make(tmp_path, [char("commissar", 5, 1, facing=2), zombie("walker", 2, 1)])
    com = at(game, 5, 1)
    assert attack.visible_zombies(game, com) == []
    face(game, com, 6)
    assert [t[1] for t in attack.visible_zombies(game, com)] == [at(game, 2, 1)]


def test_spread_fire_loses_a_die_per_square_between_targets(tmp_path: Path) -> None:
    """Spread fire: ROF 3, one die per attack; shifting to a target with one square between the two
    costs a die, so two dice are rolled in all."""
    game = make(tmp_path, [char("sergeant", 1, 1), zombie("walker", 4, 1), zombie("walker", 6, 2)])
    sgt, nearer, second = at(game, 1, 1), at(game, 4, 1), at(game, 6, 2)
    set_mode(game, sgt, STATIONARY)
    dice(game, [3, 12])
    asked = run(game, attack.spread_fire(game, sgt, "ppsh"), {"stalingrad.spread_target": second})
    assert asked[0].kind == "stalingrad.spread_target" and asked[0].context["dice"] == 2
    assert events(game, "spread_shift") == [{"character": sgt, "target": second, "dice_lost": 1, "dice_left": 1}]
    assert rolls(game) == [[3], [12]]
    assert not gone(game, nearer) and gone(game, second)


def test_spread_fire_keeps_rolling_when_ammo_runs_out(tmp_path: Path) -> None:
    """Spread fire: ammo reduced to zero by a 1 does not stop the remaining dice."""
    game = make(tmp_path, [char("sergeant", 1, 1, Arsenal={"weapons": ["ppsh"], "ammo": {"ppsh": 1}, "gear": []}),
                           zombie("walker", 4, 1)])
    sgt, walker = at(game, 1, 1), at(game, 4, 1)
    set_mode(game, sgt, STATIONARY)
    dice(game, [1, 1, 8])
    run(game, attack.spread_fire(game, sgt, "ppsh"), {"stalingrad.spread_target": walker})
    assert ammo(game, sgt)["ppsh"] == 0
    assert rolls(game) == [[1], [1], [8]]
    assert gone(game, walker)


def test_grenade_deviates_again_off_obstructive_terrain(tmp_path: Path) -> None:
    """Grenade: throw hit # 4 (range 4), a 1 misses; the grenade deviates E 1 onto rubble, so again
    S 1, and lands on the zombie's square (range 1, hit # 2): a 5 kills it; the thrower, range 7
    (hit # 8), rolls a 1, which costs no ammo."""
    rows = ["............"] * 8
    rows[4] = "......%....."
    game = make(tmp_path, [char("commissar", 1, 4), zombie("walker", 6, 5)], rows=rows)
    com, walker = at(game, 1, 4), at(game, 6, 5)
    set_mode(game, com, STATIONARY)
    dice(game, [1, 3, 1, 5, 1, 1, 5])
    run(game, attack.grenade(game, com, "grenade"), {"stalingrad.grenade_square": [5, 4]})
    throw = events(game, "grenade")[0]
    assert throw["throw"] == 4 and throw["landed"] == [6, 5]
    assert [d["to"] for d in events(game, "deviation")] == [[6, 4], [6, 5]]
    assert gone(game, walker)
    assert ammo(game, com) == {"grenade": 1, "tt33": 4}
    assert wounds(game, com) == 0


def test_grenade_throw_side_arc_and_no_lof(tmp_path: Path) -> None:
    """Grenade: range 3 in the side arc (+2) behind a wall (+4): throw hit # 9."""
    rows = ["............"] * 8
    rows[2] = "..#........."
    game = make(tmp_path, [char("commissar", 1, 1, facing=2)], rows=rows)
    com = at(game, 1, 1)
    set_mode(game, com, STATIONARY)
    dice(game, [12])
    run(game, attack.grenade(game, com, "grenade"), {"stalingrad.grenade_square": [2, 3]})
    assert events(game, "grenade")[0]["throw"] == 3 + 2 + 4


def test_adjacent_zombie_in_front_forces_h2h_and_a_one_costs_no_ammo(tmp_path: Path) -> None:
    """Attack action / H2H: a zombie touching the front arc allows only H2H; in H2H a 1 costs no ammo."""
    game = make(tmp_path, [char("commissar", 1, 1), zombie("walker", 2, 1)])
    com = at(game, 1, 1)
    set_mode(game, com, STATIONARY)
    kinds = {o[1] for o in attack.attack_options(game, com)}
    assert kinds == {"h2h"}
    dice(game, [1])
    run(game, attack.h2h(game, com, "tt33"))
    assert ammo(game, com)["tt33"] == 4


def test_zone_of_control_ends_movement(tmp_path: Path) -> None:
    """Movement: entering a zombie's zone of control loses every MP left, unless it is stunned."""
    game = make(tmp_path, [char("sergeant", 1, 4), zombie("walker", 5, 4)])
    sgt = at(game, 1, 4)
    costs = game.tables["stalingrad.movement"][WALKING]
    act = declare(game, sgt, WALKING, 4)
    options, _reached = activation.move_options(game, sgt, costs, 4)
    assert ["move", 4, 4] in options and ["move", 5, 3] not in options
    run(game, activation.move(game, sgt, [4, 4]))
    assert where(game, sgt) == (4, 4)
    assert act.mp == 0 and events(game, "zone_of_control") == [{"character": sgt, "square": [4, 4]}]

    game2 = make(tmp_path / "b", [char("sergeant", 1, 4), zombie("walker", 5, 4)])
    sgt2 = at(game2, 1, 4)
    stun_zombie(game2, at(game2, 5, 4))
    act2 = declare(game2, sgt2, WALKING, 4)
    run(game2, activation.move(game2, sgt2, [4, 4]))
    assert act2.mp == 1 and events(game2, "zone_of_control") == []


def test_zombie_locks_then_wounds_and_the_lock_breaks(tmp_path: Path) -> None:
    """Zombie attack and Locked: an adjacent zombie locks the character and turns him to face it; a
    second zombie wounds the locked character; an unlock roll of the H2H hit # (5) frees him; killing
    or stunning the locking zombie also removes the lock."""
    game = make(tmp_path, [char("sergeant", 3, 3, facing=0), zombie("walker", 4, 3), zombie("walker", 3, 4)])
    sgt, z1, z2 = at(game, 3, 3), at(game, 4, 3), at(game, 3, 4)
    run(game, zombies.zombie_attack(game, z1))
    assert lockers(game, sgt) == [z1] and facing(game, sgt) == 2
    run(game, zombies.zombie_attack(game, z2))
    assert wounds(game, sgt) == 1 and lockers(game, sgt) == [z1]
    set_mode(game, sgt, STATIONARY)
    dice(game, [4])
    run(game, activation.try_unlock(game, sgt))
    assert lockers(game, sgt) == [z1]
    dice(game, [5])
    run(game, activation.try_unlock(game, sgt))
    assert lockers(game, sgt) == []
    run(game, zombies.zombie_attack(game, z1))
    assert lockers(game, sgt) == [z1]
    stun_zombie(game, z1)
    assert lockers(game, sgt) == []



def test_the_zombies_stop_when_no_character_is_left(tmp_path: Path) -> None:
    """The last character killed by the first zombie to act (locked, one wound from his limit), the
    zombies still to act this turn have no one to go for: they neither move nor attack."""
    game = make(tmp_path, [char("sergeant", 3, 3), zombie("walker", 4, 4), zombie("walker", 10, 1)])
    sgt, first, last = at(game, 3, 3), at(game, 4, 4), at(game, 10, 1)  # bottom row first: (4, 4)
    lock(game, sgt, first)
    set_wounds(game, sgt, wound_limit(game, sgt) - 1)
    run(game, zombies.zombie_activations(game))
    assert not game.world.exists(sgt)
    assert where(game, last) == (10, 1) and not [e for e in events(game, "zombie_moved") if e["zombie"] == last]


def test_no_zombie_acts_once_the_game_is_over(tmp_path: Path) -> None:
    """A game ended during the zombies' activations (a hybrid's step may end it there) stops them at
    once: the walker next in line neither moves nor locks."""
    game = make(tmp_path, [char("sergeant", 3, 3), zombie("walker", 5, 3)])
    z = at(game, 5, 3)
    game.end("zombies")
    run(game, zombies.zombie_activations(game))
    assert where(game, z) == (5, 3) and events(game, "zombie_moved") == [] and lockers(game, at(game, 3, 3)) == []

def test_locked_character_cannot_move_or_search_but_can_attack(tmp_path: Path) -> None:
    """Locked: no movement actions and no searching, but an attack is still allowed."""
    rows = ["............"] * 8
    rows[2] = "..?........."
    game = make(tmp_path, [char("sergeant", 2, 3, facing=2), zombie("walker", 3, 3)], rows=rows)
    sgt, z = at(game, 2, 3), at(game, 3, 3)
    run(game, zombies.zombie_attack(game, z))
    declare(game, sgt, WALKING, 4)
    options = activation.actions(game, sgt, game.tables["stalingrad.movement"][WALKING])
    assert {o[0] for o in options} == {"attack", "end"}
    assert activation.search_choices(game, sgt) == [(2, 2)]
    asked = run(game, activation.activate(game, sgt), {"stalingrad.unlock": "skip"})
    assert SEARCHING not in asked[1].options


def test_zombies_activate_bottom_row_first_left_to_right(tmp_path: Path) -> None:
    """Zombie activation: from the bottom row up, left to right within each row."""
    game = make(tmp_path, [char("sergeant", 0, 0), zombie("walker", 1, 1), zombie("walker", 5, 6),
                           zombie("walker", 2, 6), zombie("walker", 7, 3)])
    order = [where(game, z) for z in zombies.activation_order(game)]
    assert order == [(2, 6), (5, 6), (7, 3), (1, 1)]


def test_zombie_target_ties_are_offered_to_the_player(tmp_path: Path) -> None:
    """Zombie movement: toward the character with the shortest path; the player breaks ties."""
    game = make(tmp_path, [char("sergeant", 2, 2), char("sniper", 8, 2), zombie("walker", 5, 5)])
    sgt, sniper, z = at(game, 2, 2), at(game, 8, 2), at(game, 5, 5)
    asked = run(game, zombies.zombie_activations(game), {"stalingrad.zombie_target": sniper})
    assert asked[0].kind == "stalingrad.zombie_target" and asked[0].options == [sgt, sniper]
    assert where(game, z) == (6, 4)



def test_a_zombie_steps_closest_in_direction_to_its_target(tmp_path: Path) -> None:
    """DESIGN CHOICE (docs/stalingrad.md, zombie movement): of the free squares one step nearer its
    target a zombie takes the one closest in direction to it, turning either way alike, the first
    clockwise from north on a tie. A walker at (5, 5) heading for the sergeant at (9, 5), straight
    east, with that square taken (by a stunned walker): north-east and south-east turn as little,
    so north-east, (6, 4)."""
    game = make(tmp_path, [char("sergeant", 9, 5), zombie("walker", 5, 5), zombie("walker", 6, 5)])
    z, blocker = at(game, 5, 5), at(game, 6, 5)
    mark(game, blocker, "stunned")
    run(game, zombies.zombie_activations(game))
    assert where(game, z) == (6, 4)


def test_a_zombie_never_steps_sideways_toward_a_wall(tmp_path: Path) -> None:
    """Zombie movement goes along the shortest unblocked path: with a wall between the walker at
    (5, 5) and the sergeant at (9, 5) open only at its top, the square straight east, (6, 5), is no
    nearer by the path; the walker steps north-east, (6, 4), one square nearer."""
    rows = ["............"] * 2 + [".......#...."] * 6
    game = make(tmp_path, [char("sergeant", 9, 5), zombie("walker", 5, 5)], rows=rows)
    z = at(game, 5, 5)
    run(game, zombies.zombie_activations(game))
    assert where(game, z) == (6, 4)


@pytest.mark.parametrize("others", [[("sergeant", 2, 1)], [("sergeant", 2, 4), ("sniper", 7, 7)]])
def test_a_zombie_touching_no_one_walks(tmp_path: Path, others: list[tuple[str, int, int]]) -> None:
    """A walker at (2, 6) touching no character walks one square toward the nearest, straight up the
    column to (2, 5) (a character elsewhere on the board, near another square, changes nothing)."""
    game = make(tmp_path, [*(char(name, x, y) for name, x, y in others), zombie("walker", 2, 6)])
    z = at(game, 2, 6)
    run(game, zombies.zombie_activations(game))
    assert where(game, z) == (2, 5)

def test_zombie_with_moves_left_attacks(tmp_path: Path) -> None:
    """Zombie movement: a runner (move 2) one step from contact moves and locks; a walker (move 1)
    moves into contact but cannot also attack."""
    game = make(tmp_path, [char("sergeant", 2, 2), char("sniper", 8, 6), zombie("runner", 4, 2),
                           zombie("walker", 10, 6)])
    sgt, sniper, runner, walker = at(game, 2, 2), at(game, 8, 6), at(game, 4, 2), at(game, 10, 6)
    run(game, zombies.zombie_activations(game))
    assert where(game, runner) == (3, 2)
    assert lockers(game, sgt) == [runner]
    assert where(game, walker) == (9, 6) and lockers(game, sniper) == []


def test_stunned_zombie_does_not_activate_but_recovers(tmp_path: Path) -> None:
    """Zombie activation: a stunned zombie neither moves nor attacks; it loses the marker."""
    game = make(tmp_path, [char("sergeant", 2, 2), zombie("walker", 3, 2)])
    sgt, z = at(game, 2, 2), at(game, 3, 2)
    stun_zombie(game, z)
    run(game, zombies.zombie_activations(game))
    assert lockers(game, sgt) == [] and not has(game, z, STUNNED)


def test_spawn_on_a_character_wounds_and_pushes_him(tmp_path: Path) -> None:
    """Spawn: a character on the spawn square takes 1 wound and is pushed where the player chooses."""
    rows = ["............"] * 8
    rows[0] = "A..........."
    game = make(tmp_path, [char("sergeant", 0, 0), char("sniper", 11, 7)], rows=rows)
    sgt = at(game, 0, 0)
    asked = run(game, spawn.spawn_at(game, "walker", (0, 0)), {"stalingrad.push": [0, 1]})
    assert asked[0].kind == "stalingrad.push" and sorted(asked[0].options) == [[0, 1], [1, 0], [1, 1]]
    assert wounds(game, sgt) == 1
    assert where(game, sgt) == (0, 1)
    assert at(game, 0, 0) != sgt


def test_spawn_on_a_zombie_waits_then_arrives_without_activating(tmp_path: Path) -> None:
    """Spawn: a zombie on the spawn square holds the new one off the board until the square is free;
    it then arrives and does not activate that turn."""
    rows = ["............"] * 8
    rows[0] = "A..........."
    game = make(tmp_path, [char("sergeant", 6, 6), zombie("walker", 0, 0)], rows=rows)
    old = at(game, 0, 0)
    run(game, spawn.spawn_at(game, "walker", (0, 0)))
    held = waiting(game)
    assert len(held) == 1 and events(game, "zombie_held")
    move_to(game, old, 1, 0)
    run(game, zombies.zombie_activations(game))
    new = held[0]
    assert new not in waiting(game)
    assert where(game, new) == (0, 0)
    assert has(game, new, ARRIVED)
    assert not [e for e in events(game, "zombie_moved") if e["zombie"] == new]


def test_spawned_zombies_are_face_down_unless_in_lof(tmp_path: Path) -> None:
    """Spawn: face down unless a character has LOF to the square (arcs do not matter)."""
    rows = ["............"] * 8
    rows[0] = "A....#A....."
    rows[1] = ".....#......"
    rows[2] = ".....#......"
    game = make(tmp_path, [char("sergeant", 1, 2, facing=4)], rows=rows)
    run(game, spawn.spawn_at(game, "walker", (0, 0)))
    run(game, spawn.spawn_at(game, "walker", (6, 0)))
    seen, unseen = at(game, 0, 0), at(game, 6, 0)
    assert not has(game, seen, HIDDEN)
    assert has(game, unseen, HIDDEN)


def test_covering_token_values(tmp_path: Path) -> None:
    """Covering: a character who could have attacked but did not takes 0 (stationary), 2 (walked) or
    4 (ran); a searching character takes none."""
    rows = ["............"] * 8
    rows[6] = ".?.........."
    for mode, value in ((STATIONARY, 0), (WALKING, 2), (RUNNING, 4), (SEARCHING, -1)):
        game = make(tmp_path / mode, [char("sergeant", 1, 7)], rows=rows, dice=[1])
        sgt = at(game, 1, 7)
        run(game, activation.activate(game, sgt), {"stalingrad.mode": mode, "stalingrad.action": ["end"]})
        assert covering(game, sgt) == value, mode


def test_covering_fire_when_a_zombie_becomes_adjacent(tmp_path: Path) -> None:
    """Covering: the token is discarded for an attack when a zombie comes into contact; the token's
    value (4) is added to the hit #: ppsh in H2H 5 + 4 = 9; a 12 kills."""
    game = make(tmp_path, [char("sergeant", 1, 4), zombie("runner", 4, 4)])
    sgt, runner = at(game, 1, 4), at(game, 4, 4)
    set_covering(game, sgt, 4)
    dice(game, [12])
    asked = run(game, zombies.zombie_activations(game),
                {"stalingrad.cover": "fire", "stalingrad.cover_attack": ["attack", "h2h", "ppsh"]})
    assert [d.kind for d in asked] == ["stalingrad.cover", "stalingrad.cover_attack"]
    assert events(game, "attack")[0]["hit"] == 9
    assert gone(game, runner)
    assert covering(game, sgt) == -1


def test_covering_fire_is_offered_when_a_zombie_enters_lof(tmp_path: Path) -> None:
    """Covering: offered when a zombie newly enters the front arc and LOF, not for one already seen."""
    game = make(tmp_path, [char("sergeant", 1, 1), zombie("walker", 6, 1)])
    sgt, z = at(game, 1, 1), at(game, 6, 1)
    set_covering(game, sgt, 2)
    assert run(game, attack.offer_cover(game, z, {sgt: True}), {"stalingrad.cover": "hold"}) == []
    asked = run(game, attack.offer_cover(game, z, {sgt: False}), {"stalingrad.cover": "hold"})
    assert [d.kind for d in asked] == ["stalingrad.cover"]


def test_covering_fire_needs_the_front_arc_and_a_clear_line(tmp_path: Path) -> None:
    """Covering: a zombie must come into the front arc *and* LOF. One in the front arc behind a wall
    is not offered, though another zombie in view could be shot; one in clear LOF but in the side
    arc (due south of a sergeant facing east) is not offered either."""
    rows = ["............"] * 8
    rows[1] = "....#......."
    game = make(tmp_path, [char("sergeant", 1, 1), zombie("walker", 6, 1), zombie("walker", 4, 2),
                           zombie("walker", 1, 5)], rows=rows)
    sgt, hidden, south = at(game, 1, 1), at(game, 6, 1), at(game, 1, 5)
    set_covering(game, sgt, 2)
    assert attack.attack_options(game, sgt, covering=True)  # the zombie at (4, 2) could be shot
    for z in (hidden, south):
        assert run(game, attack.offer_cover(game, z, {sgt: False}), {"stalingrad.cover": "hold"}) == [], z


def test_covering_fire_is_not_offered_with_only_a_grenade(tmp_path: Path) -> None:
    """A covering token is discarded for an H2H, normal or spread fire attack, never a grenade: a
    character whose only attack on a zombie coming into view would be a throw is not offered."""
    game = make(tmp_path, [char("sergeant", 1, 1, Arsenal={"weapons": ["grenade", "fists"],
                                                            "ammo": {"grenade": 2}, "gear": []}),
                           zombie("walker", 5, 1)])
    sgt, z = at(game, 1, 1), at(game, 5, 1)
    set_covering(game, sgt, 2)
    assert attack.attack_options(game, sgt) == [["attack", "grenade", "grenade"]]
    assert run(game, attack.offer_cover(game, z, {sgt: False}), {"stalingrad.cover": "fire"}) == []


def test_a_covering_token_of_0_replaces_the_activation_modifier(tmp_path: Path) -> None:
    """The `attack` step with a covering token adds the token's value instead of the activation's
    modifier, a token of 0 too (-1 means no token): a running sergeant's PPSh at range 3 is
    5 + 0 with the token, 5 + 4 without."""
    for token, hit in ((0, 5), (-1, 9)):
        game = make(tmp_path / str(token), [char("sergeant", 1, 1), zombie("walker", 4, 1)])
        sgt = at(game, 1, 1)
        declare(game, sgt, RUNNING, 0)
        dice(game, [1])
        run(game, attack.attack_step(game, sgt, "normal", "ppsh", token))
        assert events(game, "attack")[0]["hit"] == hit, token


def test_initiative(tmp_path: Path) -> None:
    """Initiative: characters first in round 1; then 1d12 each, zombies -4; a tie is rerolled
    (design choice); a winning player chooses; winning zombies go first."""
    game = make(tmp_path, [char("sergeant", 1, 1)])
    rule(game, "stalingrad.initiative")
    assert first(game) == CHARACTERS and rolls(game) == []
    game.tick = 2
    dice(game, [5, 9, 7, 3])
    asked = rule(game, "stalingrad.initiative", {"stalingrad.initiative_order": "second"})
    assert [d.kind for d in asked] == ["stalingrad.initiative_order"]
    assert len(events(game, "initiative_tie")) == 1 and first(game) == ZOMBIES
    dice(game, [7, 3])
    rule(game, "stalingrad.initiative")
    assert first(game) == CHARACTERS
    dice(game, [2, 12])
    assert rule(game, "stalingrad.initiative") == [] and first(game) == ZOMBIES
    game.params["initiative_ties"] = ZOMBIES
    dice(game, [5, 9])
    rule(game, "stalingrad.initiative")
    assert first(game) == ZOMBIES and len(rolls(game)) == 10


def test_searching(tmp_path: Path) -> None:
    """Searching: own square or an orthogonal neighbour, once, from the scenario's table (a 6: 2 ammo)."""
    rows = ["............"] * 8
    rows[3] = "..?........."
    game = make(tmp_path, [char("commissar", 2, 2), char("sniper", 9, 6)], rows=rows, dice=[6])
    com = at(game, 2, 2)
    run(game, activation.activate(game, com), {"stalingrad.mode": SEARCHING})
    assert ammo(game, com)["tt33"] == 6
    assert activation.search_choices(game, com) == []


def test_searching_only_where_the_scenario_allows(tmp_path: Path) -> None:
    """Searching: only allowed when specified in the scenario."""
    rows = ["............"] * 8
    rows[3] = "..?........."
    game = make(tmp_path, [char("commissar", 2, 2)], rows=rows, allowed=False)
    assert activation.search_choices(game, at(game, 2, 2)) == []


def test_escape_wins(tmp_path: Path) -> None:
    """End segment (scenario): a character who reaches an exit escapes; enough escaped wins."""
    rows = ["............"] * 8
    rows[1] = "...E........"
    game = make(tmp_path, [char("sergeant", 1, 1)], rows=rows)
    sgt = at(game, 1, 1)
    run(game, activation.activate(game, sgt), {"stalingrad.mode": WALKING, "stalingrad.action":
                                              lambda d: ["move", 3, 1] if ["move", 3, 1] in d.options else ["end"]})
    assert gone(game, sgt) and tally(game)["escaped"] == 1
    round.end_segment(game)
    assert game.outcome == CHARACTERS


def test_tough_zombie_needs_two_hits(tmp_path: Path) -> None:
    """Zombie types: a brute (2 hits, tough) is stunned by a first hit and killed by a second."""
    game = make(tmp_path, [char("sergeant", 1, 1), zombie("brute", 4, 1)])
    sgt, brute = at(game, 1, 1), at(game, 4, 1)
    set_mode(game, sgt, STATIONARY)
    dice(game, [8, 8, 3])
    run(game, attack.normal_fire(game, sgt, "ppsh"))
    assert gone(game, brute)
    assert len(events(game, "zombie_hit")) == 1


def test_covering_fire_is_offered_when_a_zombie_spawns_in_lof(tmp_path: Path) -> None:
    """Covering: a zombie arriving in a covering character's front arc and LOF is a moment to fire."""
    rows = ["............"] * 8
    rows[0] = "A..........."
    game = make(tmp_path, [char("sergeant", 0, 4, facing=0)], rows=rows)
    sgt = at(game, 0, 4)
    set_covering(game, sgt, 0)
    asked = run(game, spawn.spawn_at(game, "walker", (0, 0)), {"stalingrad.cover": "hold"})
    assert [d.kind for d in asked] == ["stalingrad.cover"]
    assert not has(game, at(game, 0, 0), HIDDEN)


def test_move_attack_move_doors_and_gear(tmp_path: Path) -> None:
    """Movement actions: before and after the one attack; opening an adjacent door and passing gear to
    an adjacent character each cost MPs from the movement table (walking: 1 each)."""
    rows = ["............"] * 8
    rows[2] = "....+......."
    game = make(tmp_path, [char("sergeant", 1, 1), char("sniper", 2, 2), zombie("walker", 9, 1)],
                rows=rows, dice=[3, 3, 3])
    sgt, sniper = at(game, 1, 1), at(game, 2, 2)
    script = iter([["move", 2, 1], ["attack", "normal", "ppsh"], ["move", 3, 1], ["open", 4, 2],
                   ["pass", "bandage", sniper]])
    asked = run(game, activation.activate(game, sgt), {"stalingrad.mode": WALKING,
                                                        "stalingrad.action": lambda d: next(script)})
    assert [d.kind for d in asked].count("stalingrad.action") == 5  # then no MP left: the end is not asked
    assert [e["cost"] for e in events(game, "moved")] == [1, 1]
    assert len(events(game, "attack")) == 1
    assert events(game, "door")[0]["open"] is True
    assert act_state(game, sgt).mp == 0
    assert gear(game, sniper) == ["bandage"]
    assert covering(game, sgt) == -1  # it attacked: no covering token


def test_spread_fire_rolls_until_the_rof_is_reached(tmp_path: Path) -> None:
    """Spread fire: "repeating the entire process until the total number of dice rolled equals the
    weapons ROF" - the player picks each next target but may not stop early: ppsh ROF 3, three dice
    (hit # 5 at range 3, three 3s miss), and "stop" is never an option."""
    game = make(tmp_path, [char("sergeant", 1, 1), zombie("walker", 4, 1), zombie("walker", 4, 2)])
    sgt = at(game, 1, 1)
    set_mode(game, sgt, STATIONARY)
    dice(game, [3, 3, 3])
    asked = run(game, attack.spread_fire(game, sgt, "ppsh"))
    assert rolls(game) == [[3], [3], [3]]
    spread = [d for d in asked if d.kind == "stalingrad.spread_target"]
    assert len(spread) == 2 and all("stop" not in d.options for d in spread)


def test_grenade_deviating_past_the_map_edge_deviates_again(tmp_path: Path) -> None:
    """Grenade / Deviation table (DESIGN CHOICE, deviation.yaml): a deviation past the map's edge is
    clamped to the edge and deviates again from there. Throw hit # 3 (range 3), a 1 misses; N 2 goes
    past the top edge (clamped to (4, 0)), so again E 1: it lands on (5, 0)."""
    game = make(tmp_path, [char("commissar", 1, 1)])
    com = at(game, 1, 1)
    set_mode(game, com, STATIONARY)
    dice(game, [1, 1, 2, 3, 1, 1])
    run(game, attack.grenade(game, com, "grenade"), {"stalingrad.grenade_square": [4, 1]})
    assert [d["to"] for d in events(game, "deviation")] == [[4, 0], [5, 0]]
    assert events(game, "grenade")[0]["landed"] == [5, 0]


def test_a_character_who_cannot_be_pushed_off_a_spawn_square_is_wounded_once(tmp_path: Path) -> None:
    """Spawn: a character in the spawn square "takes 1 wound and [is] pushed". With every neighbour
    taken (DESIGN CHOICE) he stays and the zombie waits; its later tries to arrive do not wound him
    again; once a square frees he is pushed there, still with one wound, and the zombie arrives."""
    rows = ["A..........."] + ["............"] * 7
    game = make(tmp_path, [char("sapper", 0, 0), zombie("walker", 1, 0), zombie("walker", 0, 1),
                           zombie("walker", 1, 1)], rows=rows)
    sapper, blocker = at(game, 0, 0), at(game, 1, 1)
    run(game, spawn.spawn_at(game, "walker", (0, 0)))
    run(game, spawn.settle_pending(game))
    run(game, spawn.settle_pending(game))
    assert wounds(game, sapper) == 1
    held = waiting(game)
    assert len(held) == 1
    move_to(game, blocker, 6, 6)
    run(game, spawn.settle_pending(game))
    assert wounds(game, sapper) == 1
    assert where(game, sapper) == (1, 1)
    assert at(game, 0, 0) == held[0] and not has(game, held[0], STRUCK)


def test_covering_offer_goes_on_after_a_covering_character_is_killed(tmp_path: Path) -> None:
    """Covering: every covering character may discard his token when the zombie comes into view. The
    commissar fires first (tt33, range 4: 6 + 1, +1 for the sniper in the way = 8) and rolls a 2, which
    kills the sniper (2 wounds taken, "a 2 wounds the first intervening character"); the sergeant,
    covering too, is still offered his shot."""
    game = make(tmp_path, [char("commissar", 1, 1), char("sniper", 2, 1, Wounds={"taken": 2, "limit": 3}),
                           char("sergeant", 1, 3), zombie("walker", 5, 1)])
    com, sniper, sgt, z = at(game, 1, 1), at(game, 2, 1), at(game, 1, 3), at(game, 5, 1)
    for c in (com, sniper, sgt):
        set_covering(game, c, 0)
    dice(game, [2])
    asked = run(game, attack.offer_cover(game, z, {}),
                {"stalingrad.cover": lambda d: "fire" if d.context["character"] == com else "hold",
                 "stalingrad.cover_attack": ["attack", "normal", "tt33"]})
    assert events(game, "attack")[0]["hit"] == 8
    assert gone(game, sniper)
    assert [d.context["character"] for d in asked if d.kind == "stalingrad.cover"] == [com, sgt]


@pytest.mark.parametrize(("roll", "hurt"), [(1, 0), (2, 1), (3, 0)])
def test_only_a_two_wounds_the_intervening_character(tmp_path: Path, roll: int, hurt: int) -> None:
    """Normal fire 5c: "If the roll is a 2" and a character is in the way, he takes 1 wound; a 1 (it
    costs ammo instead) or a 3 does not wound him."""
    game = make(tmp_path, [char("commissar", 1, 1), char("sniper", 3, 1), zombie("walker", 5, 1)])
    com, sniper = at(game, 1, 1), at(game, 3, 1)
    set_mode(game, com, STATIONARY)
    dice(game, [roll])
    run(game, attack.normal_fire(game, com, "tt33"))
    assert wounds(game, sniper) == hurt
    assert ammo(game, com)["tt33"] == (3 if roll == 1 else 4)


def test_the_first_intervening_character_takes_the_wound(tmp_path: Path) -> None:
    """Normal fire 5c: "the first intervening character" (nearest the shooter) takes the wound."""
    game = make(tmp_path, [char("commissar", 0, 1), char("sniper", 2, 1), char("sapper", 3, 1),
                           zombie("walker", 5, 1)])
    sniper, sapper = at(game, 2, 1), at(game, 3, 1)
    set_mode(game, at(game, 0, 1), STATIONARY)
    dice(game, [2])
    run(game, attack.normal_fire(game, at(game, 0, 1), "tt33"))
    assert (wounds(game, sniper), wounds(game, sapper)) == (1, 0)


def test_running_out_of_ammo_still_finishes_the_attack(tmp_path: Path) -> None:
    """Normal fire 5d: a 1 reducing ammo to zero: "still finish resolving this attack" (PPSh with one
    round: 1, then 12 kills)."""
    game = make(tmp_path, [char("sergeant", 0, 3), zombie("walker", 3, 3)])
    sgt, z = at(game, 0, 3), at(game, 3, 3)
    set_ammo(game, sgt, "ppsh", 1)
    set_mode(game, sgt, STATIONARY)
    dice(game, [1, 12, 3])
    run(game, attack.normal_fire(game, sgt, "ppsh"))
    assert ammo(game, sgt)["ppsh"] == 0 and gone(game, z)


def test_start_phase_removes_covering_and_attacked_tokens(tmp_path: Path) -> None:
    """Player turn, start phase: remove covering and attacked tokens (and last round's activation)."""
    game = make(tmp_path, [char("sergeant", 0, 3)])
    sgt = at(game, 0, 3)
    act = declare(game, sgt, RUNNING, 3)
    act.attacked, act.activated = True, True
    set_covering(game, sgt, 4)
    activation.player_start(game)
    assert (covering(game, sgt), act.attacked, act.activated, act.mp, act.mode) == (-1, False, False, 0, "")


def test_the_player_activates_each_character_once_in_his_order(tmp_path: Path) -> None:
    """Character activation: the player activates characters one at a time, in the order of his
    choosing; each once."""
    game = make(tmp_path, [char("sergeant", 0, 3), char("sniper", 0, 5), char("sapper", 0, 7)])
    sgt, sniper, sapper = at(game, 0, 3), at(game, 0, 5), at(game, 0, 7)
    order = iter([sapper, sgt])
    decisions = run(game, activation.activations(game), {"stalingrad.activate": lambda d: next(order),
                                                         "stalingrad.mode": STATIONARY})
    assert [d.options for d in asked(decisions, "stalingrad.activate")] == [[sgt, sniper, sapper], [sgt, sniper]]
    assert [e["character"] for e in events(game, "activated")] == [sapper, sgt, sniper]


def test_unlock_roll_takes_the_activation_modifier_and_is_no_attack(tmp_path: Path) -> None:
    """Locked: the unlock roll is the H2H hit # or over "as if you were attacking" (walking +2: 5 + 2
    = 7; a 6 fails, a 7 frees); it does not count as an attack, so the character may still attack."""
    game = make(tmp_path, [char("sergeant", 3, 3), zombie("walker", 4, 3)])
    sgt, z = at(game, 3, 3), at(game, 4, 3)
    for roll, freed in ((6, False), (7, True)):
        if not lockers(game, sgt):
            lock(game, sgt, z)
        act_state(game, sgt).activated = False
        dice(game, [roll])
        decisions = run(game, activation.activate(game, sgt), {"stalingrad.mode": WALKING,
                                                               "stalingrad.unlock": "try",
                                                               "stalingrad.action": ["end"]})
        assert events(game, "unlock_attempt")[-1]["need"] == 7
        assert (lockers(game, sgt) == []) == freed
        options = asked(decisions, "stalingrad.action")[0].options
        assert ["attack", "h2h", "ppsh"] in options


def test_killing_the_locking_zombie_removes_the_lock(tmp_path: Path) -> None:
    """Locked: killing the zombie also removes the locked token."""
    game = make(tmp_path, [char("sergeant", 3, 3), zombie("walker", 4, 3)])
    sgt, z = at(game, 3, 3), at(game, 4, 3)
    lock(game, sgt, z)
    set_mode(game, sgt, STATIONARY)
    dice(game, [12])
    run(game, attack.h2h(game, sgt, "ppsh"))
    assert gone(game, z) and lockers(game, sgt) == []


def test_one_attack_per_activation(tmp_path: Path) -> None:
    """Attack action: a character may perform one attack: once it has attacked, no attack is offered."""
    game = make(tmp_path, [char("sergeant", 0, 3), zombie("walker", 6, 3), zombie("walker", 6, 5)], dice=[3, 3, 3])
    sgt = at(game, 0, 3)
    decisions = run(game, activation.activate(game, sgt), {
        "stalingrad.mode": STATIONARY,
        "stalingrad.action": lambda d: ["attack", "normal", "ppsh"] if ["attack", "normal", "ppsh"] in d.options
        else ["end"]})
    assert len(events(game, "attack")) == 1 and len(asked(decisions, "stalingrad.action")) == 1


def test_a_blast_hit_wounds_a_character_and_far_figures_are_skipped(tmp_path: Path) -> None:
    """Grenade: a separate attack on each figure in the blast's LOF, characters too (DESIGN CHOICE:
    a hit is one wound, a stun nothing), skipping any whose hit # would exceed 12; a figure out of the
    blast's LOF is not attacked. Landing (0, 0): the sniper beside it (range 2, hit # 3) takes a 6;
    the thrower (range 9: 10, +1 for the sniper in the way) 11; the zombie at range 11 (hit # 12) is
    rolled for, the one at range 12 (13) is not; the one behind the wall not at all."""
    rows = list(ROWS)
    rows[2] = "#..........."
    game = make(tmp_path, [char("commissar", 3, 5, facing=0), char("sniper", 0, 1), zombie("walker", 10, 0),
                           zombie("walker", 7, 4), zombie("walker", 0, 4)], rows=rows)
    com, sniper = at(game, 3, 5), at(game, 0, 1)
    set_mode(game, com, STATIONARY)
    dice(game, [12, 3, 6, 3])
    run(game, attack.grenade(game, com, "grenade"), {"stalingrad.grenade_square": [0, 0]})
    assert [(e["target"], e["hit"]) for e in events(game, "attack")] == [(com, 11), (sniper, 3),
                                                                        (at(game, 10, 0), 12)]
    assert events(game, "wound") == [{"character": sniper, "taken": 1, "why": "grenade"}]


def test_the_player_chooses_among_several_victims(tmp_path: Path) -> None:
    """Zombie attack: next to several locked characters the player chooses whom it wounds; next to
    several unlocked ones, whom it locks."""
    game = make(tmp_path, [char("sergeant", 2, 3), char("sniper", 4, 3), zombie("walker", 3, 3)])
    sgt, sniper, z = at(game, 2, 3), at(game, 4, 3), at(game, 3, 3)
    decisions = run(game, zombies.zombie_attack(game, z), {"stalingrad.lock_target": sniper})
    assert [(d.kind, d.options) for d in decisions] == [("stalingrad.lock_target", [sgt, sniper])]
    assert lockers(game, sniper) == [z] and lockers(game, sgt) == []
    lock(game, sgt, z)
    decisions = run(game, zombies.zombie_attack(game, z), {"stalingrad.wound_target": sgt})
    assert [(d.kind, d.options) for d in decisions] == [("stalingrad.wound_target", [sgt, sniper])]
    assert (wounds(game, sgt), wounds(game, sniper)) == (1, 0)


def test_zombie_final_phase_removes_stunned_markers_then_spawns(tmp_path: Path) -> None:
    """Zombie turn, final phase: remove stunned markers and spawn zombies (on an S round)."""
    rows = ["A...........", *ROWS[1:]]
    game = make(tmp_path, [char("sergeant", 11, 7), zombie("walker", 5, 5)], rows=rows, track="-S")
    z = at(game, 5, 5)
    stun_zombie(game, z)
    game.tick = 2
    dice(game, [1])
    run(game, zombies.zombie_final(game))
    assert not has(game, z, STUNNED) and len(events(game, "zombie_spawned")) == 1


@pytest.mark.parametrize(("who", "order"), [(CHARACTERS, ["player", "zombie"]), (ZOMBIES, ["zombie", "player"])])
def test_turns_follow_the_initiative(tmp_path: Path, who: str, order: list[str]) -> None:
    """Round: the player turn and the zombie turn in initiative order."""
    game = make(tmp_path, [char("sergeant", 0, 3), zombie("walker", 8, 3)])
    state(game)[0].first = who
    run(game, round.turns(game, ["player_start", "activations"], ["zombie_activations", "zombie_final"]),
        {"stalingrad.mode": STATIONARY, "stalingrad.action": ["end"]})
    kinds = [e[1] for e in game.events if e[1] in ("activated", "zombie_moved")]
    assert kinds == [{"player": "activated", "zombie": "zombie_moved"}[o] for o in order]


def test_end_segment_clears_the_arrival_marker(tmp_path: Path) -> None:
    """Zombies that arrived this round (and did not activate) act normally from the next."""
    game = make(tmp_path, [char("sergeant", 0, 3), zombie("walker", 8, 3)])
    z = at(game, 8, 3)
    mark(game, z, ARRIVED)
    round.end_segment(game)
    assert not has(game, z, ARRIVED)



def test_a_face_down_zombie_that_walks_into_view_turns_face_up(tmp_path: Path) -> None:
    """"Face-down zombies turn face up once a character has LOF to them": a face-down runner behind a
    wall runs round its end to (6, 5), into the sergeant's LOF, during the zombies' activations, and
    is face up when they end."""
    rows = ["............", "............", "......#.....", "......#.....", "......#.....",
            "............", "............", "............"]
    game = make(tmp_path, [char("sergeant", 3, 3, facing=2), zombie("runner", 7, 4)], rows=rows)
    z = at(game, 7, 4)
    mark(game, z, HIDDEN)
    assert not sight(gmap(game), (3, 3), (7, 4), frozenset()).clear  # behind the wall
    run(game, zombies.zombie_activations(game))
    assert where(game, z) == (6, 5) and not has(game, z, HIDDEN)
    assert events(game, "zombie_revealed") == [{"zombie": z, "type": "runner"}]


def test_the_zombies_final_phase_clears_the_arrivals_and_turns_seen_zombies_face_up(tmp_path: Path) -> None:
    """The final phase of the zombie turn: the arrival markers of this round go, a zombie arriving
    now is not marked (it did not skip an activation), and face-down zombies in a character's LOF
    turn face up."""
    game = make(tmp_path, [char("sergeant", 0, 3), zombie("walker", 8, 3), zombie("walker", 5, 6)], waves=[])
    z, seen = at(game, 8, 3), at(game, 5, 6)
    mark(game, z, ARRIVED)
    mark(game, seen, HIDDEN)
    waiting = spawn.new_zombie(game, "walker", (10, 0))  # held off the board until now
    run(game, zombies.zombie_final(game))
    assert not has(game, z, ARRIVED) and not has(game, seen, HIDDEN)
    assert where(game, waiting) == (10, 0) and not has(game, waiting, ARRIVED)


def test_a_zombie_with_no_way_to_any_character_stays_and_asks_nothing(tmp_path: Path) -> None:
    """A zombie walled off from every character neither moves nor asks the player to break a tie
    between characters it cannot reach."""
    rows = ["............", "............", "############", "............"]
    game = make(tmp_path, [char("sergeant", 0, 0), char("sniper", 4, 0), zombie("walker", 2, 3)], rows=rows)
    z = at(game, 2, 3)
    asked = run(game, zombies.zombie_activations(game))
    assert where(game, z) == (2, 3) and [d.kind for d in asked] == []

def test_searching_takes_the_whole_activation(tmp_path: Path) -> None:
    """Searching: all MPs and no other action; a square diagonal to the character cannot be searched."""
    rows = list(ROWS)
    rows[2] = "...?........"
    game = make(tmp_path, [char("sergeant", 2, 3)], rows=rows)
    sgt = at(game, 2, 3)
    assert activation.search_choices(game, sgt) == []
    move_to(game, sgt, 3, 3)
    assert activation.search_choices(game, sgt) == [(3, 2)]
    dice(game, [1])
    decisions = run(game, activation.activate(game, sgt), {"stalingrad.mode": SEARCHING})
    assert asked(decisions, "stalingrad.action") == [] and covering(game, sgt) == -1
    assert act_state(game, sgt).mp == 0


def test_a_hit_says_whether_the_zombie_died(tmp_path: Path) -> None:
    """A hit kills a walker (1 hit) and says so; a brute (2 hits) survives its first hit, stunned
    (tough), and the hit says it did not die; its second kills it."""
    game = make(tmp_path, [char("sergeant", 0, 0), zombie("walker", 5, 5), zombie("brute", 7, 7)])
    walker, brute = at(game, 5, 5), at(game, 7, 7)
    assert hit_zombie(game, walker, None) is True
    assert hit_zombie(game, brute, None) is False
    assert hit_zombie(game, brute, None) is True


def test_spending_ammo_a_weapon_has_none_of_changes_nothing(tmp_path: Path) -> None:
    """Ammo is spent only from what a weapon holds: fists hold none, so nothing is counted or added;
    the PPSh's 4 rounds go to 3."""
    game = make(tmp_path, [char("sergeant", 0, 0)])
    sgt = at(game, 0, 0)
    before = dict(tally(game))
    spend_ammo(game, sgt, "fists")
    assert "fists" not in game.world.get(sgt, Arsenal).ammo and tally(game) == before
    spend_ammo(game, sgt, "ppsh")
    assert game.world.get(sgt, Arsenal).ammo["ppsh"] == 3


@pytest.mark.parametrize(("square", "facing_"), [((0, 0), 3), ((11, 0), 5), ((0, 7), 1), ((11, 7), 7), ((7, 3), 5)])
def test_a_zombie_placed_faces_the_centre_of_the_map(tmp_path: Path, square: tuple[int, int], facing_: int) -> None:
    """DESIGN CHOICE (docs/stalingrad.md, spawning): a zombie placed faces the map's centre, square
    (6, 4) of the 12 x 8 map: from the corners south-east, south-west, north-east, north-west; from
    (7, 3), beside it, south-west (not north-west to (6, 2), nor west to (4, 4))."""
    game = make(tmp_path, [char("sergeant", 5, 3)])
    run(game, spawn.spawn_at(game, "walker", square))
    z = at(game, *square)
    assert facing(game, z) == facing_
