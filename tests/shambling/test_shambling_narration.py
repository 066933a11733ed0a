"""Night of the Shambling Dead — the Narration Track turn by turn, the deck, reinforcements,
reordering and the end of the night. Cards and dice forced; each test cites the turn or rule."""

from __future__ import annotations

import pytest

from ecs_zombie import Game
from ecs_zombie.components import Card
from ecs_zombie.systems.shambling.board import board_state
from tests.shambling.shambling_setup import (
    board,
    cards_in_deck,
    dice_left,
    force,
    kind,
    run_system,
    survivors,
    tags,
    wounds,
    zombies,
    zone_of,
)

TEN = [("hero", 0)] + [("survivor", 0)] * 5


@pytest.fixture
def game(make_game) -> Game:
    return make_game("shambling", 1)


def at_turn(game: Game, turn: int) -> Game:
    game.tick = turn
    return game


def narrate(game: Game, turn: int, answers: dict | None = None):
    return run_system(at_turn(game, turn), "core.narration", answers, track="shambling.narration")


@pytest.mark.parametrize("turn", [1, 8])
def test_gauntlets_roll_the_crt_at_strength_ten(game: Game, turn: int) -> None:
    """Turns 1 and 8: roll on the CRT with a strength of 10; the survivor player chooses who is
    wounded and killed (CRT[5][10] = 3 wounds)."""
    ids = board(game, front=TEN, support=[("survivor", 1)] * 4)
    picks = iter([ids["support"][0], ids["front"][1], ids["front"][2]])
    force(game, dice=[5])
    narrate(game, turn, {"shambling.wound": lambda d: next(picks)})
    assert wounds(game, ids["support"][0]) is None  # its second wound: removed
    assert [wounds(game, e) for e in ids["front"]] == [0, 1, 1, 0, 0, 0]


def test_gauntlet_six_does_not_force_the_hero(game: Game) -> None:
    """DESIGN CHOICE: the gauntlet lets the player choose freely, so a 6 (CRT[6][10] = 4) spares the hero."""
    ids = board(game, front=TEN)
    force(game, dice=[6])
    asked = narrate(game, 1)
    assert ids["front"][0] in asked[0].options and len(asked[0].options) == 6
    assert wounds(game, ids["front"][0]) == 0
    assert [e[2]["figure"] for e in game.events if e[1] == "wound"] == [ids["front"][1]] * 2 + [ids["front"][2]] * 2


@pytest.mark.parametrize(("turn", "cards", "zone", "count"), [
    (2, ["7H"], "front", 7), (6, ["4D"], "support", 4), (9, ["3H", "4S"], "front", 7), (2, ["AC"], "front", 1),
])
def test_zombie_assaults(game: Game, turn: int, cards: list[str], zone: str, count: int) -> None:
    """Turns 2, 6 and 9: the card's value (two cards on turn 9; an ace is 1) is the number of
    zombies the player faces in the zone the track names."""
    board(game, front=TEN, support=[("survivor", 0)])
    force(game, cards=cards)
    narrate(game, turn)
    assert len(zombies(game, zone)) == count and len(zombies(game)) == count


def test_joker_reshuffles_everything_and_deals_a_replacement(game: Game) -> None:
    """The Joker: all cards, those drawn this turn included, are reshuffled; a replacement is dealt."""
    board(game, front=TEN)
    force(game, cards=["2C", "JK", "5H"])
    narrate(game, 9)
    assert len(zombies(game)) == 7  # 2 + the replacement 5
    _e, deck = game.deck("shambling")
    assert deck.discard == [deck.discard[0]] and game.world.get(deck.discard[0], Card).face == "5H"
    assert sorted(cards_in_deck(game)) == sorted(set(cards_in_deck(game))) and len(cards_in_deck(game)) == 41
    assert [e[2]["why"] for e in game.events if e[1] == "shuffle"] == ["joker"]


@pytest.mark.parametrize(("card", "die", "fled"), [("5S", 5, 2), ("5C", 1, 0), ("5H", None, 0), ("9D", None, 0)])
def test_dissension_in_the_ranks(game: Game, card: str, die: int | None, fled: int) -> None:
    """Turn 3: on a black card roll a die and halve it (rounded down): that many survivors flee;
    the player chooses who. A red card: nobody flees and no die is rolled."""
    board(game, front=TEN)
    force(game, dice=[die] if die else [], cards=[card])
    narrate(game, 3)
    assert len(survivors(game)) == 6 - fled and dice_left(game) == 0
    assert board_state(game, 0)[1].counts.get("survivors_fled", 0) == fled


def test_saviours_zombies_then_a_replacement_card(game: Game) -> None:
    """Turn 4: zombies on the Front Line, and a Replacement card: a Heart brings its value in fresh survivors."""
    board(game, front=[("hero", 0)], support=[("survivor", 1)])
    force(game, cards=["3C", "4H"])
    narrate(game, 4)
    assert len(zombies(game, "front")) == 3
    fresh = survivors(game)[2:]
    assert len(fresh) == 4 and all(wounds(game, e) == 0 and kind(game, e) == "survivor" for e in fresh)
    assert all(zone_of(game, e) in ("front", "support") for e in fresh)


def test_down_in_flames_replacement_comes_before_the_zombies(game: Game) -> None:
    """Turn 7: the Replacement card is dealt before the burning zombies' card."""
    board(game, front=[("hero", 0)])
    force(game, cards=["2H", "6C"])
    narrate(game, 7)
    assert len(survivors(game)) == 3 and len(zombies(game)) == 6


def test_replacement_without_a_heart_brings_no_one(game: Game) -> None:
    board(game, front=[("hero", 0)])
    force(game, cards=["9S"])
    run_system(at_turn(game, 4), "shambling.replacement")
    assert len(survivors(game)) == 1


def test_ten_of_hearts_may_bring_a_new_hero(game: Game) -> None:
    """If a 10 of Hearts is drawn a new Hero figure may be added (one of the ten newcomers)."""
    board(game, front=[("survivor", 0)])
    force(game, cards=["10H"])
    asked = run_system(at_turn(game, 4), "shambling.replacement", {"shambling.new_hero": True})
    assert any(d.kind == "shambling.new_hero" for d in asked)
    assert sorted(kind(game, e) for e in survivors(game)).count("hero") == 1 and len(survivors(game)) == 11


def test_newcomers_respect_the_front_line_cap(game: Game) -> None:
    """No more than `front_line_cap` (6) figures in the Front Line at any one time."""
    board(game, front=TEN)
    force(game, cards=["8H"])
    run_system(at_turn(game, 4), "shambling.replacement")
    assert len(survivors(game, "front")) == 6 and len(survivors(game, "support")) == 8


def test_front_line_cap_is_a_parameter(make_game) -> None:
    g = make_game("shambling", 1, params={"front_line_cap": 10})
    board(g, front=TEN)
    force(g, cards=["8H"])
    run_system(at_turn(g, 4), "shambling.replacement")
    assert len(survivors(g, "front")) == 10


def test_enemy_within_black_cards_turn_the_wounded(game: Game) -> None:
    """Turn 5: a card per wounded survivor; on black it becomes a zombie in its zone, and the
    survivors there may only Stand and Receive."""
    ids = board(game, front=[("hero", 0), ("survivor", 1), ("survivor", 0)], support=[("survivor", 1)])
    turned, spared = ids["front"][1], ids["support"][0]
    force(game, cards=["2S", "3H"])
    narrate(game, 5)
    assert wounds(game, turned) is None and wounds(game, spared) == 1
    (z,) = zombies(game)
    assert zone_of(game, z) == "front" and "stand_only" in tags(game, z)
    asked = run_system(game, "shambling.engage")
    stances = [d for d in asked if d.kind == "shambling.stance"]
    assert stances == []  # only Stand and Receive was possible: no question
    assert board_state(game, 0)[1].counts["survivors_turned"] == 1


def test_brave_new_dawn_and_the_national_guard(game: Game) -> None:
    """Turn 10: the enemy within again; if any survivor turned, a card for each remaining survivor:
    on black the National Guard shoots him. Then the game ends."""
    ids = board(game, front=[("hero", 0), ("survivor", 0), ("survivor", 0)], support=[("survivor", 1)])
    force(game, cards=["AS"])  # the wounded one turns
    narrate(game, 10)
    assert len(zombies(game, "support")) == 1
    for z in zombies(game):  # as if the battle destroyed it
        game.world.delete(z)
    force(game, cards=["2H", "3C", "4D"])
    run_system(game, "core.aftermath", track="shambling.narration")
    assert survivors(game) == [ids["front"][0], ids["front"][2]]
    run_system(game, "shambling.turn_end", track="shambling.narration")
    assert game.over and game.outcome == "survivors"


def test_no_national_guard_when_nobody_turned(game: Game) -> None:
    board(game, front=[("hero", 0), ("survivor", 0)])
    narrate(game, 10)
    force(game, cards=["AS", "2S"])
    run_system(game, "core.aftermath", track="shambling.narration")
    assert len(survivors(game)) == 2 and game.card_script == ["AS", "2S"]


def test_reorder_while_the_hero_lives(game: Game) -> None:
    """At the end of each turn players with a Hero may rearrange their figures between zones."""
    ids = board(game, front=[("hero", 0), ("survivor", 1)], support=[("survivor", 0)])
    run_system(at_turn(game, 2), "shambling.reorder", track="shambling.narration")
    assert zone_of(game, ids["front"][1]) == "support" and zone_of(game, ids["support"][0]) == "front"


def test_no_reorder_once_the_hero_is_dead(game: Game) -> None:
    """A survivor player whose Hero is dead cannot reorder: figures stay where they are."""
    ids = board(game, front=[("survivor", 1)], support=[("survivor", 0)])
    asked = run_system(at_turn(game, 2), "shambling.reorder", track="shambling.narration")
    assert asked == [] and zone_of(game, ids["front"][0]) == "front"


def test_no_reorder_after_the_last_turn(game: Game) -> None:
    board(game, front=[("hero", 0), ("survivor", 1)])
    assert run_system(at_turn(game, 10), "shambling.reorder", track="shambling.narration") == []


def test_reorder_never_breaks_the_cap(game: Game) -> None:
    board(game, front=TEN, support=[("survivor", 0)] * 3)
    asked = run_system(at_turn(game, 2), "shambling.reorder", {"shambling.reorder": "done"},
                       track="shambling.narration")
    assert all(zone_of(game, o) == "front" for o in asked[0].options if o != "done")


def test_deployment_fills_the_front_line_to_the_cap(make_game) -> None:
    """Players place their survivors as they wish, no more than 6 in the Front Line."""
    g = make_game("shambling", 1)
    g.tick = 1
    run_system(g, "shambling.deploy")
    assert len(survivors(g, "front")) == 6 and len(survivors(g, "support")) == 4


def test_multiple_players_each_have_a_board(make_game) -> None:
    """Any number of players, each with his own board and ten figures, drawing in seat order."""
    g = make_game("shambling", 1, players=3)
    g.tick = 1
    run_system(g, "shambling.deploy")
    assert [len(survivors(g, seat=s)) for s in range(3)] == [10, 10, 10]
    force(g, cards=["2H", "3H", "4H"])
    narrate(g, 2)
    assert [len(zombies(g, seat=s)) for s in range(3)] == [2, 3, 4]


def test_a_board_with_no_survivors_falls(game: Game) -> None:
    """Sudden Death Loss; by design also a board emptied outside combat. One board: the zombies win."""
    board(game)
    run_system(at_turn(game, 3), "shambling.turn_end", track="shambling.narration")
    assert game.over and game.outcome == "zombies"
