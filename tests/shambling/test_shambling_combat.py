"""Night of the Shambling Dead — Battle, Assigning Figures and Combat Phases, one rule per test, dice forced."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ecs_zombie import Game
from tests.shambling.shambling_setup import (
    CHARGE,
    FRONT,
    HERO,
    NARRATOR,
    STAND,
    SUPPORT,
    SURVIVOR,
    SURVIVORS,
    ZOMBIES,
    asked,
    board,
    board_fallen,
    board_markers,
    contacts,
    counter_charged,
    dice_left,
    events,
    force,
    player,
    rolls,
    run_system,
    strikes,
    survivors,
    tags,
    tally,
    wounds,
    zombies,
    zone_of,
)


def in_order(*choices: Any) -> Any:
    """An answer that gives `choices` one after the other."""
    it: Iterator[Any] = iter(choices)
    return lambda d: next(it)


def charge(game: Game, chargers: list[int], **answers: Any) -> list[Any]:
    """Counter-charge with exactly `chargers` (in that order), answering the rest as given."""
    rules: dict[str, Any] = {"shambling.stance": CHARGE, "shambling.charger": in_order(*chargers, "done")}
    rules.update({f"shambling.{k}": v for k, v in answers.items()})
    return run_system(game, "shambling.engage", rules)


# -- stance and assignment ------------------------------------------------------------------------

def test_front_line_zombies_offer_stand_or_counter_charge(game: Game) -> None:
    """A player facing zombies must decide to either Stand and Receive or to Counter-Charge."""
    board(game, front=[(SURVIVOR, 0)], zombies_front=1)
    decisions = run_system(game, "shambling.engage", {"shambling.stance": STAND})
    (stance,) = asked(decisions, "shambling.stance")
    assert stance.options == [STAND, CHARGE] and stance.side == player(0)
    assert stance.context == {"zone": FRONT, "zombies": 1}
    assert events(game, "stance") == [{"board": 0, "zone": FRONT, "stance": STAND}]


def test_no_battle_without_zombies_facing_the_player(game: Game) -> None:
    """If a player has no zombie figures facing him, he will not participate in combat this turn."""
    ids = board(game, front=[(SURVIVOR, 0)], support=[(SURVIVOR, 0)], zombies_front=0)
    assert run_system(game, "shambling.engage") == []
    force(game, dice=[6])
    run_system(game, "shambling.combat")
    assert strikes(game) == [] and dice_left(game) == 1 and wounds(game, ids[FRONT][0]) == 0


def test_stand_and_receive_gives_every_survivor_one_zombie_first(game: Game) -> None:
    """Stand and Receive: the Narrator places his figures one by one on survivors of the same zone;
    each survivor must have one zombie before additional zombies are assigned to any."""
    ids = board(game, front=[(SURVIVOR, 0), (SURVIVOR, 0)], support=[(SURVIVOR, 0)], zombies_front=3)
    a, b = ids[FRONT]
    decisions = run_system(game, "shambling.engage", {"shambling.stance": STAND, "shambling.assign": a})
    assigns = asked(decisions, "shambling.assign")
    assert [d.options for d in assigns] == [[a, b], [a, b]]  # the second zombie had only b: no question
    assert all(d.side == NARRATOR for d in assigns)
    assert (len(contacts(game, a)), len(contacts(game, b))) == (2, 1)
    assert contacts(game, ids[SUPPORT][0]) == []  # survivors of the other zone are not assigned


def test_counter_charge_every_zombie_one_attacker_first_then_the_join_roll(game: Game) -> None:
    """Counter-Charge: the player places Front Line figures one by one on the zombies, all zombies
    having one attacker before survivors double up. Leaving unwounded figures behind rolls 2d6: 7 or
    less and 1d6 more unwounded figures must join (3 + 4 = 7: the 1d6 = 1 joins)."""
    ids = board(game, front=[(SURVIVOR, 0)] * 3 + [(SURVIVOR, 1)], support=[(SURVIVOR, 0)], zombies_front=2)
    s0, s1, s2, hurt = ids[FRONT]
    z1, z2 = ids["zombies_front"]
    force(game, dice=[3, 4, 1])
    decisions = charge(game, [s0], charge_target=z1, join=s2)
    assert dice_left(game) == 0
    chargers = asked(decisions, "shambling.charger")
    assert chargers[0].options == [s0, s1, s2, hurt]  # Front Line figures only, wounded ones too
    assert [d.options for d in asked(decisions, "shambling.charge_target")] == [[z1, z2]]
    assert asked(decisions, "shambling.join")[0].options == [s1, s2]  # unwounded ones left behind
    assert contacts(game, s0) == [z1] and contacts(game, s2) == [z2]
    assert contacts(game, s1) == [] and contacts(game, hurt) == []
    assert "charging" in tags(game, s2) and "charging" not in tags(game, s1)
    assert events(game, "join_roll") == [{"board": 0, "roll": 7, "joining": 1}]


@pytest.mark.parametrize(("first", "dice", "joining"), [
    (SURVIVOR, [4, 4], 0),      # 8: nobody needs to join
    (HERO, [3, 4], 0),          # 7 + 1 for the Leader = 8
    (SURVIVOR, [1, 1, 6], 2),   # 2: 1d6 = 6 join, but only two unwounded are left
    (HERO, [3, 3, 1], 1),       # 6 + 1 = 7: 1d6 = 1 joins
])
def test_join_roll(game: Game, first: str, dice: list[int], joining: int) -> None:
    """The counter-charging player leaving unwounded figures behind rolls 2 dice, +1 if the Leader is
    present (charging); 7 or less and 1d6 worth of unwounded troops (or as many as are available,
    whichever is smaller) must join the counter-charge."""
    ids = board(game, front=[(first, 0), (SURVIVOR, 0), (SURVIVOR, 0), (SURVIVOR, 1)], zombies_front=1)
    force(game, dice=dice)
    charge(game, [ids[FRONT][0]])
    assert dice_left(game) == 0
    assert events(game, "join_roll")[0]["joining"] == joining
    assert sum("charging" in tags(game, e) for e in ids[FRONT]) == 1 + joining
    assert contacts(game, ids[FRONT][3]) == []  # the wounded never join


def test_no_join_roll_when_only_the_wounded_stay_behind(game: Game) -> None:
    """The join roll is made only "if he leaves any unwounded figures behind"."""
    ids = board(game, front=[(SURVIVOR, 0), (SURVIVOR, 1)], zombies_front=1)
    force(game, dice=[1, 1, 6])
    charge(game, [ids[FRONT][0]])
    assert dice_left(game) == 3 and events(game, "join_roll") == []


def test_leftover_zombies_go_onto_the_chargers(game: Game) -> None:
    """DESIGN CHOICE: zombies the chargers left without an attacker are placed by the narrator on
    the chargers, each charger one before any two, so the wounded left behind stay shielded."""
    ids = board(game, front=[(SURVIVOR, 0), (SURVIVOR, 0), (SURVIVOR, 1)], zombies_front=5)
    s1, s2, hurt = ids[FRONT]
    decisions = charge(game, [s1, s2])
    leftover = asked(decisions, "shambling.assign")
    assert [d.options for d in leftover] == [[s1, s2], [s1, s2]] and leftover[0].side == NARRATOR
    assert sorted(len(contacts(game, s)) for s in (s1, s2)) == [2, 3] and contacts(game, hurt) == []
    assert all(contacts(game, z) for z in ids["zombies_front"])


def test_zombies_in_support_may_not_be_counter_charged(game: Game) -> None:
    """Zombies in the Support zone may not be Counter-Charged: survivors there only Stand and Receive
    (no question is asked), while the Front Line still chooses."""
    board(game, front=[(SURVIVOR, 0)], support=[(SURVIVOR, 0)], zombies_front=1, zombies_support=1)
    decisions = run_system(game, "shambling.engage", {"shambling.stance": CHARGE})
    assert [d.context["zone"] for d in asked(decisions, "shambling.stance")] == [FRONT]
    assert events(game, "stance") == [{"board": 0, "zone": FRONT, "stance": CHARGE},
                                      {"board": 0, "zone": SUPPORT, "stance": STAND}]


def test_a_new_battle_starts_from_fresh_contacts(game: Game) -> None:
    """Figures are assigned to battle anew each turn: last turn's contacts and charge are forgotten."""
    ids = board(game, front=[(SURVIVOR, 0), (SURVIVOR, 0)], zombies_front=1)
    s1, s2 = ids[FRONT]
    force(game, dice=[6, 6, 2])
    charge(game, [s1])
    assert "charging" in tags(game, s1)
    run_system(game, "shambling.engage", {"shambling.stance": STAND, "shambling.assign": s2})
    assert contacts(game, s1) == [] and contacts(game, s2) == ids["zombies_front"]
    assert "charging" not in tags(game, s1)
    run_system(game, "shambling.pursuit")
    assert dice_left(game) == 1  # no counter-charge this turn: no pursuit roll
    force(game, dice=[1, 1])
    run_system(game, "shambling.combat")
    assert [s["side"] for s in strikes(game)] == [ZOMBIES, SURVIVORS]  # standing: the zombies first


# -- combat rounds --------------------------------------------------------------------------------

def test_combat_strengths_and_support_bonus(game: Game) -> None:
    """Survivor 2/1, Hero 3/2, Zombie 1/1; every unwounded survivor in Support adds 1 to the Front Line."""
    ids = board(game, front=[(HERO, 0), (SURVIVOR, 0), (SURVIVOR, 1)],
                support=[(SURVIVOR, 0), (SURVIVOR, 0), (SURVIVOR, 1)], zombies_front=3)
    run_system(game, "shambling.engage", {"shambling.stance": STAND})
    assert all(len(contacts(game, s)) == 1 for s in ids[FRONT])
    force(game, dice=[1, 4])
    run_system(game, "shambling.combat")
    zombie_strike, survivor_strike = strikes(game)
    assert (zombie_strike["side"], zombie_strike["strength"], zombie_strike["wounds"]) == (ZOMBIES, 3, 0)
    # 3 + 2 + 1 in contact, +2 for the two unwounded in Support = 8; CRT[4][8] = 2.
    assert (survivor_strike["side"], survivor_strike["strength"], survivor_strike["wounds"]) == (SURVIVORS, 8, 2)
    assert sorted(wounds(game, z) for z in ids["zombies_front"]) == [0, 1, 1]


def test_only_figures_in_contact_add_their_strength(game: Game) -> None:
    """The attacking player adds up the strength of all figures in contact with an enemy figure: of
    three survivors only the one a lone zombie is assigned to strikes (2)."""
    ids = board(game, front=[(SURVIVOR, 0)] * 3, zombies_front=1)
    run_system(game, "shambling.engage", {"shambling.stance": STAND, "shambling.assign": ids[FRONT][2]})
    force(game, dice=[1, 1])
    run_system(game, "shambling.combat")
    assert [(s["side"], s["strength"]) for s in strikes(game)] == [(ZOMBIES, 1), (SURVIVORS, 2)]


@pytest.mark.parametrize(("stance", "first"), [(STAND, ZOMBIES), (CHARGE, SURVIVORS)])
def test_zombies_strike_first_unless_counter_charged(make_game, stance: str, first: str) -> None:
    """The zombie player resolves combat first, unless the survivor player Counter-Charged. Not
    simultaneous: a zombie killed by the first strike does not strike back (and vice versa)."""
    g = make_game("shambling", 1, params={"combat_rounds": 1})
    ids = board(g, front=[(SURVIVOR, 1)], zombies_front=[1])
    if stance == STAND:
        run_system(g, "shambling.engage", {"shambling.stance": STAND})
    else:
        charge(g, ids[FRONT])
    force(g, dice=[6, 6])  # strength 1: CRT[6][1] = 1 wound, the last of the wounded figure
    run_system(g, "shambling.combat")
    assert [s["side"] for s in strikes(g)] == [first]
    assert (wounds(g, ids[FRONT][0]) is None) == (first == ZOMBIES)
    assert (wounds(g, ids["zombies_front"][0]) is None) == (first == SURVIVORS)


def test_each_round_strikes_in_both_zones(game: Game) -> None:
    """Each side strikes in every zone where its figures are in contact: zombies in the Front Line
    and in Support, then the survivors in both."""
    board(game, front=[(SURVIVOR, 0)], support=[(SURVIVOR, 0)], zombies_front=1, zombies_support=1)
    run_system(game, "shambling.engage", {"shambling.stance": STAND})
    force(game, dice=[1, 1, 1, 1])
    run_system(game, "shambling.combat")
    assert [(s["side"], s["zone"]) for s in strikes(game)] == [
        (ZOMBIES, FRONT), (ZOMBIES, SUPPORT), (SURVIVORS, FRONT), (SURVIVORS, SUPPORT)]
    assert [why for why, _v in rolls(game)] == [
        "zombies strike in front (board 0)", "zombies strike in support (board 0)",
        "survivors strike in front (board 0)", "survivors strike in support (board 0)"]


def test_support_strikes_zombies_first_when_the_front_line_counter_charged(game: Game) -> None:
    """"Zombies in the Support zone may not be Counter-Charged and survivors in that zone can only
    Stand and Receive": the zombie player resolves combat first there. A wounded survivor in Support
    is killed by the zombie's 6 before he can strike."""
    ids = board(game, front=[(SURVIVOR, 0), (SURVIVOR, 0)], support=[(SURVIVOR, 1)],
                zombies_front=1, zombies_support=1)
    charge(game, ids[FRONT])
    force(game, dice=[6] * 6)
    run_system(game, "shambling.combat")
    assert [s["side"] for s in strikes(game) if s["zone"] == SUPPORT] == [ZOMBIES]
    assert wounds(game, ids[SUPPORT][0]) is None


def test_survivors_overrun_in_support_stand_and_receive(make_game) -> None:
    """If all the survivors in one zone are killed the zombies move into the next zone; the survivors
    there Stand and Receive that attack for the remaining rounds: the zombies strike first in Support
    in round 2 although the Front Line counter-charged."""
    g = make_game("shambling", 1, params={"combat_rounds": 2})
    ids = board(g, front=[(SURVIVOR, 1)], support=[(SURVIVOR, 1)], zombies_front=1)
    charge(g, ids[FRONT])
    force(g, dice=[1, 6, 6, 6])  # round 1: chargers miss, the zombie kills; round 2 in Support
    run_system(g, "shambling.combat")
    assert [s["side"] for s in strikes(g) if s["zone"] == SUPPORT] == [ZOMBIES]


def test_front_line_overrun_from_support_stands_after_a_counter_charge(make_game) -> None:
    """When the survivors of one zone are all killed the zombies move into the next zone, whose
    survivors Stand and Receive for the remaining rounds: the Front Line counter-charged, but once
    Support's zombies overrun into it the zombies strike first there (DESIGN CHOICE: the next zone of
    Support is the Front Line). Round 1 also shows the order per zone: the chargers first on the Front
    Line, the zombies first in Support, the first strikes of both zones before the second."""
    g = make_game("shambling", 1, params={"combat_rounds": 2})
    ids = board(g, front=[(SURVIVOR, 0)], support=[(SURVIVOR, 1)], zombies_front=1, zombies_support=1)
    charge(g, ids[FRONT])
    # Round 1: chargers 1 (strength 2, CRT[1][2] = 0), Support zombies 6 (CRT[6][1] = 1:
    # the wounded survivor dies), Front zombies 1 (0). Round 2: zombies 1, survivors 1 (no wounds).
    force(g, dice=[1, 6, 1, 1, 1])
    run_system(g, "shambling.combat")
    assert wounds(g, ids[SUPPORT][0]) is None
    assert [(s["side"], s["zone"]) for s in strikes(g)] == [
        (SURVIVORS, FRONT), (ZOMBIES, SUPPORT), (ZOMBIES, FRONT), (ZOMBIES, FRONT), (SURVIVORS, FRONT)]
    assert dice_left(g) == 0


def test_victors_in_support_choose_zombies_first_after_a_counter_charge(game: Game) -> None:
    """A victorious figure may move to engage another enemy; in Support, where the survivors only
    Stand and Receive, the zombies' victors choose before the survivors' even though the Front Line
    counter-charged (the side that strikes first in a zone chooses first)."""
    ids = board(game, front=[(SURVIVOR, 0)], support=[(SURVIVOR, 0), (SURVIVOR, 1)],
                zombies_front=1, zombies_support=[1, 0])
    s_a, s_b = ids[SUPPORT]
    z_a, z_b = ids["zombies_support"]
    charge(game, ids[FRONT], assign=lambda d: s_a if s_a in d.options else d.options[0])
    assert contacts(game, z_a) == [s_a] and contacts(game, z_b) == [s_b]
    # Front chargers 1 (no wound); Support zombies 6 (strength 2, CRT[6][2] = 1: s_b dies); Front
    # zombie 1 (none); Support survivor s_a 6 (strength 1, CRT[6][1] = 1: the wounded z_a dies).
    force(game, dice=[1, 6, 1, 6])
    decisions = run_system(game, "shambling.combat", {"shambling.wound": s_b, "shambling.re_engage": "stay"},
                           rounds=2)  # a round follows: victors may choose
    assert wounds(game, s_b) is None and wounds(game, z_a) is None
    assert [(d.side, d.context["figure"]) for d in asked(decisions, "shambling.re_engage")] == [
        (NARRATOR, z_b), (player(0), s_a)]


def test_three_rounds_then_zombies_are_held_at_bay(make_game) -> None:
    """There are 3 rounds of combat in each game turn; zombies remaining on a zone that still holds
    survivors remain on the board until the next turn, when they fight again."""
    g = make_game("shambling", 1)
    ids = board(g, front=[(SURVIVOR, 0), (SURVIVOR, 0)], zombies_front=2)
    run_system(g, "shambling.engage", {"shambling.stance": STAND})
    force(g, dice=[1] * 7)  # three rounds, both sides: CRT[1][<=10] = 0
    run_system(g, "shambling.combat")
    assert len(strikes(g)) == 6 and dice_left(g) == 1
    assert [e["round"] for e in events(g, "combat_round")] == [1, 2, 3]
    assert zombies(g, FRONT) == ids["zombies_front"] and not g.over
    run_system(g, "shambling.engage", {"shambling.stance": STAND})
    assert all(contacts(g, z) for z in ids["zombies_front"])


def test_combat_ends_early_when_nobody_is_in_contact(make_game) -> None:
    """Combat is between figures in contact: once the last zombie is destroyed no further round is
    fought (no roll is made)."""
    g = make_game("shambling", 1)
    ids = board(g, front=[(SURVIVOR, 0)], zombies_front=[1])
    run_system(g, "shambling.engage", {"shambling.stance": STAND})
    force(g, dice=[1, 6, 6])
    run_system(g, "shambling.combat")
    assert wounds(g, ids["zombies_front"][0]) is None
    assert len(strikes(g)) == 2 and dice_left(g) == 1 and len(events(g, "combat_round")) == 1


# -- wounds ---------------------------------------------------------------------------------------

def test_the_defender_allocates_the_wounds(game: Game) -> None:
    """The defending player may allocate the wounds amongst his figures: the player places the
    zombies' wounds, the narrator the survivors'."""
    ids = board(game, front=[(SURVIVOR, 0)] * 3, zombies_front=3)
    run_system(game, "shambling.engage", {"shambling.stance": STAND})
    target = ids[FRONT][2]
    zombie = ids["zombies_front"][1]
    force(game, dice=[5, 6])  # zombies: CRT[5][3] = 1; survivors: 2 + 2 + 1 = 5, CRT[6][5] = 3
    decisions = run_system(game, "shambling.combat", {
        "shambling.wound": lambda d: target if d.side == player(0) else zombie if zombie in d.options
        else d.options[0]})
    sides = [d.side for d in asked(decisions, "shambling.wound")]
    assert sides[0] == player(0) and set(sides[1:]) == {NARRATOR}
    assert [wounds(game, e) for e in ids[FRONT]] == [0, 0, 1]
    assert wounds(game, zombie) is None


def test_wounds_only_on_figures_that_began_the_round_in_contact(game: Game) -> None:
    """Wounds can only be spread amongst figures who begin that round in contact with the attackers."""
    ids = board(game, front=[(SURVIVOR, 0), (SURVIVOR, 0), (SURVIVOR, 0)], zombies_front=1)
    target = ids[FRONT][1]
    run_system(game, "shambling.engage", {"shambling.stance": STAND, "shambling.assign": target})
    force(game, dice=[6, 1])  # CRT[6][1] = 1 wound
    run_system(game, "shambling.combat")
    assert [wounds(game, s) for s in ids[FRONT]] == [0, 1, 0]


def test_wounds_beyond_the_figures_in_contact_are_lost(game: Game) -> None:
    """No figure may take more than 2 wounds; two wounds remove it; further wounds have no one to
    fall on (only figures that began the round in contact may take them)."""
    ids = board(game, front=[(SURVIVOR, 0), (SURVIVOR, 0)], zombies_front=20)
    run_system(game, "shambling.engage", {"shambling.stance": STAND})
    force(game, dice=[6])  # strength 20: 8 wounds for two survivors
    run_system(game, "shambling.combat")
    assert survivors(game) == []
    assert [w["taken"] for w in events(game, "wound")] == [1, 2, 1, 2]
    assert events(game, "strike")[0]["wounds"] == 8
    assert ids[FRONT] == [r["figure"] for r in events(game, "removed")]


def test_a_six_puts_the_first_wound_on_the_hero(game: Game) -> None:
    """If the dice rolled by the attacker was a 6 then any Hero present must take a wound."""
    ids = board(game, front=[(HERO, 0), (SURVIVOR, 0)], zombies_front=2)
    run_system(game, "shambling.engage", {"shambling.stance": STAND})
    force(game, dice=[6, 1])  # zombies: strength 2, CRT[6][2] = 1
    run_system(game, "shambling.combat", {"shambling.wound": ids[FRONT][1]})
    hero, other = ids[FRONT]
    assert (wounds(game, hero), wounds(game, other)) == (1, 0)


def test_a_five_leaves_the_wounds_to_the_player(game: Game) -> None:
    """Only a 6 forces the Hero: on a 5 (three zombies, CRT[5][3] = 1) the player may spare him."""
    ids = board(game, front=[(HERO, 0), (SURVIVOR, 0), (SURVIVOR, 0)], zombies_front=3)
    run_system(game, "shambling.engage", {"shambling.stance": STAND})
    force(game, dice=[5, 1])
    decisions = run_system(game, "shambling.combat", {"shambling.wound": ids[FRONT][1]})
    assert asked(decisions, "shambling.wound")[0].options == ids[FRONT]
    assert [wounds(game, e) for e in ids[FRONT]] == [0, 1, 0]


def test_a_six_forces_only_one_wound_on_the_hero(game: Game) -> None:
    """A 6 makes the Hero take a wound, not every wound: five zombies (CRT[6][5] = 3), the player
    puts the other two on survivors."""
    ids = board(game, front=[(HERO, 0), (SURVIVOR, 0), (SURVIVOR, 0)], zombies_front=5)
    hero, s1, s2 = ids[FRONT]
    run_system(game, "shambling.engage", {"shambling.stance": STAND})
    force(game, dice=[6, 1])
    decisions = run_system(game, "shambling.combat", {"shambling.wound": in_order(s1, s2)})
    assert [d.options for d in asked(decisions, "shambling.wound")] == [[hero, s1, s2], [hero, s1, s2]]
    assert [wounds(game, e) for e in ids[FRONT]] == [1, 1, 1]
    assert [e["figure"] for e in events(game, "wound")] == [hero, s1, s2]  # the first wound is the Hero's


def test_a_six_forces_no_hero_out_of_contact(game: Game) -> None:
    """The Hero takes the 6's wound only if present among the figures the attackers reached (wounds
    fall only on figures in contact): a Hero in Support is spared a Front Line 6."""
    ids = board(game, front=[(SURVIVOR, 0)], support=[(HERO, 0)], zombies_front=1)
    run_system(game, "shambling.engage", {"shambling.stance": STAND})
    force(game, dice=[6, 1])
    run_system(game, "shambling.combat")
    assert (wounds(game, ids[FRONT][0]), wounds(game, ids[SUPPORT][0])) == (1, 0)


# -- after each round -----------------------------------------------------------------------------

def test_victorious_figures_may_engage_another_enemy(game: Game) -> None:
    """After combat a victorious figure may move to engage another enemy figure (DESIGN CHOICE: any
    enemy of its zone, or stay; its own side chooses)."""
    ids = board(game, front=[(SURVIVOR, 0), (SURVIVOR, 0)], zombies_front=3, zombies_support=1,
                support=[(SURVIVOR, 0)])
    a, b = ids[FRONT]
    z1, z2, z3 = ids["zombies_front"]
    run_system(game, "shambling.engage", {"shambling.stance": STAND, "shambling.assign": in_order(a, b, b)})
    assert contacts(game, a) == [z1]
    force(game, dice=[1, 1, 6, 1] + [1] * 4)  # zombies miss; survivors: strength 5, CRT[6][5] = 3; round 2 misses
    decisions = run_system(game, "shambling.combat", {"shambling.wound": in_order(z1, z1, z3),
                                                      "shambling.re_engage": z2}, rounds=2)
    assert wounds(game, z1) is None
    (re,) = asked(decisions, "shambling.re_engage")  # the zombie in Support is not offered
    assert re.options == ["stay", z2, z3] and re.context["figure"] == a and re.side == player(0)
    assert contacts(game, a) == [z2]


def test_a_victor_may_stay(game: Game) -> None:
    """The victorious figure "may" move: staying leaves it out of contact."""
    ids = board(game, front=[(SURVIVOR, 0), (SURVIVOR, 0)], zombies_front=[1, 0, 0])
    a, b = ids[FRONT]
    run_system(game, "shambling.engage", {"shambling.stance": STAND, "shambling.assign": in_order(a, b, b)})
    force(game, dice=[1, 6, 1, 1])  # round 2 misses
    run_system(game, "shambling.combat", {"shambling.wound": in_order(*ids["zombies_front"][:2]),
                                          "shambling.re_engage": "stay"}, rounds=2)
    assert contacts(game, a) == []


def test_victorious_zombies_are_moved_by_the_narrator(game: Game) -> None:
    """A zombie whose survivor fell may engage another survivor of its zone; the narrator chooses."""
    ids = board(game, front=[(SURVIVOR, 1), (SURVIVOR, 0), (SURVIVOR, 0)], zombies_front=2)
    s0, s1, s2 = ids[FRONT]
    z1, z2 = ids["zombies_front"]
    run_system(game, "shambling.engage", {"shambling.stance": STAND, "shambling.assign": in_order(s0, s1)})
    force(game, dice=[6, 1, 1, 1])  # zombies: strength 2, CRT[6][2] = 1: kills s0; round 2 misses
    decisions = run_system(game, "shambling.combat", {"shambling.wound": s0, "shambling.re_engage": s2}, rounds=2)
    (re,) = asked(decisions, "shambling.re_engage")
    assert re.side == NARRATOR and re.options == ["stay", s1, s2] and re.context["figure"] == z1
    assert contacts(game, z1) == [s2] and contacts(game, z2) == [s1]


def test_a_victor_already_engaged_by_an_enemy_victor_is_not_moved(game: Game) -> None:
    """Victors move one side at a time (the side that struck first first): a survivor whose zombie
    fell, already engaged by a victorious zombie, has an enemy and is not asked to move."""
    ids = board(game, front=[(SURVIVOR, 1), (SURVIVOR, 0)], zombies_front=[0, 1])
    s0, s1 = ids[FRONT]
    z0, _z1 = ids["zombies_front"]
    run_system(game, "shambling.engage", {"shambling.stance": STAND, "shambling.assign": s0})
    force(game, dice=[6, 6, 1, 1])  # zombies: CRT[6][2] = 1 kills s0; s1: CRT[6][2] = 1 kills the wounded z1
    decisions = run_system(game, "shambling.combat", {"shambling.wound": s0}, rounds=2)
    assert [(d.side, d.options) for d in asked(decisions, "shambling.re_engage")] == [(NARRATOR, ["stay", s1])]
    assert contacts(game, s1) == [z0]


def test_zombies_move_into_the_next_zone(game: Game) -> None:
    """If all the survivors in one zone are killed the zombies move into the next zone, whose
    survivors Stand and Receive for the remaining rounds."""
    ids = board(game, front=[(SURVIVOR, 1)], support=[(SURVIVOR, 0), (SURVIVOR, 0)], zombies_front=2)
    run_system(game, "shambling.engage", {"shambling.stance": STAND})
    force(game, dice=[6])  # strength 2: CRT[6][2] = 1 wound kills the wounded survivor
    run_system(game, "shambling.combat")
    assert survivors(game, FRONT) == []
    for z in ids["zombies_front"]:
        assert zone_of(game, z) == SUPPORT and "stand_only" in tags(game, z)
        assert len(contacts(game, z)) == 1
    assert events(game, "zombies_advance") == [{"board": 0, "into": SUPPORT, "zombies": 2}]
    assert not game.over and not board_fallen(game)


def test_zombies_in_support_move_into_the_front_line(game: Game) -> None:
    """DESIGN CHOICE: the next zone of the Support zone is the Front Line."""
    ids = board(game, front=[(SURVIVOR, 0)], support=[(SURVIVOR, 1)], zombies_support=1)
    run_system(game, "shambling.engage")
    force(game, dice=[6])  # strength 1: CRT[6][1] = 1 wound kills the wounded survivor
    run_system(game, "shambling.combat")
    (z,) = ids["zombies_support"]
    assert zone_of(game, z) == FRONT and contacts(game, z) == ids[FRONT]
    assert events(game, "zombies_advance") == [{"board": 0, "into": FRONT, "zombies": 1}]


def test_zombies_held_in_an_empty_zone_advance_before_the_first_round(game: Game) -> None:
    """Zombies left in a zone with no survivors (the survivors moved out at the end of the last
    turn) move into the next zone when combat starts."""
    ids = board(game, support=[(SURVIVOR, 0)], zombies_front=1)
    force(game, dice=[1, 1])
    run_system(game, "shambling.combat")
    assert zone_of(game, ids["zombies_front"][0]) == SUPPORT
    assert [s["zone"] for s in strikes(game)] == [SUPPORT, SUPPORT]


def test_sudden_death(game: Game) -> None:
    """If at the end of a combat round there are zombies on a board with no survivors, the zombies win."""
    board(game, front=[(SURVIVOR, 1)], zombies_front=3)
    run_system(game, "shambling.engage", {"shambling.stance": STAND})
    force(game, dice=[6])
    run_system(game, "shambling.combat")
    assert board_fallen(game) and events(game, "board_fallen") == [{"board": 0}]
    assert game.over and game.outcome == ZOMBIES


def test_one_board_falling_does_not_end_the_game(make_game) -> None:
    """There is no interaction between the players: a board that falls is out, the others play on."""
    g = make_game("shambling", 1, players=2, params={"combat_rounds": 1})
    board(g, front=[(SURVIVOR, 1)], zombies_front=3, seat=0)
    board(g, front=[(SURVIVOR, 0)], zombies_front=1, seat=1)
    run_system(g, "shambling.engage", {"shambling.stance": STAND})
    force(g, dice=[6, 1, 1])
    run_system(g, "shambling.combat")
    assert board_fallen(g, 0) and not board_fallen(g, 1) and not g.over
    assert events(g, "board_fallen") == [{"board": 0}]


# -- the pursuit roll -----------------------------------------------------------------------------

@pytest.mark.parametrize(("first", "dice", "left"), [
    (SURVIVOR, [4, 3], 4),       # 7: they stay
    (HERO, [3, 3], 4),           # 6 + 1 for the Hero = 7: they stay
    (SURVIVOR, [3, 3, 2], 2),    # 6: 1d6 = 2 pursue
    (HERO, [2, 2, 3], 1),        # 4 + 1 = 5: 1d6 = 3 pursue
    (SURVIVOR, [1, 1, 6], 0),    # 2: 1d6 = 6, but only four chargers
])
def test_pursuit_roll(make_game, first: str, dice: list[int], left: int) -> None:
    """After a Counter-Charge roll 2 dice, +1 if the Hero is present with the counter-chargers: 7 or
    more and they remain; less and a further die: that many of the chargers, chosen by the player,
    pursue the enemy off the board and are lost. Required even if every enemy figure was destroyed."""
    g = make_game("shambling", 1)
    ids = board(g, front=[(first, 0), (SURVIVOR, 0), (SURVIVOR, 0), (SURVIVOR, 1)])
    counter_charged(g, ids[FRONT])
    force(g, dice=dice)
    run_system(g, "shambling.pursuit", {"shambling.pursue": lambda d: d.options[-1]})
    assert dice_left(g) == 0 and len(survivors(g)) == left
    assert tally(g).get("survivors_pursued", 0) == 4 - left
    assert events(g, "pursuit") == [{"board": 0, "roll": sum(dice[:2]) + (first == HERO), "pursuing": 4 - left}]


def test_only_counter_chargers_pursue(make_game) -> None:
    """The survivor player chooses which ones from those involved in the counter-charge only; a Hero
    who stayed behind adds nothing (4 + 2 = 6 < 7)."""
    g = make_game("shambling", 1)
    ids = board(g, front=[(HERO, 0), (SURVIVOR, 0), (SURVIVOR, 0)], support=[(SURVIVOR, 0)])
    hero, s1, s2 = ids[FRONT]
    counter_charged(g, [s1, s2])
    force(g, dice=[4, 2, 1])
    decisions = run_system(g, "shambling.pursuit", {"shambling.pursue": s2})
    (pursue,) = asked(decisions, "shambling.pursue")
    assert pursue.options == [s1, s2] and pursue.side == player(0)
    assert survivors(g) == [hero, s1, ids[SUPPORT][0]]
    assert [(r["figure"], r["why"]) for r in events(g, "removed")] == [(s2, "pursued")]


def test_no_pursuit_roll_without_a_counter_charge(make_game) -> None:
    """No Counter-Charge this turn (figures still marked from an earlier one): no pursuit roll."""
    g = make_game("shambling", 1)
    ids = board(g, front=[(SURVIVOR, 0)])
    counter_charged(g, ids[FRONT])
    board_markers(g).discard("counter_charge")
    force(g, dice=[1, 1, 1])
    run_system(g, "shambling.pursuit")
    assert dice_left(g) == 3 and survivors(g) == ids[FRONT]


def test_no_pursuit_roll_when_every_charger_fell(make_game) -> None:
    """The pursuit roll picks pursuers "from those involved in the counter-charge only": with every
    charger dead there is no one to pursue and nothing is rolled."""
    g = make_game("shambling", 1)
    ids = board(g, front=[(SURVIVOR, 0)])
    counter_charged(g, [])
    force(g, dice=[1, 1, 1])
    run_system(g, "shambling.pursuit")
    assert dice_left(g) == 3 and events(g, "pursuit") == [] and survivors(g) == ids[FRONT]


def test_joiners_count_as_chargers(game: Game) -> None:
    """Figures made to join the counter-charge are counter-chargers: leftover zombies are placed on
    them as on the others (each one before any two), and they may pursue."""
    ids = board(game, front=[(SURVIVOR, 0), (SURVIVOR, 0)], zombies_front=3)
    s0, s1 = ids[FRONT]
    force(game, dice=[1, 1, 1])  # 2: 1d6 = 1 joins
    decisions = charge(game, [s0])
    leftover = asked(decisions, "shambling.assign")
    assert [d.options for d in leftover] == [[s0, s1]]
    assert "charging" in tags(game, s1)


def test_the_defender_is_told_how_many_wounds_are_left(game: Game) -> None:
    """Each wound decision says how many wounds remain to place (for a player answering from outside)."""
    board(game, front=[(SURVIVOR, 0)] * 3, zombies_front=5)
    run_system(game, "shambling.engage", {"shambling.stance": STAND})
    force(game, dice=[6, 1])  # zombies: CRT[6][5] = 3
    decisions = run_system(game, "shambling.combat")
    assert [d.context["left"] for d in asked(decisions, "shambling.wound")] == [3, 2, 1]


def test_figures_of_a_zone_both_sides(game: Game) -> None:
    """The shared query `figures(game, board, zone=...)`: every figure of the zone, both sides, by id."""
    from ecs_zombie.systems.shambling.board import figures

    ids = board(game, front=[(SURVIVOR, 0)], support=[(SURVIVOR, 0)], zombies_front=1, zombies_support=1)
    assert list(figures(game, 0, zone=FRONT)) == sorted(ids[FRONT] + ids["zombies_front"])
    assert list(figures(game, 0)) == sorted(e for group in ids.values() for e in group)
