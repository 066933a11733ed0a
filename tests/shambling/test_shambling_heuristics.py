"""Night of the Shambling Dead — the `heuristic` policy's documented choices, through the systems
that ask them (systems/shambling/heuristics.py's docstring: wounds to the wounded first and the hero
last, a wounded hero only when nobody else can take the wound; counter-charge only with a healthy
figure for every zombie, sending as many as the fight needs; the wounded to Support and the healthy
forward; a wounded hero stays out when victorious; the narrator spreads wounds, puts zombies on the
hero first and always re-engages, the hero first)."""

from __future__ import annotations

import pytest

from ecs_zombie import Game
from tests.shambling.shambling_setup import (
    CHARGE,
    FRONT,
    HERO,
    STAND,
    SUPPORT,
    SURVIVOR,
    asked,
    at_turn,
    board,
    contacts,
    counter_charged,
    events,
    force,
    narrate,
    player,
    run_system,
    set_wounds,
    survivors,
    tags,
    undeployed,
    wounds,
    zone_of,
)


def test_the_player_puts_wounds_on_the_wounded_first_and_the_hero_last(game: Game) -> None:
    """A gauntlet's 5 (3 wounds): the wounded survivor first (killed), then the lowest-numbered
    unwounded survivor twice (the second time as the wounded one), never the hero."""
    ids = board(game, front=[(HERO, 0), (SURVIVOR, 0), (SURVIVOR, 1), (SURVIVOR, 0)])
    _hero, s1, hurt, _s3 = ids[FRONT]
    force(game, dice=[5])
    narrate(game, 1)
    assert [e["figure"] for e in events(game, "wound")] == [hurt, s1, s1]
    assert [wounds(game, e) for e in ids[FRONT]] == [0, None, None, 0]


def test_the_player_wounds_the_hero_only_when_nobody_else_is_left(game: Game) -> None:
    ids = board(game, front=[(HERO, 0), (SURVIVOR, 0)])
    force(game, dice=[5])
    narrate(game, 1)
    assert [e["figure"] for e in events(game, "wound")] == [ids[FRONT][1], ids[FRONT][1], ids[FRONT][0]]


def test_the_narrator_spreads_wounds_over_its_zombies(game: Game) -> None:
    """Survivors' 6 at strength 6 (3 wounds) on zombies wounded [1, 0, 0]: the unwounded ones first,
    then the lowest-numbered."""
    ids = board(game, front=[(SURVIVOR, 0)] * 3, zombies_front=[1, 0, 0])
    z0, z1, z2 = ids["zombies_front"]
    run_system(game, "shambling.engage", {"shambling.stance": STAND})
    force(game, dice=[1, 6])
    run_system(game, "shambling.combat")
    assert [e["figure"] for e in events(game, "wound")] == [z1, z2, z0]


def test_fleeing_and_pursuing_figures_are_the_wounded_first(game: Game) -> None:
    ids = board(game, front=[(HERO, 0), (SURVIVOR, 0), (SURVIVOR, 1)])
    _hero, s1, hurt = ids[FRONT]
    force(game, dice=[4], cards=["2S"])
    narrate(game, 3)
    assert [e["figure"] for e in events(game, "removed")] == [hurt, s1]
    ids = board(game, front=[(HERO, 0), (SURVIVOR, 0), (SURVIVOR, 1)])
    counter_charged(game, ids[FRONT])
    force(game, dice=[1, 1, 2])
    run_system(game, "shambling.pursuit")
    assert [e["figure"] for e in events(game, "removed")][2:] == [ids[FRONT][2], ids[FRONT][1]]


def test_deployment_healthy_forward_wounded_back(make_game) -> None:
    g = make_game("shambling", 1)
    figs = undeployed(g)
    set_wounds(g, figs[0], 1)
    run_system(at_turn(g, 1), "shambling.deploy")
    assert zone_of(g, figs[0]) == SUPPORT
    assert [zone_of(g, e) for e in figs[1:]] == [FRONT] * 6 + [SUPPORT] * 3


@pytest.mark.parametrize(("zombie_count", "stance"), [(2, CHARGE), (3, STAND)])
def test_counter_charge_only_with_a_healthy_figure_per_zombie(game: Game, zombie_count: int, stance: str) -> None:
    board(game, front=[(SURVIVOR, 0), (SURVIVOR, 0), (SURVIVOR, 1)], zombies_front=zombie_count)
    force(game, dice=[6, 6])
    run_system(game, "shambling.engage")
    assert events(game, "stance")[0]["stance"] == stance


def test_chargers_are_the_healthy_hero_first(game: Game) -> None:
    """The hero charges first, then the healthy by number; the wounded stay back (no join roll:
    nobody unwounded is left). The narrator puts the leftover zombie on the hero."""
    ids = board(game, front=[(SURVIVOR, 0), (HERO, 0), (SURVIVOR, 1)], zombies_front=3)
    s0, hero, hurt = ids[FRONT]
    z0, z1, z2 = ids["zombies_front"]
    decisions = run_system(game, "shambling.engage", {"shambling.stance": CHARGE})
    assert [d.options for d in asked(decisions, "shambling.charger")] == [
        [s0, hero, hurt], ["done", s0, hurt], ["done", hurt]]
    assert contacts(game, hero) == [z0, z2] and contacts(game, s0) == [z1] and contacts(game, hurt) == []
    assert events(game, "join_roll") == []


def test_the_narrator_puts_zombies_on_the_hero_first(game: Game) -> None:
    ids = board(game, front=[(SURVIVOR, 0), (SURVIVOR, 0), (HERO, 0)], zombies_front=4)
    run_system(game, "shambling.engage", {"shambling.stance": STAND})
    s0, s1, hero = ids[FRONT]
    z0, z1, z2, z3 = ids["zombies_front"]
    assert (contacts(game, hero), contacts(game, s0), contacts(game, s1)) == ([z0, z3], [z1], [z2])


def test_victors_always_engage_the_least_engaged_enemy(game: Game) -> None:
    """A victorious zombie goes for the survivor with the fewest opponents (then the lowest number),
    never staying: s1 holds two zombies, s2 one."""
    ids = board(game, front=[(SURVIVOR, 1), (SURVIVOR, 0), (SURVIVOR, 0)], zombies_front=4)
    s0, s1, s2 = ids[FRONT]
    z0 = ids["zombies_front"][0]
    assign = iter([s0, s1, s1])
    run_system(game, "shambling.engage", {"shambling.stance": STAND, "shambling.assign": lambda d: next(assign)})
    assert (len(contacts(game, s1)), len(contacts(game, s2))) == (2, 1)
    force(game, dice=[6, 1])  # zombies: strength 4, CRT[6][4] = 2: s0 killed, s2 wounded
    wound = iter([s0, s2])
    before = len(events(game, "contact"))
    run_system(game, "shambling.combat", {"shambling.wound": lambda d: next(wound)}, rounds=2)
    assert wounds(game, s0) is None and events(game, "contact")[before] == {"a": min(z0, s2), "b": max(z0, s2)}


def test_no_new_target_after_the_last_round(game: Game) -> None:
    """Victors choose a new enemy after a round only when another round follows (one round here):
    s0 killed, its zombie z0 is asked nothing and stays out of contact."""
    ids = board(game, front=[(SURVIVOR, 1), (SURVIVOR, 0)], zombies_front=2)
    s0, _s1 = ids[FRONT]
    z0 = ids["zombies_front"][0]
    run_system(game, "shambling.engage", {"shambling.stance": STAND, "shambling.assign": lambda d: d.options[0]})
    assert contacts(game, s0) == [z0]
    force(game, dice=[6, 1])  # zombies: strength 2, CRT[6][2] = 1: s0 (wounded) killed
    decisions = run_system(game, "shambling.combat", {"shambling.wound": s0})
    assert wounds(game, s0) is None and asked(decisions, "shambling.re_engage") == [] and contacts(game, z0) == []


def test_reorder_sends_the_wounded_back_and_brings_the_healthy_forward(game: Game) -> None:
    """The wounded (not the hero) leave the Front Line first, which frees room; the healthy in
    Support come forward; a wounded hero stays."""
    ids = board(game, front=[(HERO, 1), (SURVIVOR, 1)] + [(SURVIVOR, 0)] * 4,
                support=[(SURVIVOR, 0), (SURVIVOR, 1), (SURVIVOR, 0)])
    run_system(at_turn(game, 2), "shambling.reorder", track="shambling.narration")
    assert [zone_of(game, e) for e in ids[FRONT]] == [FRONT, SUPPORT, FRONT, FRONT, FRONT, FRONT]
    assert [zone_of(game, e) for e in ids[SUPPORT]] == [FRONT, SUPPORT, SUPPORT]
    assert len(survivors(game, FRONT)) == 6


def test_a_charge_of_the_wounded_only_sends_the_first_then_stops(game: Game) -> None:
    """With no healthy figure left to send, the player sends the first one offered, then is done."""
    ids = board(game, front=[(SURVIVOR, 1), (SURVIVOR, 1)], zombies_front=1)
    run_system(game, "shambling.engage", {"shambling.stance": CHARGE})
    assert "charging" in tags(game, ids[FRONT][0]) and "charging" not in tags(game, ids[FRONT][1])


def test_a_wounded_hero_takes_a_wound_only_when_nobody_else_can(game: Game) -> None:
    """A gauntlet's 2 (strength 10: CRT[2][10] = 1 wound): an unwounded survivor takes it rather
    than the wounded hero, whom it would kill (the hero reorders the board: "a survivor player
    whose Hero is dead cannot reorder")."""
    ids = board(game, front=[(HERO, 1), (SURVIVOR, 0)])
    hero, s1 = ids[FRONT]
    force(game, dice=[2])
    narrate(game, 1)
    assert [e["figure"] for e in events(game, "wound")] == [s1]
    assert (wounds(game, hero), wounds(game, s1)) == (1, 1)


def test_a_wounded_hero_is_never_the_one_sent_off_in_a_pursuit(game: Game) -> None:
    """A failed pursuit roll (2d6 = 2, +1 with the hero: below 7) and a 1: one charger is lost, an
    unwounded survivor rather than the wounded hero."""
    ids = board(game, front=[(HERO, 1), (SURVIVOR, 0)])
    hero, s1 = ids[FRONT]
    counter_charged(game, ids[FRONT])
    force(game, dice=[1, 1, 1])
    run_system(game, "shambling.pursuit")
    assert [e["figure"] for e in events(game, "removed")] == [s1] and wounds(game, hero) == 1


def test_a_victorious_wounded_hero_stays_out(make_game) -> None:
    """After round 1 of 2 the wounded hero's zombie is destroyed (survivors strike at 2 + 2 = 4,
    a 6: CRT[6][4] = 2 on the wounded zombie and the other): he stays out of contact, since a 6 on
    the zombies' next strike would have to put a wound on him ("any Hero present must take a
    wound") and kill him."""
    g = make_game("shambling", 1, params={"combat_rounds": 2})
    ids = board(g, front=[(HERO, 1), (SURVIVOR, 0)], zombies_front=[1, 0, 0])
    hero, s1 = ids[FRONT]
    z0, z1, z2 = ids["zombies_front"]
    assign = iter([hero, s1, s1])
    run_system(g, "shambling.engage", {"shambling.stance": STAND, "shambling.assign": lambda d: next(assign)})
    force(g, dice=[1, 6, 1, 1])  # zombies miss; survivors 6: z0 killed, z1 wounded; round 2 misses
    decisions = run_system(g, "shambling.combat", {"shambling.wound": lambda d: z0 if z0 in d.options else z1})
    assert wounds(g, z0) is None
    (re,) = asked(decisions, "shambling.re_engage")
    assert re.context["figure"] == hero and re.options == ["stay", z1, z2]
    assert contacts(g, hero) == [] and wounds(g, hero) == 1


def test_a_victorious_survivor_engages_a_zombie_already_in_the_fight(make_game) -> None:
    """Three chargers (two healthy, one wounded) on three zombies; the chargers strike first at 5
    and roll a 4 (CRT[4][5] = 1: the wounded z0 dies), the zombies at 2 roll a 6 (CRT[6][2] = 1:
    the wounded s2 dies). The victorious s0 engages z1, already in contact with s1 (it was already
    open to the survivors' wounds), rather than the free z2 with fewer opponents."""
    g = make_game("shambling", 1, params={"combat_rounds": 2})
    ids = board(g, front=[(SURVIVOR, 0), (SURVIVOR, 0), (SURVIVOR, 1)], zombies_front=[1, 0, 0])
    s0, s1, s2 = ids[FRONT]
    z0, z1, z2 = ids["zombies_front"]
    chargers = iter([s0, s1, s2])
    run_system(g, "shambling.engage", {"shambling.stance": CHARGE, "shambling.charger": lambda d: next(chargers),
                                       "shambling.charge_target": lambda d: d.options[0]})
    assert (contacts(g, s0), contacts(g, s1), contacts(g, s2)) == ([z0], [z1], [z2])
    force(g, dice=[4, 6, 1, 1])  # round 2 misses
    decisions = run_system(g, "shambling.combat", {"shambling.wound": lambda d: z0 if z0 in d.options else s2})
    assert wounds(g, z0) is None and wounds(g, s2) is None
    (re,) = [d for d in asked(decisions, "shambling.re_engage") if d.side == player(0)]
    assert re.context["figure"] == s0 and re.options == ["stay", z1, z2]
    assert contacts(g, z1) == [s0, s1]


def test_a_victorious_zombie_goes_for_the_hero(game: Game) -> None:
    """The narrator's victor engages the hero first, though another survivor has fewer opponents:
    a 6 on the zombies' strike must then put a wound on him."""
    g = game
    ids = board(g, front=[(SURVIVOR, 1), (HERO, 0), (SURVIVOR, 0)], zombies_front=4)
    s0, hero, s2 = ids[FRONT]
    z0 = ids["zombies_front"][0]
    assign = iter([s0, hero, hero])  # z2 goes to s2 unasked (the one least engaged)
    run_system(g, "shambling.engage", {"shambling.stance": STAND, "shambling.assign": lambda d: next(assign)})
    force(g, dice=[6, 1, 1, 1])  # zombies at 4: CRT[6][4] = 2, the hero must take one; round 2 misses
    decisions = run_system(g, "shambling.combat", {"shambling.wound": lambda d: hero if hero in d.options
                                                   and not wounds(g, hero) else s0}, rounds=2)
    assert wounds(g, s0) is None and wounds(g, hero) == 1
    assert (len(contacts(g, hero)), len(contacts(g, s2))) == (3, 1)
    (re,) = asked(decisions, "shambling.re_engage")
    assert re.context["figure"] == z0 and re.options == ["stay", hero, s2]
    assert z0 in contacts(g, hero)


def test_the_counter_charge_sends_what_the_fight_needs_and_the_rest_roll_to_join(game: Game) -> None:
    """One zombie (2 wounds to destroy) against a hero and four healthy survivors, three healthy in
    Support (+1 each): the hero and three survivors strike at 3 + 6 + 3 = 12, whose CRT column
    (1, 1, 2, 3, 3, 4: 14 in six rolls) covers the 2 wounds; at 10 (hero and two: 0, 1, 1, 2, 3, 4:
    11) it does not. The survivor left behind costs the join roll ("if he leaves any unwounded
    figures behind he must roll 2 dice", +1 with the Leader): 6 + 6 + 1 = 13, nobody joins."""
    ids = board(game, front=[(HERO, 0)] + [(SURVIVOR, 0)] * 4, support=[(SURVIVOR, 0)] * 3, zombies_front=1)
    hero, s1, s2, s3, s4 = ids[FRONT]
    force(game, dice=[6, 6])
    decisions = run_system(game, "shambling.engage", {"shambling.stance": CHARGE})
    assert [d.options[0] for d in asked(decisions, "shambling.charger")] == [hero, "done", "done", "done", "done"]
    assert all("charging" in tags(game, e) for e in (hero, s1, s2, s3)) and "charging" not in tags(game, s4)
    assert events(game, "join_roll") == [{"board": 0, "roll": 13, "joining": 0}]


@pytest.mark.parametrize(("front", "support", "zombies", "charging", "enough"), [
    ([(HERO, 0), (SURVIVOR, 0)], 2, [1], 1, True),    # 3 + 2 = 5: CRT sum 6 = 6 x 1 wound left
    ([(HERO, 0), (SURVIVOR, 0)], 1, [1], 1, False),   # 4: CRT sum 3
    ([(HERO, 0)] + [(SURVIVOR, 0)] * 3, 4, [0], 3, True),   # 3 + 4 + 4 = 11: CRT sum 12 = 6 x 2 wounds
    ([(HERO, 0)] + [(SURVIVOR, 0)] * 3, 4, [0], 2, False),  # 9: CRT sum 10
    ([(HERO, 0)] + [(SURVIVOR, 0)] * 3, 4, [0, 0], 1, False),  # fewer chargers than zombies
])
def test_the_counter_charge_is_enough_when_six_rolls_cover_every_wound(game: Game, front: list, support: int,
                                                                       zombies: list, charging: int,
                                                                       enough: bool) -> None:
    """The heuristic stops sending chargers once they cover every zombie one each and the CRT
    column of their strength (with +1 per unwounded survivor in Support), summed over the six rolls,
    reaches six times the wounds the zombies can still take: "expected to deal every wound"."""
    from ecs_zombie.systems.shambling.heuristics import _enough

    ids = board(game, front=front, support=[(SURVIVOR, 0)] * support, zombies_front=zombies)
    assert _enough(game, 0, ids[FRONT][:charging]) is enough


def test_a_victorious_survivor_re_engages_and_a_wounded_hero_stays(game: Game) -> None:
    """A player's victor takes a new zombie rather than staying, wounded or not, unless it is a
    wounded hero."""
    from ecs_zombie.decisions import Decision
    from ecs_zombie.systems.shambling.heuristics import re_engage

    ids = board(game, front=[(HERO, 1), (SURVIVOR, 0), (SURVIVOR, 1)], zombies_front=1)
    hero, s1, s2 = ids[FRONT]
    (z0,) = ids["zombies_front"]
    for fig, answer in ((s1, z0), (s2, z0), (hero, "stay")):
        d = Decision(player(0), "shambling.re_engage", ["stay", z0], {"figure": fig})
        assert d.options[re_engage(game, d)] == answer
