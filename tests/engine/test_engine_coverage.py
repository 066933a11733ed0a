"""`batch --coverage`: decisions counted by option type, events by kind, the same for any worker count."""

from __future__ import annotations

import json
from typing import Any

import pytest

import ecs_zombie.balance as balance
from ecs_zombie.balance import play_batch
from ecs_zombie.batch import BatchSpec, run_batch
from ecs_zombie.coverage import Coverage, CoverageRecorder, KindCount, option_type, option_types
from ecs_zombie.decisions import Decision, PolicyTable
from ecs_zombie.game import new_game
from tests.helpers import run_cli


@pytest.mark.parametrize(("option", "expected"), [
    ("walking", "walking"), (["attack", "aimed", "rifle"], "attack"), ([3, 4], "square"), (17, "entity"),
    ({"action": "trade", "with": 4}, "trade"), ({"x": 1}, "mapping"), ([1, "a"], "list"), (True, "yes"),
    (None, "none"), ("approach:10", "approach"), ("engage:9:run", "engage:run"), ("give:rope:3", "give:rope"),
    ("goto:bush", "goto:bush"), ("7", "7"),
])
def test_an_option_is_typed_without_its_particulars(option: Any, expected: str) -> None:
    assert option_type(option) == expected


def test_a_ruleset_types_its_own_options() -> None:
    @option_types("test.coverage_kind")
    def parity(_game: Any, option: Any) -> str:
        return "even" if option % 2 == 0 else "odd"

    game = new_game("shambling", 1)
    try:
        assert [option_type(o, "test.coverage_kind", game) for o in (2, 3)] == ["even", "odd"]
        assert option_type(2, "other.kind", game) == "entity"
    finally:
        game.close()


class First:
    """Always the first option; notes the (kind, type) pairs it saw offered and took, its own way."""

    needs_tick_start = False

    def __init__(self) -> None:
        self.offered: set[tuple[str, str]] = set()
        self.taken: set[tuple[str, str]] = set()

    def choose(self, game: Any, decision: Decision) -> int:
        self.offered.update((decision.kind, option_type(o, decision.kind, game)) for o in decision.options)
        self.taken.add((decision.kind, option_type(decision.options[0], decision.kind, game)))
        return 0


def test_counts_of_one_game_add_up() -> None:
    """Every asked decision is one `decision` event; each was answered with one option type, offered."""
    game = new_game("shambling", 5)
    recorder = CoverageRecorder(PolicyTable("random"))
    game.play(recorder)
    counts = recorder.result(game.events)
    game.close()
    asked = sum(d["asked"] for d in counts["decisions"].values())
    assert asked == counts["events"]["decision"] > 0
    for d in counts["decisions"].values():
        assert sum(d["taken"].values()) == d["asked"]
        assert all(d["offered"][t] >= n for t, n in d["taken"].items())
        assert all(n <= d["asked"] for n in d["offered"].values())


def test_an_option_never_taken_is_listed() -> None:
    """A policy that always takes the first option leaves every type it never found first (Shambling's
    placing in Support, say) never taken: the summary lists exactly those, with how often offered."""
    cov = Coverage()
    first = First()
    for seed in range(3):
        game = new_game("shambling", seed)
        recorder = CoverageRecorder(first)
        game.play(recorder)
        cov.add(recorder.result(game.events))
        game.close()
    never = {(k, t) for k, t, _ in cov.never_taken()}
    assert never == first.offered - first.taken and never
    assert all(n > 0 for _, _, n in cov.never_taken())
    assert cov.games == 3


def test_coverage_is_the_same_for_any_worker_count() -> None:
    one = play_batch(BatchSpec("shambling", 24, seed=4, coverage=True), workers=1)
    two = play_batch(BatchSpec("shambling", 24, seed=4, coverage=True), workers=2)
    assert one.coverage is not None and two.coverage is not None
    assert one.coverage.to_dict() == two.coverage.to_dict()
    assert one.coverage.games == 24


def test_the_command_prints_and_emits_coverage(tmp_path: Any) -> None:
    result = run_cli("batch", "shambling", "--games", "4", "--coverage", "--json", "--quiet")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    cov = summary["coverage"]
    assert cov["games"] == 4 and cov["events"]["game_over"] == 4
    assert "shambling.wound" in cov["decisions"]
    text = run_cli("batch", "shambling", "--games", "4", "--coverage", "--quiet")
    assert text.returncode == 0, text.stderr
    assert "shambling.re_engage" in text.stdout and "never taken:" in text.stdout
    listed = text.stdout.split("never taken:\n")[1].splitlines()  # one a line, to read in a narrow terminal
    assert listed and all(line.startswith("  shambling.") and "(offered " in line for line in listed)
    rows = tmp_path / "rows.jsonl"
    assert run_cli("batch", "shambling", "--games", "4", "--coverage", "--quiet", "--out", str(rows)).returncode == 0
    assert all("coverage" not in json.loads(line) for line in rows.read_text().splitlines())


def test_a_failed_game_adds_nothing_to_the_coverage(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game that fails is a row with its error and no counts: the batch's coverage sums the games
    that played, and counts the failed one in none of them."""
    spec = BatchSpec("shambling", 2, seed=4, coverage=True)
    rows = [row for chunk in run_batch(spec) for row in chunk]
    played = Coverage()
    played.add(rows[0]["coverage"])
    failed = {"game": 1, "seed": rows[1]["seed"], "error": "GameError: a rule failed"}

    def batch(*_args: Any, **_kw: Any) -> Any:
        yield [rows[0], failed]

    monkeypatch.setattr(balance, "run_batch", batch)
    result = play_batch(spec)
    assert result.coverage is not None and result.coverage.to_dict() == played.to_dict()
    assert result.coverage.games == 1


def test_counts_merge_kind_by_kind_and_option_by_option() -> None:
    """Games' counts add up: askings, and per option type how often offered and taken, types that
    only one side has kept."""
    a = KindCount(2, {"x": 1, "y": 2}, {"x": 1})
    a.merge(KindCount(3, {"x": 4, "z": 1}, {"z": 1, "x": 2}))
    assert a.to_dict() == {"asked": 5, "offered": {"x": 5, "y": 2, "z": 1}, "taken": {"x": 3, "z": 1}}


def test_the_decision_table_reads_shares_of_the_answers() -> None:
    """The table's rows: kind, option type, offered, taken and the share of the kind's answers that
    took it ("-" for a kind never asked), types in name order."""
    cov = Coverage(decisions={"k": KindCount(4, {"a": 4, "b": 2}, {"a": 3}), "never": KindCount(0, {"c": 0}, {})})
    assert cov.rows() == [["k", "a", "4", "3", "75.0%"], ["k", "b", "2", "0", "0.0%"], ["never", "c", "0", "0", "-"]]


def test_an_answer_outside_the_options_is_counted_as_asked_not_taken() -> None:
    """The recorder counts what a policy answers only when it names an option: an index past the
    options, a negative one or a non-number is asked and offered but taken by no type. A policy
    that does not say it needs the tick's start is taken not to."""

    class Fixed:
        name = "fixed"

        def __init__(self, answer: Any) -> None:
            self.answer = answer

        def choose(self, game: Any, decision: Decision) -> Any:
            return self.answer

    for answer in (2, -1, "0"):
        rec = CoverageRecorder(Fixed(answer))
        assert rec.needs_tick_start is False
        rec.choose(None, Decision("player:0", "k", ["a", "b"]))  # type: ignore[arg-type]
        assert rec.decisions["k"].to_dict() == {"asked": 1, "offered": {"a": 1, "b": 1}, "taken": {}}
    rec = CoverageRecorder(Fixed(1))
    rec.choose(None, Decision("player:0", "k", ["a", "b"]))  # type: ignore[arg-type]
    assert rec.decisions["k"].taken == {"b": 1}
