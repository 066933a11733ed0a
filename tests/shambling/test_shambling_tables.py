"""Night of the Shambling Dead — every number the text prints, read through play.

The Combat Results Table cell by cell through a gauntlet roll, the combat strengths through forced
strikes, every card of the deck through the steps that read its value and suit, the pieces' wound
limit, the standard game's figures and a whole night played on forced dice and cards. Expected values
are literals from the rule text, never read from the tables under test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ecs_zombie import Game
from tests.helpers import drive
from tests.shambling.shambling_setup import (
    CHARGE,
    FRONT,
    HERO,
    STAND,
    SUPPORT,
    SURVIVOR,
    SURVIVORS,
    TRACK,
    ZOMBIES,
    at_turn,
    board,
    cards_in_deck,
    contacts,
    counter_charged,
    dice_left,
    events,
    force,
    kind,
    narrate,
    rolls,
    run_system,
    run_unbound,
    strikes,
    survivors,
    timed,
    wound_limit,
    wounds,
    zombies,
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
_HERE = Path(__file__).resolve()
RULES = next((p / "shared" / "rules" / "night-of-the-shambling-dead.txt" for p in _HERE.parents
              if (p / "shared" / "rules" / "night-of-the-shambling-dead.txt").is_file()), None)

# The deck: "playing cards with 1 joker, but no other court cards" (an ace is worth 1: README).
FACES = [(f"{rank}{suit}", value, suit) for suit in "HDCS"
         for rank, value in [("A", 1)] + [(str(n), n) for n in range(2, 11)]]


# -- the Combat Results Table -----------------------------------------------------------------------

@pytest.mark.parametrize("roll", range(1, 7))
@pytest.mark.parametrize("strength", range(1, 23))
def test_crt_cell_by_cell_through_a_gauntlet(make_game, roll: int, strength: int) -> None:
    """Combat Results Table: the d6 roll and the strength give the wounds, every cell as printed;
    a strength of 20 or more reads the "20+" column. Read through a gauntlet ("roll on the CRT with a
    strength of N"), with five unwounded survivors to take up to ten wounds."""
    g = make_game("shambling", 1)
    ids = board(g, front=[(SURVIVOR, 0)] * 5)
    force(g, dice=[roll])
    run_system(g, "shambling.gauntlet", strength=strength)
    expected = PRINTED_CRT[roll][min(strength, 20) - 1]
    taken = [wounds(g, e) for e in ids[FRONT]]
    assert sum(2 if w is None else w for w in taken) == len(events(g, "wound")) == expected
    assert events(g, "gauntlet") == [{"board": 0, "roll": roll, "strength": strength, "wounds": expected}]


def test_crt_matches_the_rule_text_itself(make_game) -> None:
    """Combat Results Table: the literal above equals the table parsed out of the rule text, and
    the shipped table equals both."""
    if RULES is None:
        pytest.skip("the rule text is not beside the checkout")
    lines = RULES.read_text().split("Combat Results Table", 1)[1].splitlines()
    rows = {}
    for line in lines:
        cells = [c.strip() for c in line.split("|") if c.strip()]
        if len(cells) == 21 and cells[0] in ("1", "2", "3", "4", "5", "6"):
            rows[int(cells[0])] = [int(c) for c in cells[1:]]
    assert rows == PRINTED_CRT
    assert make_game("shambling").tables["shambling.crt"].rows == PRINTED_CRT


# -- combat strengths -----------------------------------------------------------------------------

@pytest.mark.parametrize(("piece", "hurt", "strength"), [
    (SURVIVOR, 0, 2), (SURVIVOR, 1, 1), (HERO, 0, 3), (HERO, 1, 2),
])
def test_a_survivors_combat_strength(game: Game, piece: str, hurt: int, strength: int) -> None:
    """Combat strength: Survivor 2 unwounded, 1 wounded; Survivor Hero 3 unwounded, 2 wounded.
    One figure in the Front Line strikes a zombie alone (no Support): its strength is the total;
    a 6 on the CRT at strengths 1, 2, 3 gives 1, 1, 2 wounds."""
    board(game, front=[(piece, hurt)], zombies_front=[0])
    run_system(game, "shambling.engage", {"shambling.stance": STAND})
    force(game, dice=[1, 6])  # zombies: strength 1, CRT[1][1] = 0; then the survivor
    run_system(game, "shambling.combat")
    survivor_strike = strikes(game)[1]
    assert (survivor_strike["side"], survivor_strike["strength"]) == (SURVIVORS, strength)
    assert survivor_strike["wounds"] == {1: 1, 2: 1, 3: 2}[strength]


@pytest.mark.parametrize("hurt", [0, 1])
def test_a_zombies_combat_strength_is_one_wounded_or_not(game: Game, hurt: int) -> None:
    """Combat strength: Zombie 1 unwounded, 1 wounded. Five zombies strike: strength 5, and a 4 on the
    CRT at strength 5 gives 1 wound (at 4 it would give none)."""
    board(game, front=[(SURVIVOR, 0)] * 5, zombies_front=[hurt] * 5)
    run_system(game, "shambling.engage", {"shambling.stance": STAND})
    force(game, dice=[4, 1])
    run_system(game, "shambling.combat")
    zombie_strike = strikes(game)[0]
    assert (zombie_strike["side"], zombie_strike["strength"], zombie_strike["wounds"]) == (ZOMBIES, 5, 1)


def test_unwounded_support_survivors_add_one_each_to_the_front_line(game: Game) -> None:
    """All unwounded survivors in the Support zone add 1 to the Front Line's total; the wounded add
    nothing. A survivor (2) with two unwounded and two wounded in Support: 4; a 4 gives 0 wounds
    (at 5 it would give 1, at 6 also 1)."""
    board(game, front=[(SURVIVOR, 0)], support=[(SURVIVOR, 0), (SURVIVOR, 0), (SURVIVOR, 1), (SURVIVOR, 1)],
          zombies_front=1)
    run_system(game, "shambling.engage", {"shambling.stance": STAND})
    force(game, dice=[1, 4])
    run_system(game, "shambling.combat")
    assert [(s["side"], s["strength"], s["wounds"]) for s in strikes(game)] == [(ZOMBIES, 1, 0), (SURVIVORS, 4, 0)]


def test_support_bonus_reaches_a_crt_threshold(game: Game) -> None:
    """The Support bonus counts: a hero (3) with two unwounded in Support is 5; a 4 on the CRT at 5
    gives 1 wound (without the bonus, 3, none)."""
    ids = board(game, front=[(HERO, 0)], support=[(SURVIVOR, 0), (SURVIVOR, 0)], zombies_front=1)
    run_system(game, "shambling.engage", {"shambling.stance": STAND})
    force(game, dice=[1, 4])
    run_system(game, "shambling.combat")
    assert strikes(game)[1]["strength"] == 5 and wounds(game, ids["zombies_front"][0]) == 1


def test_zombies_get_no_support_bonus(game: Game) -> None:
    """The Support bonus is the survivors' (it adds to "the Front Line" survivors' total): three
    zombies striking while two unwounded survivors stand in Support have strength 3."""
    board(game, front=[(SURVIVOR, 0)] * 3, support=[(SURVIVOR, 0)] * 2, zombies_front=3)
    run_system(game, "shambling.engage", {"shambling.stance": STAND})
    force(game, dice=[1, 1])
    run_system(game, "shambling.combat")
    assert strikes(game)[0]["side"] == ZOMBIES and strikes(game)[0]["strength"] == 3


def test_survivors_attacked_in_support_fight_at_one_each(game: Game) -> None:
    """All Survivors in the Support zone have a combat strength of 1 each if attacked there, hero and
    wounded alike; survivors in the Front Line may not support them. Three in Support: 3 (not 3+2+1
    = 6, and no +2 from the Front Line); a 5 on the CRT at 3 gives 1 wound."""
    ids = board(game, front=[(SURVIVOR, 0), (SURVIVOR, 0)],
                support=[(HERO, 0), (SURVIVOR, 0), (SURVIVOR, 1)], zombies_support=3)
    decisions = run_system(game, "shambling.engage")
    assert [d for d in decisions if d.kind == "shambling.stance"] == []  # Stand and Receive only
    assert all(len(contacts(game, s)) == 1 for s in ids[SUPPORT])
    force(game, dice=[1, 5])
    run_system(game, "shambling.combat")
    assert [(s["side"], s["zone"], s["strength"], s["wounds"]) for s in strikes(game)] == [
        (ZOMBIES, SUPPORT, 3, 0), (SURVIVORS, SUPPORT, 3, 1)]


# -- the deck -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("face", "value", "suit"), FACES)
def test_every_card_is_in_the_deck_worth_its_rank(make_game, face: str, value: int, suit: str) -> None:
    """The deck: ace to 10 in four suits (an ace is 1). Turn 2: "the value of the card is the number
    of zombies he must face on his board's Front Line zone"."""
    g = make_game("shambling", 1)
    board(g, front=[(HERO, 0)])
    force(g, cards=[face])
    narrate(g, 2)
    assert len(zombies(g, FRONT)) == value


@pytest.mark.parametrize(("face", "value", "suit"), FACES)
def test_every_cards_suit_through_replacements_and_dissension(make_game, face: str, value: int,
                                                              suit: str) -> None:
    """Reinforcements: a Heart brings fresh survivors up to its value. Turn 3: a black card (club,
    spade) makes half a die of survivors flee; a red one (heart, diamond) does nothing."""
    g = make_game("shambling", 1)
    board(g, front=[(HERO, 0)])
    force(g, cards=[face])
    run_system(at_turn(g, 4), "shambling.replacement")
    assert len(survivors(g)) == 1 + (value if suit == "H" else 0)
    g = make_game("shambling", 1)
    board(g, front=[(HERO, 0)] + [(SURVIVOR, 0)] * 5)
    force(g, dice=[6], cards=[face])
    narrate(g, 3, {"shambling.flee": lambda d: d.options[-1]})
    assert len(survivors(g)) == (3 if suit in "CS" else 6)


def test_the_deck_has_forty_cards_and_one_joker(make_game) -> None:
    """A deck of playing cards with 1 joker and no court cards: 41 cards. The joker reshuffles all
    41 (forced twice in one draw: two reshuffles, then the 7 of hearts is dealt)."""
    g = make_game("shambling", 1)
    board(g, front=[(HERO, 0)])
    assert len(cards_in_deck(g)) == 41
    force(g, cards=["JK", "JK", "7H"])
    narrate(g, 2)
    assert len(zombies(g)) == 7
    assert [e["why"] for e in events(g, "shuffle")] == ["joker", "joker"]


# -- the pieces and the standard game --------------------------------------------------------------

@pytest.mark.parametrize("piece", [SURVIVOR, HERO])
def test_a_survivor_or_hero_dies_of_its_second_wound(game: Game, piece: str) -> None:
    """No figure may take more than 2 wounds; a figure that takes two is removed from play. A 6 on
    the CRT at strength 1 gives one wound: the first leaves the figure, the second removes it."""
    ids = board(game, front=[(piece, 0)], zombies_front=[0])
    target = ids[FRONT][0]
    assert wound_limit(game, target) == 2
    for expected in (1, None):
        run_system(game, "shambling.engage", {"shambling.stance": STAND})
        force(game, dice=[6, 1])
        run_system(game, "shambling.combat")
        assert wounds(game, target) == expected


def test_a_zombie_dies_of_its_second_wound(game: Game) -> None:
    """No figure may take more than 2 wounds, zombies included: a 6 at strength 1 wounds, a second
    one removes it."""
    ids = board(game, front=[(SURVIVOR, 1)], zombies_front=[0])
    z = ids["zombies_front"][0]
    for expected in (1, None):
        run_system(game, "shambling.engage", {"shambling.stance": STAND})
        force(game, dice=[1, 6])
        run_system(game, "shambling.combat")
        assert wounds(game, z) == expected


def test_the_standard_game_each_player_ten_figures_one_a_hero(make_game) -> None:
    """Each player needs 10 figures, one of which is clearly marked as a Hero; all start unwounded
    and are placed before the first turn."""
    g = make_game("shambling", 1, players=2)
    run_system(at_turn(g, 1), "shambling.deploy")
    for seat in (0, 1):
        figs = survivors(g, seat=seat)
        assert len(figs) == 10
        assert sorted(kind(g, e) for e in figs) == [HERO] + [SURVIVOR] * 9
        assert [wounds(g, e) for e in figs] == [0] * 10
        assert zombies(g, seat=seat) == []
    assert g.params["front_line_cap"] == 6 and g.players == 2


def test_a_whole_night_on_forced_cards_and_dice(make_game) -> None:
    """The ten turns of the Narration Track in order: gauntlets at strength 10 on turns 1 and 8,
    one card of zombies on turns 2, 4, 7 (Front Line) and 6 (Support), two on turn 9, a Replacement
    card on turn 4 (after the zombies) and on turn 7 (before them), turn 3's dissension card, and the
    game ends once turn 10 is completed with the board standing. The player always stands; every die
    is a 1 (no wound below strength 11, and never more than 9 zombies) and no card is a black one on
    turn 3 or a heart on a Replacement card."""
    g = make_game("shambling", 1)
    force(g, dice=[1] * 600, cards=["AD", "AH", "AC", "2D", "AS", "3D", "2C", "2H", "2S"])
    while not g.over:
        drive(g, g.tick_steps(), {"shambling.stance": STAND})
    assert g.outcome == SURVIVORS and g.tick == 10
    assert [e["title"] for e in events(g, "narration")] == [
        "A Gauntlet of Zombies", "Zombie Assault", "Dissention in the Ranks", "Saviours", "The Enemy Within",
        "Surprise Zombie Assault", "Down In Flames", "A Gauntlet of Fire", "The Final Assault", "A Brave New Dawn"]
    assert [(t, e["zone"], e["zombies"]) for t, e in timed(g, "assault")] == [
        (2, FRONT, 1), (4, FRONT, 1), (6, SUPPORT, 1), (7, FRONT, 2), (9, FRONT, 4)]
    assert [(t, e["strength"], e["wounds"]) for t, e in timed(g, "gauntlet")] == [(1, 10, 0), (8, 10, 0)]
    assert [(t, e["card"]) for t, e in timed(g, "draw")] == [
        (2, "AD"), (3, "AH"), (4, "AC"), (4, "2D"), (6, "AS"), (7, "3D"), (7, "2C"), (9, "2H"), (9, "2S")]
    assert dice_left(g) > 0 and all(v == [1] * len(v) for _why, v in rolls(g))
    assert len(survivors(g)) == 10 and all(wounds(g, e) == 0 for e in survivors(g))


# -- the systems' own defaults ----------------------------------------------------------------------

def test_the_systems_defaults_are_the_texts_values(make_game) -> None:
    """Each system's parameters default to the text's values (3 combat rounds; join and pursuit at 7;
    6 in the Front Line), so a ruleset that schedules them without binding plays the game as written."""
    g = make_game("shambling", 1)
    board(g, front=[(SURVIVOR, 0), (SURVIVOR, 0)], zombies_front=2)
    run_unbound(g, "shambling.engage", {"shambling.stance": STAND})
    force(g, dice=[1] * 7)
    run_unbound(g, "shambling.combat")
    assert len(strikes(g)) == 6 and dice_left(g) == 1
    for dice_rolled, joining in (([3, 4, 1], 1), ([4, 4], 0)):
        g = make_game("shambling", 1)
        ids = board(g, front=[(SURVIVOR, 0)] * 3, zombies_front=1)
        force(g, dice=dice_rolled)
        first = ids[FRONT][0]
        run_unbound(g, "shambling.engage", {"shambling.stance": CHARGE, "shambling.charger":
                                            lambda d, first=first: first if first in d.options else "done"})
        assert events(g, "join_roll")[0]["joining"] == joining
    for dice_rolled, lost in (([4, 3], 0), ([3, 3, 1], 1)):
        g = make_game("shambling", 1)
        ids = board(g, front=[(SURVIVOR, 0)] * 2)
        counter_charged(g, ids[FRONT])
        force(g, dice=dice_rolled)
        run_unbound(g, "shambling.pursuit")
        assert events(g, "pursuit")[0]["pursuing"] == lost
    g = make_game("shambling", 1)
    run_unbound(at_turn(g, 1), "shambling.deploy", {"shambling.place": FRONT})
    assert len(survivors(g, FRONT)) == 6
    ids = board(g, front=[(HERO, 0)] + [(SURVIVOR, 0)] * 5, support=[(SURVIVOR, 0)])
    decisions = run_unbound(at_turn(g, 2), "shambling.reorder", {"shambling.reorder": "done"}, track=TRACK)
    assert decisions[0].options == ["done", *ids[FRONT]]
    force(g, cards=["AH"])
    decisions = run_unbound(at_turn(g, 4), "shambling.replacement")
    assert [d.kind for d in decisions] == []  # only Support is left: no question
    assert len(survivors(g, FRONT)) == 6

