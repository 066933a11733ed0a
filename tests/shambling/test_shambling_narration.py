"""Night of the Shambling Dead — the Narration Track turn by turn, the deck, reinforcements,
reordering and the end of the night. Cards and dice forced; each test cites the turn or rule."""

from __future__ import annotations

import pytest

from ecs_zombie import Game
from tests.shambling.shambling_setup import (
    FRONT,
    HERO,
    SUPPORT,
    SURVIVOR,
    SURVIVORS,
    TRACK,
    ZOMBIES,
    asked,
    at_turn,
    board,
    board_fallen,
    board_markers,
    cards_in_deck,
    contacts,
    counter_charged,
    dice_left,
    events,
    force,
    has_owner,
    kind,
    mark,
    narrate,
    owner,
    player,
    run_system,
    survivors,
    tags,
    tally,
    wounds,
    zombies,
    zone_of,
)

SIX = [(HERO, 0)] + [(SURVIVOR, 0)] * 5

# The "10" column of the Combat Results Table, rolls 1 to 6 (the gauntlets' strength).
CRT_AT_TEN = {1: 0, 2: 1, 3: 1, 4: 2, 5: 3, 6: 4}


@pytest.fixture
def game(make_game) -> Game:
    return make_game("shambling", 1)


def faces_drawn(game: Game) -> list[str]:
    return [e["card"] for e in events(game, "draw")]


# -- turns 1 and 8: the gauntlets -----------------------------------------------------------------

@pytest.mark.parametrize("turn", [1, 8])
@pytest.mark.parametrize("roll", range(1, 7))
def test_gauntlets_roll_the_crt_at_strength_ten(make_game, turn: int, roll: int) -> None:
    """Turns 1 and 8: roll on the CRT with a strength of 10 (rolls 1..6 give 0, 1, 1, 2, 3, 4
    wounds); the survivor player chooses who is wounded and killed, in either zone."""
    g = make_game("shambling", 1)
    ids = board(g, front=SIX, support=[(SURVIVOR, 0)] * 2)
    force(g, dice=[roll])
    decisions = narrate(g, turn, {"shambling.wound": lambda d: d.options[-1]})
    assert len(events(g, "wound")) == CRT_AT_TEN[roll]
    assert all(d.side == player(0) and d.options[-1] in ids[SUPPORT] + ids[FRONT] for d in decisions)
    assert events(g, "gauntlet") == [{"board": 0, "roll": roll, "strength": 10, "wounds": CRT_AT_TEN[roll]}]


def test_gauntlet_wounds_and_kills_where_the_player_chooses(game: Game) -> None:
    """The survivor player chooses who is wounded and killed: a 5 (3 wounds) on one Support figure
    (killed) and one Front Line figure."""
    ids = board(game, front=SIX, support=[(SURVIVOR, 1)] * 2)
    picks = iter([ids[SUPPORT][0], ids[FRONT][1], ids[FRONT][2]])
    force(game, dice=[5])
    narrate(game, 1, {"shambling.wound": lambda d: next(picks)})
    assert wounds(game, ids[SUPPORT][0]) is None  # its second wound: removed
    assert [wounds(game, e) for e in ids[FRONT]] == [0, 1, 1, 0, 0, 0]
    assert tally(game)["survivors_killed"] == 1


def test_gauntlet_six_does_not_force_the_hero(game: Game) -> None:
    """DESIGN CHOICE: the gauntlet lets the player choose freely, so a 6 (CRT[6][10] = 4) spares the hero."""
    ids = board(game, front=SIX)
    force(game, dice=[6])
    decisions = narrate(game, 1)
    assert decisions[0].options == ids[FRONT]
    assert [d.context["left"] for d in decisions] == [4, 3, 2, 1]  # each decision says what is left
    assert wounds(game, ids[FRONT][0]) == 0
    assert [e["figure"] for e in events(game, "wound")] == [ids[FRONT][1]] * 2 + [ids[FRONT][2]] * 2


# -- zombie assaults and the deck -----------------------------------------------------------------

@pytest.mark.parametrize(("turn", "cards", "zone", "count"), [
    (2, ["7H"], FRONT, 7), (4, ["5S", "3D"], FRONT, 5), (6, ["4D"], SUPPORT, 4), (7, ["2D", "6C"], FRONT, 6),
    (9, ["3H", "4S"], FRONT, 7), (2, ["AC"], FRONT, 1),
])
def test_zombie_assaults(game: Game, turn: int, cards: list[str], zone: str, count: int) -> None:
    """Turns 2, 4, 6, 7 and 9: the card's value (two cards on turn 9; an ace is 1) is the number of
    zombies the player faces in the zone the track names (Support on turn 6, the Front Line otherwise)."""
    board(game, front=SIX, support=[(SURVIVOR, 0)])
    force(game, cards=cards)
    narrate(game, turn)
    assert len(zombies(game, zone)) == count and len(zombies(game)) == count
    assert events(game, "assault") == [{"board": 0, "zone": zone, "zombies": count}]
    assert events(game, "supply_exhausted") == []  # within the supply of 10: every zombie placed
    assert game.card_script == []


@pytest.mark.parametrize("turn", [1, 3, 5, 8, 10])
def test_no_zombies_arrive_on_other_turns(game: Game, turn: int) -> None:
    """Only turns 2, 4, 6, 7 and 9 deal zombies (turns 5 and 10 turn the wounded instead)."""
    board(game, front=SIX)
    force(game, dice=[1], cards=["5D"])
    narrate(game, turn)
    assert zombies(game) == [] and events(game, "assault") == []


def test_joker_reshuffles_everything_and_deals_a_replacement(game: Game) -> None:
    """The Joker: all cards, those drawn this turn included, are reshuffled; a replacement is dealt."""
    board(game, front=SIX)
    force(game, cards=["2C", "JK", "5H"])
    narrate(game, 9)
    assert len(zombies(game)) == 7  # 2 + the replacement 5
    _e, deck = game.deck("shambling")
    assert len(deck.discard) == 1 and faces_drawn(game) == ["2C", "JK", "5H"]
    assert len(deck.draw) == 40 and len(set(cards_in_deck(game))) == 41
    assert [e["why"] for e in events(game, "shuffle")] == ["joker"]


def test_the_deck_is_shuffled_before_the_first_turn(game: Game) -> None:
    """The Narrator deals from a shuffled deck: the deck is shuffled once, before turn 1 is played."""
    run_system(at_turn(game, 1), "shambling.deploy")
    assert [e["why"] for e in events(game, "shuffle")] == ["start of game"]
    run_system(at_turn(game, 2), "shambling.deploy")
    assert len(events(game, "shuffle")) == 1


# -- turn 3: dissension ---------------------------------------------------------------------------

@pytest.mark.parametrize(("card", "die", "fled"), [
    ("5S", 5, 2), ("5C", 1, 0), ("AC", 6, 3), ("9S", 4, 2), ("5H", None, 0), ("9D", None, 0)])
def test_dissension_in_the_ranks(game: Game, card: str, die: int | None, fled: int) -> None:
    """Turn 3: on a black card roll a die and halve it (rounded down): that many survivors flee;
    the player chooses who. A red card: nobody flees and no die is rolled."""
    board(game, front=SIX)
    force(game, dice=[die] if die else [], cards=[card])
    decisions = narrate(game, 3)
    assert len(survivors(game)) == 6 - fled and dice_left(game) == 0
    assert tally(game).get("survivors_fled", 0) == fled
    assert all(d.side == player(0) for d in asked(decisions, "shambling.flee"))
    assert events(game, "dissension") == ([{"board": 0, "fleeing": fled}] if die else [])


def test_the_player_chooses_who_flees(game: Game) -> None:
    ids = board(game, front=SIX, support=[(SURVIVOR, 1)])
    force(game, dice=[4], cards=["3S"])
    narrate(game, 3, {"shambling.flee": lambda d: ids[FRONT][0] if ids[FRONT][0] in d.options else ids[FRONT][3]})
    assert survivors(game) == [e for e in ids[FRONT] + ids[SUPPORT] if e not in (ids[FRONT][0], ids[FRONT][3])]
    assert [(e["figure"], e["why"]) for e in events(game, "removed")] == [(ids[FRONT][0], "fled"),
                                                                         (ids[FRONT][3], "fled")]


# -- turns 4 and 7: replacements ------------------------------------------------------------------

def test_saviours_zombies_then_a_replacement_card(game: Game) -> None:
    """Turn 4: zombies on the Front Line, then a Replacement card: a Heart brings its value in fresh
    survivors, each placed by the player."""
    board(game, front=[(HERO, 0)], support=[(SURVIVOR, 1)])
    force(game, cards=["3C", "4H"])
    decisions = narrate(game, 4, {"shambling.place": SUPPORT})
    assert len(zombies(game, FRONT)) == 3
    fresh = survivors(game)[2:]
    assert len(fresh) == 4 and all(wounds(game, e) == 0 and kind(game, e) == SURVIVOR for e in fresh)
    assert [zone_of(game, e) for e in fresh] == [SUPPORT] * 4
    places = asked(decisions, "shambling.place")
    assert [d.context["figure"] for d in places] == fresh and places[0].side == player(0)
    assert places[0].options == [FRONT, SUPPORT]
    assert events(game, "reinforcements") == [{"board": 0, "survivors": 4, "hero": False}]
    assert events(game, "placed") == [{"figure": e, "zone": SUPPORT} for e in fresh]


def test_down_in_flames_replacement_comes_before_the_zombies(game: Game) -> None:
    """Turn 7: the Replacement card is dealt before the burning zombies' card."""
    board(game, front=[(HERO, 0)])
    force(game, cards=["2H", "6C"])
    narrate(game, 7)
    assert len(survivors(game)) == 3 and len(zombies(game, FRONT)) == 6
    assert faces_drawn(game) == ["2H", "6C"]


@pytest.mark.parametrize("card", ["9S", "10D", "AC"])
def test_replacement_without_a_heart_brings_no_one(game: Game, card: str) -> None:
    board(game, front=[(HERO, 0)])
    force(game, cards=[card])
    run_system(at_turn(game, 4), "shambling.replacement")
    assert len(survivors(game)) == 1 and events(game, "reinforcements") == []


@pytest.mark.parametrize("hero", [True, False])
def test_ten_of_hearts_may_bring_a_new_hero(game: Game, hero: bool) -> None:
    """If a 10 of Hearts is drawn a new Hero figure may be added (one of the ten newcomers)."""
    board(game, front=[(SURVIVOR, 0)])
    force(game, cards=["10H"])
    decisions = run_system(at_turn(game, 4), "shambling.replacement", {"shambling.new_hero": hero})
    (question,) = asked(decisions, "shambling.new_hero")
    assert question.side == player(0)
    fresh = survivors(game)[1:]
    assert [kind(game, e) for e in fresh[:2]] == ([HERO, SURVIVOR] if hero else [SURVIVOR, SURVIVOR])  # placed first
    assert [kind(game, e) for e in survivors(game)].count(HERO) == int(hero) and len(survivors(game)) == 11
    assert events(game, "reinforcements") == [{"board": 0, "survivors": 10, "hero": hero}]


@pytest.mark.parametrize("card", ["9H", "AH"])
def test_only_the_ten_of_hearts_brings_a_hero(game: Game, card: str) -> None:
    board(game, front=[(SURVIVOR, 0)])
    force(game, cards=[card])
    decisions = run_system(at_turn(game, 4), "shambling.replacement")
    assert asked(decisions, "shambling.new_hero") == []
    assert HERO not in [kind(game, e) for e in survivors(game)]


def test_newcomers_respect_the_front_line_cap(game: Game) -> None:
    """No more than `front_line_cap` (6) figures in the Front Line at any one time: once it is full,
    a newcomer may only go to Support."""
    board(game, front=[(HERO, 0)] + [(SURVIVOR, 0)] * 3)
    force(game, cards=["8H"])
    decisions = run_system(at_turn(game, 4), "shambling.replacement", {"shambling.place": FRONT})
    assert len(survivors(game, FRONT)) == 6 and len(survivors(game, SUPPORT)) == 6
    assert [d.options for d in asked(decisions, "shambling.place")] == [[FRONT, SUPPORT]] * 2


def test_front_line_cap_is_a_parameter(make_game) -> None:
    """DESIGN CHOICE: the Reinforcements section's 10 is playable as `front_line_cap=10`."""
    g = make_game("shambling", 1, params={"front_line_cap": 10})
    board(g, front=SIX)
    force(g, cards=["8H"])
    run_system(at_turn(g, 4), "shambling.replacement")
    assert len(survivors(g, FRONT)) == 10


# -- turns 5 and 10: the enemy within -------------------------------------------------------------

def test_enemy_within_black_cards_turn_the_wounded(game: Game) -> None:
    """Turn 5: a card per wounded survivor; on black it becomes a zombie in its zone, and the
    survivors it attacks may only Stand and Receive, whichever zone they are in."""
    ids = board(game, front=[(HERO, 0), (SURVIVOR, 1), (SURVIVOR, 0)],
                support=[(SURVIVOR, 1), (SURVIVOR, 1), (SURVIVOR, 0)])
    turned, spared, turned_in_support = ids[FRONT][1], ids[SUPPORT][0], ids[SUPPORT][1]
    force(game, cards=["2S", "3H", "4C"])
    narrate(game, 5)
    assert game.card_script == [] and len(events(game, "draw")) == 3  # one card per wounded survivor
    assert wounds(game, turned) is None and wounds(game, spared) == 1 and wounds(game, turned_in_support) is None
    z_front, z_support = zombies(game)
    assert (zone_of(game, z_front), zone_of(game, z_support)) == (FRONT, SUPPORT)
    assert "stand_only" in tags(game, z_front) and wounds(game, z_front) == 0
    assert events(game, "turned") == [{"figure": turned, "zombie": z_front, "zone": FRONT},
                                      {"figure": turned_in_support, "zombie": z_support, "zone": SUPPORT}]
    assert [(e["figure"], e["why"]) for e in events(game, "removed")] == [(turned, "turned"),
                                                                         (turned_in_support, "turned")]
    decisions = run_system(game, "shambling.engage")
    assert asked(decisions, "shambling.stance") == []  # only Stand and Receive was possible: no question
    assert contacts(game, z_front) != [] and contacts(game, z_support) != []
    assert tally(game)["survivors_turned"] == 2


def test_turned_zombies_fight_the_survivors_of_their_zone(make_game) -> None:
    """The figure turns into a zombie and fights the other survivors in that zone (zombies first)."""
    g = make_game("shambling", 1, params={"combat_rounds": 1})
    ids = board(g, front=[(HERO, 0), (SURVIVOR, 1)])
    force(g, cards=["7S"])
    narrate(g, 5)
    run_system(g, "shambling.engage")
    force(g, dice=[6, 1])
    run_system(g, "shambling.combat")
    assert [(e["side"], e["zone"]) for e in events(g, "strike")] == [(ZOMBIES, FRONT), (SURVIVORS, FRONT)]
    assert wounds(g, ids[FRONT][0]) == 1


# -- turn 10: a brave new dawn --------------------------------------------------------------------

def test_brave_new_dawn_and_the_national_guard(game: Game) -> None:
    """Turn 10: the enemy within again; if any survivor turned, a card for each remaining survivor:
    on black the National Guard shoots him. Then the game ends."""
    ids = board(game, front=[(HERO, 0), (SURVIVOR, 0), (SURVIVOR, 0)], support=[(SURVIVOR, 1)])
    force(game, cards=["AS"])  # the wounded one turns
    narrate(game, 10)
    assert len(zombies(game, SUPPORT)) == 1
    for z in zombies(game):  # as if the battle destroyed it
        game.world.delete(z)
    force(game, cards=["2H", "3C", "4D"])
    run_system(game, "core.aftermath", track=TRACK)
    assert survivors(game) == [ids[FRONT][0], ids[FRONT][2]]
    assert [(e["figure"], e["why"]) for e in events(game, "removed")][-1] == (ids[FRONT][1], "shot")
    assert tally(game)["survivors_shot"] == 1
    run_system(game, "shambling.turn_end", track=TRACK)
    assert game.over and game.outcome == SURVIVORS


def test_no_national_guard_when_nobody_turned(game: Game) -> None:
    board(game, front=[(HERO, 0), (SURVIVOR, 0)])
    narrate(game, 10)
    force(game, cards=["AS", "2S"])
    run_system(game, "core.aftermath", track=TRACK)
    assert len(survivors(game)) == 2 and game.card_script == ["AS", "2S"]


@pytest.mark.parametrize("turn", range(1, 10))
def test_the_national_guard_comes_only_on_turn_ten(game: Game, turn: int) -> None:
    """Only turn 10 has steps after the battle."""
    board(game, front=[(HERO, 0), (SURVIVOR, 0)])
    board_markers(game).add("turned")  # as if a survivor had turned this turn
    force(game, cards=["AS", "2S"])
    run_system(at_turn(game, turn), "core.aftermath", track=TRACK)
    assert game.card_script == ["AS", "2S"]


@pytest.mark.parametrize(("turn", "over"), [(9, False), (10, True)])
def test_the_game_ends_once_turn_ten_is_completed(game: Game, turn: int, over: bool) -> None:
    """There are 10 turns in the game; once turn 10 has been completed the game ends (the survivors'
    if a board stands)."""
    board(game, front=[(HERO, 0)])
    run_system(at_turn(game, turn), "shambling.turn_end", track=TRACK)
    assert game.over == over and game.outcome == (SURVIVORS if over else None)


# -- reordering -----------------------------------------------------------------------------------

@pytest.mark.parametrize("turn", range(1, 11))
def test_reorder_at_the_end_of_each_turn_but_the_last(game: Game, turn: int) -> None:
    """Survivor players may reorder their survivors at the end of turns 1 to 9; turn 10 does not
    say so."""
    ids = board(game, front=[(HERO, 0), (SURVIVOR, 1)], support=[(SURVIVOR, 0)])
    run_system(at_turn(game, turn), "shambling.reorder", track=TRACK)
    moved = turn != 10
    assert zone_of(game, ids[FRONT][1]) == (SUPPORT if moved else FRONT)
    assert zone_of(game, ids[SUPPORT][0]) == (FRONT if moved else SUPPORT)
    assert events(game, "reordered") == ([{"figure": ids[FRONT][1], "zone": SUPPORT},
                                          {"figure": ids[SUPPORT][0], "zone": FRONT}] if moved else [])


def test_no_reorder_once_the_hero_is_dead(game: Game) -> None:
    """A survivor player whose Hero is dead cannot reorder: figures stay where they are."""
    ids = board(game, front=[(SURVIVOR, 1)], support=[(SURVIVOR, 0)])
    decisions = run_system(at_turn(game, 2), "shambling.reorder", track=TRACK)
    assert decisions == [] and zone_of(game, ids[FRONT][0]) == FRONT


def test_reorder_never_breaks_the_cap(game: Game) -> None:
    """The Front Line cap holds when reordering: with 6 in the Front Line nobody may come forward
    until someone goes back."""
    ids = board(game, front=SIX, support=[(SURVIVOR, 0)] * 3)
    decisions = run_system(at_turn(game, 2), "shambling.reorder", {"shambling.reorder": "done"}, track=TRACK)
    assert decisions[0].options == ["done", *ids[FRONT]] and decisions[0].side == player(0)


def test_reorder_moves_each_figure_once(game: Game) -> None:
    """DESIGN CHOICE: each figure may change zone once per reordering; a freed place may be filled."""
    ids = board(game, front=SIX, support=[(SURVIVOR, 0)])
    back = ids[FRONT][5]
    order = iter([back, ids[SUPPORT][0], "done"])
    decisions = run_system(at_turn(game, 2), "shambling.reorder", {"shambling.reorder": lambda d: next(order)},
                           track=TRACK)
    assert decisions[1].options == ["done", *ids[FRONT][:5], ids[SUPPORT][0]]
    assert decisions[2].options == ["done", *ids[FRONT][:5]]
    assert zone_of(game, back) == SUPPORT and zone_of(game, ids[SUPPORT][0]) == FRONT


# -- deployment and boards ------------------------------------------------------------------------

def test_deployment_fills_the_front_line_to_the_cap(make_game) -> None:
    """Players place their survivors as they wish between the zones, no more than 6 in the Front Line."""
    g = make_game("shambling", 1)
    decisions = run_system(at_turn(g, 1), "shambling.deploy", {"shambling.place": FRONT})
    assert len(survivors(g, FRONT)) == 6 and len(survivors(g, SUPPORT)) == 4
    places = asked(decisions, "shambling.place")
    assert [d.options for d in places] == [[FRONT, SUPPORT]] * 6  # then only Support: no question
    assert len(events(g, "placed")) == 10


def test_deployment_happens_only_before_the_first_turn(make_game) -> None:
    g = make_game("shambling", 1)
    assert run_system(at_turn(g, 2), "shambling.deploy") == [] and events(g, "placed") == []


def test_multiple_players_each_have_a_board(make_game) -> None:
    """Any number of players, each with his own board and ten figures, drawing in seat order."""
    g = make_game("shambling", 1, players=3)
    decisions = run_system(at_turn(g, 1), "shambling.deploy", {"shambling.place": FRONT})
    assert [len(survivors(g, seat=s)) for s in range(3)] == [10, 10, 10]
    assert [len(survivors(g, FRONT, seat=s)) for s in range(3)] == [6, 6, 6]  # each player his own cap
    sides = [d.side for d in asked(decisions, "shambling.place")]
    assert sides == ["player:0"] * 6 + ["player:1"] * 6 + ["player:2"] * 6
    force(g, cards=["2H", "3H", "4H"])
    narrate(g, 2)
    assert [len(zombies(g, seat=s)) for s in range(3)] == [2, 3, 4]


def test_a_board_with_no_survivors_falls(game: Game) -> None:
    """DESIGN CHOICE: a board with no survivors at the end of a turn has fallen. One board: the
    zombies win."""
    board(game)
    run_system(at_turn(game, 3), "shambling.turn_end", track=TRACK)
    assert board_fallen(game) and events(game, "board_fallen") == [{"board": 0}]
    assert game.over and game.outcome == ZOMBIES


def test_the_game_goes_on_while_a_board_stands(make_game) -> None:
    g = make_game("shambling", 1, players=2)
    board(g, seat=0)
    board(g, front=[(HERO, 0)], seat=1)
    run_system(at_turn(g, 3), "shambling.turn_end", track=TRACK)
    assert board_fallen(g, 0) and not board_fallen(g, 1) and not g.over
    force(g, cards=["4H"])
    narrate(g, 4)  # the fallen board draws no card
    assert zombies(g, seat=0) == [] and len(zombies(g, seat=1)) == 4


def test_turn_end_clears_the_turns_markers(game: Game) -> None:
    """Markers that last one turn (risen zombies' Stand and Receive, the charge) end with it."""
    ids = board(game, front=[(HERO, 0)], zombies_front=1)
    counter_charged(game, ids[FRONT])
    mark(game, ids["zombies_front"][0], "stand_only")
    run_system(at_turn(game, 3), "shambling.turn_end", track=TRACK)
    assert tags(game, ids[FRONT][0]) == [] and tags(game, ids["zombies_front"][0]) == []


# -- the narrator's supply (#15) -------------------------------------------------------------------

def test_no_more_than_ten_zombies_per_player(game: Game) -> None:
    """The Narrator needs zombie figures, no more than 10 per player: two tens on turn 9 bring 10."""
    board(game, front=SIX)
    force(game, cards=["10H", "10S"])
    narrate(game, 9)
    assert len(zombies(game)) == 10


def test_zombies_held_at_bay_count_against_the_supply(game: Game) -> None:
    """Zombies still on the board are figures out of the Narrator's 10: with 6 held at bay, a 7
    brings only 4 more."""
    board(game, front=SIX, zombies_front=6)
    force(game, cards=["7D"])
    narrate(game, 2)
    assert len(zombies(game)) == 10



def test_zombies_beyond_the_supply_are_not_placed(game: Game) -> None:
    """DESIGN CHOICE: the Narrator's zombies beyond his 10 are not placed, and the log says so: with
    10 held at bay a 3 brings none."""
    board(game, front=SIX, zombies_front=10)
    force(game, cards=["3C"])
    narrate(game, 2)
    assert len(zombies(game)) == 10
    assert events(game, "assault") == [{"board": 0, "zone": FRONT, "zombies": 0}]
    assert events(game, "supply_exhausted") == [{"board": 0, "drawn": 3, "unplaced": 3}]


def test_the_supply_is_a_parameter(make_game) -> None:
    """The Narrator's supply per player (10 in the text) is the parameter `zombie_supply`: with 15,
    two tens on turn 9 bring 15."""
    g = make_game("shambling", 1, params={"zombie_supply": 15})
    board(g, front=SIX)
    force(g, cards=["10H", "10S"])
    narrate(g, 9)
    assert len(zombies(g)) == 15
    assert events(g, "supply_exhausted") == [{"board": 0, "drawn": 20, "unplaced": 5}]


def test_each_player_has_his_own_supply(make_game) -> None:
    """No more than 10 zombie figures per player: DESIGN CHOICE, each board has its own ten, so a
    full board does not take figures from another's."""
    g = make_game("shambling", 1, players=2)
    board(g, front=SIX, zombies_front=9, seat=0)
    board(g, front=SIX, seat=1)
    force(g, cards=["5H", "8D"])
    narrate(g, 2)
    assert (len(zombies(g, seat=0)), len(zombies(g, seat=1))) == (10, 8)


def test_a_survivor_turns_even_with_the_supply_empty(game: Game) -> None:
    """Turn 5: a wounded survivor's black card turns him into a zombie. DESIGN CHOICE: his own
    figure is turned, so he turns even when all 10 of the Narrator's zombies are on the board."""
    ids = board(game, front=[(HERO, 0), (SURVIVOR, 1)], zombies_front=10)
    force(game, cards=["2S"])
    narrate(game, 5)
    assert wounds(game, ids[FRONT][1]) is None and len(zombies(game)) == 11


def test_newcomers_belong_to_their_player_and_zombies_to_no_one(make_game) -> None:
    """Each player's figures are his own: seat 1's reinforcements are owned by player 1; zombies
    (the narrator's) by no player."""
    g = make_game("shambling", 1, players=2)
    board(g, seat=0)
    board(g, front=[(HERO, 0)], seat=1)
    run_system(at_turn(g, 3), "shambling.turn_end", track=TRACK)  # seat 0 falls: only seat 1 draws
    force(g, cards=["3C", "2H"])
    narrate(g, 4)
    fresh = survivors(g, seat=1)[1:]
    assert len(fresh) == 2 and [owner(g, e) for e in fresh] == [1, 1]
    assert all(not has_owner(g, z) for z in zombies(g, seat=1))


def test_boards_resolve_in_seat_order(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Boards resolve in seat order whatever order the scenario lists them in: seat 0 draws first."""
    from ecs_zombie import new_game

    scenario = tmp_path / "reversed.yaml"
    scenario.write_text(
        "ruleset: shambling\nname: reversed\nplayers: 2\nentities:\n"
        "  - {prefab: board, set: {Owner: {player: 1}}}\n"
        "  - {prefab: board, set: {Owner: {player: 0}}}\n"
        "  - {prefab: hero, set: {Owner: {player: 1}, Zone: {board: 1, name: front}}}\n"
        "  - {prefab: hero, set: {Owner: {player: 0}, Zone: {board: 0, name: front}}}\n"
        "decks:\n  - {name: shambling, table: shambling.deck}\n")
    g = new_game(str(scenario), 1)
    try:
        force(g, cards=["2H", "5H"])
        narrate(g, 2)
        assert (len(zombies(g, seat=0)), len(zombies(g, seat=1))) == (2, 5)
    finally:
        g.close()
