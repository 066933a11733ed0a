"""What a component field may hold (`ecs_zombie.fields`): an optional field takes its type or
nothing, a field of `Any` only plain values (finite numbers among them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from ecs_zombie.fields import plain_value, problem


@dataclass
class Sample:
    """Not registered: its fields are checked by their annotations alone."""

    maybe: int | None = None
    either: int | str = 0
    loose: Any = None


def test_an_optional_field_takes_its_type_or_nothing() -> None:
    assert problem(Sample, "maybe", None) is None and problem(Sample, "maybe", 3) is None
    assert problem(Sample, "maybe", "three") is not None
    assert problem(Sample, "either", "x") is None and problem(Sample, "either", 2) is None
    assert problem(Sample, "either", 1.5) is not None


@pytest.mark.parametrize(("value", "plain"), [(1.5, True), (float("nan"), False), (float("inf"), False),
                                              (float("-inf"), False), (None, True), ([1, "a", {"k": 2.0}], True),
                                              ([float("nan")], False), (2**63, False), (-(2**63), True)])
def test_a_field_of_any_holds_only_plain_values(value: Any, plain: bool) -> None:
    """Finite numbers, whole numbers in 64 bits, text, lists and mappings of them: not NaN nor an
    infinity (a save could not hold them the same way)."""
    assert plain_value(value) is plain
    assert (problem(Sample, "loose", value) is None) is plain


def test_a_plain_value_is_nested_at_most_32_deep() -> None:
    def nested(n: int) -> Any:
        value: Any = 1
        for _ in range(n):
            value = [value]
        return value

    assert plain_value(nested(10)) and not plain_value(nested(40))
    assert plain_value(nested(32)) and not plain_value(nested(33))
