"""Dice notation and scripts, playing-card faces and deck tables, and the policies that answer
decisions: each value below is what the module docstrings state (ecs_zombie/dice.py, cards.py,
decisions.py), written out by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ecs_zombie import cards, dice
from ecs_zombie.components import Card
from ecs_zombie.data import load_yaml
from ecs_zombie.decisions import (
    Decision,
    FirstPolicy,
    HeuristicPolicy,
    PolicyTable,
    RandomPolicy,
    ScriptedPolicy,
    heuristic,
    make_policy,
)
from ecs_zombie.errors import DataError, DecisionError, GameError, ScriptError
from ecs_zombie.rng import derive

# -- dice -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "shown", "low", "high"), [
    ("2d6+1", "2d6+1", 3, 13), ("3d8-2", "3d8-2", 1, 22), ("d6", "1d6", 1, 6), ("d%", "1d100", 1, 100),
    ("1000d2", "1000d2", 1000, 2000), ("1d1000", "1d1000", 1, 1000), ("4D10+0", "4d10", 4, 40),
])
def test_dice_spec_text_and_range(text: str, shown: str, low: int, high: int) -> None:
    spec = dice.parse(text)
    assert (str(spec), spec.minimum, spec.maximum) == (shown, low, high)


@pytest.mark.parametrize("text", ["1001d6", "1d1001", "0d6", "1d1", "1d0"])
def test_dice_limits(text: str) -> None:
    """1..1000 dice of 2..1000 sides."""
    with pytest.raises(ValueError, match="dice out of range"):
        dice.parse(text)


def test_dice_notation_must_be_text() -> None:
    with pytest.raises(ValueError, match="not dice notation"):
        dice.parse(6)  # type: ignore[arg-type]
    assert dice.parse("2d6") is dice.parse("2d6")  # parsed once


def test_a_dice_script_is_taken_in_order_and_checked_per_die() -> None:
    script = dice.DiceScript([6, 1, 4])
    assert script and script.take(6) == 6 and script.take(6) == 1
    assert script.pos == 2
    with pytest.raises(ScriptError, match=r"dice script value 4 \(position 3\) is impossible for a d3"):
        script.take(3)
    assert script.pos == 2 and script.take(4) == 4 and not script
    assert not dice.DiceScript() and not dice.DiceScript([5], pos=1) and dice.DiceScript([5], pos=0)
    with pytest.raises(ScriptError, match="value 0"):
        dice.DiceScript([0]).take(6)


def test_the_stream_takes_over_when_the_script_runs_out(make_game: Any) -> None:
    """Seed 1's `dice` stream starts 5, 5, 3 (test_engine_rng_dice.PINNED_D6): a script of one die
    for a 3d6 gives that die, then the stream's first two."""
    game = make_game("shambling", 1)
    game.dice_script = dice.DiceScript([2])
    assert game.roll_dice("3d6", "mixed") == [2, 5, 5]
    stream = derive(1, "x")
    assert dice.roll_die(6, stream, dice.DiceScript([4])) == 4
    assert dice.roll_die(6, stream, None) == 1 + derive(1, "x").below(6)


@pytest.mark.parametrize(("text", "values"), [("3, 5,6", [3, 5, 6]), ("3,,5", [3, 5]), (" ", []), ("12", [12])])
def test_parse_script(text: str, values: list[int]) -> None:
    assert dice.parse_script(text) == values


@pytest.mark.parametrize(("text", "entry"), [("0", "entry 1"), ("3,-1", "entry 2"), ("2,x", "entry 2"),
                                             ("1.5", "entry 1")])
def test_parse_script_refuses_what_is_no_die(text: str, entry: str) -> None:
    with pytest.raises(ScriptError, match=f"dice script {entry} is not a positive whole number"):
        dice.parse_script(text)


# -- cards ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("face", "parsed"), [
    ("7h", ("7H", 7, "H")), ("10S", ("10S", 10, "S")), ("1C", ("AC", 1, "C")), (" ad ", ("AD", 1, "D")),
    ("2C", ("2C", 2, "C")), ("JH", ("JH", 11, "H")), ("QS", ("QS", 12, "S")), ("KD", ("KD", 13, "D")),
    ("jk", ("JK", 0, "")), ("Joker", ("JK", 0, "")),
])
def test_card_faces(face: str, parsed: tuple[str, int, str]) -> None:
    """Rank then suit; an ace is worth 1 (written A or 1), J 11, Q 12, K 13, a joker 0."""
    assert cards.parse_face(face) == parsed


@pytest.mark.parametrize("face", ["11H", "7X", "", "H", "0S", "AJ"])
def test_what_is_no_card(face: str) -> None:
    with pytest.raises(ValueError, match="not a playing card"):
        cards.parse_face(face)


def test_black_suits() -> None:
    assert [cards.is_black(Card("x", 1, s, "d")) for s in ("H", "D", "C", "S", "")] == [False, False, True, True,
                                                                                       False]


def deck_table(tmp_path: Path, text: str) -> Any:
    path = tmp_path / "deck.yaml"
    path.write_text(text, encoding="utf-8")
    return cards.playing_cards(load_yaml(path))


def test_a_deck_table_of_faces_and_entries(tmp_path: Path) -> None:
    got = deck_table(tmp_path, "- 7h\n- JK\n- {face: BOMB, value: 3, count: 2}\n- {face: X}\n"
                               "- {face: Y, suit: S, value: -1}\n")
    assert got == [{"face": "7H", "value": 7, "suit": "H"}, {"face": "JK", "value": 0, "suit": ""},
                   {"face": "BOMB", "value": 3, "suit": ""}, {"face": "BOMB", "value": 3, "suit": ""},
                   {"face": "X", "value": 0, "suit": ""}, {"face": "Y", "value": -1, "suit": "S"}]


@pytest.mark.parametrize(("text", "message", "line"), [
    ("[]\n", "a deck table is a non-empty list of cards", 1),
    ("{a: 1}\n", "a deck table is a non-empty list of cards", 1),
    ("- 7H\n- 7Z\n", "not a playing card: '7Z'", 2),
    ("- 7H\n- {face: B, count: 0}\n", "count must be a positive whole number", 2),
    ("- 7H\n- 8H\n- {face: B, value: two}\n", "count must be a positive whole number and value a whole number", 3),
    ("- 7H\n- {face: B, count: 1.5}\n", "count must be a positive whole number", 2),
    ("- 7H\n- 5\n", "expected a card face or {face, value, suit, count}", 2),
    ("- {value: 3}\n", "expected a card face", 1),
    ("- 7H\n- {face: B, cont: 2}\n", "unknown key 'cont'", 2),  # a misspelt count is no default of 1
    ("- {face: B, count: 1001}\n", "count must be a positive whole number", 1),
    ("- {face: B, value: 1001}\n", "value a whole number (each at most 1000, value either way)", 1),
    ("- {face: B, value: -1001}\n", "value a whole number", 1),
    ("- {face: B, suit: 3}\n", "and suit text", 1),
])
def test_a_broken_deck_table_names_its_line(tmp_path: Path, text: str, message: str, line: int) -> None:
    with pytest.raises(DataError) as info:
        deck_table(tmp_path, text)
    assert message in str(info.value) and f"deck.yaml:{line}:" in str(info.value)


def test_card_scripts_are_normalised_and_checked() -> None:
    known = {"7H", "AS", "JK", "BOMB"}
    assert cards.check_card_script(["7h", " as", "jk", "bomb"], known) == ["7H", "AS", "JK", "BOMB"]
    with pytest.raises(ScriptError, match=r"card script entry 2: '8H' is not a card of this game's decks"):
        cards.check_card_script(["7H", "8H"], known)


# -- policies -------------------------------------------------------------------------------------


def ask(options: list[Any], side: str = "player:0", kind: str = "test.kind") -> Decision:
    return Decision(side, kind, options)


def test_random_policy_draws_from_the_sides_own_stream(make_game: Any) -> None:
    """Uniform among the options, from the stream `policy/<side>`: the same draws as that stream."""
    game = make_game("shambling", 9)
    mirror = derive(9, "policy/player:1")
    picks = [RandomPolicy().choose(game, ask(list(range(7)), "player:1")) for _ in range(20)]
    assert picks == [mirror.below(7) for _ in range(20)]
    assert len(set(picks)) > 3


def test_heuristic_policy_uses_the_registered_answer(make_game: Any) -> None:
    game = make_game("shambling", 1)

    @heuristic("test.engine.last")
    def last(game: Any, decision: Decision) -> int:
        return len(decision.options) - 1

    assert HeuristicPolicy().choose(game, ask(["a", "b", "c"], kind="test.engine.last")) == 2
    assert HeuristicPolicy().choose(game, ask(["a", "b", "c"], kind="test.engine.unknown")) == 0
    assert FirstPolicy().choose(game, ask(["a", "b", "c"], kind="test.engine.last")) == 0


def test_scripted_policy_answers_in_order_then_falls_back_or_fails(make_game: Any) -> None:
    game = make_game("shambling", 1)
    scripted = ScriptedPolicy([2, 0])
    assert [scripted.choose(game, ask(["a", "b", "c"])) for _ in range(2)] == [2, 0]
    with pytest.raises(DecisionError, match=r"the recorded decisions ran out at test\.kind in tick 0"):
        scripted.choose(game, ask(["a", "b"]))
    with_fallback = ScriptedPolicy([1], fallback=FirstPolicy())
    assert [with_fallback.choose(game, ask(["a", "b"])) for _ in range(3)] == [1, 0, 0]


def test_policy_tables_per_side() -> None:
    table = PolicyTable("random, narrator=first")
    assert isinstance(table.for_side("narrator"), FirstPolicy)
    assert isinstance(table.for_side("player:0"), RandomPolicy)
    only_side = PolicyTable("narrator=random")
    assert isinstance(only_side.default, HeuristicPolicy) and isinstance(only_side.for_side("narrator"), RandomPolicy)
    assert isinstance(PolicyTable(",first,").default, FirstPolicy)
    with pytest.raises(GameError, match=r"unknown policy 'genius' \(known: first, heuristic, mcts, random\)"):
        PolicyTable("first,zombies=genius")


def test_a_policy_table_answers_by_side(make_game: Any) -> None:
    game = make_game("shambling", 1)
    table = PolicyTable("first,narrator=random")
    mirror = derive(1, "policy/narrator")
    assert table.choose(game, ask(list(range(50)), "narrator")) == mirror.below(50)
    assert table.choose(game, ask(list(range(50)), "player:0")) == 0


def test_a_script_of_ones_and_a_negative_modifier() -> None:
    assert dice.parse_script("1,1") == [1, 1]
    assert dice.parse("2d6-3").modifier == -3 and dice.parse("2d6+3").modifier == 3


def test_a_deck_entrys_numbers_reach_their_bounds(tmp_path: Path) -> None:
    """An entry's count and value may be anything up to 1,000 (a value either way): a count of
    1,000 and values of 1,000 and -1,000 are cards."""
    got = deck_table(tmp_path, "- {face: B, count: 1000, value: 1000}\n")
    assert len(got) == 1000 and got[0] == {"face": "B", "value": 1000, "suit": ""}
    assert deck_table(tmp_path, "- {face: C, value: -1000}\n") == [{"face": "C", "value": -1000, "suit": ""}]


@pytest.mark.parametrize("text", ["mcts:200", "mcts:=200", "mcts:iterations=200:fast"])
def test_a_policy_option_must_be_key_equals_value(text: str) -> None:
    """`name:key=value[:key=value...]`: an option without `=`, or without a key, is refused naming it."""
    bad = next(opt for opt in text.split(":")[1:] if "=" not in opt or opt.startswith("="))
    with pytest.raises(GameError, match=f"policy option '{bad}' of '{text}' is not key=value"):
        make_policy(text)


def test_a_plugins_policy_is_made_by_its_factory_with_its_options(monkeypatch: pytest.MonkeyPatch) -> None:
    """A policy an installed plugin registers is made by the factory it registers (not by the place it
    names), given the `key=value` options as text."""
    import ecs_zombie.catalog as catalog

    made: list[dict[str, str]] = []

    def cautious(**options: str) -> FirstPolicy:
        made.append(options)
        return FirstPolicy()

    monkeypatch.setattr(catalog, "plugin_policies", lambda: {"cautious": (cautious, "plugin demo 1.0")})
    policy = make_policy("cautious:mode=walking")
    assert isinstance(policy, FirstPolicy) and made == [{"mode": "walking"}]
