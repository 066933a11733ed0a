"""`tournament` and `tune`: common seeds, figures independent of the worker count, a search that
adds games where the evidence is thin."""

from __future__ import annotations

import json
import signal
from itertools import pairwise
from typing import Any

import pytest

import ecs_zombie.balance as balance
import ecs_zombie.plot as plot
import ecs_zombie.tournament as tournament
from ecs_zombie.balance import play_batch
from ecs_zombie.batch import BatchSpec, game_seed
from ecs_zombie.errors import GameError
from ecs_zombie.tournament import play_tournament, table_spec, teams
from ecs_zombie.tune import Point, Tuning, tune, tune_plot
from tests.helpers import run_cli


def test_teams_expand_the_seats() -> None:
    import esper

    before = len(esper._context_map)
    assert teams("shambling", 2) == {"survivors": ["player:0", "player:1"], "zombies": ["narrator"]}
    assert len(esper._context_map) == before  # the game made to count the seats is closed
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


def test_the_tune_plot_draws_each_rate_with_its_interval_and_the_target(monkeypatch: pytest.MonkeyPatch,
                                                                        tmp_path: Any) -> None:
    """`tune --plot`: the rate at each value measured with its Wilson interval as error bars (never
    below 0), the target as a dashed line, the closest value marked, the axes named after the
    parameter and the outcome, rates from 0 to 1, a 7 x 4.2 inch figure."""
    result = Tuning("shambling", "front_line_cap", 0.3, "survivors", "heuristic", 1)
    result.points = {1: Point(1, 10, 0), 5: Point(5, 10, 3), 9: Point(9, 20, 15)}
    result.best = result.points[5]
    shown: list[Any] = []
    monkeypatch.setattr(plot, "_save", lambda fig, plt, path: shown.append(fig))
    tune_plot(result, "front line cap, shambling", tmp_path / "t.png")
    (fig,) = shown
    ax = fig.axes[0]
    assert tuple(fig.get_size_inches()) == (7, 4.2)
    assert (ax.get_xlabel(), ax.get_ylabel(), ax.get_ylim()) == ("front_line_cap", "survivors rate", (0, 1))
    rates = [p.rate for p in result.ordered()]
    line = ax.lines[0]
    assert list(line.get_xdata()) == [1, 5, 9] and list(line.get_ydata()) == rates
    bars = ax.collections[0].get_segments()
    for seg, p in zip(bars, result.ordered(), strict=True):
        assert seg[0][1] == pytest.approx(max(p.ci[0], 0.0)) and seg[1][1] == pytest.approx(p.ci[1])
    target = next(ln for ln in ax.lines if ln.get_linestyle() == "--")
    assert list(target.get_ydata()) == [0.3, 0.3]
    best = next(ln for ln in ax.lines if ln.get_marker() == "s")
    assert (list(best.get_xdata()), list(best.get_ydata()), best.get_markersize()) == ([5], [0.3], 9)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["target 0.3", "closest: front_line_cap = 5", "survivors rate (95% Wilson interval)"]
    assert ax.get_legend().get_texts()[0].get_fontsize() == 8
    assert ax.get_title() == "front line cap, shambling" and ax.title.get_fontsize() == 9
    caps = [ln for ln in ax.lines if ln.get_marker() in ("_", 0, 1, 2, 3, "|")]
    assert caps and all(ln.get_markersize() == 6 for ln in caps)  # caps of 3 points either side
    shown.clear()
    tune_plot(result, "a" * 40 + ", " + "b" * 39, tmp_path / "t.png")  # 81 characters: two lines at 80
    assert shown[0].axes[0].get_title() == "a" * 40 + ",\n" + "b" * 39


def test_a_tournament_stopped_midway_says_so_and_plays_no_further_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tournament whose batch is stopped (Ctrl-C) keeps the entries played, marks the one stopped
    and the whole as interrupted, and starts no further one."""
    real = tournament.play_batch
    calls: list[str] = []

    def batch(spec: BatchSpec, *args: Any, **kw: Any) -> Any:
        calls.append(spec.policy)
        result = real(spec, *args, **kw)
        if len(calls) == 2:
            result.interrupted = True
        return result

    monkeypatch.setattr(tournament, "play_batch", batch)
    found = play_tournament("shambling", ["heuristic", "random", "first"], games=4, seed=1)
    assert found.interrupted and len(calls) == 2
    assert [e.interrupted for e in found.entries] == [False, True]


def test_a_sweep_stopped_between_two_values_keeps_those_played(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C between two values of a sweep: the values played are kept, the sweep marked interrupted
    by SIGINT."""

    real = balance.play_batch
    played: list[Any] = []

    def batch(spec: BatchSpec, *args: Any, **kw: Any) -> Any:
        if played:
            raise KeyboardInterrupt
        played.append(spec.params["front_line_cap"])
        return real(spec, *args, **kw)

    monkeypatch.setattr(balance, "play_batch", batch)
    result = balance.play_sweep(BatchSpec("shambling", 3, seed=1), "front_line_cap", [3, 4, 5], 1, "local", None, None)
    assert result.interrupted and result.signal == signal.SIGINT
    assert [v for v, _s in result.sweep] == [3]


def _fake_rates(monkeypatch: pytest.MonkeyPatch, rate: Any) -> list[float]:
    """Tune's games stood in for: at each value, `rate(value)` of the games won (exactly)."""
    import ecs_zombie.tune as tuning

    played: list[float] = []

    def fake_batch(spec: BatchSpec, *_: Any) -> Any:
        (value,) = spec.params.values()
        played.append(value)
        hits = round(rate(value) * spec.games)
        return type("B", (), {"interrupted": False, "summary": type("S", (), {
            "games": spec.games, "failed": 0, "outcomes": {"survivors": hits}})()})()

    monkeypatch.setattr(tuning, "param_range", lambda *_: ("float", 0.0, 1.0))
    monkeypatch.setattr(tuning, "validated_params", lambda *_: {})
    monkeypatch.setattr(tuning, "check", lambda *_: [])
    monkeypatch.setattr(tuning, "play_batch", fake_batch)
    return played


def test_tune_bisects_a_real_valued_parameter_to_the_tolerance(monkeypatch: pytest.MonkeyPatch) -> None:
    """A real parameter (`type: float`; no shipped ruleset declares one) is bisected until the bracket
    is narrower than the tolerance, (hi - lo) / 64 unless given; midpoints are rounded to 12 digits.
    The games are stood in for by a rate exactly equal to the value (hits = value x games), so the
    search must close on the target 0.3 from both sides and report it closest."""
    import ecs_zombie.tune as tuning

    _fake_rates(monkeypatch, lambda v: v)
    result = tune("shambling", "chance", 0.3, games=1000, max_games=1000)
    values = sorted(result.points)
    assert values[0] == 0.0 and values[-1] == 1.0
    assert all(v == round(v, 12) for v in values)
    inner = [v for v in values if 0.0 < v < 1.0]
    # 0.5 (above), 0.25 (below), 0.375, 0.3125 (above), 0.28125, 0.296875 (below): the bracket
    # 0.296875..0.3125 is 1/64 wide, not wider than the tolerance, and the search stops
    assert inner == [0.25, 0.28125, 0.296875, 0.3125, 0.375, 0.5]
    assert result.best is not None and result.best.value == 0.296875
    narrower = tune("shambling", "chance", 0.3, games=1000, max_games=1000, tolerance=0.001)
    assert len(narrower.points) > len(result.points)
    # a range whose halves have no short decimal form: each midpoint is kept to 12 digits
    monkeypatch.setattr(tuning, "param_range", lambda *_: ("float", 0.0, 1 / 3))
    thirds = tune("shambling", "chance", 0.1, games=1000, max_games=1000)
    inner = sorted(v for v in thirds.points if 0.0 < v < 1 / 3)
    assert inner[-1] == 0.166666666667 and all(v == round(v, 12) for v in inner)
    # the tolerance is a 64th of the range's width, wherever the range starts
    _fake_rates(monkeypatch, lambda v: v - 1.0)
    monkeypatch.setattr(tuning, "param_range", lambda *_: ("float", 1.0, 2.0))
    shifted = tune("shambling", "chance", 0.3, games=1000, max_games=1000)
    assert sorted(v for v in shifted.points if 1.0 < v < 2.0) == [1.25, 1.28125, 1.296875, 1.3125, 1.375, 1.5]


def test_a_target_on_the_edge_of_the_ends_intervals_is_reachable(monkeypatch: pytest.MonkeyPatch) -> None:
    """A target is out of reach only beyond both ends' intervals: a rate of 0 measured at the low
    end (interval from 0) and of 1 at the high end (to 1) leave the targets 0 and 1 in reach."""
    _fake_rates(monkeypatch, lambda v: v)
    for goal in (0.0, 1.0):
        result = tune("shambling", "chance", goal, games=100, max_games=100)
        assert result.reachable and result.best is not None and result.best.rate == goal
    # an interval holds its ends: the end measured at exactly the target gets games up to the cap
    assert Point(0.0, 10, 0).holds(0.0) and Point(1.0, 10, 10).holds(1.0) and not Point(1.0, 10, 10).holds(0.5)
    at_zero = tune("shambling", "chance", 0.0, games=100, max_games=400)
    assert at_zero.points[0.0].games == 400


def test_equal_rates_at_both_ends_are_searched_as_rising(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search's direction comes from the two ends' rates; equal ones count as rising, so a
    value whose rate is below the target becomes the new low end and the search moves up."""
    played = _fake_rates(monkeypatch, lambda v: 0.5 if v in (0.0, 1.0) else 0.2)
    tune("shambling", "chance", 0.5, games=100, max_games=100)
    inner = [v for v in played if 0.0 < v < 1.0]
    assert inner[:3] == [0.5, 0.75, 0.875]


def test_a_tournament_entry_reports_decisions_per_game_and_milliseconds_per_decision() -> None:
    """The timing columns: the rows' timed decisions summed (from none), per game; their seconds
    per decision in milliseconds; none when no decision was timed."""
    timing = tournament._Timing()
    timing.write([{"timed_decisions": 30, "timed_seconds": 0.25}, {"timed_decisions": 70, "timed_seconds": 0.25},
                  {"game": 3}])
    assert (timing.decisions, timing.seconds) == (100, 0.5)
    entry = tournament.Entry("survivors", "mcts", "mcts", 4, 1, 0, {"survivors": 1}, timing.decisions, timing.seconds)
    data = entry.to_dict()
    assert data["decisions_per_game"] == 25.0 and data["ms_per_decision"] == 5.0
    idle = tournament.Entry("survivors", "random", "random", 0, 0, 0, {}, 0, 0.0).to_dict()
    assert idle["decisions_per_game"] == 0.0 and idle["ms_per_decision"] is None and idle["ci95"] == [0.0, 1.0]


def test_a_tournament_plays_the_batch_seeds_of_seed_1_unless_told() -> None:
    """The API's default is the command's: the games of seed 1 (`--seed 1`), in this process."""
    default = play_tournament("shambling", ["random"], 6)
    assert default.seed == 1
    told = play_tournament("shambling", ["random"], 6, seed=1, workers=1)
    assert [e.wins for e in default.entries] == [e.wins for e in told.entries]
    assert [e.decisions for e in default.entries] == [e.decisions for e in told.entries]


def test_ties_in_closeness_go_to_the_ends_of_the_final_bracket(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every value but the top one is 0.05 from the target 0.3 (rates 0.25 up to 0.2, 0.35 above):
    the answer is the lower end of the bracket the bisection closed on (0.1875..0.203125, where the
    rate crosses the target), not the low end of the range, equally close by the measure alone."""
    _fake_rates(monkeypatch, lambda v: 0.25 if v <= 0.2 else 0.35 if v <= 0.6 else 0.9)
    result = tune("shambling", "chance", 0.3, games=100, max_games=100)
    assert sorted(v for v in result.points if 0.15 < v < 0.25) == [0.1875, 0.203125, 0.21875]
    assert result.best is not None and result.best.value == 0.1875


@pytest.mark.parametrize(("args", "message"), [
    (["--max-games", "0"], "--max-games (0) must be at least --games (10)"),
    (["--max-games", "5"], "--max-games (5) must be at least --games (10)"),
    (["--tolerance", "-1"], "--tolerance must be a positive finite number"),
    (["--tolerance", "nan"], "--tolerance must be a positive finite number"),
    (["--tolerance", "inf"], "--tolerance must be a positive finite number"),
    (["--outcome", "survivor"], "--outcome 'survivor': no game at either end of the range ended so (they ended "
                                "survivors, zombies): is it misspelt?"),
])
def test_tune_refuses_bounds_and_outcomes_it_cannot_use(args: list[str], message: str) -> None:
    """A cap below the games per value, a tolerance that could never be reached, and an outcome no
    game ends in (a typo: told once both ends are played, as a ruleset may name outcomes of its own)."""
    result = run_cli("tune", "shambling", "--param", "front_line_cap", "--target", "0.2", "--games", "10", *args)
    assert result.returncode == 2 and message in result.stderr and len(result.stderr.splitlines()) == 1


def test_games_that_failed_are_shown_and_make_the_commands_exit_1(monkeypatch: pytest.MonkeyPatch,
                                                                  capfd: pytest.CaptureFixture[str]) -> None:
    """A tournament or a tuning whose games raised leaves them out of the rates: the table says how
    many, a line on stderr says which entry and the `batch` that plays the same games (and lists
    their seeds), and the exit status is 1, as `batch` does."""
    import typer

    import ecs_zombie.commands.strength as commands
    from ecs_zombie.tournament import Entry, Tournament

    played = Tournament("shambling", 1, 4, "heuristic", None,
                        [Entry("survivors", "heuristic", "heuristic", 4, 1, 0, {"survivors": 1}, 0, 0.0),
                         Entry("survivors", "odd", "heuristic,player:0=odd", 4, 1, 3, {"survivors": 1}, 0, 0.0)])
    monkeypatch.setattr(tournament, "play_tournament", lambda *_a, **_k: played)
    with pytest.raises(typer.Exit) as stop:
        commands.tournament("shambling", policies="heuristic,odd", games=4, seed=1, workers=1, opponent="heuristic",
                            team=None, players=None, backend="local", address=None, as_json=False)
    assert stop.value.exit_code == 1
    shown = capfd.readouterr()
    rows = [line.split() for line in shown.out.splitlines() if line.startswith("survivors")]
    assert [row[:5] for row in rows] == [["survivors", "heuristic", "4", "0.250", "0.046"],
                                         ["survivors", "odd", "4", "(3", "failed)"]]
    assert shown.err.strip().splitlines() == [
        "games failed (left out of the rates): survivors by odd: 3 (their seeds: ecs-zombie batch shambling "
        "--policy 'heuristic,player:0=odd' --seed 1 --games 4)"]
    tuned = Tuning("shambling", "front_line_cap", 0.2, "survivors", "heuristic", 1,
                   {3: Point(3, 4, 1, 3), 5: Point(5, 4, 1, 0)})
    tuned.best = tuned.points[5]
    import ecs_zombie.tune as tuning
    monkeypatch.setattr(tuning, "tune", lambda *_a, **_k: tuned)
    with pytest.raises(typer.Exit) as stop:
        commands.tune("shambling", param="front_line_cap", goal=0.2, outcome="survivors", policy="heuristic", games=4,
                      max_games=None, value_range=None, tolerance=None, fixed=["hero_chance=2"], seed=1, workers=1,
                      players=None, backend="local", address=None, plot=None, as_json=False)
    assert stop.value.exit_code == 1
    shown = capfd.readouterr()
    rows = [line.split() for line in shown.out.splitlines()[2:]]
    assert [row[:4] for row in rows[:2]] == [["3", "4", "(3", "failed)"], ["→", "5", "4", "0.250"]]
    assert shown.err.strip().splitlines() == [
        "games failed (left out of the rates): front_line_cap = 3: 3 (their seeds: ecs-zombie batch shambling "
        "--policy 'heuristic' --param front_line_cap=3 --param hero_chance=2 --seed 1 --games 4)"]


def test_tune_takes_a_cap_equal_to_the_games_and_an_outcome_no_game_reached_that_every_game_can() -> None:
    """The bounds of the checks: `--max-games` equal to `--games`, and `timeout`, which no game at
    either end of this range ends in, but which is the engine's own outcome, always taken."""
    result = run_cli("tune", "shambling", "--param", "front_line_cap", "--target", "0.0", "--games", "6",
                     "--max-games", "6", "--range", "3..5", "--outcome", "timeout")
    assert result.returncode == 0, result.stderr
    assert "timeout rate" in result.stdout


def test_a_tolerance_finer_than_the_digits_kept_ends_the_bisection(monkeypatch: pytest.MonkeyPatch) -> None:
    """Midpoints keep 12 digits: below that the midpoint of a bracket is one of its ends, and the
    search stops there rather than measure that end again forever."""
    _fake_rates(monkeypatch, lambda v: v)
    result = tune("shambling", "chance", 0.3, games=1000, max_games=1000, tolerance=1e-15)
    assert result.best is not None and result.best.rate == 0.3  # (the stood-in rate is counted in 1000ths)
    assert len(result.points) < 50 and all(v == round(v, 12) for v in result.points)
    assert min(abs(a - b) for a, b in pairwise(sorted(result.points))) > 0.99e-12  # no value measured twice
