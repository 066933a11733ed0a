"""`tournament` and `tune`: common seeds, figures independent of the worker count, a search that
adds games where the evidence is thin."""

from __future__ import annotations

import json
from itertools import pairwise

import pytest

from ecs_zombie.balance import play_batch
from ecs_zombie.batch import BatchSpec, game_seed
from ecs_zombie.errors import GameError
from ecs_zombie.tournament import play_tournament, table_spec, teams
from ecs_zombie.tune import tune
from tests.helpers import run_cli


def test_teams_expand_the_seats() -> None:
    assert teams("shambling", 2) == {"survivors": ["player:0", "player:1"], "zombies": ["narrator"]}
    assert table_spec("random", ["player:0", "player:1"], "heuristic") == \
        "heuristic,player:0=random,player:1=random"


def test_a_tournament_plays_each_policy_for_each_team_on_common_seeds() -> None:
    one = play_tournament("shambling", ["heuristic", "random"], 12, seed=3, workers=1)
    two = play_tournament("shambling", ["heuristic", "random"], 12, seed=3, workers=2)
    strip = [{k: v for k, v in e.to_dict().items() if k != "ms_per_decision"} for e in one.entries]
    assert strip == [{k: v for k, v in e.to_dict().items() if k != "ms_per_decision"} for e in two.entries]
    assert [(e.team, e.policy) for e in one.entries] == [
        ("survivors", "heuristic"), ("survivors", "random"), ("zombies", "heuristic"), ("zombies", "random")]
    # each entry is exactly the batch of its policy table on the same seeds
    batch = play_batch(BatchSpec("shambling", 12, 3, "heuristic,player:0=random"))
    random_survivors = one.entries[1]
    assert random_survivors.spec == "heuristic,player:0=random"
    assert random_survivors.wins == batch.summary.outcomes.get("survivors", 0)
    assert random_survivors.outcomes == batch.summary.outcomes
    assert all(e.decisions > 0 and e.seconds > 0 for e in one.entries)


def test_an_unknown_policy_is_refused_before_any_game() -> None:
    with pytest.raises(GameError, match="nosuch"):
        play_tournament("shambling", ["heuristic", "nosuch"], 5)
    with pytest.raises(GameError, match="team 'gm'"):
        play_tournament("shambling", ["heuristic"], 5, only="gm")


def test_games_added_at_a_value_continue_its_seed_sequence() -> None:
    """A value measured with 20 games and then 20 more is the same as one batch of 40 there."""
    spec = BatchSpec("shambling", 20, 5, "heuristic", params={"front_line_cap": 8})
    first = play_batch(spec)
    more = play_batch(BatchSpec("shambling", 20, 5, "heuristic", params={"front_line_cap": 8}, first=20))
    whole = play_batch(BatchSpec("shambling", 40, 5, "heuristic", params={"front_line_cap": 8}))
    combined = dict(first.summary.outcomes)
    for k, v in more.summary.outcomes.items():
        combined[k] = combined.get(k, 0) + v
    assert combined == whole.summary.outcomes
    assert game_seed(5, 20) != game_seed(5, 0)


def test_tune_brackets_the_target_and_reports_the_closest_value() -> None:
    result = tune("shambling", "front_line_cap", 0.1, games=40, seed=2, max_games=160)
    values = sorted(result.points)
    assert values[0] == 1 and values[-1] == 30  # both ends of the declared range
    assert result.reachable
    best = result.best
    assert best is not None
    assert all(abs(best.rate - 0.1) <= abs(p.rate - 0.1) for p in result.points.values())
    # the bracket closed: two measured neighbours one apart lie on either side of the target
    rates = {v: result.points[v].rate for v in values}
    assert any(b - a == 1 and min(rates[a], rates[b]) <= 0.1 <= max(rates[a], rates[b])
               for a, b in pairwise(values)) or best.holds(0.1)
    # more games only where the interval held the target
    for p in result.points.values():
        if p.games > 40:
            assert p.games <= 160
    again = tune("shambling", "front_line_cap", 0.1, games=40, seed=2, max_games=160, workers=2)
    assert again.to_dict() == result.to_dict()


def test_an_unreachable_target_is_said_so() -> None:
    result = tune("shambling", "front_line_cap", 0.95, games=30, seed=1, max_games=30)
    assert not result.reachable and sorted(result.points) == [1, 30]
    assert result.best is not None and result.best.value == 30


@pytest.mark.parametrize(("args", "message"), [
    (["--param", "nosuch", "--target", "0.3"], "unknown parameter 'nosuch'"),
    (["--param", "front_line_cap", "--target", "1.5"], "between 0 and 1"),
    (["--param", "front_line_cap", "--target", "0.3", "--range", "9..3"], "is empty"),
    (["--param", "front_line_cap", "--target", "0.3", "--range", "3"], "LO..HI"),
])
def test_tune_refuses_bad_arguments_in_one_line(args: list[str], message: str) -> None:
    result = run_cli("tune", "shambling", *args)
    assert result.returncode == 2 and message in result.stderr and len(result.stderr.splitlines()) == 1


def test_the_commands_print_tables_and_json() -> None:
    text = run_cli("tournament", "shambling", "--policies", "heuristic,random", "--games", "6")
    assert text.returncode == 0, text.stderr
    assert "win rate" in text.stdout and "random" in text.stdout
    data = json.loads(run_cli("tournament", "shambling", "--policies", "random", "--games", "6",
                              "--team", "zombies", "--json").stdout)
    assert [(e["team"], e["policy"], e["games"]) for e in data["entries"]] == [("zombies", "random", 6)]
    tuned = json.loads(run_cli("tune", "shambling", "--param", "front_line_cap", "--target", "0.1", "--games", "10",
                               "--max-games", "10", "--json").stdout)
    assert tuned["best"]["value"] in [p["value"] for p in tuned["points"]]
