"""Escape from Stalingrad Z — the options a character is offered and what each does: searching
squares, turns, doors, gear, H2H reach and targets, grenade squares, search results, the unlock roll
and the hit # estimates the activation hands to the policies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ecs_zombie import Game, new_game
from ecs_zombie.errors import GameError
from ecs_zombie.systems.stalingrad import activation, attack, board, spawn, zombies
from ecs_zombie.systems.stalingrad import round as stalingrad_round
from ecs_zombie.systems.stalingrad.geometry import SquareGeometry, geometry
from tests.stalingrad.stalingrad_support import (
    HIDDEN,
    SEARCHING,
    STATIONARY,
    STUNNED,
    WALKING,
    act_state,
    ammo,
    asked,
    at,
    char,
    declare,
    dice,
    events,
    gear,
    has,
    lock,
    lockers,
    make,
    mark,
    move_to,
    run,
    set_covering,
    set_mode,
    set_wounds,
    spawned,
    weapons,
    wounds,
    write_scenario,
    zombie,
)

ROWS = ["............"] * 8


def options(game: Game, ent: int) -> list[list[Any]]:
    """The actions the character is offered now (for its declared mode and MPs left)."""
    out = activation.actions(game, ent, game.tables["stalingrad.movement"][act_state(game, ent).mode])
    return out


# -- searching ------------------------------------------------------------------------------------

@pytest.mark.parametrize("spot", [(3, 3), (3, 2), (4, 3), (3, 4), (2, 3)])
def test_search_own_square_or_the_four_beside_it(tmp_path: Path, spot: tuple[int, int]) -> None:
    """Searching: a character may search the square he is on, or any of his four adjacent squares."""
    rows = list(ROWS)
    rows[spot[1]] = rows[spot[1]][:spot[0]] + "?" + rows[spot[1]][spot[0] + 1:]
    game = make(tmp_path, [char("sergeant", 3, 3)], rows=rows)
    assert activation.search_choices(game, at(game, 3, 3)) == [spot]


def test_search_squares_by_row_then_column(tmp_path: Path) -> None:
    rows = list(ROWS)
    rows[2] = "...?........"
    rows[3] = "..?........."
    game = make(tmp_path, [char("sergeant", 3, 3)], rows=rows)
    assert activation.search_choices(game, at(game, 3, 3)) == [(3, 2), (2, 3)]


def search_with(tmp_path: Path, result: dict[str, object], who: str = "sergeant", **sets: Any) -> tuple[Game, int]:
    """A search of the character's own square that finds `result` (the roll is 1)."""
    rows = list(ROWS)
    rows[3] = "?..........."
    game = make(tmp_path, [char(who, 0, 3, **sets)], rows=rows, dice=[1],
                extra={"search": {"allowed": True, "die": "1d12", "results": [{"upto": 12, **result}]}})
    ent = at(game, 0, 3)
    return game, ent


def test_ammo_found_goes_to_the_first_firearm_even_when_empty(tmp_path: Path) -> None:
    game, sgt = search_with(tmp_path, {"result": "ammo", "amount": 2},
                            Arsenal={"weapons": ["fists", "ppsh"], "ammo": {}, "gear": []})
    run(game, activation.activate(game, sgt), {"stalingrad.mode": SEARCHING})
    assert ammo(game, sgt) == {"ppsh": 2}


def test_a_grenade_found_is_carried_and_counted(tmp_path: Path) -> None:
    """A grenade found: a character without grenades now carries one; one with grenades has one more."""
    game, sgt = search_with(tmp_path, {"result": "grenade", "amount": 1})
    run(game, activation.activate(game, sgt), {"stalingrad.mode": SEARCHING})
    assert weapons(game, sgt) == ["ppsh", "fists", "grenade"] and ammo(game, sgt) == {"grenade": 1, "ppsh": 4}
    game, com = search_with(tmp_path / "b", {"result": "grenade", "amount": 1}, who="commissar")
    run(game, activation.activate(game, com), {"stalingrad.mode": SEARCHING})
    assert weapons(game, com) == ["tt33", "grenade", "fists"] and ammo(game, com)["grenade"] == 3


def test_ammo_stays_listed_by_weapon_name(tmp_path: Path) -> None:
    """Components keep their maps in sorted order so that equal states encode equally: a grenade found
    by the sergeant is listed before his PPSh."""
    game, sgt = search_with(tmp_path, {"result": "grenade", "amount": 1})
    run(game, activation.activate(game, sgt), {"stalingrad.mode": SEARCHING})
    assert list(ammo(game, sgt)) == ["grenade", "ppsh"]


def test_a_bandage_heals_but_never_below_no_wound(tmp_path: Path) -> None:
    game, sgt = search_with(tmp_path, {"result": "bandage", "amount": 1})
    run(game, activation.activate(game, sgt), {"stalingrad.mode": SEARCHING})
    assert wounds(game, sgt) == 0
    game, sgt = search_with(tmp_path / "b", {"result": "bandage", "amount": 2})
    set_wounds(game, sgt, 1)
    run(game, activation.activate(game, sgt), {"stalingrad.mode": SEARCHING})
    assert wounds(game, sgt) == 0


def test_gear_found_is_kept_in_order_and_only_gear_adds_an_item(tmp_path: Path) -> None:
    game, sgt = search_with(tmp_path, {"result": "gear", "item": "axe"})
    run(game, activation.activate(game, sgt), {"stalingrad.mode": SEARCHING})
    assert gear(game, sgt) == ["axe", "bandage"]
    game, sgt = search_with(tmp_path / "b", {"result": "nothing", "item": "axe"})
    run(game, activation.activate(game, sgt), {"stalingrad.mode": SEARCHING})
    assert gear(game, sgt) == ["bandage"]


# -- movement actions offered ----------------------------------------------------------------------

def test_moves_are_offered_by_row_then_column(tmp_path: Path) -> None:
    game = make(tmp_path, [char("sergeant", 3, 3)])
    sgt = at(game, 3, 3)
    declare(game, sgt, WALKING, 1)
    moves = [o[1:] for o in options(game, sgt) if o[0] == "move"]
    assert moves == [[3, 2], [2, 3], [4, 3], [3, 4]]


def test_turns_offered_are_those_the_mps_pay_for(tmp_path: Path) -> None:
    """Walking with 1 MP left, facing east: a turn of 45° or 90° (1 MP) but not 135° or 180° (2)."""
    game = make(tmp_path, [char("sergeant", 3, 3, facing=2)])
    sgt = at(game, 3, 3)
    declare(game, sgt, WALKING, 1)
    assert [o[1] for o in options(game, sgt) if o[0] == "face"] == [0, 1, 3, 4]
    declare(game, sgt, WALKING, 2)
    assert [o[1] for o in options(game, sgt) if o[0] == "face"] == [0, 1, 3, 4, 5, 6, 7]


def test_doors_offered(tmp_path: Path) -> None:
    """An adjacent closed door may be opened, an adjacent open one closed unless someone stands in it,
    each for its cost (1 MP walking: offered with 1 MP left)."""
    rows = list(ROWS)
    rows[2] = "..+/.+......"
    game = make(tmp_path, [char("sergeant", 3, 3), char("sniper", 8, 7)], rows=rows)
    sgt = at(game, 3, 3)
    declare(game, sgt, WALKING, 1)
    doors = [o for o in options(game, sgt) if o[0] in ("open", "close")]
    assert doors == [["open", 2, 2], ["close", 3, 2]]  # (5, 2) is not adjacent
    move_to(game, at(game, 8, 7), 3, 2)
    assert [o for o in options(game, sgt) if o[0] in ("open", "close")] == [["open", 2, 2]]


def test_door_costs_can_differ(tmp_path: Path) -> None:
    """Opening and closing are priced apart (a movement table may make them differ)."""
    table = {m: {"mp": mp, "step": 1, "diagonal": 2, "turn": 1, "open_door": 1, "close_door": 3, "pass_gear": 1}
             for m, mp in (("running", 8), ("walking", 4), ("stationary", 0), ("searching", 0))}
    rows = list(ROWS)
    rows[2] = "...+........"
    game = make(tmp_path, [char("sergeant", 3, 3)], rows=rows, extra={"movement": table})
    sgt = at(game, 3, 3)
    todo = [["open", 3, 2], ["close", 3, 2]]
    run(game, activation.activate(game, sgt), {"stalingrad.mode": WALKING,
                                               "stalingrad.action": lambda d: todo.pop(0) if todo else ["end"]})
    assert [e["mp"] for e in events(game, "door")] == [3, 0]


def test_gear_goes_only_to_an_adjacent_friend_and_leaves_the_giver(tmp_path: Path) -> None:
    game = make(tmp_path, [char("sergeant", 3, 3), char("sniper", 4, 4, Arsenal={
        "weapons": ["mosin"], "ammo": {"mosin": 5}, "gear": ["map case"]}), char("sapper", 6, 3)])
    sgt, sniper = at(game, 3, 3), at(game, 4, 4)
    declare(game, sgt, WALKING, 4)
    assert [o for o in options(game, sgt) if o[0] == "pass"] == [["pass", "bandage", sniper]]
    todo = [["pass", "bandage", sniper]]
    run(game, activation.activate(game, sgt), {"stalingrad.mode": WALKING,
                                               "stalingrad.action": lambda d: todo.pop(0) if todo else ["end"]})
    assert gear(game, sgt) == [] and gear(game, sniper) == ["bandage", "map case"]


def test_gear_goes_to_a_friend_on_any_of_the_eight_squares_around(tmp_path: Path) -> None:
    """"Adjacent" is any of the eight squares: a friend to the north-west and one to the south-east
    are both offered the bandage; one two squares off is not."""
    game = make(tmp_path, [char("sergeant", 3, 3), char("sniper", 2, 2), char("sapper", 4, 4),
                           char("commissar", 5, 3)])
    sgt, sniper, sapper = at(game, 3, 3), at(game, 2, 2), at(game, 4, 4)
    declare(game, sgt, WALKING, 4)
    assert [o for o in options(game, sgt) if o[0] == "pass"] == [["pass", "bandage", sniper],
                                                                  ["pass", "bandage", sapper]]


# -- attacks offered -------------------------------------------------------------------------------

def test_a_firearm_does_not_reach_two_squares_in_h2h(tmp_path: Path) -> None:
    """H2H range is 1 unless the weapon is an H weapon: the PPSh (PB 3) does not strike a zombie two
    squares away in H2H."""
    game = make(tmp_path, [char("sergeant", 0, 3), zombie("walker", 2, 3)])
    sgt = at(game, 0, 3)
    assert [o for o in attack.attack_options(game, sgt) if o[1] == "h2h"] == []



@pytest.mark.parametrize(("facing", "zs"), [(6, (4, 3)), (7, (4, 2)), (0, (5, 2)), (5, (4, 4))])
def test_a_zombie_adjacent_in_front_forces_h2h_facing_any_way(tmp_path: Path, facing: int,
                                                                zs: tuple[int, int]) -> None:
    """"If adjacent to a zombie (in front arc), the attack type must be H2H": the commissar facing
    west, north-west, north or south-west with a walker on the square in front is offered H2H only."""
    game = make(tmp_path, [char("commissar", 5, 3, facing=facing), zombie("walker", *zs)])
    com = at(game, 5, 3)
    geo = geometry(game, com)
    assert attack.forced_h2h(game, com) and attack.forced_h2h(game, com, geo)
    assert isinstance(geo, SquareGeometry) and attack._in_front(game, com, geo)[0]
    assert {o[1] for o in attack.attack_options(game, com)} == {"h2h"}


@pytest.mark.parametrize(("zs", "arc"), [((6, 2), "front"), ((6, 4), "front"), ((34, -27), "side"), ((5, 2), "side"),
                                        ((4, 2), "side"), ((-25, -26), "rear"), ((4, 3), "rear")])
def test_the_arcs_meet_at_45_and_135_degrees(tmp_path: Path, zs: tuple[int, int], arc: str) -> None:
    """DESIGN CHOICE (modifiers.yaml): "front up to 45°, rear from 135°, side in between": facing
    east, a square on a diagonal ahead (45°) is in the front arc and one at 45.97° (29 across, 30
    up) on the side; a diagonal behind (135°) is still on the side, one at 135.97° (30 back, 29 up)
    in the rear."""
    game = make(tmp_path, [char("commissar", 5, 3, facing=2)])
    assert board.arc(game, at(game, 5, 3), zs) == arc


@pytest.mark.parametrize(("zs", "forced"), [((6, 2), True), ((6, 4), True), ((5, 2), False), ((4, 2), False)])
def test_a_zombie_touching_on_a_front_diagonal_forces_h2h(tmp_path: Path, zs: tuple[int, int], forced: bool) -> None:
    """"If adjacent to a zombie (in front arc), the attack type must be H2H": facing east, a walker
    on a diagonal ahead forces it; one beside or on a diagonal behind does not."""
    game = make(tmp_path, [char("commissar", 5, 3, facing=2), zombie("walker", *zs)])
    assert attack.forced_h2h(game, at(game, 5, 3)) == forced


def test_no_h2h_round_a_wall_corner(tmp_path: Path) -> None:
    """Touching is a legal step (a diagonal may not cut past a wall's corner): a walker diagonally
    beside the sergeant with a wall on one side of the corner is out of reach of his fists (H2H
    range 1) and forces nothing."""
    rows = list(ROWS)
    rows[3] = "..#........."
    game = make(tmp_path, [char("sergeant", 1, 3, facing=3), zombie("walker", 2, 4)], rows=rows)
    sgt = at(game, 1, 3)
    fists = game.tables["stalingrad.weapons"]["fists"]
    assert not geometry(game, sgt).touching((1, 3), (2, 4)) and geometry(game, sgt).touching((1, 3), (1, 4))
    assert attack.h2h_targets(game, sgt, fists) == []
    assert not attack.forced_h2h(game, sgt)

def test_h2h_strikes_the_closest_zombie(tmp_path: Path) -> None:
    """H2H: the target must be the closest zombie: with a spade, a zombie touching the sapper
    diagonally (range 1 in H2H) before one two squares ahead."""
    game = make(tmp_path, [char("sapper", 0, 3), zombie("walker", 2, 3), zombie("walker", 1, 4)])
    sap, touching = at(game, 0, 3), at(game, 1, 4)
    assert attack.h2h_targets(game, sap, game.tables["stalingrad.weapons"]["spade"])[0][1] == touching
    set_mode(game, sap, STATIONARY)
    dice(game, [3])
    run(game, attack.h2h(game, sap, "spade"))
    assert events(game, "attack")[0]["target"] == touching


def test_normal_fire_targets_the_nearest_whatever_the_order(tmp_path: Path) -> None:
    """Normal fire: the nearest zombie in front arc and LOF, not the first on the board."""
    game = make(tmp_path, [char("commissar", 0, 3), zombie("walker", 8, 3), zombie("walker", 5, 4)])
    com, near = at(game, 0, 3), at(game, 5, 4)
    set_mode(game, com, STATIONARY)
    dice(game, [3])
    run(game, attack.normal_fire(game, com, "tt33"))
    assert events(game, "attack")[0]["target"] == near


def test_no_grenade_on_ones_own_square(tmp_path: Path) -> None:
    """Grenade target squares start one square away (range 1 to 8)."""
    game = make(tmp_path, [char("commissar", 3, 3)])
    squares = attack.grenade_squares(game, at(game, 3, 3))
    assert (3, 3) not in squares and (4, 3) in squares
    assert squares == sorted(squares, key=lambda s: (s[1], s[0]))  # offered by row, then column
    assert squares[:3] == [(0, 0), (1, 0), (2, 0)]  # (0, 0) lies on 135°: the side arc



def test_the_first_grenade_square_may_be_eight_away(tmp_path: Path) -> None:
    """"Within range 8": in a corridor walled for seven squares, the one square a grenade can be
    thrown to is the eighth, and the character can throw."""
    rows = ["C#######.", "#########"]
    game = make(tmp_path, [char("commissar", 0, 0)], rows=[r.replace("C", ".") for r in rows])
    com = at(game, 0, 0)
    assert attack.grenade_squares(game, com, True) == [(8, 0)]
    assert attack.grenade_squares(game, com) == [(8, 0)]

# -- unlocking and estimates -----------------------------------------------------------------------

def test_unlock_without_an_h2h_weapon_needs_twelve(tmp_path: Path) -> None:
    """The unlock roll is the H2H hit #: a character with nothing to fight with needs a 12."""
    game = make(tmp_path, [char("sergeant", 3, 3, Arsenal={"weapons": ["grenade"], "ammo": {"grenade": 1},
                                                            "gear": []}), zombie("walker", 4, 3)])
    sgt, z = at(game, 3, 3), at(game, 4, 3)
    lock(game, sgt, z)
    set_mode(game, sgt, STATIONARY)
    dice(game, [11])
    run(game, activation.try_unlock(game, sgt))
    assert events(game, "unlock_attempt")[0]["need"] == 12


def test_unlock_counts_figures_in_the_way(tmp_path: Path) -> None:
    """The unlock roll applies the regular hit modifiers: a diagonal lock past two figures (a corner
    pair both occupied) is 5 + 1."""
    game = make(tmp_path, [char("sergeant", 3, 3), char("sniper", 4, 3), char("sapper", 3, 4),
                           zombie("walker", 4, 4)])
    sgt, z = at(game, 3, 3), at(game, 4, 4)
    lock(game, sgt, z)
    set_mode(game, sgt, STATIONARY)
    dice(game, [5])
    run(game, activation.try_unlock(game, sgt))
    assert events(game, "unlock_attempt")[0]["need"] == 6


def _estimates(game: Any, ent: int, mode: str) -> dict[tuple[Any, ...], int]:
    """The hit # the activation hands the policy for each attack option, after declaring `mode`."""
    declare(game, ent, mode, 0)
    opts = options(game, ent)
    return {tuple(opts[i]): v for i, v in activation.estimates(game, ent, opts).items()}


def test_hit_estimates_for_the_policy(tmp_path: Path) -> None:
    """The activation tells the policy each attack's final hit # against its target: walking PPSh at
    range 3 is 5 + 2; the sapper's spade, with a zombie touching diagonally and another two squares
    ahead behind a friend, is 5 against the touching one."""
    game = make(tmp_path, [char("sergeant", 0, 3), zombie("walker", 3, 3)])
    assert _estimates(game, at(game, 0, 3), WALKING) == {("attack", "normal", "ppsh"): 7,
                                                          ("attack", "spread", "ppsh"): 7}
    game = make(tmp_path / "b", [char("sapper", 0, 3), zombie("walker", 2, 3), char("sniper", 1, 3),
                                 zombie("walker", 1, 4)])
    assert _estimates(game, at(game, 0, 3), STATIONARY) == {("attack", "h2h", "spade"): 5}
    # Past a friend the line of fire adds 1: walking PPSh at range 4 past the sniper is 5 + 1 + 2 + 1.
    game = make(tmp_path / "c", [char("sergeant", 0, 3), char("sniper", 2, 3), zombie("walker", 4, 3)])
    assert _estimates(game, at(game, 0, 3), WALKING) == {("attack", "normal", "ppsh"): 9,
                                                          ("attack", "spread", "ppsh"): 9}
    # Across rubble it adds 2 a square: walking PPSh at range 4 across one is 5 + 1 + 2 + 2.
    rows = list(ROWS)
    rows[3] = "..%........."
    game = make(tmp_path / "d", [char("sergeant", 0, 3), zombie("walker", 4, 3)], rows=rows)
    assert _estimates(game, at(game, 0, 3), WALKING) == {("attack", "normal", "ppsh"): 10,
                                                          ("attack", "spread", "ppsh"): 10}


def test_a_hidden_zombie_seen_during_an_activation_is_revealed(tmp_path: Path) -> None:
    """Face-down zombies turn face up once a character has LOF to them: after the activation that
    brought him into view."""
    rows = list(ROWS)
    rows[3] = ".....#......"
    rows[4] = ".....#......"
    game = make(tmp_path, [char("sergeant", 3, 4), zombie("walker", 8, 4)], rows=rows)
    z = at(game, 8, 4)
    mark(game, z, HIDDEN)
    run(game, activation.activations(game), {"stalingrad.mode": WALKING, "stalingrad.action":
                                             lambda d: ["move", 4, 6] if ["move", 4, 6] in d.options else ["end"]})
    assert not has(game, z, HIDDEN) and events(game, "zombie_revealed") == [{"zombie": z, "type": "walker"}]


# -- attacks: ammo, dispatch, modifiers -----------------------------------------------------------

@pytest.mark.parametrize(("arms", "kinds"), [
    ({"weapons": ["tt33", "grenade"], "ammo": {"tt33": 1, "grenade": 1}, "gear": []}, ["normal", "grenade"]),
    ({"weapons": ["tt33", "grenade"], "ammo": {"tt33": 0, "grenade": 0}, "gear": []}, []),
    ({"weapons": ["tt33", "grenade"], "ammo": {}, "gear": []}, []),
])
def test_one_round_or_one_grenade_is_enough(tmp_path: Path, arms: dict[str, Any], kinds: list[str]) -> None:
    """Normal fire needs ammo above 0; a grenade needs one left; a weapon with no count has none."""
    game = make(tmp_path, [char("commissar", 0, 3, Arsenal=arms), zombie("walker", 5, 3)])
    assert [o[1] for o in attack.attack_options(game, at(game, 0, 3))] == kinds


@pytest.mark.parametrize(("kind", "name", "why"), [
    ("normal", "ppsh", "normal fire (ppsh)"), ("spread", "ppsh", "spread fire (ppsh)"), ("h2h", "fists", "h2h (fists)"),
    ("grenade", "grenade", "grenade throw")])
def test_each_attack_type_resolves_its_own_way(tmp_path: Path, kind: str, name: str, why: str) -> None:
    arms = {"weapons": ["ppsh", "fists", "grenade"], "ammo": {"ppsh": 4, "grenade": 1}, "gear": []}
    game = make(tmp_path, [char("sergeant", 0, 3, Arsenal=arms), zombie("walker", 1, 3)])
    sgt = at(game, 0, 3)
    set_mode(game, sgt, STATIONARY)
    dice(game, [3, 3, 3, 3])
    run(game, attack.attack(game, sgt, kind, name), {"stalingrad.grenade_square": [4, 3]})
    assert events(game, "roll")[0]["why"] == why


def test_spread_fire_takes_the_modifiers_at_every_die(tmp_path: Path) -> None:
    """Spread fire repeats the normal fire process for each die: walking (+2) and the figures in the
    way count for the second target too (PPSh range 3: 5 + 2 + 1 = 8; range 5, past the friend and
    the first zombie: 6 + 2 + 2 = 10; one square between: one die lost)."""
    game = make(tmp_path, [char("sergeant", 0, 3), char("sniper", 1, 3), zombie("walker", 3, 3),
                           zombie("walker", 5, 3)])
    sgt, far = at(game, 0, 3), at(game, 5, 3)
    set_mode(game, sgt, WALKING)
    dice(game, [3, 3, 3])
    run(game, attack.spread_fire(game, sgt, "ppsh"), {"stalingrad.spread_target": far})
    assert [e["hit"] for e in events(game, "attack")] == [8, 10]


def test_spread_fire_cannot_shift_with_no_die_left_to_roll(tmp_path: Path) -> None:
    """Shifting costs a die per square between: with 2 dice left, a zombie two squares beyond the dead
    one is out of reach, and the attack ends after one die."""
    game = make(tmp_path, [char("sergeant", 0, 3), zombie("walker", 3, 3), zombie("walker", 6, 3)])
    sgt = at(game, 0, 3)
    set_mode(game, sgt, STATIONARY)
    dice(game, [12, 3, 3])
    decisions = run(game, attack.spread_fire(game, sgt, "ppsh"))
    assert rolls_count(game) == 1 and decisions == []


def rolls_count(game: Game) -> int:
    return len(events(game, "roll"))


def test_h2h_takes_the_activation_and_lof_modifiers(tmp_path: Path) -> None:
    """H2H hit #: the weapon's, + the activation's modifier, + LOF modifiers (a spade reaching two
    squares past a friend: 5 + 2 walking + 1)."""
    game = make(tmp_path, [char("sapper", 0, 3), char("sniper", 1, 3), zombie("walker", 2, 3)])
    sap = at(game, 0, 3)
    set_mode(game, sap, WALKING)
    dice(game, [3])
    run(game, attack.h2h(game, sap, "spade"))
    assert events(game, "attack")[0]["hit"] == 8


def test_an_h2h_only_weapon_rolls_its_rate_of_fire(tmp_path: Path) -> None:
    """DESIGN CHOICE: a weapon that does not fire rolls its ROF in H2H (a pair of knives, ROF 2)."""
    arms = {"knives": {"pb": 1, "rm": 1, "hit": 6, "rof": 2}, "fists": {"pb": 1, "rm": 1, "hit": 7, "rof": 1}}
    game = make(tmp_path, [char("sergeant", 0, 3, Arsenal={"weapons": ["knives"], "ammo": {}, "gear": []}),
                           zombie("walker", 1, 3)], extra={"weapons": arms})
    sgt = at(game, 0, 3)
    set_mode(game, sgt, STATIONARY)
    dice(game, [3, 3])
    run(game, attack.h2h(game, sgt, "knives"))
    assert events(game, "attack")[0]["values"] == [3, 3]


def test_the_throw_counts_figures_in_the_way(tmp_path: Path) -> None:
    """Grenade throw hit #: range, + hit # modifiers as for an attack (a friend in the way: 4 + 1)."""
    game = make(tmp_path, [char("commissar", 0, 3), char("sniper", 2, 3)])
    com = at(game, 0, 3)
    set_mode(game, com, STATIONARY)
    dice(game, [12, 3, 3])
    run(game, attack.grenade(game, com, "grenade"), {"stalingrad.grenade_square": [4, 3]})
    assert events(game, "grenade")[0]["throw"] == 5


def test_a_zombie_in_the_way_is_no_intervening_character(tmp_path: Path) -> None:
    """5c: a 2 wounds the first intervening *character*: in a blast aimed at the sniper past a zombie,
    a 2 wounds nobody."""
    game = make(tmp_path, [char("commissar", 0, 3), char("sniper", 6, 3), zombie("walker", 5, 3)])
    com = at(game, 0, 3)
    set_mode(game, com, STATIONARY)
    dice(game, [12, 3, 2, 3])
    run(game, attack.grenade(game, com, "grenade"), {"stalingrad.grenade_square": [4, 3]})
    assert [e["values"] for e in events(game, "attack")][1] == [2] and events(game, "wound") == []


def test_no_lock_round_a_wall_corner_or_a_closed_door(tmp_path: Path) -> None:
    """A zombie touches a character only where a step could be taken: not diagonally past a wall
    corner or a closed door."""
    for corner in ("#", "+"):
        rows = list(ROWS)
        rows[3] = "...." + corner + "......."
        game = make(tmp_path / corner, [char("sergeant", 3, 3), zombie("walker", 4, 4)], rows=rows)
        sgt, z = at(game, 3, 3), at(game, 4, 4)
        run(game, zombies.zombie_attack(game, z))
        assert lockers(game, sgt) == []


def test_a_character_killed_on_a_spawn_square_is_not_pushed(tmp_path: Path) -> None:
    """Spawn: the character in the spawn square takes 1 wound; if it is his last, there is no one to
    push and the zombie takes the square."""
    rows = ["A...........", *ROWS[1:]]
    game = make(tmp_path, [char("sergeant", 0, 0), char("sniper", 11, 7)], rows=rows)
    sgt = at(game, 0, 0)
    set_wounds(game, sgt, 2)
    decisions = run(game, spawn.spawn_at(game, "walker", (0, 0)))
    assert wounds(game, sgt) is None and decisions == [] and events(game, "pushed") == []
    assert events(game, "zombie_placed")[0]["square"] == [0, 0]


def test_metrics_count_what_happened(tmp_path: Path) -> None:
    """The game's numbers: wounds taken, characters killed and escaped, ammo spent and left, zombies
    killed, on the board and spawned."""
    rows = ["A...........", *ROWS[1:]]
    game = make(tmp_path, [char("sergeant", 0, 3), char("sniper", 2, 3, Wounds={"taken": 2, "limit": 3}),
                           zombie("walker", 5, 3), zombie("walker", 9, 7)], rows=rows)
    sgt = at(game, 0, 3)
    set_mode(game, sgt, STATIONARY)
    dice(game, [2, 1, 12, 3])  # hit # 6 (the sniper in the way): the 2 kills the sniper, the 1 costs a round
    run(game, attack.normal_fire(game, sgt, "ppsh"))
    run(game, spawn.spawn_at(game, "walker", (0, 0)))
    assert game.metrics() == {"characters_escaped": 0, "characters_left": 1, "characters_killed": 1,
                              "wounds_taken": 1, "ammo_spent": 1, "ammo_left": 3, "zombies_killed": 1,
                              "zombies_on_board": 2, "zombies_spawned": 1}


@pytest.mark.parametrize(("start", "target", "offered"), [
    ((3, 2), (3, 4), True),    # from the side arc (56°) into the front arc (45°): offered
    ((4, 2), (4, 5), False),   # side arc to side arc (53°), in LOF all along: not offered
    ((2, 4), (2, 7), False),   # already in the front arc and LOF: not offered again
])
def test_covering_fire_is_offered_only_on_coming_into_view(tmp_path: Path, start: tuple[int, int],
                                                         target: tuple[int, int], offered: bool) -> None:
    """Covering (DESIGN CHOICE): the token is offered when a zombie comes into the covering
    character's front arc and LOF (or touches him), not while it moves about where he already saw it
    or outside his front arc. The sniper at (0, 0) faces south; the zombie walks toward the sergeant."""
    game = make(tmp_path, [char("sniper", 0, 0, facing=4), char("sergeant", *target), zombie("walker", *start)])
    set_covering(game, at(game, 0, 0), 0)
    decisions = run(game, zombies.zombie_activations(game), {"stalingrad.cover": "hold"})
    assert bool(asked(decisions, "stalingrad.cover")) == offered


# -- setup, spawning, the round's bookkeeping -------------------------------------------------------

def test_setup_runs_once_and_lists_doors_by_row(tmp_path: Path) -> None:
    """Setup (before the first round) makes the map's doors and search squares once; doors are
    numbered by row then column, so the options to open them come in that order."""
    rows = list(ROWS)
    rows[2] = "....+......."
    rows[3] = "..+........."
    game = make(tmp_path, [char("sergeant", 3, 3)], rows=rows)
    stalingrad_round.setup(game)
    assert len(events(game, "setup")) == 1
    sgt = at(game, 3, 3)
    declare(game, sgt, WALKING, 4)
    assert [o for o in options(game, sgt) if o[0] == "open"] == [["open", 4, 2], ["open", 2, 3]]


def test_stalingrad_is_played_on_squares(tmp_path: Path) -> None:
    """A piece standing on a hex cell cannot join a game on the square grid."""
    with pytest.raises(GameError, match="mixes boards"):
        make(tmp_path, [char("sergeant", 3, 3, Position={"x": 3, "y": 3, "grid": "hex"})])


def test_a_spawned_zombie_is_unhurt(tmp_path: Path) -> None:
    """A brute that just arrived has both its hits: a first hit stuns it."""
    rows = ["A...........", *ROWS[1:]]
    game = make(tmp_path, [char("commissar", 0, 3, facing=0)], rows=rows)
    run(game, spawn.spawn_at(game, "brute", (0, 0)))
    brute = at(game, 0, 0)
    assert wounds(game, brute) == 0
    set_mode(game, at(game, 0, 3), STATIONARY)
    dice(game, [9])
    run(game, attack.normal_fire(game, at(game, 0, 3), "tt33"))
    assert wounds(game, brute) == 1 and has(game, brute, STUNNED)


def test_a_waiting_zombie_held_by_a_character_is_logged(tmp_path: Path) -> None:
    rows = ["A...........", *ROWS[1:]]
    game = make(tmp_path, [char("sapper", 0, 0), zombie("walker", 1, 0), zombie("walker", 0, 1),
                           zombie("walker", 1, 1)], rows=rows)
    sapper = at(game, 0, 0)
    run(game, spawn.spawn_at(game, "walker", (0, 0)))
    new = events(game, "zombie_spawned")[0]["zombie"]
    assert events(game, "zombie_held") == [{"zombie": new, "square": [0, 0], "by": sapper}]


def test_nobody_has_escaped_at_first(tmp_path: Path) -> None:
    """End segment: with nobody out yet, even a scenario needing one escape is not won."""
    game = make(tmp_path, [char("sergeant", 3, 3)])
    stalingrad_round.end_segment(game)
    assert not game.over
    assert game.metrics() == {"characters_escaped": 0, "characters_left": 1, "characters_killed": 0,
                              "wounds_taken": 0, "ammo_spent": 0, "ammo_left": 4, "zombies_killed": 0,
                              "zombies_on_board": 0, "zombies_spawned": 0}


def test_pieces_left_out_of_a_prefab_take_the_components_defaults(tmp_path: Path) -> None:
    """A character prefab may leave its activation and arms out: no token (-1), not activated, no MP;
    the game entity starts before setup with nothing spawned."""
    prefabs = tmp_path / "pieces.yaml"
    prefabs.write_text("rookie:\n  Kind: {name: rookie}\n  Faction: {side: survivors}\n  Position: {}\n"
                       "  Facing: {}\n  Wounds: {limit: 3}\n  Engaged: {}\n  Markers: {}\n  Arsenal: {}\n"
                       "  ActivationState: {}\nbare_game:\n  Kind: {name: game}\n  StalingradRound: {}\n"
                       "  Tally: {}\n")
    path = write_scenario(tmp_path, entities=[{"prefab": "rookie", "set": {"Position": {"x": 3, "y": 3}}}])
    text = Path(path).read_text().replace("- prefab: game", "- prefab: bare_game")
    Path(path).write_text(text + "prefabs: [pieces.yaml]\n")
    game = new_game(path, 1)
    try:
        rookie = at(game, 3, 3)
        act = act_state(game, rookie)
        assert (act.mode, act.mp, act.activated, act.attacked, act.covering) == ("", 0, False, False, -1)
        assert (weapons(game, rookie), ammo(game, rookie), gear(game, rookie)) == ([], {}, [])
        assert spawned(game) == 0
        game.tick = 1
        stalingrad_round.setup(game)
        assert events(game, "setup") == [{"doors": 0, "search": 0}]
    finally:
        game.close()
