"""What a person at the terminal reads (`ecs_zombie.reading.Reading`): a piece's name with its kind
where they differ, its markers (never `hidden` or a rule's own `ns:tag`), squares and lists in an
option, a decision's context, and the lines for rolls, shuffles and others' decisions."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from ecs_zombie import new_game
from ecs_zombie.components import Card, Deck, Engaged, Kind, Markers, Position, Wounds
from ecs_zombie.decisions import Decision
from ecs_zombie.reading import Reading


@dataclass
class Named:
    name: str


def test_a_piece_is_named_with_its_kind_where_they_differ() -> None:
    assert Reading._base({Kind: Kind("character"), Named: Named("Ivan")}) == ("Ivan (character)", True)
    assert Reading._base({Kind: Kind("walker"), Named: Named("walker")}) == ("walker", True)
    assert Reading._base({Kind: Kind(""), Named: Named("Ivan")}) == ("Ivan", True)
    assert Reading._base({Named: Named("")}) == (None, False)


def test_markers_shown_leave_out_hidden_and_a_rules_own_tags() -> None:
    with new_game("stalingrad", 1) as game:
        reading = Reading(game)
        sergeant = reading.at(2, 8)[0]
        game.world.get(sergeant, Markers).tags[:] = ["hidden", "stalingrad:spawned", "stunned"]
        assert Reading(game).status(sergeant) == "stunned"


def test_squares_lists_and_context_read_as_words() -> None:
    """`[x, y]` is a square with what stands there; a longer list of numbers is a list; a context
    key naming a square reads it, another key its value as written."""
    with new_game("stalingrad", 1) as game:
        reading = Reading(game)
        assert reading.value([2, 8]) == "(2, 8): sergeant"
        assert reading.value([8, 2]) == "(8, 2)"
        assert reading.value([2, 8, 5], entities=False) == "2, 8, 5"
        assert reading.value(["move", 2, 8]) == "move (2, 8): sergeant"
        sergeant = reading.at(2, 8)[0]
        asked = Reading(game, Decision("player:0", "stalingrad.action", ["a", "b"],
                                       {"at": [2.0, 8.0], "note": [2.0, 8.0], "hits": {"1": 2}, "figure": sergeant}))
        # a square key's value read as a square even where the numbers are not whole; a dict (a
        # policy's aid) left out; a piece key described with where it stands
        assert asked.context() == ["at: (2, 8): sergeant", "note: 2.0, 8.0", "figure: sergeant (at (2, 8))"]

def test_event_lines() -> None:
    with new_game("stalingrad", 1) as game:
        reading = Reading(game)
        assert reading.event((1, "shuffle", {"deck": "spawn", "why": "setup"}, "")) == \
            "shuffled the spawn deck (setup)"
        assert reading.event((1, "decision", {"side": "narrator", "kind": "k", "option": "wait"}, "")) == \
            "narrator chose wait (k)"
        assert reading.event((1, "game_over", {"outcome": "survivors"}, "")) == "game over: survivors"
        assert reading.event((1, "moved", {}, "")) is None


def test_cards_of_one_face_are_alike_and_pieces_of_one_kind_are_numbered() -> None:
    """A card is read by its face and a deck by its name, unnumbered: 32 cards of face P2 in the
    Director game's deck are each "card P2" (which one is which does not matter at the table), where
    two walkers of Escape from Stalingrad Z are "walker 1" and "walker 2"."""
    with new_game("director", 1) as game:
        reading = Reading(game)
        faces = [reading.labels[e] for e, card in game.world.query1(Card) if card.face == "P2"]
        assert faces == ["card P2"] * 32
        assert sorted(reading.labels[e] for e, _d in game.world.query1(Deck))[:2] == ["ammo deck", "director deck"]
    with new_game("stalingrad", 1) as game:
        assert Reading(game).pieces()[1] == "(10, 3): walker 1"


def test_a_persons_own_decisions_are_left_out_of_what_happened() -> None:
    """The terminal shows what others did: the decisions of the person's own side are left out,
    every other side's decisions and every other event stay, and with no side nothing is left out."""
    with new_game("stalingrad", 1) as game:
        events = [(1, "decision", {"side": "player:0", "kind": "k", "option": "wait"}, ""),
                  (1, "decision", {"side": "narrator", "kind": "k", "option": "wait"}, ""),
                  (1, "shuffle", {"deck": "spawn", "why": "setup", "side": "player:0"}, "")]
        reading = Reading(game)
        assert reading.events(events, skip_side="player:0") == ["narrator chose wait (k)",
                                                                 "shuffled the spawn deck (setup)"]
        assert reading.events(events) == ["player:0 chose wait (k)", "narrator chose wait (k)",
                                          "shuffled the spawn deck (setup)"]


def test_pieces_without_a_name_are_read_by_what_they_hold() -> None:
    """A face-down piece without a side is "face-down piece"; two decks of one name are each
    "NAME deck"; a piece with neither a name nor a kind is read by its game's own components (the
    engine's only where it holds no other), and one no longer in play says so."""
    from ecs_zombie.systems.stalingrad.components import DoorState

    with new_game("stalingrad", 1) as game:
        world = game.world
        hidden = world.create(Markers(["hidden"]))
        decks = [world.create(Deck("spare"), Position(4, 4)), world.create(Deck("spare"))]
        world.create(Card("QS", 12, "S", "spare"), Position(4, 4))
        bare = world.create(Position(3, 3), Wounds(0, 2))
        door = world.create(Position(5, 5), DoorState())
        reading = Reading(game)
        assert reading.piece(hidden) == "face-down piece"
        assert [reading.piece(d) for d in decks] == ["spare deck", "spare deck"]
        assert reading.piece(bare) == "position wounds"
        assert reading.piece(door) == "door state"
        assert reading.piece(world.next_id + 5) == "a piece no longer in play"
        # decks and cards are not pieces, even laid on a square
        assert not any("spare" in line or "QS" in line for line in reading.pieces())


def test_a_piece_engaged_says_with_whom() -> None:
    with new_game("stalingrad", 1) as game:
        reading = Reading(game)
        sergeant, walker = reading.at(2, 8)[0], reading.at(10, 3)[0]
        game.world.add(sergeant, Engaged([walker]))
        assert "engaged with walker 1" in Reading(game).status(sergeant)


def test_the_board_is_the_rulesets_drawing_or_the_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ruleset's registered drawing is the board; a ruleset that registers none (Night of the
    Shambling Dead with its drawing taken away here) lists its pieces by zone instead."""
    from ecs_zombie.registry import BOARDS

    with new_game("shambling", 1) as game:
        game.play(stop_after=1)
        drawn = Reading(game).board()
        assert drawn == BOARDS["shambling"](game) and drawn != Reading(game).pieces()
        monkeypatch.delitem(BOARDS, "shambling")
        assert Reading(game).board() == Reading(game).pieces()


def test_an_option_is_read_for_its_own_kind_and_a_decision_made_briefly() -> None:
    """An option is read by the reader of its decision's kind (or of the kind named); a decision
    already made names its pieces by their labels alone, and the reading is full again after it;
    a context key that names no piece reads its number as a number."""
    with new_game("stalingrad", 1) as game:
        reading = Reading(game)
        sergeant = reading.at(2, 8)[0]
        assert reading.option(sergeant, "any.kind") == "sergeant (at (2, 8))"
        assert reading.option(sergeant, "any.kind", brief=True) == "sergeant"
        assert reading.event((1, "decision", {"side": "player:0", "kind": "k", "option": sergeant}, "")) == \
            "player:0 chose sergeant (k)"
        assert reading.option(sergeant, "any.kind") == "sergeant (at (2, 8))"
        assert reading.value([sergeant]) == "sergeant (at (2, 8))"  # brief only while it reads the choice
        asked = Reading(game, Decision("player:0", "stalingrad.action", ["a"], {"count": sergeant,
                                                                                "figure": [sergeant]}))
        assert asked.context() == [f"count: {sergeant}", f"figure: {sergeant}"]


def test_an_option_is_read_by_its_kinds_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ruleset registers how to read the options of its decision kinds; an option its reader
    leaves (None) is read as a value, and a decision's own kind is the default."""
    from ecs_zombie import reading as module

    monkeypatch.setitem(module.READERS, "test.kind", lambda r, option: "the ladder" if option == "up" else None)
    with new_game("stalingrad", 1) as game:
        asked = Reading(game, Decision("player:0", "test.kind", ["up", "down"], {}))
        assert [asked.option(o) for o in ("up", "down")] == ["the ladder", "down"]
        assert Reading(game).option("up") == "up" and Reading(game).option("up", "test.kind") == "the ladder"
