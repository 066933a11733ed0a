"""Escape from Stalingrad Z — every number of the player aid and of the tables we designed where it is
silent (prefabs/stalingrad/*.yaml, each marked DESIGN CHOICE and listed in docs/stalingrad.md), read
through play: forced dice, one rule run, the exact outcome. Expected values are literals from the text
or from docs/stalingrad.md, never read from the tables under test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ecs_zombie.schedule import lookup
from ecs_zombie.systems.stalingrad import activation, attack, board, round, spawn, zombies
from ecs_zombie.systems.stalingrad.board import bump, stun_zombie
from tests.helpers import drive
from tests.stalingrad.stalingrad_support import (
    CHARACTERS,
    HIDDEN,
    RUNNING,
    SEARCHING,
    STATIONARY,
    STUNNED,
    WALKING,
    ZOMBIES,
    act_state,
    ammo,
    asked,
    at,
    char,
    dice,
    events,
    first,
    gear,
    gone,
    has,
    kind,
    lock,
    make,
    remove,
    rolls,
    rule,
    run,
    set_ammo,
    set_mode,
    set_wounds,
    spawned,
    weapons,
    where,
    whys,
    wound_limit,
    wounds,
    zombie,
)

ROWS = ["............"] * 8


def script(*actions: list[object]) -> object:
    """Answer `stalingrad.action` with these actions in turn, then end the activation."""
    todo = [list(a) for a in actions]
    return lambda d: todo.pop(0) if todo else ["end"]


# -- weapons (DESIGN CHOICE, weapons.yaml) ----------------------------------------------------------

@pytest.mark.parametrize(("prefab", "name", "rng", "hit", "rof"), [
    ("commissar", "tt33", 3, 6, 1), ("commissar", "tt33", 4, 7, 1), ("commissar", "tt33", 5, 7, 1),
    ("commissar", "tt33", 6, 8, 1),
    ("sniper", "mosin", 6, 4, 1), ("sniper", "mosin", 7, 5, 1), ("sniper", "mosin", 10, 5, 1),
    ("sniper", "mosin", 11, 6, 1),
    ("sergeant", "ppsh", 3, 5, 3), ("sergeant", "ppsh", 4, 6, 3), ("sergeant", "ppsh", 5, 6, 3),
    ("sergeant", "ppsh", 6, 7, 3),
])
def test_firearms_hit_number_and_rate_of_fire(tmp_path: Path, prefab: str, name: str, rng: int, hit: int,
                                               rof: int) -> None:
    """Normal fire 3a-3b and 4 with our weapons: TT-33 PB 3 RM 2 hit 6 ROF 1; Mosin PB 6 RM 4 hit 4
    ROF 1; PPSh PB 3 RM 2 hit 5 ROF 3. Within PB the primary hit #, then +1 for each RM squares or
    part beyond it; ROF d12s are rolled (3s: all miss)."""
    game = make(tmp_path, [char(prefab, 0, 3), zombie("walker", rng, 3)])
    shooter = at(game, 0, 3)
    set_mode(game, shooter, STATIONARY)
    dice(game, [3, 3, 3])
    run(game, attack.normal_fire(game, shooter, name))
    (shot,) = events(game, "attack")
    assert (shot["hit"], len(shot["values"])) == (hit, rof)
    assert whys(game) == [f"normal fire ({name})"]


@pytest.mark.parametrize(("prefab", "name", "hit"), [
    ("commissar", "fists", 7), ("sapper", "spade", 5), ("commissar", "tt33", 6), ("sergeant", "ppsh", 5)])
def test_hand_to_hand_hit_number_and_one_die(tmp_path: Path, prefab: str, name: str, hit: int) -> None:
    """H2H uses the normal fire process with the weapon's primary hit # (fists 7, spade 5, TT-33 6,
    PPSh 5); DESIGN CHOICE: a firearm used in H2H rolls one die (the PPSh's ROF 3 does not apply),
    an H2H weapon its ROF (1)."""
    game = make(tmp_path, [char(prefab, 0, 3), zombie("walker", 1, 3)])
    ent = at(game, 0, 3)
    set_mode(game, ent, STATIONARY)
    dice(game, [3, 3, 3])
    run(game, attack.h2h(game, ent, name))
    (blow,) = events(game, "attack")
    assert (blow["hit"], len(blow["values"])) == (hit, 1)
    assert whys(game) == [f"h2h ({name})"]


@pytest.mark.parametrize(("prefab", "name", "reach"), [("sapper", "spade", 2), ("commissar", "fists", 1)])
def test_h2h_range_is_one_unless_an_h_weapon(tmp_path: Path, prefab: str, name: str, reach: int) -> None:
    """H2H range is 1 unless using a specialised H2H weapon ("H": the spade, PB 2), which reaches its
    PB range."""
    for rng in (1, 2, 3):
        game = make(tmp_path / f"{name}{rng}", [char(prefab, 0, 3), zombie("walker", rng, 3)])
        ent = at(game, 0, 3)
        assert bool(attack.h2h_targets(game, ent, game.tables["stalingrad.weapons"][name])) == (rng <= reach)


def test_spread_fire_needs_a_rate_of_fire_of_two(tmp_path: Path) -> None:
    """Spread fire "requires a weapon with a ROF >= 2": a ROF 2 weapon spreads, a ROF 1 one does not."""
    arms = {"mg": {"pb": 3, "rm": 2, "hit": 5, "rof": 2, "fire": True},
            "rifle": {"pb": 3, "rm": 2, "hit": 5, "rof": 1, "fire": True}}
    entity = char("sergeant", 0, 3, Arsenal={"weapons": ["mg", "rifle"], "ammo": {"mg": 3, "rifle": 3}, "gear": []})
    game = make(tmp_path, [entity, zombie("walker", 5, 3)], extra={"weapons": arms})
    assert attack.attack_options(game, at(game, 0, 3)) == [
        ["attack", "normal", "mg"], ["attack", "spread", "mg"], ["attack", "normal", "rifle"]]


def test_only_firearms_with_ammo_fire_and_only_rof_two_spreads(tmp_path: Path) -> None:
    """Normal and spread fire need ammo; spread fire needs ROF 2 or more (the PPSh, not the TT-33);
    fists, spade and grenades never fire."""
    game = make(tmp_path, [char("commissar", 0, 3), char("sergeant", 0, 5), char("sapper", 0, 1),
                           zombie("walker", 6, 3), zombie("walker", 6, 5), zombie("walker", 6, 1)])
    com, sgt, sap = at(game, 0, 3), at(game, 0, 5), at(game, 0, 1)
    assert attack.attack_options(game, com) == [["attack", "normal", "tt33"], ["attack", "grenade", "grenade"]]
    assert attack.attack_options(game, sgt) == [["attack", "normal", "ppsh"], ["attack", "spread", "ppsh"]]
    assert attack.attack_options(game, sap) == [["attack", "grenade", "grenade"]]
    set_ammo(game, com, "tt33", 0)
    set_ammo(game, sgt, "ppsh", 0)
    assert attack.attack_options(game, com) == [["attack", "grenade", "grenade"]]
    assert attack.attack_options(game, sgt) == []


def test_grenade_blast_counts_the_landing_square_as_range_one(tmp_path: Path) -> None:
    """Grenade: "a figure in the square the grenade landed in is at range 1"; the grenade's hit # 2
    (PB 1, RM 1) then rises 1 a square: range 1 -> 2, range 2 -> 3, range 3 -> 4; the thrower,
    4 squares off, range 5 -> 6. Each figure is a separate one-die attack (ROF 1). A 5 against hit # 3
    stuns (a 6 would hit)."""
    game = make(tmp_path, [char("commissar", 0, 3), zombie("walker", 4, 3), zombie("walker", 4, 4),
                           zombie("walker", 4, 1)])
    com, on, beside, far = at(game, 0, 3), at(game, 4, 3), at(game, 4, 4), at(game, 4, 1)
    set_mode(game, com, STATIONARY)
    dice(game, [12, 3, 4, 5, 3])
    run(game, attack.grenade(game, com, "grenade"), {"stalingrad.grenade_square": [4, 3]})
    assert [(e["target"], e["hit"], len(e["values"])) for e in events(game, "attack")] == [
        (com, 6, 1), (on, 2, 1), (beside, 3, 1), (far, 4, 1)]
    assert has(game, on, STUNNED) and has(game, beside, STUNNED) and not has(game, far, STUNNED)
    assert whys(game) == ["grenade throw"] + ["grenade blast"] * 4


def test_grenade_blast_takes_no_attack_modifier(tmp_path: Path) -> None:
    """Grenade: when applying hit # modifiers only LOF modifiers apply to the blast, not attack
    modifiers; the throw takes both (range 4 + 4 for running = 8)."""
    game = make(tmp_path, [char("commissar", 0, 3), zombie("walker", 4, 3)])
    com, z = at(game, 0, 3), at(game, 4, 3)
    set_mode(game, com, RUNNING)
    dice(game, [8, 3, 3])
    run(game, attack.grenade(game, com, "grenade"), {"stalingrad.grenade_square": [4, 3]})
    assert events(game, "grenade")[0]["throw"] == 8 and events(game, "grenade")[0]["landed"] == [4, 3]
    assert [(e["target"], e["hit"]) for e in events(game, "attack")] == [(com, 6), (z, 2)]


def test_grenade_range_is_eight(tmp_path: Path) -> None:
    """Grenade: a target square within range 8 of the character, in its front or side arc."""
    game = make(tmp_path, [char("commissar", 0, 3)])
    squares = attack.grenade_squares(game, at(game, 0, 3))
    assert (8, 3) in squares and (9, 3) not in squares and (4, 7) in squares and (5, 7) not in squares
    assert all(abs(x) + abs(y - 3) <= 8 and x >= 0 for x, y in squares)


@pytest.mark.parametrize(("rng", "fails"), [(7, False), (8, True)])
def test_hit_number_twelve_rolls_thirteen_fails(tmp_path: Path, rng: int, fails: bool) -> None:
    """Normal fire 3c: if the final hit # is greater than 12 the attack automatically fails: TT-33
    running (+4) at range 7 is 6 + 2 + 4 = 12 (rolled), at range 8 it is 13 (fails, no die)."""
    game = make(tmp_path, [char("commissar", 0, 3), zombie("walker", rng, 3)])
    com = at(game, 0, 3)
    set_mode(game, com, RUNNING)
    dice(game, [12])
    run(game, attack.normal_fire(game, com, "tt33"))
    assert (len(events(game, "attack_fails")), len(rolls(game))) == ((1, 0) if fails else (0, 1))
    assert events(game, "attack_fails" if fails else "attack")[0]["hit"] == (13 if fails else 12)


# -- hit # modifiers and arcs (DESIGN CHOICE, modifiers.yaml) --------------------------------------

@pytest.mark.parametrize(("mode", "hit"), [(STATIONARY, 6), (WALKING, 8), (RUNNING, 10)])
def test_attack_modifier_by_declared_activation(tmp_path: Path, mode: str, hit: int) -> None:
    """Hit # modifiers: stationary 0, walking +2, running +4 (the covering tokens' numbers)."""
    game = make(tmp_path, [char("commissar", 0, 3), zombie("walker", 3, 3)])
    com = at(game, 0, 3)
    set_mode(game, com, mode)
    dice(game, [3])
    run(game, attack.normal_fire(game, com, "tt33"))
    assert events(game, "attack")[0]["hit"] == hit


def test_lof_modifiers_per_figure_and_obstructive_square(tmp_path: Path) -> None:
    """LOF modifiers (DESIGN CHOICE): +1 per intervening figure, +2 per obstructive square crossed."""
    rows = list(ROWS)
    rows[3] = "..%........."
    game = make(tmp_path, [char("commissar", 0, 3), char("sniper", 1, 3), char("sapper", 3, 3),
                           zombie("walker", 4, 3)], rows=rows)
    com = at(game, 0, 3)
    set_mode(game, com, STATIONARY)
    dice(game, [3])
    run(game, attack.normal_fire(game, com, "tt33"))
    assert events(game, "attack")[0]["hit"] == 11  # range 4: 6 + 1; the rubble +2; two friends +2


@pytest.mark.parametrize(("square", "visible"), [((3, 0), True), ((3, 6), True), ((2, 0), False), ((2, 6), False)])
def test_front_arc_is_ninety_degrees(tmp_path: Path, square: tuple[int, int], visible: bool) -> None:
    """Arcs (DESIGN CHOICE): the front arc reaches 45° either side of the facing, a square exactly on
    45° included. Facing east from (0, 3): (3, 0) and (3, 6) lie on 45°; (2, 0) and (2, 6) beyond."""
    game = make(tmp_path, [char("sniper", 0, 3), zombie("walker", *square)])
    assert bool(attack.visible_zombies(game, at(game, 0, 3))) == visible


def test_side_arc_reaches_135_degrees(tmp_path: Path) -> None:
    """Arcs: the side arc lies between 45° and 135°, a square exactly on 135° at the side; beyond is
    the rear, where no grenade may be thrown. Facing east from (2, 3): (0, 1) lies on 135° (side: +2
    to the throw, range 4: 6), (0, 2) beyond it (rear); (2, 0) and (2, 6) at 90° (side)."""
    game = make(tmp_path, [char("commissar", 2, 3)])
    com = at(game, 2, 3)
    squares = attack.grenade_squares(game, com)
    assert (0, 1) in squares and (0, 2) not in squares and (2, 0) in squares and (2, 6) in squares
    set_mode(game, com, STATIONARY)
    dice(game, [12, 3])
    run(game, attack.grenade(game, com, "grenade"), {"stalingrad.grenade_square": [0, 1]})
    assert events(game, "grenade")[0]["throw"] == 4 + 2


# -- the movement table (DESIGN CHOICE, movement.yaml) ----------------------------------------------

@pytest.mark.parametrize(("mode", "far", "beyond"), [(RUNNING, (8, 3), (9, 3)), (WALKING, (4, 3), (5, 3))])
def test_movement_points(tmp_path: Path, mode: str, far: tuple[int, int], beyond: tuple[int, int]) -> None:
    """Character activation: running gives 8 MPs, walking 4; a step costs 1."""
    game = make(tmp_path, [char("sergeant", 0, 3)])
    sgt = at(game, 0, 3)
    decisions = run(game, activation.activate(game, sgt), {"stalingrad.mode": mode, "stalingrad.action": ["end"]})
    options = asked(decisions, "stalingrad.action")[0].options
    assert ["move", *far] in options and ["move", *beyond] not in options
    assert asked(decisions, "stalingrad.action")[0].context["mp"] == {RUNNING: 8, WALKING: 4}[mode]


def test_stationary_has_no_movement_points(tmp_path: Path) -> None:
    """Stationary: 0 MPs, so no movement action (no move, turn, door or gear), only attacks or ending."""
    rows = list(ROWS)
    rows[2] = "+..........."
    game = make(tmp_path, [char("sergeant", 0, 3), char("sniper", 1, 3), zombie("walker", 5, 3)], rows=rows)
    sgt = at(game, 0, 3)
    decisions = run(game, activation.activate(game, sgt), {"stalingrad.mode": STATIONARY,
                                                           "stalingrad.action": ["end"]})
    options = asked(decisions, "stalingrad.action")[0].options
    assert {o[0] for o in options} == {"attack", "end"}


@pytest.mark.parametrize(("mode", "cost"), [(RUNNING, 2), (WALKING, 2)])
def test_a_diagonal_step_costs_two(tmp_path: Path, mode: str, cost: int) -> None:
    """Movement table: a diagonal step costs 2 MPs (diagonals count 2, as for range). Boxed in by two
    stunned zombies (no zone of control), the only short way to (2, 2) is the diagonal."""
    game = make(tmp_path, [char("sergeant", 1, 1), zombie("walker", 2, 1), zombie("walker", 1, 2)])
    sgt = at(game, 1, 1)
    for z in (at(game, 2, 1), at(game, 1, 2)):
        stun_zombie(game, z)
    run(game, activation.activate(game, sgt), {"stalingrad.mode": mode, "stalingrad.action": script(["move", 2, 2])})
    assert [(e["path"], e["cost"]) for e in events(game, "moved")] == [([[2, 2]], cost)]


@pytest.mark.parametrize(("mode", "to", "cost"), [
    (WALKING, 4, 1), (WALKING, 6, 2), (WALKING, 3, 1), (RUNNING, 4, 2), (RUNNING, 6, 4), (RUNNING, 3, 2)])
def test_turning_costs_per_ninety_degrees_or_part(tmp_path: Path, mode: str, to: int, cost: int) -> None:
    """Movement table: turning costs per 90° or part: 1 walking, 2 running (facing east: south is 90°,
    west 180°, south-east 45°)."""
    game = make(tmp_path, [char("sergeant", 3, 3, facing=2)])
    sgt = at(game, 3, 3)
    run(game, activation.activate(game, sgt), {"stalingrad.mode": mode, "stalingrad.action": script(["face", to])})
    full = {RUNNING: 8, WALKING: 4}[mode]
    assert events(game, "turned") == [{"character": sgt, "facing": to, "mp": full - cost}]


@pytest.mark.parametrize(("mode", "cost"), [(RUNNING, 2), (WALKING, 1)])
def test_doors_and_gear_cost(tmp_path: Path, mode: str, cost: int) -> None:
    """Movement table: opening and closing an adjacent door, and passing gear to an adjacent
    character, cost 1 MP walking and 2 running."""
    rows = list(ROWS)
    rows[2] = "....+......."
    game = make(tmp_path, [char("sergeant", 3, 2), char("sniper", 2, 2)], rows=rows)
    sgt, sn = at(game, 3, 2), at(game, 2, 2)
    full = {RUNNING: 8, WALKING: 4}[mode]
    run(game, activation.activate(game, sgt), {"stalingrad.mode": mode, "stalingrad.action": script(
        ["open", 4, 2], ["close", 4, 2], ["pass", "bandage", sn])})
    assert [e["mp"] for e in events(game, "door")] == [full - cost, full - 2 * cost]
    assert events(game, "gear_passed") == [{"character": sgt, "to": sn, "item": "bandage"}]
    assert act_state(game, sgt).mp == full - 3 * cost and gear(game, sn) == ["bandage"]


def test_a_stunned_zombie_has_no_zone_of_control(tmp_path: Path) -> None:
    """Movement: a character loses all remaining MPs entering a zombie's zone of control, unless the
    zombie is stunned (modifiers.yaml: zoc_while_stunned false)."""
    game = make(tmp_path, [char("sergeant", 1, 4), zombie("walker", 5, 4)])
    sgt, z = at(game, 1, 4), at(game, 5, 4)
    stun_zombie(game, z)
    run(game, activation.activate(game, sgt), {"stalingrad.mode": WALKING,
                                               "stalingrad.action": script(["move", 4, 4], ["move", 4, 5])})
    assert [e["cost"] for e in events(game, "moved")] == [3, 1] and events(game, "zone_of_control") == []


# -- characters (DESIGN CHOICE, figures.yaml) ------------------------------------------------------

@pytest.mark.parametrize(("prefab", "arms", "rounds", "kit", "limit"), [
    ("sergeant", ["ppsh", "fists"], {"ppsh": 4}, ["bandage"], 3),
    ("sniper", ["mosin", "fists"], {"mosin": 5}, [], 3),
    ("commissar", ["tt33", "grenade", "fists"], {"grenade": 2, "tt33": 4}, [], 3),
    ("sapper", ["spade", "grenade"], {"grenade": 1}, [], 4),
])
def test_the_characters(tmp_path: Path, prefab: str, arms: list[str], rounds: dict[str, int], kit: list[str],
                        limit: int) -> None:
    """Characters (our design): sergeant PPSh 4 ammo and a bandage; sniper Mosin 5; commissar TT-33 4
    and two grenades; sapper spade and one grenade, 4 wounds; the others 3; all but the sapper have
    fists. A character dies of his last wound (zombie wounds, one at a time)."""
    game = make(tmp_path, [char(prefab, 3, 3), zombie("walker", 4, 3)])
    ent, z = at(game, 3, 3), at(game, 4, 3)
    assert (weapons(game, ent), ammo(game, ent), gear(game, ent)) == (arms, rounds, kit)
    lock(game, ent, z)
    for n in range(1, limit + 1):
        run(game, zombies.zombie_attack(game, z))
        assert wounds(game, ent) == (n if n < limit else None)
    assert events(game, "character_killed") == [{"character": ent, "piece": prefab}]


# -- zombie types (DESIGN CHOICE, zombies.yaml) ----------------------------------------------------

@pytest.mark.parametrize(("ztype", "move"), [("walker", 1), ("runner", 2), ("brute", 1), ("lurker", 1)])
def test_zombie_moves(tmp_path: Path, ztype: str, move: int) -> None:
    """Zombie movement: as many squares as the type's move statistic (walker 1, runner 2, brute 1,
    lurker 1), toward the nearest character."""
    game = make(tmp_path, [char("sergeant", 0, 3), zombie(ztype, 6, 3)])
    z = at(game, 6, 3)
    run(game, zombies.zombie_activations(game))
    assert where(game, z) == (6 - move, 3)


@pytest.mark.parametrize(("ztype", "hits"), [("walker", 1), ("runner", 1), ("brute", 2), ("lurker", 1)])
def test_zombie_hits(tmp_path: Path, ztype: str, hits: int) -> None:
    """Zombie types: hits to kill (walker, runner and lurker 1, brute 2). A "hit" (hit # + 3) kills a
    1-hit zombie; the brute is tough: a hit that does not kill stuns it."""
    game = make(tmp_path, [char("commissar", 0, 3), zombie(ztype, 3, 3)])
    com, z = at(game, 0, 3), at(game, 3, 3)
    set_mode(game, com, STATIONARY)
    for n in range(1, hits + 1):
        dice(game, [9])  # hit # 6: 9 is a hit
        run(game, attack.normal_fire(game, com, "tt33"))
        assert gone(game, z) == (n == hits)
    assert len(events(game, "zombie_hit")) == hits - 1
    if hits > 1:
        assert events(game, "zombie_stunned")[0]["zombie"] == z


def test_lurkers_always_arrive_face_down(tmp_path: Path) -> None:
    """Zombie types: the lurker is hidden: placed face down even in a character's LOF; a walker there
    is placed face up."""
    rows = ["A...........", *ROWS[1:]]
    game = make(tmp_path, [char("sergeant", 0, 4, facing=0)], rows=rows)
    run(game, spawn.spawn_at(game, "lurker", (0, 0)))
    lurker = at(game, 0, 0)
    assert has(game, lurker, HIDDEN)
    game2 = make(tmp_path / "b", [char("sergeant", 0, 4, facing=0)], rows=rows)
    run(game2, spawn.spawn_at(game2, "walker", (0, 0)))
    assert not has(game2, at(game2, 0, 0), HIDDEN)


@pytest.mark.parametrize(("ztype", "first_turn"), [("walker", CHARACTERS), ("runner", None)])
def test_runners_add_one_to_the_zombies_initiative(tmp_path: Path, ztype: str, first_turn: str | None) -> None:
    """Initiative: -4 to the zombies' roll "unless adjusted by ... zombie abilities": a runner on the
    board adds 1. Characters 6, zombies 9: 5 loses; 6 with a runner ties (rerolled: 1 against 12)."""
    game = make(tmp_path, [char("sergeant", 0, 3), zombie(ztype, 6, 3)])
    game.tick = 2
    dice(game, [6, 9, 1, 12])
    rule(game, "stalingrad.initiative", {"stalingrad.initiative_order": "first"})
    assert first(game) == (first_turn or ZOMBIES)
    assert len(events(game, "initiative_tie")) == (1 if first_turn is None else 0)


# -- initiative (the text and the parameters) -------------------------------------------------------

@pytest.mark.parametrize(("dice_rolled", "winner"), [([5, 8], CHARACTERS), ([5, 9], None), ([5, 10], ZOMBIES),
                                                      ([12, 12], CHARACTERS), ([1, 6], ZOMBIES)])
def test_zombies_roll_at_minus_four(tmp_path: Path, dice_rolled: list[int], winner: str | None) -> None:
    """Initiative: 1d12 each, -4 to the zombies' roll; higher wins (5 against 9 - 4 = 5 is a tie)."""
    game = make(tmp_path, [char("sergeant", 0, 3)])
    game.tick = 2
    game.params["initiative_ties"] = CHARACTERS
    dice(game, dice_rolled)
    rule(game, "stalingrad.initiative", {"stalingrad.initiative_order": "first"})
    (ini,) = events(game, "initiative")
    assert ini["characters"] == dice_rolled[0] and ini["zombies"] == dice_rolled[1] - 4
    assert ini["winner"] == (winner or CHARACTERS)
    assert len(rolls(game)) == 2


def test_initiative_ties_reroll_by_default(tmp_path: Path) -> None:
    """DESIGN CHOICE: an initiative tie is rerolled by default (5 against 9 - 4): both roll again."""
    game = make(tmp_path, [char("sergeant", 0, 3)])
    game.tick = 2
    dice(game, [5, 9, 6, 1])
    rule(game, "stalingrad.initiative", {"stalingrad.initiative_order": "second"})
    assert events(game, "initiative_tie") == [{"characters": 5, "zombies": 5}]
    assert events(game, "initiative") == [{"characters": 6, "zombies": -3, "winner": CHARACTERS, "first": ZOMBIES}]


# -- deviation (DESIGN CHOICE, deviation.yaml) -----------------------------------------------------

@pytest.mark.parametrize(("face_rolled", "offset"), [
    (1, (0, -1)), (2, (1, -1)), (3, (1, 0)), (4, (1, 1)), (5, (0, 1)), (6, (-1, 1)), (7, (-1, 0)), (8, (-1, -1))])
@pytest.mark.parametrize("squares", [1, 3])
def test_deviation_direction_and_distance(tmp_path: Path, face_rolled: int, offset: tuple[int, int],
                                          squares: int) -> None:
    """Deviation table: 1d8 for the direction (1 N, 2 NE, 3 E, 4 SE, 5 S, 6 SW, 7 W, 8 NW), 1d3 for
    the squares. A missed throw at (5, 4) moves that far."""
    game = make(tmp_path, [char("commissar", 1, 4)])
    com = at(game, 1, 4)
    set_mode(game, com, STATIONARY)
    dice(game, [1, face_rolled, squares])
    run(game, attack.grenade(game, com, "grenade"), {"stalingrad.grenade_square": [5, 4]})
    expected = [5 + offset[0] * squares, 4 + offset[1] * squares]
    assert events(game, "grenade")[0]["landed"] == expected
    assert whys(game)[:3] == ["grenade throw", "grenade deviation direction", "grenade deviation distance"]


def test_deviation_gives_up_after_ten_tries(tmp_path: Path) -> None:
    """Deviation table: a deviation past the edge deviates again, at most 10 times; then the grenade
    lands where it was aimed ((5, 0), on the top edge: north every time)."""
    game = make(tmp_path, [char("commissar", 5, 4, facing=0)])
    com = at(game, 5, 4)
    set_mode(game, com, STATIONARY)
    dice(game, [1] + [1, 1] * 10 + [3, 1, 3])
    run(game, attack.grenade(game, com, "grenade"), {"stalingrad.grenade_square": [5, 0]})
    assert len(events(game, "deviation")) == 10
    assert events(game, "grenade")[0]["landed"] == [5, 0]


# -- searching (DESIGN CHOICE, search.yaml) ---------------------------------------------------------

@pytest.mark.parametrize(("roll", "result"), [
    (1, "nothing"), (4, "nothing"), (5, "ammo"), (7, "ammo"), (8, "grenade"), (9, "grenade"),
    (10, "bandage"), (11, "bandage"), (12, "gear")])
def test_search_table(tmp_path: Path, roll: int, result: str) -> None:
    """Search table (Tractor Works): 1d12: 1-4 nothing, 5-7 two ammo for the first firearm, 8-9 a
    grenade, 10-11 a bandage (heals a wound), 12 the map case."""
    rows = list(ROWS)
    rows[3] = "?..........."
    game = make(tmp_path, [char("sergeant", 0, 3)], rows=rows, shipped=("search",), dice=[roll])
    sgt = at(game, 0, 3)
    set_wounds(game, sgt, 2)
    run(game, activation.activate(game, sgt), {"stalingrad.mode": SEARCHING})
    expected = {"nothing": ({"ppsh": 4}, 2, ["bandage"]), "ammo": ({"ppsh": 6}, 2, ["bandage"]),
                "grenade": ({"grenade": 1, "ppsh": 4}, 2, ["bandage"]), "bandage": ({"ppsh": 4}, 1, ["bandage"]),
                "gear": ({"ppsh": 4}, 2, ["bandage", "map case"])}[result]
    assert (ammo(game, sgt), wounds(game, sgt), gear(game, sgt)) == expected
    amount = {"nothing": 1, "ammo": 2, "grenade": 1, "bandage": 1, "gear": 1}[result]
    assert events(game, "searched") == [{"character": sgt, "square": [0, 3], "roll": roll, "result": result,
                                         "amount": amount, "item": "map case" if result == "gear" else ""}]


# -- Tractor Works: track, spawn section, victory, map (DESIGN CHOICE, scenario tables) --------------

def test_the_round_track_spawns_on_rounds_2_4_6_8_9_11_12(tmp_path: Path) -> None:
    """Round track "-S-S-S-SS-SS": zombies spawn on the S rounds (2, 4, 6, 8, 9, 11, 12), never after
    round 12. One wave of one walker at A."""
    rows = ["A...........", *ROWS[1:]]
    game = make(tmp_path, [char("sergeant", 11, 7)], rows=rows, shipped=("track",))
    for rnd in range(1, 15):
        game.tick = rnd
        dice(game, [1])
        run(game, spawn.spawn(game))
    assert [e[0] for e in game.events if e[1] == "zombie_spawned"] == [2, 4, 6, 8, 9, 11, 12]


@pytest.mark.parametrize(("roll", "ztype"), [(1, "walker"), (6, "walker"), (7, "runner"), (8, "runner"),
                                             (9, "brute"), (10, "brute"), (11, "lurker"), (12, "lurker")])
def test_spawn_waves_and_zombie_types(tmp_path: Path, roll: int, ztype: str) -> None:
    """Spawn section (Tractor Works): each S round one zombie at A, one at B and 1d2 at C, each of the
    type 1d12 gives: 1-6 walker, 7-8 runner, 9-10 brute, 11-12 lurker."""
    rows = ["A....B......", *ROWS[1:6], "C...........", "C..........."]
    game = make(tmp_path, [char("sergeant", 11, 7)], rows=rows, shipped=("spawn",))
    game.tick = 2
    dice(game, [roll, roll, 2, roll, roll])
    run(game, spawn.spawn(game))
    placed = [(e["type"], e["square"]) for e in events(game, "zombie_spawned")]
    assert placed == [(ztype, [0, 0]), (ztype, [5, 0]), (ztype, [0, 6]), (ztype, [0, 7])]
    assert whys(game) == ["zombie type", "zombie type", "spawn wave C", "zombie type", "zombie type"]
    assert spawned(game) == 4


def test_one_or_two_zombies_at_c(tmp_path: Path) -> None:
    rows = ["A....B......", *ROWS[1:6], "C...........", "C..........."]
    game = make(tmp_path, [char("sergeant", 11, 7)], rows=rows, shipped=("spawn",))
    game.tick = 2
    dice(game, [1, 1, 1, 1])
    run(game, spawn.spawn(game))
    assert spawned(game) == 3


@pytest.mark.parametrize(("escaped", "left", "rnd", "outcome"), [
    (3, 1, 5, CHARACTERS), (2, 2, 5, None), (2, 1, 5, None), (2, 0, 5, ZOMBIES), (1, 1, 5, ZOMBIES),
    (2, 2, 11, None), (2, 2, 12, ZOMBIES)])
def test_victory_three_out_by_round_twelve(tmp_path: Path, escaped: int, left: int, rnd: int,
                                            outcome: str | None) -> None:
    """Victory (Tractor Works): three of the four must escape by the end of round 12; the zombies win
    when that can no longer happen."""
    ents = [char("sergeant", x, 7) for x in range(max(left, 1))]
    game = make(tmp_path, ents, shipped=("victory", "track"))
    if left == 0:  # the last one fell this round
        remove(game, at(game, 0, 7))
    game.tick = rnd
    bump(game, "escaped", escaped)
    round.end_segment(game)
    assert game.outcome == outcome


def test_tractor_works(make_game) -> None:
    """The default scenario (Tractor Works): a 20 x 12 map with 4 doors (two standing open) and 4
    search squares, spawn squares A (6, 0), B (14, 0), C (0, 10), exits on the east edge; the four
    soldiers bottom left, two walkers, a brute and a runner; the game lasts at most 40 rounds."""
    game = make_game("stalingrad", 1)
    round.setup(game)
    assert events(game, "setup") == [{"doors": 4, "search": 4}]
    assert board.closed_doors(game) == {(5, 2), (16, 5)}  # the doors at (3, 4) and (10, 7) stand open
    g = game.tables["stalingrad.map"]
    assert (g.width, g.height) == (20, 12)
    assert (g.squares("spawn:A"), g.squares("spawn:B"), g.squares("spawn:C")) == (((6, 0),), ((14, 0),), ((0, 10),))
    assert g.squares("exit") == ((19, 1), (19, 2))
    soldiers = {kind(game, e): where(game, e) for e in board.characters(game)}
    assert soldiers == {"sergeant": (2, 8), "sniper": (2, 9), "commissar": (4, 8), "sapper": (4, 9)}
    assert sorted((kind(game, z), where(game, z)) for z in board.zombies(game)) == [
        ("brute", (7, 1)), ("runner", (17, 9)), ("walker", (10, 3)), ("walker", (14, 8))]
    assert [wound_limit(game, z) for z in board.zombies(game)] == [1, 1, 2, 1]
    assert game.ruleset.max_ticks == 40


def test_the_initiative_systems_defaults_are_the_texts(tmp_path: Path) -> None:
    """Scheduled without bindings, the initiative system applies the text's -4 and rerolls ties."""
    game = make(tmp_path, [char("sergeant", 0, 3)])
    game.tick = 2
    dice(game, [5, 9, 6, 1])
    drive(game, lookup("stalingrad.initiative").run(game, {}), {"stalingrad.initiative_order": "first"},
          policy="first")
    assert events(game, "initiative_tie") == [{"characters": 5, "zombies": 5}]
    assert events(game, "initiative")[0]["zombies"] == -3


def test_only_tough_zombies_are_stunned_by_a_hit(tmp_path: Path) -> None:
    """Normal fire 5a: a zombie whose hit statistic is not 1 follows its type's special abilities;
    zombies.yaml: "tough - a hit that does not kill stuns it instead". A 2-hit type without the
    ability takes the hit and is not stunned."""
    kinds = {"walker": {"move": 1, "hits": 1}, "ogre": {"move": 1, "hits": 2}}
    game = make(tmp_path, [char("commissar", 0, 3), zombie("ogre", 3, 3)], extra={"zombies": kinds})
    com, ogre = at(game, 0, 3), at(game, 3, 3)
    set_mode(game, com, STATIONARY)
    dice(game, [9])  # hit # 6: a hit
    run(game, attack.normal_fire(game, com, "tt33"))
    assert wounds(game, ogre) == 1 and not has(game, ogre, STUNNED)


@pytest.mark.parametrize("ruleset", ["stalingrad", "stalingrad-shambling", "stalingrad-paced"])
def test_the_pieces_as_the_scenario_sets_them_out(ruleset: str) -> None:
    """Zombies' hits are their type's (the zombie table: a walker or runner 1, a brute 2), for those
    the scenario places as for those that spawn; and no character has declared anything before its
    first turn (no mode, no MP, not activated, no attack made, no covering token)."""
    from ecs_zombie import new_game
    from ecs_zombie.components import Kind, Wounds
    from ecs_zombie.systems.stalingrad.components import ActivationState

    with new_game(ruleset, 1) as game:
        types = game.tables["stalingrad.zombies"]
        placed = [(game.world.get(e, Kind).name, game.world.get(e, Wounds)) for e in board.zombies(game)]
        assert placed and all(w.limit == types[name].hits and w.taken == 0 for name, w in placed)
        assert {name: w.limit for name, w in placed} == {"walker": 1, "brute": 2, "runner": 1}
        states = [game.world.get(e, ActivationState) for e in board.characters(game)]
        assert len(states) == 4
        assert all((a.mode, a.mp, a.activated, a.attacked, a.covering) == ("", 0, False, False, -1) for a in states)
