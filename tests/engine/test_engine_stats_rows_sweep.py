"""Batch figures in bounded memory (ecs_zombie/stats.py) against the standard library's, rows as
files (rows.py), and the sweep's `KEY=START..STOP[:STEP]` (balance.py): the values a user asked for,
STOP included, and one-line errors."""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path
from types import SimpleNamespace

import pytest

from ecs_zombie import balance, tune
from ecs_zombie.errors import GameError
from ecs_zombie.rows import RowWriter
from ecs_zombie.ruleset import Parameter
from ecs_zombie.stats import Z95, Histogram, Moments, Summary, t_cdf, t_quantile, wilson

# -- statistics -----------------------------------------------------------------------------------


def test_wilson_edges() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(3, 3)[1] == 1.0 and wilson(0, 3)[0] == pytest.approx(0.0, abs=1e-12)
    assert wilson(3, 3)[0] == pytest.approx(1 - wilson(0, 3)[1]) and 0.4 < wilson(3, 3)[0] < 0.5
    lo, hi = wilson(1, 4, z=1.0)  # by hand: p = .25, denom 1.25, centre .3, half sqrt(.046875 + .015625)/1.25
    assert (lo, hi) == pytest.approx((0.3 - 0.2, 0.3 + 0.2))


@pytest.mark.parametrize("values", [[7], [1, 2], [3, 1, 2], [5, 5, 5, 9], list(range(1, 12)), [2, 8, 8, 3, 10, 1]])
def test_histogram_quantiles_are_numpys_linear(values: list[int]) -> None:
    """statistics.quantiles(method='inclusive') is the same linear interpolation between closest ranks."""
    h = Histogram()
    for v in values:
        h.add(v)
    assert h.n == len(values) and sum(h.counts.values()) == len(values)
    assert h.quantile(0.5) == pytest.approx(statistics.median(values))
    assert h.quantile(0.0) == min(values) and h.quantile(1.0) == max(values)
    if len(values) > 1:
        cuts = statistics.quantiles(values, n=20, method="inclusive")
        assert h.quantile(0.05) == pytest.approx(cuts[0]) and h.quantile(0.95) == pytest.approx(cuts[-1])
    assert math.isnan(Histogram().quantile(0.5))
    with pytest.raises(IndexError):
        h._at(len(values))


def test_moments_are_the_sample_mean_and_variance() -> None:
    values = [4, 8, 15, 16, 23, 42]
    m = Moments()
    for v in values:
        m.add(v)
    assert m.n == 6 and m.mean == pytest.approx(statistics.mean(values))
    assert m.m2 / (m.n - 1) == pytest.approx(statistics.variance(values))
    assert (m.low, m.high) == (4, 42)
    # Student t with 5 degrees of freedom: 2.5706 (the textbook table); the lower end, 18 - 14.16,
    # falls below the smallest value seen and is clamped to it.
    half = 2.570582 * statistics.stdev(values) / math.sqrt(len(values))
    assert 18 - half < 4
    assert m.interval() == pytest.approx((4.0, 18 + half), abs=1e-5)
    assert m.hist is not None and m.hist.counts == {v: 1 for v in values}
    one = Moments()
    one.add(3)
    assert one.interval() is None and one.to_dict() == {"mean": 3.0, "ci95": None, "min": 3, "max": 3, "n": 1}
    assert Moments().to_dict() == {"mean": None, "ci95": None, "min": None, "max": None, "n": 0}
    m.add(2.5)  # a fraction: no histogram from then on
    assert m.hist is None and m.n == 7
    flags = Moments()
    flags.add(True)
    assert flags.hist is None  # a boolean is not a whole number of anything


def test_a_t_quantile_is_the_same_bits_everywhere() -> None:
    """A batch's --json intervals are compared byte for byte across versions and machines: the
    bisection stops at the same step (the bracket narrower than 1e-12 of its top) and gives the same
    double, within 1e-12 of the exact 3.182446305284263 (3 degrees of freedom)."""
    assert t_quantile(0.975, 3) == 3.1824463052844294
    assert abs(t_quantile(0.975, 3) - 3.182446305284263) < 1e-12
    assert t_quantile(0.975, 1) == 12.706204736172367
    # past the incomplete beta's branch point ((a + 1) / (a + b + 2), Numerical Recipes 6.4) the
    # continued fraction is taken for 1 - x: the same value, to the last bit, on every machine
    assert t_cdf(1.3, 3) == 0.8577662456360516


@pytest.mark.parametrize(("df", "t"), [(1, 12.7062), (2, 4.3027), (5, 2.5706), (10, 2.2281), (30, 2.0423),
                                       (100, 1.9840), (1000, 1.9623)])
def test_t_quantiles_are_the_textbook_table(df: int, t: float) -> None:
    """The 97.5th percentile of Student's t, as printed in every statistics table."""
    assert t_quantile(0.975, df) == pytest.approx(t, abs=1e-4)
    assert t_quantile(0.025, df) == pytest.approx(-t, abs=1e-4)
    assert t_cdf(t, df) == pytest.approx(0.975, abs=1e-5)
    assert t_quantile(0.975, 10**6) == pytest.approx(Z95, abs=1e-5)  # many games: the normal's 1.96
    with pytest.raises(ValueError):
        t_quantile(1.0, 3)


def test_a_count_most_games_leave_at_zero_gets_an_interval_inside_its_range() -> None:
    """README, "Statistics": 2 games in 1,000 with one hero left; the normal interval of that mean
    reaches below 0, the clamped t interval stops at 0."""
    m = Moments()
    for i in range(1000):
        m.add(1 if i in (10, 500) else 0)
    low, high = m.interval() or (None, None)
    assert low == 0.0 and 0.002 < high < 0.006
    normal_low = 0.002 - Z95 * math.sqrt(m.m2 / 999 / 1000)
    assert normal_low < 0


def test_merged_moments_are_those_of_all_the_values() -> None:
    a, b, whole = Moments(), Moments(), Moments()
    for i, v in enumerate([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]):
        (a if i < 4 else b).add(v)
        whole.add(v)
    a.merge(b)
    assert (a.n, a.low, a.high) == (11, 1, 9) and a.mean == pytest.approx(whole.mean)
    assert a.m2 == pytest.approx(whole.m2) and a.hist is not None and a.hist.counts == whole.hist.counts
    empty = Moments()
    a.merge(empty)
    assert a.n == 11
    empty.merge(a)
    assert empty.n == 11 and empty.mean == pytest.approx(whole.mean)
    floats = Moments()
    floats.add(0.5)
    a.merge(floats)
    assert a.hist is None and a.n == 12


def test_a_summary_counts_games_outcomes_turns_and_numeric_metrics() -> None:
    s = Summary()
    rows = [{"seed": 1, "outcome": "survivors", "turns": 10, "kills": 3, "flag": True, "name": "x"},
            {"seed": 2, "outcome": "zombies", "turns": 4, "kills": 1.5},
            {"seed": 3, "error": "RuntimeError: boom"},
            {"seed": 4, "outcome": "survivors", "turns": 10, "kills": 5, "error": ""}]
    for row in rows:
        s.add(row, ["kills", "flag", "name", "absent"])
    d = s.to_dict()
    assert (d["games"], d["failed"], d["failed_seeds"]) == (4, 1, [3])
    assert d["outcomes"]["survivors"]["count"] == 2 and d["outcomes"]["survivors"]["rate"] == pytest.approx(2 / 3)
    assert d["outcomes"]["survivors"]["ci95"] == pytest.approx(list(wilson(2, 3)))
    assert list(d["outcomes"]) == ["survivors", "zombies"]
    assert d["turns"] == {"mean": pytest.approx(8.0), "median": 10, "p5": pytest.approx(4.6),
                          "p95": pytest.approx(10.0)}
    assert list(d["metrics"]) == ["kills"] and d["metrics"]["kills"]["mean"] == pytest.approx((3 + 1.5 + 5) / 3)
    assert dict(s.turns_by_outcome["survivors"].counts) == {10: 2}


def test_a_summary_of_failed_games_only_has_no_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Summary, "MAX_FAILED_LISTED", 2)
    s = Summary()
    for seed in range(5):
        s.add({"seed": seed, "error": "X: y"}, [])
    d = s.to_dict()
    assert (d["games"], d["failed"], d["failed_seeds"]) == (5, 5, [0, 1])
    assert d["turns"] == {"mean": None, "median": None, "p5": None, "p95": None} and d["outcomes"] == {}


# -- rows -----------------------------------------------------------------------------------------


def test_rows_as_csv_and_json_lines(tmp_path: Path) -> None:
    rows = [{"game": 0, "seed": 5, "outcome": "zombies", "extra": 1}, {"game": 1, "seed": 6, "error": "E: x"}]
    csv_writer = RowWriter(tmp_path / "deep" / "r.CSV", ["game", "seed", "outcome", "error"])
    csv_writer.write(rows)
    csv_writer.close()
    assert (tmp_path / "deep" / "r.CSV").read_text().splitlines() == ["game,seed,outcome,error", "0,5,zombies,",
                                                                      "1,6,,E: x"]
    jsonl = RowWriter(tmp_path / "r.jsonl", ["game"])
    jsonl.write(rows[:1])
    assert json.loads((tmp_path / "r.jsonl").read_text()) == rows[0]  # flushed at once, every field kept
    jsonl.write(rows[1:])
    jsonl.close()
    assert [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()] == rows


def test_a_rows_non_finite_numbers_are_null_at_any_depth(tmp_path: Path) -> None:
    """JSON lines are strict JSON: a metric of NaN, or a list or mapping holding an infinity (a
    plugin's metric may be either), is written as null where it stands, never as `NaN`."""
    writer = RowWriter(tmp_path / "r.jsonl", ["game"])
    writer.write([{"game": 0, "mean": float("nan"), "spread": [1.5, float("inf")], "by": {"a": -float("inf")}}])
    writer.close()
    text = (tmp_path / "r.jsonl").read_text()
    assert json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} is not JSON")) == {
        "game": 0, "mean": None, "spread": [1.5, None], "by": {"a": None}}


def test_rows_to_a_stream_reach_it_by_the_close_even_with_no_rows_the_header_alone() -> None:
    """A stream (standard output) is the caller's, never closed here: closing the writer flushes
    it, so a CSV with no rows still hands its header on, and the stream stays open."""
    import io

    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="utf-8", newline="")
    writer = RowWriter(stream, ["game", "seed"], "csv")
    writer.close()
    assert raw.getvalue() == b"game,seed\r\n" and not stream.closed


def test_rows_refuse_other_formats_and_unwritable_places(tmp_path: Path) -> None:
    with pytest.raises(GameError, match=r"output must end in \.jsonl or \.csv"):
        RowWriter(tmp_path / "r.parquet", ["game"])
    (tmp_path / "file").write_text("x")
    with pytest.raises(GameError, match="cannot write"):
        RowWriter(tmp_path / "file" / "r.csv", ["game"])


# -- sweeps ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "values"), [
    ("front_line_cap=4..6", [4, 5, 6]), (" front_line_cap = 4 .. 10 : 3", [4, 7, 10]),
    ("front_line_cap=4..9:3", [4, 7]), ("front_line_cap=5..5", [5]),
])
def test_sweep_values_include_stop(text: str, values: list[int]) -> None:
    assert balance.sweep_values(text, "shambling") == ("front_line_cap", values)


@pytest.mark.parametrize(("text", "message"), [
    ("front_line_cap", "takes KEY=START..STOP"), ("front_line_cap=4", "takes KEY=START..STOP"),
    ("=4..6", "takes KEY=START..STOP"), ("nosuch=1..2", "unknown parameter 'nosuch' for ruleset 'shambling'"),
    ("front_line_cap=6..4", "need START <= STOP and a positive STEP"),
    ("front_line_cap=4..6:0", "below its minimum"),
    ("front_line_cap=4..40", "above its maximum"),
])
def test_sweep_values_errors(text: str, message: str) -> None:
    with pytest.raises(GameError, match=message):
        balance.sweep_values(text, "shambling")


def fake_scenario(monkeypatch: pytest.MonkeyPatch, *params: Parameter) -> None:
    ruleset = SimpleNamespace(id="fake", parameters={p.name: p for p in params})
    monkeypatch.setattr(balance, "load_scenario", lambda target: SimpleNamespace(ruleset=ruleset))


def test_float_sweeps_reach_stop_despite_rounding(monkeypatch: pytest.MonkeyPatch) -> None:
    """0.1 + 2 * 0.1 is 0.30000000000000004 in binary: STOP 0.3 is still included, and shown as 0.3."""
    fake_scenario(monkeypatch, Parameter("p", "float", 0.5, 0.0, 1000.0), Parameter("flag", "bool", False),
                  Parameter("n", "int", 1, 0, 5000))
    assert balance.sweep_values("p=0.1..0.3", "x") == ("p", [0.1, 0.2, 0.3])
    assert balance.sweep_values("p=0..1:0.25", "x") == ("p", [0.0, 0.25, 0.5, 0.75, 1.0])
    with pytest.raises(GameError, match="need START <= STOP and a positive STEP"):
        balance.sweep_values("p=0..1:0", "x")  # a step of 0 the parameter's range allows
    with pytest.raises(GameError, match="parameter 'flag' is bool: only int and float parameters can be swept"):
        balance.sweep_values("flag=0..1", "x")
    with pytest.raises(GameError, match="a sweep is limited to 1000 values"):
        balance.sweep_values("n=0..1000", "x")
    assert len(balance.sweep_values("n=1..1000", "x")[1]) == 1000
    fake_scenario(monkeypatch)
    with pytest.raises(GameError, match=r"unknown parameter 'p' for ruleset 'fake' \(known: none\)"):
        balance.sweep_values("p=1..2", "x")
    with pytest.raises(GameError, match=r"unknown parameter 'p' for ruleset 'fake' \(known: none\)"):
        tune.param_range("x", "p", None)  # tune looks its parameter up as a sweep does


def test_only_a_number_can_be_tuned(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_scenario(monkeypatch, Parameter("flag", "bool", False), Parameter("n", "int", 1, 0, 50))
    with pytest.raises(GameError, match="parameter 'flag' is bool: only int and float parameters can be tuned"):
        tune.param_range("x", "flag", None)
    assert tune.param_range("x", "n", None) == ("int", 0, 50)


def test_a_sweep_plays_the_same_games_at_each_value(tmp_path: Path) -> None:
    """The same batch (the same game seeds) at each value: the rows carry the value, the total counts
    every game, and each point's games are its own."""
    from ecs_zombie.batch import BatchSpec

    spec = BatchSpec("shambling", 6, seed=4)
    result = balance.play_sweep(spec, "combat_rounds", [1, 3], 1, "local", None, tmp_path / "s.jsonl")
    rows = [json.loads(line) for line in (tmp_path / "s.jsonl").read_text().splitlines()]
    assert [(r["game"], r["combat_rounds"]) for r in rows] == [(i, v) for v in (1, 3) for i in range(6)]
    assert [r["seed"] for r in rows[:6]] == [r["seed"] for r in rows[6:]]
    assert result.summary.games == 12 and [v for v, _ in result.sweep] == [1, 3]
    assert all(point["games"] == 6 for _, point in result.sweep)
    assert sum(result.summary.outcomes.values()) == 12
    out = result.to_dict()
    assert [p["value"] for p in out["sweep"]] == [1, 3] and out["games"] == 12 and out["interrupted"] is False


def test_validated_params_are_typed_before_any_game() -> None:
    assert balance.validated_params("shambling", {"front_line_cap": "7"}) == {"front_line_cap": 7}
    with pytest.raises(GameError, match="unknown parameter"):
        balance.validated_params("shambling", {"nope": "1"})
    assert balance.columns(["kills"], ["p"]) == ["game", "seed", "outcome", "turns", "kills", "p", "error"]


def test_the_merged_summary_lists_failed_seeds_up_to_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Summary, "MAX_FAILED_LISTED", 3)
    total, part = Summary(), Summary()
    for seed in range(2):
        total.add({"seed": seed, "error": "E"}, [])
    for seed in range(10, 13):
        part.add({"seed": seed, "error": "E"}, [])
    part.add({"seed": 20, "outcome": "won", "turns": 1}, [])
    total.merge(part)
    assert (total.games, total.failed, total.failed_seeds) == (6, 5, [0, 1, 10])
    assert total.outcomes == {"won": 1}



def test_a_sweep_of_one_value_without_a_file_and_its_file_closed(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from ecs_zombie.batch import BatchSpec

    single = balance.play_sweep(BatchSpec("shambling", 3, seed=1), "combat_rounds", [2], 1, "local", None, None)
    assert [v for v, _ in single.sweep] == [2] and single.summary.games == 3
    closed: list[Path] = []

    class Recording(RowWriter):
        def close(self) -> None:
            closed.append(self.path)
            super().close()

    monkeypatch.setattr(balance, "RowWriter", Recording)
    balance.play_sweep(BatchSpec("shambling", 2, seed=1), "combat_rounds", [1, 2], 1, "local", None,
                       tmp_path / "s.csv")
    assert closed == [tmp_path / "s.csv"]


def test_a_full_list_of_failed_seeds_takes_no_more(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Summary, "MAX_FAILED_LISTED", 2)
    total, part = Summary(), Summary()
    for seed in (1, 2):
        total.add({"seed": seed, "error": "E"}, [])
    part.add({"seed": 9, "error": "E"}, [])
    total.merge(part)
    assert total.failed_seeds == [1, 2] and total.failed == 3


def test_an_interval_needs_two_values_and_a_closed_writer_is_closed(tmp_path: Path) -> None:
    m = Moments()
    for v in (2, 4):
        m.add(v)
    assert m.interval() == (2.0, 4.0)  # 3 ± 12.7 (t with one degree of freedom), clamped to what was seen
    m.add(3)
    half = 4.302653 * statistics.stdev([2, 4, 3]) / math.sqrt(3)  # t with two degrees of freedom
    assert m.interval() == pytest.approx((2.0, 4.0)) and 3 - half < 2
    writer = RowWriter(tmp_path / "r.csv", ["game"])
    writer.close()
    assert writer._fh.closed


def test_a_batch_reports_its_progress_chunk_by_chunk() -> None:
    from ecs_zombie.batch import BatchSpec

    seen: list[int] = []
    balance.play_batch(BatchSpec("shambling", 20, seed=1), progress=seen.append)
    assert seen == [2] * 10


def test_a_merged_summary_counts_every_games_length_by_outcome_and_every_metric() -> None:
    """A sweep's total is its points' games together: the lengths (all of them, and by outcome, which
    the batch plot stacks) and each metric's moments hold every game of both summaries."""
    total, part = Summary(), Summary()
    total.add({"seed": 0, "outcome": "won", "turns": 3, "kills": 1}, ["kills"])
    part.add({"seed": 1, "outcome": "won", "turns": 3, "kills": 2}, ["kills"])
    part.add({"seed": 2, "outcome": "lost", "turns": 5, "kills": 4}, ["kills"])
    total.merge(part)
    assert (total.turns.n, total.turns.mean) == (3, pytest.approx(11 / 3))
    assert {k: (h.counts, h.n) for k, h in total.turns_by_outcome.items()} == {"won": ({3: 2}, 2), "lost": ({5: 1}, 1)}
    assert (total.metrics["kills"].n, total.metrics["kills"].mean) == (3, pytest.approx(7 / 3))


def test_t_below_one_and_at_the_median() -> None:
    """Student's t tables' other columns: the 75th percentile with 10 degrees of freedom is 0.700
    (a t under 1, where the upper tail is still taken from the incomplete beta), the median is 0 for
    any df, and the quantile is only defined strictly between 0 and 1."""
    assert t_quantile(0.75, 10) == pytest.approx(0.6998, abs=1e-4)
    assert t_cdf(0.6998, 10) == pytest.approx(0.75, abs=1e-4)
    assert t_cdf(-0.6998, 10) == pytest.approx(0.25, abs=1e-4)
    assert t_quantile(0.5, 10) == pytest.approx(0.0, abs=1e-11)
    for p in (0.0, 1.0, -0.1, 1.1):
        with pytest.raises(ValueError, match=f"got {p}$"):
            t_quantile(p, 10)
