"""Command-line values checked before any work starts (`ecs_zombie.arguments`), read directly: the
sides a ruleset's decisions are asked of, and the one-line refusals of a `--policy` naming a side
or seat the game does not have."""

from __future__ import annotations

import pytest

from ecs_zombie.arguments import check_policy_sides, sides_of
from ecs_zombie.decisions import KINDS, DecisionKind
from ecs_zombie.errors import GameError
from ecs_zombie.ruleset import load_ruleset


def test_the_sides_are_those_the_decisions_document() -> None:
    """Each decision kind documents who answers it; a ruleset's sides are their union, in order,
    with `a|b` split; any seat counts as `player:N`."""
    assert sides_of(load_ruleset("shambling")) == ["narrator", "player:N"]
    assert sides_of(load_ruleset("stalingrad")) == ["player:0"]
    assert sides_of(load_ruleset("sza")) == ["gm", "party", "player:N"]


@pytest.mark.parametrize("documented", ["missing", "sideless"])
def test_a_decision_with_no_documented_side_leaves_nothing_to_check(monkeypatch: pytest.MonkeyPatch,
                                                                    documented: str) -> None:
    """A decision kind nobody documented, or documented without a side, gives no list of sides, and
    then any side a `--policy` names is taken (there is nothing to check it against)."""
    rs = load_ruleset("shambling")
    kind = next(k for step in rs.scheduled() for k in step.spec.decides)
    if documented == "missing":
        monkeypatch.delitem(KINDS, kind)
    else:
        monkeypatch.setitem(KINDS, kind, DecisionKind(kind, "", KINDS[kind].options, KINDS[kind].doc))
    assert sides_of(rs) is None
    check_policy_sides("ghost=random,player:9=first", rs, 1)


@pytest.mark.parametrize(("players", "seats"), [(1, "player:0"), (3, "player:0..player:2")])
def test_an_unknown_side_is_refused_with_the_games_seats(players: int, seats: str) -> None:
    """The refusal lists the sides with `player:N` written as the game's seats: one seat reads
    `player:0`, three `player:0..player:2`."""
    with pytest.raises(GameError) as info:
        check_policy_sides("narator=random", load_ruleset("shambling"), players)
    assert str(info.value) == (
        "--policy names the side 'narator', which no decision of ruleset 'shambling' is asked of (did you mean "
        f"'narrator'?) (sides: narrator, {seats}; see ecs-zombie decisions shambling)")


@pytest.mark.parametrize(("players", "message"), [
    (1, "--policy names player:1, but this game has 1 player (player:0)"),
    (2, "--policy names player:2, but this game has 2 players (player:0..player:1)")])
def test_a_seat_beyond_the_players_is_refused(players: int, message: str) -> None:
    """A seat is one of the game's players: `player:1` of a one-player game, `player:2` of two."""
    with pytest.raises(GameError, match=message.replace("(", r"\(").replace(")", r"\)")):
        check_policy_sides(f"player:{players}=random", load_ruleset("director"), players)
    check_policy_sides(f"player:{players - 1}=random", load_ruleset("director"), players)


def test_a_seat_of_a_ruleset_without_seats_is_an_unknown_side() -> None:
    """Stalingrad asks only `player:0`: `player:1` is no side of it (it has no other seats), and is
    refused as an unknown side, with its one side listed."""
    with pytest.raises(GameError, match=r"names the side 'player:1', which no decision of ruleset 'stalingrad'"):
        check_policy_sides("player:1=random", load_ruleset("stalingrad"), 1)
    check_policy_sides("player:0=random,heuristic", load_ruleset("stalingrad"), 1)
