"""What a component field may hold (`ecs_zombie.fields`): an optional field takes its type or
nothing, a field of `Any` only plain values (finite numbers among them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

import msgspec
import pytest

from ecs_zombie.fields import describe, ids_in, plain_value, problem, type_text


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
                                              ([float("nan")], False), (2**63, False), (-(2**63), True),
                                              (2**63 - 1, True), (-(2**63) - 1, False)])
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

    def mapped(n: int) -> Any:
        value: Any = 1
        for _ in range(n):
            value = {"k": value}
        return value

    assert plain_value(mapped(32)) and not plain_value(mapped(33))
    assert plain_value([mapped(31)]) and not plain_value([mapped(32)])


def test_a_value_in_an_error_is_shown_up_to_60_characters() -> None:
    """An error names the value it refused, cut at 60 characters: 57 and '...'."""
    exact = "x" * 58  # repr: 60 characters with its quotes
    longer = "y" * 59
    message = str(problem(Sample, "maybe", longer))
    assert repr(exact) in str(problem(Sample, "maybe", exact))
    assert repr(longer)[:57] + "..." in message and repr(longer) not in message


@pytest.mark.parametrize(("kind", "text"), [
    (Annotated[list[int], msgspec.Meta(min_length=2, max_length=2)], "list[int] of 2"),
    (Annotated[list[int], msgspec.Meta(min_length=1, max_length=3)], "list[int]"),
    (Annotated[int, msgspec.Meta(ge=0, le=7)], "int 0..7"),
    (Annotated[int, msgspec.Meta(ge=1, le=7)], "int 1..7"),
    (Annotated[int, msgspec.Meta(ge=1, le=2**63 - 1)], "an entity id"),
    (Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)], "int 0..9223372036854775807"),
    (Literal["square", "hex"], "one of 'square', 'hex'"),
    (dict[str, int], "dict[str, int]"),
    (Any, "any plain value"),
])
def test_a_fields_type_in_a_few_words(kind: Any, text: str) -> None:
    """What an error says a field takes: a fixed-length list as 'of N', a bounded number with its
    bounds, an id (1 up) as 'an entity id'."""
    assert type_text(kind) == text


def test_msgspecs_messages_in_the_projects_words() -> None:
    assert describe(Exception("Expected `int`, got `str` - at `$[0]`")) == "Expected int, got str (at [0])"
    assert describe(Exception("Expected `int`, got `str`")) == "Expected int, got str"
    assert describe(Exception("Expected `int`, got `str` - at `$`")) == "Expected int, got str"


def test_every_whole_number_in_a_value_is_an_id() -> None:
    assert list(ids_in(3)) == [3]
    assert list(ids_in([1, [2, {"a": 3, "b": [4]}], "x", 5.0, True])) == [1, 2, 3, 4]
