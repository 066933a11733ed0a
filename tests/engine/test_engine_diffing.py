"""How two states differ (`ecs_zombie.diffing.state_changes`, what `ecs-zombie diff` and a failed
replay verification show): at most 50 changes by default, and a state whose schema names fewer or
more fields than a component holds still compares (a save of an older or newer schema). Where two
runs of a tick part (`first_event_difference`): the first differing event and the system to blame."""

from __future__ import annotations

import pytest

from ecs_zombie.diffing import first_event_difference, state_changes


def _state(values: list[int], schema: dict[str, list[str]] | None = None) -> dict[str, object]:
    return {"schema": schema or {"Wounds": ["taken", "limit"]},
            "entities": [[i + 1, [["Wounds", [v, 3]]]] for i, v in enumerate(values)]}


def test_at_most_50_changes_by_default() -> None:
    before, after = _state([0] * 60), _state([1] * 60)
    assert len(state_changes(before, after)) == 50
    assert len(state_changes(before, after, 60)) == 60
    assert state_changes(before, after, 2) == [
        {"what": "field", "entity": 1, "component": "Wounds", "field": "taken", "before": 0, "after": 1},
        {"what": "field", "entity": 2, "component": "Wounds", "field": "taken", "before": 0, "after": 1}]


def test_a_schema_shorter_than_the_values_still_compares() -> None:
    """A component saved with more values than its schema names (another version's save) compares
    by the fields named."""
    before = _state([0], {"Wounds": ["taken"]})
    after = _state([2], {"Wounds": ["taken"]})
    assert state_changes(before, after) == [
        {"what": "field", "entity": 1, "component": "Wounds", "field": "taken", "before": 0, "after": 2}]


def _ev(kind: str, path: str | None = None, data: object = None) -> list[object]:
    """An event as logged: tick, kind, data and, from the systems, the path of the system logging it."""
    return [1, kind, data or {}] + ([path] if path is not None else [])


def test_equal_runs_have_no_difference() -> None:
    events = [_ev("a", "s1"), _ev("b", "s2")]
    assert first_event_difference(events, [list(e) for e in events]) is None
    assert first_event_difference([], []) is None


def test_the_first_differing_event_and_its_position() -> None:
    expected = [_ev("a", "s1"), _ev("b", "s1"), _ev("c", "s1")]
    got = [_ev("a", "s1"), _ev("B", "s1"), _ev("C", "s1")]
    assert first_event_difference(expected, got) == {
        "index": 1, "system": "s1", "recorded": _ev("b", "s1"), "replayed": _ev("B", "s1")}


def test_a_run_that_stopped_early_may_only_have_fewer_events() -> None:
    """By default (`complete=True`) a second run with fewer events differs where it ran out, and
    the blame is the system of the event it lacks; with `complete=False` (it raised) fewer events
    are no difference, but more still are."""
    expected = [_ev("a", "s1"), _ev("b", "s2")]
    assert first_event_difference(expected, expected[:1]) == {
        "index": 1, "system": "s2", "recorded": _ev("b", "s2"), "replayed": None}
    assert first_event_difference(expected, expected[:1], complete=False) is None
    longer = [*expected, _ev("c", "s3")]
    assert first_event_difference(expected, longer, complete=False) == {
        "index": 2, "system": "s3", "recorded": None, "replayed": _ev("c", "s3")}


def test_blame_goes_to_the_system_both_runs_were_in() -> None:
    """Two runs part at an event logged by different systems: the system of the event before the
    parting (both were in it) is blamed when it is one of the two."""
    expected = [_ev("a", "s2"), _ev("b", "s1")]
    got = [_ev("a", "s2"), _ev("x", "s2")]
    assert first_event_difference(expected, got, order=["s1", "s2"])["system"] == "s2"


def test_blame_at_the_first_event_goes_to_the_system_that_runs_first() -> None:
    """At the tick's first event there is no event before it: the system that runs first in the
    schedule is blamed (`order`, matched on a path's first part), not the last event's system."""
    expected = [_ev("a", "s1/step"), _ev("z", "s2")]
    got = [_ev("b", "s2"), _ev("z", "s2")]
    assert first_event_difference(expected, got, order=["s1", "s2"])["system"] == "s1/step"
    assert first_event_difference(expected, got, order=["s2", "s1"])["system"] == "s2"


@pytest.mark.parametrize("pathless", ["expected", "got", "both"])
def test_events_without_a_path_still_compare(pathless: str) -> None:
    """An event logged outside any system has no path (three fields): it is compared like any other
    and blames the other run's system, or none."""
    with_path, without = [_ev("a", "s1")], [_ev("b")]
    expected = without if pathless in ("expected", "both") else with_path
    got = [_ev("c")] if pathless in ("got", "both") else [_ev("c", "s1")]
    found = first_event_difference(expected, got)
    assert found is not None and found["index"] == 0
    assert found["system"] == (None if pathless == "both" else "s1")
    following = first_event_difference([_ev("a"), *expected], [_ev("a"), *got], order=["s1"])
    assert following is not None and following["system"] == found["system"]
