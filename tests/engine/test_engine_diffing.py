"""How two states differ (`ecs_zombie.diffing.state_changes`, what `ecs-zombie diff` and a failed
replay verification show): at most 50 changes by default, and a state whose schema names fewer or
more fields than a component holds still compares (a save of an older or newer schema)."""

from __future__ import annotations

from ecs_zombie.diffing import state_changes


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
