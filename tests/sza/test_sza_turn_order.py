"""Initiative and the order of play (SZA "Initiative", "Combat Sequence example"), and the
pre-generated characters as printed."""

from __future__ import annotations

from typing import Any

import pytest
from sza_helpers import (
    HUMANS,
    ZOMBIE_SIDE,
    arms,
    at,
    attrs,
    character,
    clear_others,
    ctx,
    dice,
    drive,
    items,
    laid_out,
    logged,
    put,
    run_system,
    set_attrs,
    stage,
    stamina,
    total_stamina,
    who,
    zombie,
)

from ecs_zombie.systems.sza.actions import perform
from ecs_zombie.systems.sza.turn import human_order, initiative, turn

PRINTED = {  # Stamina, Strength, Accuracy, Smarts, Initiative, Morale, Special Ability
    "Bruce Long": (85, 75, 60, 50, 5, 5, "bright_yellow_fire_suit"),
    "Mary Jacobs": (75, 55, 75, 75, 4, 2, "intravenous_injection"),
    "Dexter": (70, 65, 85, 65, 6, 1, "one_shot_one_kill"),
    "Costa Wang": (55, 55, 60, 85, 7, 2, "motivational_speech"),
    "SGT Connor": (70, 85, 75, 55, 1, 3, "combat_awareness"),
    "CPL Teoh": (65, 75, 70, 65, 2, 2, "k9_companion"),
}
# Favorite Weapon and Equipment as printed (DESIGN CHOICE: a Field Dressing Kit is 3 bandage uses, the
# 1-litre water bottle a mineral water of 3 uses; "Extra Bullets": SGT Connor's one spare magazine).
KIT = {  # melee, ranged, rounds, magazines, items
    "Bruce Long": ("fire_axe", "", 0, 0, {"oxygen_canister": 1}),
    "Mary Jacobs": ("pocket_knife", "", 0, 0, {"bandage": 5}),
    "Dexter": ("crowbar", "", 0, 0, {"bandage": 5, "rope": 1}),
    "Costa Wang": ("golf_club", "", 0, 0, {}),
    "SGT Connor": ("bowie_knife", "sar21", 10, 1, {"bandage": 3, "water": 3}),
    "CPL Teoh": ("bowie_knife", "", 0, 0, {"bandage": 3}),
}


def test_pregenerated_characters_keep_their_printed_values(make_game: Any) -> None:
    """Pre-Generated Characters as printed. Their printed Initiative and Morale do not follow
    Accuracy / 10 and Smarts / 10 (Dexter: Accuracy 85, Initiative 6): kept as printed."""
    game = make_game("sza")
    seen, kit = {}, {}
    for name in PRINTED:
        ent = who(game, name)
        a, ch, w = attrs(game, ent), character(game, ent), arms(game, ent)
        assert stamina(game, ent) == total_stamina(game, ent)
        seen[name] = (total_stamina(game, ent), a.strength, a.accuracy, a.smarts, a.initiative, a.morale,
                      *ch.abilities)
        kit[name] = (w.melee, w.ranged, w.rounds, w.magazines, items(game, ent))
    assert seen == PRINTED
    assert kit == KIT


def initiative_of(make_game: Any, rolls: tuple[int, int], zombie_attrs: dict[str, int] | None = None) -> dict[str, Any]:
    game = laid_out(make_game)
    z = zombie(game, 12, 6)
    if zombie_attrs:
        set_attrs(game, z, **zombie_attrs)
    dice(game, *rolls)
    initiative(game)
    assert stage(game).order == [logged(game, "initiative")[0]["first"],
                                 ZOMBIE_SIDE if logged(game, "initiative")[0]["first"] == HUMANS else HUMANS]
    return logged(game, "initiative")[0]


@pytest.mark.parametrize(("rolls", "zombie_attrs", "humans", "zombies", "first"), [
    ((10, 1), None, 16, 8, HUMANS),
    ((1, 9), None, 7, 16, ZOMBIE_SIDE),
    ((4, 2), None, 10, 9, HUMANS),
    ((2, 2), None, 8, 9, ZOMBIE_SIDE),
    ((3, 2), None, 9, 9, HUMANS),  # equal totals: Dexter's Accuracy 85 beats the zombie's 70
    ((3, 2), {"accuracy": 90}, 9, 9, ZOMBIE_SIDE),  # equal totals: the zombie's 90 beats Dexter's 85
    ((4, 3), {"accuracy": 85}, 10, 10, HUMANS),  # a full tie: DESIGN CHOICE, the humans
    ((5, 5), {"accuracy": 86, "initiative": 3}, 11, 8, HUMANS),
])
def test_side_initiative(make_game: Any, rolls: tuple[int, int], zombie_attrs: dict[str, int] | None,
                         humans: int, zombies: int, first: str) -> None:
    """"One player from each side must roll a 1d10. The result rolled is added to the Initiative
    modifier of the character with the highest total Accuracy" (Dexter: Accuracy 85, Initiative 6, not
    Costa's Initiative 7; the NPC zombie's Initiative 7, DESIGN CHOICE); the higher total goes first;
    "If the totals are equal ... the side with the character that has the highest total Accuracy
    attribute attacks or moves first" (DESIGN CHOICE: the humans when that ties too)."""
    got = initiative_of(make_game, rolls, zombie_attrs)
    assert (got["humans"], got["zombies"], got["first"]) == (humans, zombies, first)


def test_the_zombies_roll_with_their_most_accurate(make_game: Any) -> None:
    """The zombies' side adds the Initiative of its piece with the highest total Accuracy."""
    game = laid_out(make_game)
    zombie(game, 12, 6)
    sharp = zombie(game, 12, 5)
    set_attrs(game, sharp, accuracy=80, initiative=2)
    dice(game, 5, 5)
    initiative(game)
    assert (logged(game, "initiative")[0]["humans"], logged(game, "initiative")[0]["zombies"]) == (11, 7)


def test_humans_act_by_initiative_then_accuracy(make_game: Any) -> None:
    """"A character with a higher initiative will go first. If the initiatives are equal, the character
    with the single highest total Accuracy attribute goes first among the human players"."""
    game = laid_out(make_game)
    board, st = ctx(game)
    order = [character(game, e).name for e in human_order(game, board, st)]
    assert order == ["Costa Wang", "Dexter", "Bruce Long", "Mary Jacobs", "CPL Teoh", "SGT Connor"]
    set_attrs(game, who(game, "Mary Jacobs"), initiative=5)  # ties Bruce; Accuracy 75 beats 60
    order = [character(game, e).name for e in human_order(game, board, st)]
    assert order[2:4] == ["Mary Jacobs", "Bruce Long"]
    set_attrs(game, who(game, "Bruce Long"), accuracy=76)
    order = [character(game, e).name for e in human_order(game, board, st)]
    assert order[2:4] == ["Bruce Long", "Mary Jacobs"]


def test_no_zombies_no_initiative_roll(make_game: Any) -> None:
    game = laid_out(make_game)
    dice(game)
    initiative(game)
    assert stage(game).order == [HUMANS]
    assert not logged(game, "roll") and not logged(game, "initiative")


def actors(game: Any) -> list[int]:
    """Pieces in the order they first acted (a character's action, a zombie's move or attack)."""
    out: list[int] = []
    for e in game.events:
        k, d = e[1], e[2]
        piece = d.get("piece") if k in ("action", "move") else d.get("attacker") if k == "attack" else None
        if piece is not None and piece not in out:
            out.append(piece)
    return out


@pytest.mark.parametrize("first", [HUMANS, ZOMBIE_SIDE])
def test_sides_act_in_full_in_initiative_order(make_game: Any, first: str) -> None:
    """"Whichever side gets the highest total initiative ... get to move and attack first"; "Since all
    humans have taken their turn, the turn now goes to the zombies" (DESIGN CHOICE: side by side)."""
    game = laid_out(make_game)
    mary, dexter = who(game, "Mary Jacobs"), who(game, "Dexter")
    clear_others(game, [mary, dexter])
    put(game, mary, 8, 2)
    put(game, dexter, 11, 2)
    z1 = zombie(game, 8, 2, stamina=500)
    z2 = zombie(game, 11, 2, stamina=500)
    stage(game).order = [first, ZOMBIE_SIDE if first == HUMANS else HUMANS]
    run_system(game, "sza.turn")
    people = human_order(game, *ctx(game))
    expect = [*people, z1, z2] if first == HUMANS else [z1, z2, *people]
    assert actors(game) == expect


def _mary_and_dexter_engaged(game: Any) -> tuple[int, int]:
    """Mary and Dexter, the only characters on the board, each engaged with a sturdy zombie; the
    humans won the initiative. Returns the two zombies."""
    mary, dexter = who(game, "Mary Jacobs"), who(game, "Dexter")
    clear_others(game, [mary, dexter])
    put(game, mary, 8, 2)
    put(game, dexter, 11, 2)
    z1 = zombie(game, 8, 2, stamina=500)
    z2 = zombie(game, 11, 2, stamina=500)
    stage(game).order = [HUMANS, ZOMBIE_SIDE]
    return z1, z2


def test_interleave_alternates_pieces_once_engaged(make_game: Any) -> None:
    """`interleave` (DESIGN CHOICE, the other reading of "the zombie will always make their
    move/attacks in between character turns"): once anyone is engaged the sides alternate piece by
    piece, the initiative winner's first."""
    game = laid_out(make_game, params={"interleave": True})
    z1, z2 = _mary_and_dexter_engaged(game)
    run_system(game, "sza.turn")
    names = {who(game, n): n for n in PRINTED} | {z1: "z1", z2: "z2"}
    # Costa (Initiative 7), a zombie, Dexter (6), the other zombie, then the rest of the humans
    assert [names[a] for a in actors(game)] == ["Costa Wang", "z1", "Dexter", "z2", "Bruce Long", "Mary Jacobs",
                                                "CPL Teoh", "SGT Connor"]


def test_free_exploration_out_of_combat(make_game: Any) -> None:
    """`free_exploration` (DESIGN CHOICE, "Non-Combat Time": "free to explore the map without any
    movement constraints"): with no zombie about, a goto reaches its goal in one turn, doors not
    stopping it; off by default, a Firefighter runs his 2 squares towards it."""
    for free, expect in ((True, (19, 11)), (False, (5, 2)), (None, (5, 2))):
        game = laid_out(make_game, params={"free_exploration": free} if free is not None else {})
        board, st = ctx(game)
        bruce = who(game, "Bruce Long")
        put(game, bruce, 3, 3)
        drive(game, perform(game, bruce, "goto:stairs", board, st))
        assert at(game, bruce) == expect
        assert logged(game, "move")[-1]["running"] is not bool(free)  # exploring is no run


def test_free_exploration_passes_a_door_to_the_building(make_game: Any) -> None:
    """Free exploration moves "without any movement constraints": from the garden through the broken
    window at (12, 11), a door to the building that stops a move in combat time, to the cabinet at
    (1, 8) in one move."""
    game = laid_out(make_game, params={"free_exploration": True})
    board, st = ctx(game)
    st.opened.append(board.cell(12, 11))
    st.opened.sort()
    assert board.cell(12, 11) in board.entrances
    bruce = who(game, "Bruce Long")
    put(game, bruce, 11, 13)
    drive(game, perform(game, bruce, "goto:cabinet", board, st))
    assert at(game, bruce) == (1, 8)


def test_the_turn_step_alone_does_not_interleave(make_game: Any) -> None:
    """The turn step composed without its parameter (a hybrid's) keeps the book's side-by-side order
    even once pieces are engaged: all the initiative winner's pieces, then the other side's."""
    game = laid_out(make_game, params={"interleave": True})  # the ruleset's parameter is not the step's
    z1, z2 = _mary_and_dexter_engaged(game)
    drive(game, turn(game))
    acted = actors(game)
    assert acted[-2:] == [z1, z2] and set(acted[:-2]) == set(human_order(game, *ctx(game)))
