"""Night of the Shambling Dead — Battle and Combat Phases, one rule per test, dice forced."""

from __future__ import annotations

from pathlib import Path

import pytest

from ecs_zombie import Game
from ecs_zombie.components import Engaged, Markers
from ecs_zombie.systems.shambling.board import board_state
from ecs_zombie.systems.shambling.tables import CRT
from tests.shambling.shambling_setup import (
    board,
    contacts,
    dice_left,
    force,
    run_system,
    strikes,
    survivors,
    tags,
    wounds,
    zombies,
    zone_of,
)

# The Combat Results Table as printed in the rule text (rows: d6; columns: strength 1..19, 20+).
PRINTED_CRT = {
    1: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 3, 4, 5, 5],
    2: [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 4, 5, 5, 6],
    3: [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 3, 3, 4, 5, 5, 6, 6],
    4: [0, 0, 0, 0, 1, 1, 2, 2, 2, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7],
    5: [0, 0, 1, 1, 2, 2, 3, 3, 3, 3, 3, 3, 4, 5, 5, 6, 6, 6, 7, 7],
    6: [1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 6, 6, 6, 7, 7, 8],
}
RULES = Path(__file__).resolve().parents[3] / "shared" / "rules" / "night-of-the-shambling-dead.txt"


@pytest.fixture
def game(make_game) -> Game:
    return make_game("shambling", 1, params={"combat_rounds": 1})


def crt(game: Game) -> CRT:
    return game.tables["shambling.crt"]


@pytest.mark.parametrize("roll", range(1, 7))
@pytest.mark.parametrize("strength", range(1, 26))
def test_crt_cell_by_cell(make_game, roll: int, strength: int) -> None:
    """Combat Results Table: every cell as printed; strengths of 20 or more read the "20+" column."""
    table = make_game("shambling").tables["shambling.crt"]
    assert table.wounds(roll, strength) == PRINTED_CRT[roll][min(strength, 20) - 1]


@pytest.mark.skipif(not RULES.is_file(), reason="the rule text is not beside the checkout")
def test_crt_matches_the_rule_text_itself(make_game) -> None:
    """Combat Results Table: the shipped YAML equals the table parsed out of the rule text."""
    lines = RULES.read_text().split("Combat Results Table", 1)[1].splitlines()
    rows = {}
    for line in lines:
        cells = [c.strip() for c in line.split("|") if c.strip()]
        if len(cells) == 21 and cells[0] in "123456" and cells[0]:
            rows[int(cells[0])] = [int(c) for c in cells[1:]]
    table = make_game("shambling").tables["shambling.crt"]
    assert rows == table.rows == PRINTED_CRT


def test_combat_strengths_and_support_bonus(game: Game) -> None:
    """Survivor 2/1, Hero 3/2, Zombie 1/1; every unwounded survivor in Support adds 1 to the Front Line."""
    ids = board(game, front=[("hero", 0), ("survivor", 0), ("survivor", 1)],
                support=[("survivor", 0), ("survivor", 0), ("survivor", 1)], zombies_front=3)
    run_system(game, "shambling.engage", {"shambling.stance": "stand"})
    assert all(len(contacts(game, s)) == 1 for s in ids["front"])
    force(game, dice=[1, 4])
    run_system(game, "shambling.combat")
    zombie_strike, survivor_strike = strikes(game)
    assert (zombie_strike["side"], zombie_strike["strength"], zombie_strike["wounds"]) == ("zombies", 3, 0)
    # 3 + 2 + 1 in contact, +2 for the two unwounded in Support = 8; CRT[4][8] = 2.
    assert (survivor_strike["side"], survivor_strike["strength"], survivor_strike["wounds"]) == ("survivors", 8, 2)
    assert sorted(wounds(game, z) for z in ids["zombies_front"]) == [0, 1, 1]


def test_support_survivors_fight_at_one_each(game: Game) -> None:
    """All Survivors in the Support zone have a combat strength of 1 each if attacked there (hero too)."""
    board(game, front=[("survivor", 0)], support=[("hero", 0), ("survivor", 0)], zombies_support=2)
    decisions = run_system(game, "shambling.engage")
    assert not [d for d in decisions if d.kind == "shambling.stance"]  # Support: Stand and Receive only
    force(game, dice=[1, 6])
    run_system(game, "shambling.combat")
    assert [(s["side"], s["zone"], s["strength"]) for s in strikes(game)] == [
        ("zombies", "support", 2), ("survivors", "support", 2)]


def test_zombies_strike_first_unless_counter_charged(make_game) -> None:
    """The zombie player resolves combat first, unless the survivor player Counter-Charged."""
    for stance, first in (("stand", "zombies"), ("counter-charge", "survivors")):
        g = make_game("shambling", 1, params={"combat_rounds": 1})
        board(g, front=[("survivor", 0), ("survivor", 0)], zombies_front=2)
        run_system(g, "shambling.engage", {"shambling.stance": stance, "shambling.charger":
                                            lambda d: next(o for o in d.options if o != "done")})
        force(g, dice=[1, 1])
        run_system(g, "shambling.combat")
        assert next(s["side"] for s in strikes(g)) == first


def test_wounds_only_on_figures_that_began_the_round_in_contact(game: Game) -> None:
    """Wounds can only be spread amongst figures who begin that round in contact with the attackers."""
    ids = board(game, front=[("survivor", 0), ("survivor", 0), ("survivor", 0)], zombies_front=1)
    target = ids["front"][1]
    run_system(game, "shambling.engage", {"shambling.stance": "stand", "shambling.assign": target})
    force(game, dice=[6, 1])  # CRT[6][1] = 1 wound
    run_system(game, "shambling.combat")
    assert [wounds(game, s) for s in ids["front"]] == [0, 1, 0]


def test_a_six_puts_the_first_wound_on_the_hero(game: Game) -> None:
    """If the dice rolled by the attacker was a 6 then any Hero present must take a wound."""
    ids = board(game, front=[("hero", 0), ("survivor", 0)], zombies_front=2)
    run_system(game, "shambling.engage", {"shambling.stance": "stand"})
    force(game, dice=[6, 1])  # zombies: strength 2, CRT[6][2] = 1
    run_system(game, "shambling.combat", {"shambling.wound": ids["front"][1]})
    hero, other = ids["front"]
    assert (wounds(game, hero), wounds(game, other)) == (1, 0)


def test_two_wounds_remove_a_figure_and_no_figure_takes_more(game: Game) -> None:
    """No figure may take more than 2 wounds; two wounds remove it; wounds with no one left are lost."""
    ids = board(game, front=[("survivor", 0)], zombies_front=20)
    run_system(game, "shambling.engage", {"shambling.stance": "stand"})
    force(game, dice=[6])  # strength 20 → 8 wounds on the one survivor in contact
    run_system(game, "shambling.combat")
    assert wounds(game, ids["front"][0]) is None
    assert [w["taken"] for _, k, w in game.events if k == "wound"] == [1, 2]


def test_stand_and_receive_gives_every_survivor_one_zombie_first(game: Game) -> None:
    """Each survivor must have at least one zombie before additional zombies are assigned to any."""
    ids = board(game, front=[("survivor", 0), ("survivor", 0)], zombies_front=3)
    a, b = ids["front"]
    asked = run_system(game, "shambling.engage", {"shambling.stance": "stand", "shambling.assign": a})
    assigns = [d.options for d in asked if d.kind == "shambling.assign"]
    assert assigns == [[a, b], [a, b]]  # the second zombie had only b: no question asked
    assert (len(contacts(game, a)), len(contacts(game, b))) == (2, 1)


def test_counter_charge_assignment_and_join_roll(game: Game) -> None:
    """Counter-Charge: every zombie gets one attacker before any gets two; leaving unwounded figures
    behind rolls 2d6 (+1 with the Leader): 7 or less and 1d6 more unwounded figures must join."""
    ids = board(game, front=[("hero", 0), ("survivor", 0), ("survivor", 0), ("survivor", 1)], zombies_front=2)
    hero, s1, s2, hurt = ids["front"]
    z1, z2 = ids["zombies_front"]
    order = iter([hero, "done"])
    force(game, dice=[3, 3, 1])  # 3 + 3 + 1 (hero) = 7: 1d6 = 1 joins
    asked = run_system(game, "shambling.engage", {
        "shambling.stance": "counter-charge", "shambling.charger": lambda d: next(order),
        "shambling.charge_target": z1, "shambling.join": s2,
    })
    assert dice_left(game) == 0
    targets = [d.options for d in asked if d.kind == "shambling.charge_target"]
    assert targets == [[z1, z2]]  # the joiner had only z2 left: every zombie one attacker first
    assert contacts(game, hero) == [z1] and contacts(game, s2) == [z2]
    assert contacts(game, s1) == [] and contacts(game, hurt) == []
    assert "charging" in tags(game, s2) and "charging" not in tags(game, hurt)


def test_counter_charge_join_roll_above_seven_keeps_them_back(game: Game) -> None:
    ids = board(game, front=[("survivor", 0), ("survivor", 0)], zombies_front=1)
    s1, s2 = ids["front"]
    order = iter([s1, "done"])
    force(game, dice=[4, 4])
    run_system(game, "shambling.engage", {"shambling.stance": "counter-charge",
                                          "shambling.charger": lambda d: next(order)})
    assert dice_left(game) == 0 and contacts(game, s2) == []


def test_leftover_zombies_go_onto_the_chargers(game: Game) -> None:
    """DESIGN CHOICE: zombies left without an attacker are placed on the chargers, not the wounded."""
    ids = board(game, front=[("survivor", 0), ("survivor", 1)], zombies_front=3)
    s1, hurt = ids["front"]
    order = iter([s1, "done"])
    run_system(game, "shambling.engage", {"shambling.stance": "counter-charge",
                                          "shambling.charger": lambda d: next(order)})
    assert contacts(game, s1) == ids["zombies_front"] and contacts(game, hurt) == []


def test_pursuit_roll(make_game) -> None:
    """After a Counter-Charge roll 2d6 (+1 with the Hero): 7 or more stay; less and 1d6 chargers,
    chosen by the player, pursue off the board; the roll is made even if every enemy was destroyed."""
    g = make_game("shambling", 1)
    ids = board(g, front=[("hero", 0), ("survivor", 0), ("survivor", 0), ("survivor", 0)])
    for s in ids["front"]:
        g.world.get(s, Markers).add("charging")
    board_state(g, 0)[0].add("counter_charge")
    force(g, dice=[2, 2, 3])  # 2 + 2 + 1 = 5 < 7; 1d6 = 3 pursue
    run_system(g, "shambling.pursuit", {"shambling.pursue": lambda d: d.options[-1]})
    assert len(survivors(g)) == 1
    assert dice_left(g) == 0


def test_pursuit_roll_of_seven_stays(make_game) -> None:
    g = make_game("shambling", 1)
    ids = board(g, front=[("survivor", 0), ("survivor", 0)])
    for s in ids["front"]:
        g.world.get(s, Markers).add("charging")
    board_state(g, 0)[0].add("counter_charge")
    force(g, dice=[4, 3])
    run_system(g, "shambling.pursuit")
    assert len(survivors(g)) == 2 and dice_left(g) == 0


def test_victorious_figures_may_engage_another_enemy(game: Game) -> None:
    """After combat a victorious figure may move to engage another enemy figure."""
    ids = board(game, front=[("survivor", 0), ("survivor", 0)], zombies_front=3)
    a, b = ids["front"]
    z1, z2, z3 = ids["zombies_front"]
    assign = iter([a, b, b])
    run_system(game, "shambling.engage", {"shambling.stance": "stand", "shambling.assign": lambda d: next(assign)})
    assert contacts(game, a) == [z1]
    force(game, dice=[1, 6])  # zombies: no wound; survivors: strength 4, CRT[6][4] = 2
    asked = run_system(game, "shambling.combat", {"shambling.wound": z1, "shambling.re_engage": z2})
    assert wounds(game, z1) is None
    re = [d for d in asked if d.kind == "shambling.re_engage"]
    assert re[0].options == ["stay", z2, z3] and re[0].context["figure"] == a
    assert contacts(game, a) == [z2]


def test_zombies_move_into_the_next_zone(game: Game) -> None:
    """If all the survivors in one zone are killed the zombies move into the next zone, whose
    survivors Stand and Receive for the remaining rounds."""
    ids = board(game, front=[("survivor", 1)], support=[("survivor", 0), ("survivor", 0)], zombies_front=2)
    run_system(game, "shambling.engage", {"shambling.stance": "stand"})
    force(game, dice=[6])  # strength 2: CRT[6][2] = 1 wound kills the wounded survivor
    run_system(game, "shambling.combat")
    assert survivors(game, "front") == []
    for z in ids["zombies_front"]:
        assert zone_of(game, z) == "support" and "stand_only" in tags(game, z)
        assert len(contacts(game, z)) == 1
    assert not game.over


def test_zombies_held_at_bay_fight_again_next_turn(make_game) -> None:
    """After three rounds zombies on a zone that still holds survivors stay until the next turn."""
    g = make_game("shambling", 1)
    ids = board(g, front=[("survivor", 0), ("survivor", 0)], zombies_front=2)
    run_system(g, "shambling.engage", {"shambling.stance": "stand"})
    force(g, dice=[1] * 6)  # three rounds, both sides: CRT[1][<=10] = 0
    run_system(g, "shambling.combat")
    assert len(strikes(g)) == 6 and dice_left(g) == 0
    assert zombies(g, "front") == ids["zombies_front"] and not g.over
    for z in ids["zombies_front"]:
        g.world.get(z, Engaged).opponents.clear()
    run_system(g, "shambling.engage", {"shambling.stance": "stand"})
    assert all(contacts(g, z) for z in ids["zombies_front"])


def test_sudden_death(game: Game) -> None:
    """If at the end of a combat round there are zombies on a board with no survivors, the zombies win."""
    board(game, front=[("survivor", 1)], zombies_front=3)
    run_system(game, "shambling.engage", {"shambling.stance": "stand"})
    force(game, dice=[6])
    run_system(game, "shambling.combat")
    assert game.over and game.outcome == "zombies"
