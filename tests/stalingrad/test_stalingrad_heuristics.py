"""Escape from Stalingrad Z — the `heuristic` policy's documented choices (systems/stalingrad/
heuristics.py and docs/stalingrad.md, "The heuristic": run for the exit, walk with zombies near or
when locked, stand to shoot when only standing makes a shot good, search when safe; fire only at good
odds (final hit # 8 or less), never across a friend, spread fire first; grenades where the blast's
expected kills outweigh the wounds to characters; turn to shoot; open doors that shorten the way out;
the character nearest the exit first; wounds to the character with the most left). Each decision is
asked with the options the rules themselves offer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from ecs_zombie import Game
from ecs_zombie._layout import PREFABS_DIR
from ecs_zombie.components import Facing
from ecs_zombie.schedule import lookup
from ecs_zombie.systems.stalingrad import activation, attack, heuristics
from ecs_zombie.systems.stalingrad.board import closed_doors, gmap, stun_zombie
from tests.helpers import drive
from tests.stalingrad.stalingrad_support import (
    CHARACTERS,
    RUNNING,
    STATIONARY,
    WALKING,
    act_state,
    at,
    char,
    declare,
    dice,
    events,
    first,
    heuristic_choice,
    lock,
    make,
    set_ammo,
    set_wounds,
    zombie,
)

ROWS = ["............"] * 8


def action(game: Game, ent: int) -> Any:
    """The heuristic's answer to `stalingrad.action` with the options the activation offers now."""
    options = activation.actions(game, ent, game.tables["stalingrad.movement"][act_state(game, ent).mode])
    return heuristic_choice(game, "stalingrad.action", options, character=ent,
                            estimates=activation.estimates(game, ent, options))


EXIT_ROWS = ["...........E"] + ["............"] * 7


def test_declares_a_run_unless_zombies_are_near_or_it_is_locked(tmp_path: Path) -> None:
    """Running with no zombie within 4 squares; walking with one within 4 (shots at +2, not +4), when
    forced into H2H, and when locked (so that breaking free lets it step away)."""
    game = make(tmp_path, [char("sergeant", 0, 0), char("sniper", 5, 3), zombie("walker", 6, 3),
                           char("sapper", 0, 6), zombie("walker", 1, 7), char("commissar", 10, 0)],
                rows=EXIT_ROWS, track="-" * 12)
    sgt, sniper, sapper, z = at(game, 0, 0), at(game, 5, 3), at(game, 0, 6), at(game, 1, 7)
    modes = [RUNNING, WALKING, STATIONARY]
    assert heuristic_choice(game, "stalingrad.mode", modes, character=sgt) == RUNNING  # nearest 6 squares off
    assert heuristic_choice(game, "stalingrad.mode", modes, character=at(game, 10, 0)) == WALKING  # 4 off
    assert heuristic_choice(game, "stalingrad.mode", modes, character=sniper) == WALKING  # forced H2H
    lock(game, sapper, z)
    assert heuristic_choice(game, "stalingrad.mode", modes, character=sapper) == WALKING  # locked


def test_stands_when_only_standing_makes_the_shot_good(tmp_path: Path) -> None:
    """TT-33 (hit 6, PB 3, RM 2) at range 5: 7 stationary, 9 walking: it stands and shoots while the
    round track leaves time to reach the exit walking; with no time left it runs."""
    game = make(tmp_path, [char("commissar", 0, 3), zombie("walker", 5, 3)], rows=EXIT_ROWS, track="-" * 12)
    com = at(game, 0, 3)
    modes = [RUNNING, WALKING, STATIONARY]
    assert heuristic_choice(game, "stalingrad.mode", modes, character=com) == STATIONARY
    game.tick = 11
    assert heuristic_choice(game, "stalingrad.mode", modes, character=com) == RUNNING


def test_searches_when_no_zombie_is_near_and_time_allows(tmp_path: Path) -> None:
    """On a search square, no zombie within 6 squares, time to run out after: it searches; with the
    last round at hand, or a zombie 5 squares off, it does not."""
    rows = ["?..........E"] + ["............"] * 7
    game = make(tmp_path, [char("sergeant", 0, 0), zombie("walker", 8, 7)], rows=rows, track="-" * 12)
    sgt = at(game, 0, 0)
    modes = [RUNNING, WALKING, STATIONARY, "searching"]
    assert heuristic_choice(game, "stalingrad.mode", modes, character=sgt) == "searching"
    game.tick = 11
    assert heuristic_choice(game, "stalingrad.mode", modes, character=sgt) == RUNNING
    near = make(tmp_path / "b", [char("sergeant", 0, 0), zombie("walker", 5, 4)], rows=rows, track="-" * 12)
    assert heuristic_choice(near, "stalingrad.mode", modes, character=at(near, 0, 0)) != "searching"


def test_takes_the_first_turn_on_winning_the_initiative(tmp_path: Path) -> None:
    game = make(tmp_path, [char("sergeant", 0, 3)])
    game.tick = 2
    dice(game, [12, 1])
    drive(game, lookup("stalingrad.initiative").run(game, {"modifier": -4}))
    assert first(game) == CHARACTERS


def test_good_shots_are_taken_spread_fire_first(tmp_path: Path) -> None:
    """A final hit # of 8 or less is a good shot; spread fire before normal fire at equal odds (PPSh
    stationary at range 3: 5)."""
    game = make(tmp_path, [char("sergeant", 0, 3), zombie("walker", 3, 3)])
    sgt = at(game, 0, 3)
    declare(game, sgt, STATIONARY, 0)
    assert action(game, sgt) == ["attack", "spread", "ppsh"]


@pytest.mark.parametrize(("rng", "good"), [(3, True), (4, False)])
def test_a_good_shot_is_eight_or_less(tmp_path: Path, rng: int, good: bool) -> None:
    """Walking, a TT-33 at range 3 is 6 + 2 = 8 (fire); at range 4, 7 + 2 = 9: the commissar moves
    toward the exit instead."""
    rows = list(ROWS)
    rows[0] = "...........E"
    game = make(tmp_path, [char("commissar", 0, 3), zombie("walker", rng, 3)], rows=rows)
    com = at(game, 0, 3)
    declare(game, com, WALKING, 4)
    choice = action(game, com)
    assert (choice == ["attack", "normal", "tt33"]) == good
    assert good or choice[0] == "move"


@pytest.mark.parametrize(("mode", "rng", "fires"), [(STATIONARY, 8, True), (RUNNING, 3, True), (RUNNING, 4, False)])
def test_fair_shots_when_nothing_better(tmp_path: Path, mode: str, rng: int, fires: bool) -> None:
    """With no move toward the exit left, a fair shot (10 or less) is taken, else the activation ends:
    TT-33 stationary at range 8: 9; running at range 3: 10; running at range 4: 11."""
    game = make(tmp_path, [char("commissar", 0, 3), zombie("walker", rng, 3)])
    com = at(game, 0, 3)
    declare(game, com, mode, 0)
    assert action(game, com) == (["attack", "normal", "tt33"] if fires else ["end"])


def test_fights_back_in_h2h_with_the_best_weapon(tmp_path: Path) -> None:
    """Locked or forced into H2H: the H2H attack with the lowest hit # (PPSh 5 before fists 7)."""
    game = make(tmp_path, [char("sergeant", 3, 3), zombie("walker", 4, 3)])
    sgt = at(game, 3, 3)
    declare(game, sgt, STATIONARY, 0)
    assert action(game, sgt) == ["attack", "h2h", "ppsh"]


@pytest.mark.parametrize(("pack", "throws"), [(3, True), (1, False)])
def test_grenades_go_where_the_blast_kills_most(tmp_path: Path, pack: int, throws: bool) -> None:
    """The blast attacks every figure in LOF of the landing square at hit # 2 there, +1 a square, a
    kill on hit # + 3 or more: three walkers together 8 squares off are worth about 1.8 kills if it
    lands, over the 0.6 the heuristic asks for even after the throw's odds (range 8: 5 in 12) and its
    deviations; a lone walker is not (8 in 12 of a kill if it lands)."""
    zs = [zombie("walker", 8, 3), zombie("walker", 8, 4), zombie("walker", 9, 3)][:pack]
    game = make(tmp_path, [char("commissar", 0, 3), *zs])
    com = at(game, 0, 3)
    declare(game, com, STATIONARY, 0)
    choice = action(game, com)
    assert (choice == ["attack", "grenade", "grenade"]) == throws
    if throws:
        squares = [list(s) for s in attack.grenade_squares(game, com)]
        assert heuristic_choice(game, "stalingrad.grenade_square", squares, character=com) == [8, 3]


def test_heads_for_the_exit_and_opens_the_door_in_the_way(tmp_path: Path) -> None:
    rows = list(ROWS)
    rows[2] = "#####+######"
    rows[0] = "...........E"
    game = make(tmp_path, [char("sergeant", 5, 3)], rows=rows)
    sgt = at(game, 5, 3)
    declare(game, sgt, RUNNING, 8)
    assert action(game, sgt) == ["open", 5, 2]
    drive(game, activation.activate(game, sgt))
    assert [e["open"] for e in events(game, "door")] == [True]


def test_wounds_go_to_the_character_with_most_left(tmp_path: Path) -> None:
    game = make(tmp_path, [char("sergeant", 2, 3), char("sapper", 4, 3), zombie("walker", 3, 3)])
    sgt, sapper = at(game, 2, 3), at(game, 4, 3)
    set_wounds(game, sapper, 2)  # 4 wounds: 2 left; the sergeant has 3 left
    assert heuristic_choice(game, "stalingrad.wound_target", [sgt, sapper]) == sgt
    set_wounds(game, sgt, 2)  # 1 left
    assert heuristic_choice(game, "stalingrad.wound_target", [sgt, sapper]) == sapper


def test_spread_fire_stays_on_its_target_and_covering_tokens_are_used(tmp_path: Path) -> None:
    game = make(tmp_path, [char("sergeant", 0, 3), zombie("walker", 3, 3), zombie("walker", 4, 4)])
    a, b = at(game, 3, 3), at(game, 4, 4)
    assert heuristic_choice(game, "stalingrad.spread_target", [a, b], previous=[4, 4]) == b
    assert heuristic_choice(game, "stalingrad.spread_target", [a, b], previous=[9, 9]) == a
    assert heuristic_choice(game, "stalingrad.cover", ["hold", "fire"], character=at(game, 0, 3)) == "fire"


@pytest.mark.parametrize(("friend", "throws"), [(None, True), ((10, 4), False), ((10, 7), True)])
def test_no_grenade_near_a_friend(tmp_path: Path, friend: tuple[int, int] | None, throws: bool) -> None:
    """A character in the blast is wounded on a hit as a zombie is killed (the design choice: a hit on
    a character is one wound), and a wound weighs as six kills: a friend beside the pack stops the
    throw; one behind a wall, out of the blast's LOF, does not."""
    rows = ["............"] * 6 + ["..........##", "............"]
    ents = [char("commissar", 0, 3), zombie("walker", 8, 3), zombie("walker", 8, 4), zombie("walker", 9, 3)]
    if friend:
        ents.append(char("sniper", *friend))
    game = make(tmp_path, ents, rows=rows)
    com = at(game, 0, 3)
    declare(game, com, STATIONARY, 0)
    assert (action(game, com) == ["attack", "grenade", "grenade"]) == throws


def test_no_shot_across_a_friend(tmp_path: Path) -> None:
    """A roll of 2 wounds the first intervening character: a good shot (PPSh stationary at range 3,
    5 + 1 for the figure between) is not taken across the sniper, and covering fire across him is
    held; with nobody between, covering fire is taken."""
    game = make(tmp_path, [char("sergeant", 0, 3), char("sniper", 1, 3, facing=0), zombie("walker", 3, 3)])
    sgt = at(game, 0, 3)
    declare(game, sgt, STATIONARY, 0)
    assert action(game, sgt) == ["end"]
    assert heuristic_choice(game, "stalingrad.cover", ["hold", "fire"], character=sgt) == "hold"
    alone = make(tmp_path / "b", [char("sergeant", 0, 3), zombie("walker", 3, 3)])
    assert heuristic_choice(alone, "stalingrad.cover", ["hold", "fire"], character=at(alone, 0, 3)) == "fire"



@pytest.mark.parametrize("walker", [(6, 3), (7, 3)])
def test_no_fair_shot_across_a_friend_either(tmp_path: Path, walker: tuple[int, int]) -> None:
    """A shot the heuristic would take only as a fair one (10 or under: PPSh at range 6 walking,
    5 + 2 + 2, +1 for the sniper between, exactly 10) is not taken across a friend either; nor one
    past fair (range 7: 11)."""
    game = make(tmp_path, [char("sergeant", 0, 3), char("sniper", 2, 3, facing=0), zombie("walker", *walker)])
    sgt = at(game, 0, 3)
    declare(game, sgt, WALKING, 0)
    assert action(game, sgt)[0] != "attack"

def test_turns_to_shoot_a_zombie_behind(tmp_path: Path) -> None:
    """Facing north-west with a walker 3 squares east (rear arc): walking, it makes the smallest turn
    that brings the walker into its front arc (to north-east, 90 degrees, 1 MP; due east lies on the
    front arc's edge, 45 degrees) for a good shot (TT-33 at range 3: 6 + 2 = 8), then fires."""
    game = make(tmp_path, [char("commissar", 5, 3, facing=7), zombie("walker", 8, 3)])
    com = at(game, 5, 3)
    declare(game, com, WALKING, 4)
    assert action(game, com) == ["face", 1]
    game.world.get(com, Facing).direction = 1
    assert action(game, com) == ["attack", "normal", "tt33"]


def test_opens_a_door_that_shortens_the_way_out(tmp_path: Path) -> None:
    """A closed door beside the character on the short way to the exit is opened rather than walking
    round the wall, though the exit can be reached without it."""
    rows = ["E...........", "#####+#####.", "............", "............"]
    game = make(tmp_path, [char("sergeant", 5, 2)], rows=rows)
    sgt = at(game, 5, 2)
    declare(game, sgt, WALKING, 4)
    assert action(game, sgt) == ["open", 5, 1]


def test_the_character_nearest_the_exit_activates_first(tmp_path: Path) -> None:
    game = make(tmp_path, [char("sergeant", 0, 0), char("sniper", 9, 2)], rows=EXIT_ROWS)
    assert heuristic_choice(game, "stalingrad.activate", [at(game, 0, 0), at(game, 9, 2)]) == at(game, 9, 2)


def test_forced_into_h2h_it_fights_even_at_bad_odds(tmp_path: Path) -> None:
    """Forced into H2H (a zombie touching its front, not yet locking it), a running character fights
    (PPSh 5 + 4 = 9) rather than run for the exit."""
    rows = list(ROWS)
    rows[0] = "...........E"
    game = make(tmp_path, [char("sergeant", 3, 3), zombie("walker", 4, 3)], rows=rows)
    sgt = at(game, 3, 3)
    declare(game, sgt, RUNNING, 8)
    assert action(game, sgt) == ["attack", "h2h", "ppsh"]


def test_no_move_that_brings_it_no_nearer_the_exit(tmp_path: Path) -> None:
    """A move is taken only if it brings the character nearer the exit: with the square toward it
    taken (by a stunned zombie behind him) and 1 MP left, he ends the activation."""
    rows = list(ROWS)
    rows[0] = "...........E"
    game = make(tmp_path, [char("sergeant", 5, 3, facing=6), zombie("walker", 6, 3)], rows=rows)
    sgt, z = at(game, 5, 3), at(game, 6, 3)
    stun_zombie(game, z)
    declare(game, sgt, WALKING, 1)
    assert action(game, sgt) == ["end"]


def test_closes_a_door_on_the_zombies_behind(tmp_path: Path) -> None:
    """Zombies cannot open doors (a documented choice): a character just out of a room, a walker
    inside, closes the open door behind him (it cuts the walker's way to him and lengthens no
    character's way out) before walking on; with the walker outside the room, he walks on."""
    rows = ["E.........", "##/#######", "#........#", "#........#", "##########"]
    game = make(tmp_path, [char("sergeant", 3, 0), zombie("walker", 6, 3)], rows=rows)
    sgt = at(game, 3, 0)
    declare(game, sgt, WALKING, 4)
    assert action(game, sgt) == ["close", 2, 1]
    outside = make(tmp_path / "b", [char("sergeant", 3, 0), zombie("walker", 9, 0)], rows=rows)
    declare(outside, at(outside, 3, 0), WALKING, 4)
    assert action(outside, at(outside, 3, 0))[0] == "move"


BLAST_MAP = [
    "............",
    "............",
    "............",
    "............",
    "...%........",
    "............",
    "............",
    "............",
    "............",
]


def test_a_blast_weighs_each_figure_by_its_chance_of_a_hit(tmp_path: Path) -> None:
    """GRENADE: "The attack range includes the square the grenade landed on", the hit # is the
    grenade's (2, PB 1, RM 1) with only LOF modifiers (+1 a figure between, +2 an obstructive square
    crossed), and a roll of "final hit # + 3" or more hits; "skipping any targets where final hit #
    would exceed 12". So a figure r squares (diagonals 2) from the landing square is hit on a d12 of
    2 + r + 3 or more: (8 - r) / 12. The heuristic's worth of a landing square is the kills expected
    (a brute's 2 hits halve its part) less 6 for each wound expected on a character (FRIEND_COST).

    Landing on (5, 4): a walker on it 8/12, one beside it 7/12, a brute 3 away 5/12 / 2, a walker 7
    away (4 + 3) 1/12, one 8 away nothing; a walker 4 away behind a character 2 away (3/12; the
    character 6/12 x 6), one 4 away beyond rubble (2/12). The bound counts every zombie in range as
    in plain sight and no character: 8 + 7 + 1 + 4 + 4 twelfths, and the brute's 5/24."""
    folder = tmp_path / "blast"
    walkers = [(5, 4), (6, 4), (1, 1), (1, 0), (5, 8), (1, 4)]
    game = make(folder, [char("commissar", 11, 8), char("commissar", 5, 6), zombie("brute", 5, 1),
                         *(zombie("walker", x, y) for x, y in walkers)], rows=BLAST_MAP)
    blast = heuristics._Blast(game, attack.weapon(game, "grenade"))
    assert blast._value((5, 4)) == pytest.approx((8 + 7 + 1 + 3 + 2) / 12 + 5 / 24 - 6 * 6 / 12)
    assert blast.value((5, 4)) == blast._value((5, 4))
    assert blast.bound((5, 4)) == pytest.approx((8 + 7 + 1 + 4 + 4) / 12 + 5 / 24)


def test_moves_to_the_first_square_nearest_the_exit(tmp_path: Path) -> None:
    """With 2 MPs walking from (8, 4), the squares nearest the exit at (11, 0) are (8, 2), (8, 3)
    and (9, 3), each 3 squares from it (the sergeant's own square is 4): it moves to the first of
    them in the options' order (by row, then column), (8, 2)."""
    game = make(tmp_path, [char("sergeant", 8, 4)], rows=EXIT_ROWS)
    sgt = at(game, 8, 4)
    declare(game, sgt, WALKING, 2)
    assert action(game, sgt) == ["move", 8, 2]


@pytest.mark.parametrize(("second", "throws"), [((8, 5), True), ((8, 6), False)])
def test_a_grenade_needs_two_zombies_within_two(tmp_path: Path, second: tuple[int, int], throws: bool) -> None:
    """Two walkers 8 squares off: 2 apart (diagonals 2), landing on one is worth 8/12 + 6/12 of a kill
    and the grenade flies; 3 apart, no two zombies are together and the commissar shoots."""
    game = make(tmp_path, [char("commissar", 0, 3), zombie("walker", 8, 3), zombie("walker", *second)])
    com = at(game, 0, 3)
    declare(game, com, STATIONARY, 0)
    assert (action(game, com) == ["attack", "grenade", "grenade"]) == throws
    assert (heuristics.best_grenade(game, com)[1] == (8, 3)) == throws


def test_two_brutes_are_not_worth_a_grenade(tmp_path: Path) -> None:
    """Brutes take 2 hits: two of them 2 apart are worth (8/12 + 6/12) / 2 = 0.58 of a kill at best,
    under the 0.6 the heuristic asks (GRENADE_WORTH), so no square is weighed and none thrown at."""
    game = make(tmp_path, [char("commissar", 0, 3), zombie("brute", 6, 3), zombie("brute", 6, 5)])
    com = at(game, 0, 3)
    assert heuristics.best_grenade(game, com) == (0.0, None)


def test_a_negative_lof_modifier_weighs_every_square(tmp_path: Path) -> None:
    """With LOF modifiers that lower the hit # (a table may set them so), a blast's worth has no
    bound (a figure between could raise it): every zombie's square is weighed, and the pack still
    draws the grenade."""
    modifiers = {"attack": {"stationary": 0, "walking": 2, "running": 4},
                 "covering": {"stationary": 0, "walking": 2, "running": 4},
                 "lof": {"intervening_figure": -1, "obstructive": 2},
                 "arcs": {"front_half_angle": 45, "rear_half_angle": 45}, "zoc_while_stunned": False}
    game = make(tmp_path, [char("commissar", 0, 3), zombie("walker", 8, 3), zombie("walker", 8, 4),
                           zombie("walker", 9, 3)], extra={"modifiers": modifiers})
    com = at(game, 0, 3)
    blast = heuristics._Blast.of(game, com)
    assert blast is not None and blast.bound((8, 3)) is None
    assert heuristics.best_grenade(game, com)[1] == (8, 3)


def test_a_throws_worth_counts_its_deviations(tmp_path: Path) -> None:
    """A throw at range 8 in the front arc with a clear LOF, stationary, lands on a d12 of 8 or more
    (5 in 12); otherwise it deviates, weighed as landing 2 squares off in one of the eight
    directions, each as likely (those that are no square to land on left out)."""
    game = make(tmp_path, [char("commissar", 0, 3), zombie("walker", 8, 3), zombie("walker", 8, 4),
                           zombie("walker", 9, 3)])
    com = at(game, 0, 3)
    declare(game, com, STATIONARY, 0)
    blast = heuristics._Blast.of(game, com)
    assert blast is not None
    spots = [(8 + 2 * dx, 3 + 2 * dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
    off = sum(blast._value(q) for q in spots) / 8  # all eight on the open map
    want = 5 / 12 * blast._value((8, 3)) + 7 / 12 * off
    assert heuristics.throw_value(game, com, (8, 3)) == pytest.approx(want)
    assert heuristics.throw_value(game, com, (8, 3), blast) == pytest.approx(want)


def test_zombies_are_near_by_rows_too(tmp_path: Path) -> None:
    """"Within 4 squares" counts king moves, rows as columns: a walker 4 rows above the commissar
    makes it walk; one 5 rows above leaves it running."""
    game = make(tmp_path, [char("commissar", 5, 5), zombie("walker", 5, 1), char("sapper", 9, 6),
                           zombie("walker", 9, 1)], rows=EXIT_ROWS, track="-" * 12)
    modes = [RUNNING, WALKING, STATIONARY]
    assert heuristic_choice(game, "stalingrad.mode", modes, character=at(game, 5, 5)) == WALKING
    assert heuristic_choice(game, "stalingrad.mode", modes, character=at(game, 9, 6)) == RUNNING


def test_a_grenade_square_chosen_for_another_policys_throw(tmp_path: Path) -> None:
    """Asked where to throw when its own weighing would not throw (a lone walker: the throw was
    another policy's), the heuristic takes the offered square whose blast is worth most among
    those within 2 squares of a zombie (king moves), the first of equals; with none near a zombie,
    the first offered."""
    game = make(tmp_path, [char("commissar", 0, 3), zombie("walker", 6, 5)])
    com = at(game, 0, 3)
    assert heuristics.best_grenade(game, com) == (0.0, None)
    assert heuristic_choice(game, "stalingrad.grenade_square", [[2, 3], [6, 3], [6, 4], [6, 5]],
                            character=com) == [6, 5]
    # (6, 3)'s blast reaches the commissar 6 squares off (a wound weighs 6 kills); (8, 5) and (6, 7),
    # each 2 from the walker and 10 from him, are worth the same: the first of them
    assert heuristic_choice(game, "stalingrad.grenade_square", [[2, 3], [6, 3], [8, 5], [6, 7]],
                            character=com) == [8, 5]
    assert heuristic_choice(game, "stalingrad.grenade_square", [[2, 3], [1, 1]], character=com) == [2, 3]


def test_a_facing_is_worth_the_shot_at_the_nearest_zombie_it_would_see(tmp_path: Path) -> None:
    """Facing east from (5, 5), the nearest zombie in front is the walker at (7, 6), range 3 (2 + 1;
    diagonals count 2), though the one at (10, 5), range 5, came first: the TT-33 (hit 6, PB 3)
    stationary would shoot at 6 there. Facing west, the walker at (1, 5), range 4: 6 + 1."""
    game = make(tmp_path, [char("commissar", 5, 5), zombie("walker", 10, 5), zombie("walker", 7, 6),
                           zombie("walker", 1, 5)])
    com = at(game, 5, 5)
    assert heuristics.facing_shot(game, com, 2, "stationary") == 6
    assert heuristics.facing_shot(game, com, 6, "stationary") == 7
    assert [(r, sq) for r, sq, _s in heuristics.sighted(game, com)] == [(3, (7, 6)), (4, (1, 5)), (5, (10, 5))]


def test_moves_onto_an_exit_on_the_maps_first_column(tmp_path: Path) -> None:
    """The exit at (0, 0), on the map's first column: two squares off with 2 MPs walking, the
    sergeant moves onto it (and escapes) rather than to a square beside it."""
    rows = ["E..........."] + ["............"] * 7
    game = make(tmp_path, [char("sergeant", 2, 0, facing=6)], rows=rows)
    sgt = at(game, 2, 0)
    declare(game, sgt, WALKING, 2)
    assert action(game, sgt) == ["move", 0, 0]


@pytest.mark.parametrize(("zombie_at", "searches"), [((7, 7), True), ((6, 6), False)])
def test_a_search_is_safe_with_no_zombie_within_six(tmp_path: Path, zombie_at: tuple[int, int],
                                                    searches: bool) -> None:
    """`SAFE` is 6 (king moves): a walker 7 squares off leaves the search safe, one 6 off does not."""
    rows = ["?..........E"] + ["............"] * 7
    game = make(tmp_path, [char("sergeant", 0, 0), zombie("walker", *zombie_at)], rows=rows, track="-" * 12)
    modes = [RUNNING, WALKING, STATIONARY, "searching"]
    assert (heuristic_choice(game, "stalingrad.mode", modes, character=at(game, 0, 0)) == "searching") == searches


@pytest.mark.parametrize(("tick", "searches"), [(9, True), (10, False)])
def test_a_search_leaves_the_rounds_to_run_out(tmp_path: Path, tick: int, searches: bool) -> None:
    """A search takes the round; running out then takes a round per 8 squares (or part): 9 squares
    from the exit are 2 rounds' running, so the sergeant searches with 3 rounds left after this one,
    not with 2."""
    rows = ["?........E.."] + ["............"] * 7
    game = make(tmp_path, [char("sergeant", 0, 0)], rows=rows, track="-" * 12)
    game.tick = tick
    modes = [RUNNING, WALKING, STATIONARY, "searching"]
    assert (heuristic_choice(game, "stalingrad.mode", modes, character=at(game, 0, 0)) == "searching") == searches


@pytest.mark.parametrize(("zombie_x", "expect"), [(2, ["face", 5]), (1, ["end"])])
def test_turns_to_a_zombie_within_eight_behind_it(tmp_path: Path, zombie_x: int, expect: list[Any]) -> None:
    """With no shot to take (the PPSh empty) and no way out to move toward, the sergeant facing east
    turns to bring the nearest zombie behind him into his front arc when it is 8 squares off or
    nearer (king moves), by the smallest turn (south-west and north-west each turn 3 eighths; the
    first offered, south-west); 9 squares off he ends his activation."""
    game = make(tmp_path, [char("sergeant", 10, 3, facing=2), zombie("walker", zombie_x, 3)])
    sgt = at(game, 10, 3)
    set_ammo(game, sgt, "ppsh", 0)
    declare(game, sgt, WALKING, 4)
    assert action(game, sgt) == expect


@pytest.mark.parametrize(("walker", "tick", "expect"), [
    ((9, 5), 8, STATIONARY),  # range 5 (3 + 2), king 3: 7 standing, 9 walking; 4 rounds left
    ((8, 5), 8, WALKING),  # range 4, king 2: too near to stand (7 standing, 9 walking)
    ((9, 5), 9, WALKING),  # 3 rounds left: not enough to stand and still run out (5 squares: 2 walks + 2)
    ((11, 5), 8, STATIONARY),  # range 7 (5 + 2): 8 standing, a good shot, 10 walking
    ((9, 3), 8, WALKING),  # range 3: 6 standing, but 8 walking is good too: no need to stand
])
def test_stands_only_where_standing_makes_the_shot(tmp_path: Path, walker: tuple[int, int], tick: int,
                                                  expect: str) -> None:
    """The commissar (TT-33: hit 6, PB 3, RM 2) 5 squares from the exit stands for a shot when the
    shot is good (8 or under) standing and not walking (+2), the nearest zombie is more than 2
    squares off (king moves), and the rounds left after this one are at least the walks out (4
    squares a round, or part) plus 2."""
    game = make(tmp_path, [char("commissar", 6, 3), zombie("walker", *walker)], rows=EXIT_ROWS, track="-" * 12)
    game.tick = tick
    modes = [RUNNING, WALKING, STATIONARY]
    assert heuristic_choice(game, "stalingrad.mode", modes, character=at(game, 6, 3)) == expect


def test_standing_weighs_the_modifiers_table(tmp_path: Path) -> None:
    """With the table's attack modifiers at +1 stationary and +2 walking, a TT-33 shot at range 3 is
    7 standing and 8 walking: good either way, so the commissar keeps walking."""
    modifiers = {"attack": {"stationary": 1, "walking": 2, "running": 4},
                 "covering": {"stationary": 0, "walking": 2, "running": 4},
                 "lof": {"intervening_figure": 1, "obstructive": 2},
                 "arcs": {"front_half_angle": 45, "rear_half_angle": 45}, "zoc_while_stunned": False}
    game = make(tmp_path, [char("commissar", 6, 3), zombie("walker", 9, 3)], rows=EXIT_ROWS, track="-" * 12,
                extra={"modifiers": modifiers})
    game.tick = 8
    modes = [RUNNING, WALKING, STATIONARY]
    assert heuristic_choice(game, "stalingrad.mode", modes, character=at(game, 6, 3)) == WALKING


@pytest.mark.parametrize(("figure", "rubble", "bounded"), [(-1, 2, False), (1, -1, False), (0, 2, True), (1, 0, True)])
def test_a_blast_is_bounded_unless_a_lof_modifier_lowers_the_hit(tmp_path: Path, figure: int, rubble: int,
                                                                 bounded: bool) -> None:
    """The blast's quick bound counts every zombie in range as in plain sight: true while no LOF
    modifier is negative (a figure or rubble in the way can only raise the hit #); with either
    below 0 there is no bound, and every square is weighed."""
    modifiers = {"attack": {"stationary": 0, "walking": 2, "running": 4},
                 "covering": {"stationary": 0, "walking": 2, "running": 4},
                 "lof": {"intervening_figure": figure, "obstructive": rubble},
                 "arcs": {"front_half_angle": 45, "rear_half_angle": 45}, "zoc_while_stunned": False}
    game = make(tmp_path, [char("commissar", 0, 3), zombie("walker", 8, 3), zombie("walker", 8, 4)],
                extra={"modifiers": modifiers})
    blast = heuristics._Blast.of(game, at(game, 0, 3))
    assert blast is not None
    assert (blast.bound((8, 3)) is not None) == bounded


def _throw_worth(game: Game, ent: int, target: tuple[int, int], p_land: float) -> float:
    """The worth of a throw landing on `target` with chance `p_land`, else 2 squares off in one of
    the eight directions alike (those off the map or not passable left out)."""
    blast = heuristics._Blast.of(game, ent)
    assert blast is not None
    g = gmap(game)
    spots = [(target[0] + 2 * dx, target[1] + 2 * dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
    spots = [q for q in spots if g.inside(q) and g.passable(q, closed_doors(game))]
    off = sum(blast._value(q) for q in spots) / len(spots)
    return p_land * blast._value(target) + (1 - p_land) * off


@pytest.mark.parametrize(("rows", "mode", "target", "between", "p_land"), [
    (None, WALKING, (8, 3), None, 3 / 12),  # range 8 + 2 walking: lands on 10+
    (None, STATIONARY, (2, 6), None, 6 / 12),  # range 5 (2 + 3) in the side arc, +2: 7+
    (["....#......."] * 8, STATIONARY, (8, 3), None, 1 / 12),  # no LOF: range 8 + 4: 12
    (["....#......."] * 8, WALKING, (8, 3), None, 0.0),  # no LOF, walking: 14, never lands
    (None, STATIONARY, (8, 3), "sniper", 4 / 12),  # a figure between: +1, 9+
    (["....%......."] * 8, STATIONARY, (8, 3), None, 3 / 12),  # rubble crossed: +2, 10+
    (["....#......."] * 8, STATIONARY, (6, 3), None, 3 / 12),  # no LOF, range 6: 10+; 3 deviations hit the wall
    (None, STATIONARY, (8, 6), None, 2 / 12),  # range 11 (8 + 3), in front: 11+; 3 deviations off the map
])
def test_a_throws_hit_number(tmp_path: Path, rows: list[str] | None, mode: str, target: tuple[int, int],
                             between: str | None, p_land: float) -> None:
    """GRENADE: "the throw hit #: start with the range to the target square, add 2 if the target
    square is in side arc, add 4 if no LOF to target square, and then add any hit # modifiers as if
    this was an attack" (the activation's, and +1 a figure between, +2 a rubble square crossed);
    "If the number rolled is equal to or greater than the throw hit # then the grenade lands"."""
    figures = [char("commissar", 0, 3), zombie("walker", *target), zombie("walker", target[0], target[1] + 1)]
    if between:
        figures.append(char(between, 2, 3))
    game = make(tmp_path, figures, rows=rows or ["............"] * 8)
    com = at(game, 0, 3)
    declare(game, com, mode, 0)
    assert heuristics.throw_value(game, com, target) == pytest.approx(_throw_worth(game, com, target, p_land))


@pytest.mark.parametrize(("who", "ammo", "zombie_at", "rows", "mode", "want"), [
    ("sergeant", 1, (4, 3), None, STATIONARY, 5),  # PPSh with its last round, range 1: hit 5
    ("sergeant", 0, (4, 3), None, STATIONARY, 7),  # PPSh empty: fists, range 1: hit 7
    ("sergeant", 0, (5, 3), None, STATIONARY, 13),  # fists do not reach range 2: no shot
    ("sapper", 0, (5, 3), None, STATIONARY, 5),  # the spade (H, PB 2) reaches range 2: hit 5
    ("sergeant", 4, (7, 3), ["....%......."] * 8, WALKING, 5 + 1 + 2 + 2),  # range 4, walking, rubble
    ("sergeant", 4, (7, 3), ["....%......."] * 8, "", 5 + 1 + 2),  # no mode declared yet: no modifier
])
def test_a_facings_shot_by_weapon_reach_ammo_and_modifiers(tmp_path: Path, who: str, ammo: int,
                                                          zombie_at: tuple[int, int], rows: list[str] | None,
                                                          mode: str, want: int) -> None:
    """The best final hit # facing east at the nearest zombie in front: a firearm needs a round; a
    weapon that does not fire reaches range 1, an H weapon its PB; the hit # is the weapon's at the
    range, plus the declared activation's modifier (none before one is declared) and +2 a rubble
    square crossed (13: no shot)."""
    game = make(tmp_path, [char(who, 3, 3), zombie("walker", *zombie_at)], rows=rows)
    ent = at(game, 3, 3)
    if who == "sergeant":
        set_ammo(game, ent, "ppsh", ammo)
    declare(game, ent, mode, 0)
    assert heuristics.facing_shot(game, ent, 2) == want


DOOR_ROWS = ["............", "............", "###+.#######", "............", "..E........."]


@pytest.mark.parametrize(("start", "opens"), [((3, 1), True), ((4, 1), False)])
def test_opens_a_door_that_shortens_the_way_out_by_two(tmp_path: Path, start: tuple[int, int],
                                                      opens: bool) -> None:
    """A door is opened when it shortens the way to the exit by 2 squares or more (its MPs would
    buy as much walking): from (3, 1), through the door at (3, 2) is 2 shorter than by the gap at
    (4, 2); from (4, 1), only 1, and the sergeant walks on."""
    game = make(tmp_path, [char("sergeant", *start)], rows=DOOR_ROWS)
    sgt = at(game, *start)
    declare(game, sgt, WALKING, 4)
    assert (action(game, sgt) == ["open", 3, 2]) == opens


def test_heads_for_an_exit_behind_a_closed_door_out_of_reach(tmp_path: Path) -> None:
    """With every way to the exit through a closed door it cannot reach this activation, the
    sergeant still moves toward it (weighed as if the doors were open), not ending there."""
    rows = ["............", "............", "............", "######+#####", "...........E"]
    game = make(tmp_path, [char("sergeant", 0, 0)], rows=rows)
    sgt = at(game, 0, 0)
    declare(game, sgt, WALKING, 2)
    assert action(game, sgt)[0] == "move"


def test_ends_alone_on_a_map_with_no_way_out(tmp_path: Path) -> None:
    """With no exit on the map, no zombie and no shot, the sergeant ends his activation."""
    game = make(tmp_path, [char("sergeant", 5, 3)])
    sgt = at(game, 5, 3)
    declare(game, sgt, WALKING, 4)
    assert action(game, sgt) == ["end"]


def test_a_fair_shot_is_spread_fire_when_it_can_be(tmp_path: Path) -> None:
    """With only a fair shot (PPSh walking at range 6: 5 + 2 + 2 = 9), spread fire before normal fire
    at the same hit #."""
    game = make(tmp_path, [char("sergeant", 0, 3), zombie("walker", 6, 3)])
    sgt = at(game, 0, 3)
    declare(game, sgt, WALKING, 0)
    assert action(game, sgt) == ["attack", "spread", "ppsh"]


@pytest.mark.parametrize(("walker", "closes"), [((2, 2), True), ((2, 3), False)])
def test_closes_a_door_that_lengthens_a_zombies_way_by_two(tmp_path: Path, walker: tuple[int, int],
                                                          closes: bool) -> None:
    """Closing the open door at (2, 1) sends the walker round by the other at (4, 1): 2 steps longer
    from (2, 2), so the sergeant closes it; only 1 from (2, 3), so he does not."""
    rows = ["E...........", "##/#/#######", "............", "............"]
    game = make(tmp_path, [char("sergeant", 3, 0), zombie("walker", *walker)], rows=rows)
    sgt = at(game, 3, 0)
    assert heuristics.worth_closing(game, sgt, (2, 1)) == closes


@pytest.mark.parametrize(("walker", "closes"), [((2, 14), True), ((2, 15), False)])
def test_closes_a_door_only_on_zombies_within_fifteen(tmp_path: Path, walker: tuple[int, int], closes: bool) -> None:
    """Closing the only door cuts the walker's way to the sergeant: worth it for a walker 15 steps
    away, not for one 16 away."""
    rows = ["E...........", "##/#########"] + ["............"] * 16
    game = make(tmp_path, [char("sergeant", 3, 0), zombie("walker", *walker)], rows=rows)
    assert heuristics.worth_closing(game, at(game, 3, 0), (2, 1)) == closes


@pytest.mark.parametrize(("options", "want"), [
    ([["attack", "normal", "ppsh"], ["attack", "spread", "ppsh"], ["attack", "h2h", "ppsh"]], "h2h"),
    ([["attack", "normal", "ppsh"], ["attack", "spread", "ppsh"]], "spread"),
])
def test_covering_fire_takes_h2h_then_spread_fire(tmp_path: Path, options: list[list[str]], want: str) -> None:
    """A covering attack: H2H when offered (the zombie is at hand), else spread fire before normal."""
    game = make(tmp_path, [char("sergeant", 0, 3), zombie("walker", 1, 3)])
    assert heuristic_choice(game, "stalingrad.cover_attack", options, character=at(game, 0, 3))[1] == want


def test_a_face_down_zombie_is_drawn_again_from_the_spawn_die(tmp_path: Path) -> None:
    """The determinizer re-draws each face-down zombie's type from the spawn section's die (1d12:
    walker to 6, runner to 8, brute to 10, lurker to 12), each roll 1 + a draw below 12 from its
    stream; a zombie already hit keeps at least one hit more than it took."""
    from ecs_zombie.components import Kind, Markers, Wounds
    from ecs_zombie.rng import PCG32
    from ecs_zombie.systems.stalingrad.hidden import face_down

    spawn = {"waves": [], "type_die": "1d12", "types": [{"upto": 6, "type": "walker"}, {"upto": 8, "type": "runner"},
                                                        {"upto": 10, "type": "brute"}, {"upto": 12, "type": "lurker"}]}
    game = make(tmp_path, [char("sergeant", 0, 0), *(zombie("walker", x, 5) for x in range(8))],
                extra={"spawn": spawn})
    hidden = sorted(e for e, k in game.world.query1(Kind) if k.name == "walker")
    for e in hidden:
        game.world.get(e, Markers).add("hidden")
    game.world.get(hidden[0], Wounds).taken = 1
    seen = set()
    for seed in range(40):
        ref = PCG32(seed)
        face_down(game, PCG32(seed))
        for e in hidden:  # in entity order, as the world is queried
            roll = 1 + ref.below(12)
            want = "walker" if roll <= 6 else "runner" if roll <= 8 else "brute" if roll <= 10 else "lurker"
            assert game.world.get(e, Kind).name == want
            seen.add(want)
        assert game.world.get(hidden[0], Wounds).limit >= 2
    assert seen == {"walker", "runner", "brute", "lurker"}


def test_a_face_down_zombie_drawn_again_adds_the_dies_modifier(tmp_path: Path) -> None:
    """The spawn die's modifier counts when a face-down type is drawn again: with 1d4+4 (5 to 8),
    walker to 6 and runner to 8, each roll is 1 + a draw below 4 + 4."""
    from ecs_zombie.components import Kind, Markers
    from ecs_zombie.rng import PCG32
    from ecs_zombie.systems.stalingrad.hidden import face_down

    spawn = {"waves": [], "type_die": "1d4+4", "types": [{"upto": 6, "type": "walker"}, {"upto": 8, "type": "runner"}]}
    game = make(tmp_path, [char("sergeant", 0, 0), *(zombie("walker", x, 5) for x in range(4))],
                extra={"spawn": spawn})
    hidden = sorted(e for e, k in game.world.query1(Kind) if k.name == "walker")
    for e in hidden:
        game.world.get(e, Markers).add("hidden")
    seen = set()
    for seed in range(10):
        ref = PCG32(seed)
        face_down(game, PCG32(seed))
        for e in hidden:
            want = "walker" if 1 + ref.below(4) + 4 <= 6 else "runner"
            assert game.world.get(e, Kind).name == want
            seen.add(want)
    assert seen == {"walker", "runner"}


@pytest.mark.parametrize(("a", "b", "moves"), [((5, 0), (2, 1), 3), ((1, 5), (2, 0), 5), ((3, 3), (3, 3), 0)])
def test_a_turn_to_a_zombie_counts_king_moves(a: tuple[int, int], b: tuple[int, int], moves: int) -> None:
    """The heuristic's "within 8" of a zombie to turn towards counts king moves: the larger of the
    two differences, across or along."""
    assert heuristics.king(a, b) == heuristics.king(b, a) == moves



def test_the_blast_reach_follows_the_grenade(tmp_path: Path) -> None:
    """GRENADE: a figure is hit on a d12 of "final hit # + 3" or more, so the blast reaches as far as
    the grenade's hit # (primary within PB, +1 each RM beyond) stays at 9 or less: 7 squares for the
    book's grenade (hit 2, PB 1, RM 1: hit # 9 at range 7, counting the landing square as 1), 10 for
    a hybrid's grenade of hit 4, PB 1, RM 2 (hit # 4 + 5 = 9 at ranges 9 and 10, 10 at 11). Landing
    on (1, 3), walkers 9, 10 and 11 squares away in plain sight ((10, 3), (10, 4), (11, 4)) are
    worth 1/12 + 1/12 + 0 to that grenade: the reach is the grenade's own, not the book's 7. The
    book's grenade landing on (3, 3) reaches only the first (7 away). The commissar stands out of
    reach at (11, 7)."""
    book = {"pb": 1, "rm": 1, "hit": 2, "rof": 1, "grenade": True}
    assert heuristics.blast_reach(attack.Weapon("grenade", 1, 1, 2, 1, False, False, True)) == 7
    assert heuristics.blast_reach(attack.Weapon("grenade", 1, 2, 4, 1, False, False, True)) == 10
    assert [heuristics.blast_chance(h) for h in (0, 2, 9, 10, 12, 13)] == [10 / 12, 8 / 12, 1 / 12, 0, 0, 0]
    figures = [char("commissar", 11, 7), zombie("walker", 10, 3), zombie("walker", 10, 4), zombie("walker", 11, 4)]
    weapons = yaml.safe_load((PREFABS_DIR / "stalingrad" / "weapons.yaml").read_text())
    assert weapons["grenade"] == book
    weapons["grenade"] = {**book, "hit": 4, "rm": 2}
    game = make(tmp_path / "far", figures, extra={"weapons": weapons})
    blast = heuristics._Blast.of(game, at(game, 11, 7))
    assert blast is not None and blast.reach == 10
    assert blast._value((1, 3)) == pytest.approx(2 / 12)
    assert blast.bound((1, 3)) == pytest.approx(2 / 12)
    game = make(tmp_path / "book", figures)
    blast = heuristics._Blast.of(game, at(game, 11, 7))
    assert blast is not None and blast.reach == 7
    assert blast._value((3, 3)) == pytest.approx(1 / 12)  # 7 away: hit # 9; 8 and 9 away: none
    assert blast.bound((3, 3)) == pytest.approx(1 / 12)


def test_a_negative_lof_modifier_lets_the_blast_reach_past_the_grenades_range(tmp_path: Path) -> None:
    """With the LOF modifier for an intervening figure at -1 (a hybrid's table), a walker 8 squares
    from the landing square behind another (hit # 10 - 1 = 9) is hit on a 12: it counts, where with
    the book's +1 it is out of reach. Landing on (2, 3): walkers at (9, 3) (7 away, 1/12) and
    (10, 3) (8 away, behind the first); the commissar out of reach at (11, 7)."""
    def modifiers(figure: int) -> dict[str, Any]:
        return {"attack": {"stationary": 0, "walking": 2, "running": 4},
                "covering": {"stationary": 0, "walking": 2, "running": 4},
                "lof": {"intervening_figure": figure, "obstructive": 2},
                "arcs": {"front_half_angle": 45, "rear_half_angle": 45}, "zoc_while_stunned": False}

    figures = [char("commissar", 11, 7), zombie("walker", 9, 3), zombie("walker", 10, 3)]
    for figure, worth in ((1, 1 / 12), (-1, 2 / 12)):
        game = make(tmp_path / str(figure), figures, extra={"modifiers": modifiers(figure)})
        blast = heuristics._Blast.of(game, at(game, 11, 7))
        assert blast is not None and (blast.reach is None) == (figure < 0)
        assert blast._value((2, 3)) == pytest.approx(worth)
