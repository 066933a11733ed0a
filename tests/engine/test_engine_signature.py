"""A system's parameters read from its function, and YAML values checked against their annotations
"like a type checker would" (ecs_zombie/signature.py): what fits, what does not, and what is beyond
the checker (accepted)."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from ecs_zombie.signature import MISSING, Param, accepts_any, docstring, params_of, source_def, type_error


@pytest.mark.parametrize(("annotation", "value"), [
    ("int", 3), ("int", -2), ("float", 2.5), ("float", 3), ("bool", False), ("str", ""), ("None", None),
    ("list", [1, "a"]), ("dict", {"a": 1}), ("Any", object()), ("object", 1), ("typing.Any", 1),
    ("int | None", None), ("int | None", 4), ("None | str", "x"), ("list[int]", [1, 2]), ("list[int]", []),
    ("Sequence[str]", ["a"]), ("tuple[int, ...]", [1]), ("Iterable[float]", [1, 2.0]),
    ("dict[str, int]", {"a": 1}), ("Mapping[str, list[int]]", {"a": [1]}), ("dict[str]", {"a": "b"}),
    ("Literal['a', 'b']", "b"), ("Literal[1, 2]", 2), ("int | Unknown", 3),
])
def test_values_that_fit(annotation: str, value: Any) -> None:
    assert type_error(annotation, value) is None


@pytest.mark.parametrize(("annotation", "value", "message"), [
    ("int", True, "expected int, got bool True"),
    ("int", "3", "expected int, got str '3'"),
    ("int", 2.5, "expected int, got float 2.5"),
    ("float", True, "expected float, got bool True"),
    ("bool", 1, "expected bool, got int 1"),
    ("str", None, "expected str, got NoneType None"),
    ("None", 0, "expected None, got int 0"),
    ("list", {"a": 1}, "expected list, got mapping {'a': 1}"),
    ("dict", [1], "expected dict, got list [1]"),
    ("int | None", "x", "expected int | None, got str 'x'"),
    ("list[int]", [1, "a"], "expected list[int], got list [1, 'a']"),
    ("list[int]", 3, "expected list[int], got int 3"),
    ("dict[str, int]", {"a": "b"}, "expected dict[str, int], got mapping {'a': 'b'}"),
    ("Mapping[str, int]", [1], "expected Mapping[str, int], got list [1]"),
    ("Literal['a', 'b']", "c", "expected Literal['a', 'b'], got str 'c'"),
    ("Literal[1]", True, "expected Literal[1], got bool True"),  # True == 1, but not the literal
])
def test_values_that_do_not_fit(annotation: str, value: Any, message: str) -> None:
    assert type_error(annotation, value) == message


@pytest.mark.parametrize(("annotation", "value"), [
    ("", 3), ("Unknown", 3), ("int[", 3), ("list[Unknown]", [1]), ("Unknown | Other", "x"),
    ("dict[str, Unknown]", {"a": 1}), ("Callable[[int], int]", 1),
    ("int | Unknown", "x"), ("Unknown | int", "x"),  # one side refuses, the other cannot tell
])
def test_what_is_beyond_the_checker_is_accepted(annotation: str, value: Any) -> None:
    assert type_error(annotation, value) is None


def sample_system(game: Any, rounds: int, label: str = "x", *extra: Any, limit: int | None = None) -> None:
    """Roll `rounds` times."""


def open_system(game: Any, **params: Any) -> None:
    pass


def test_parameters_are_read_from_the_function() -> None:
    params = params_of(sample_system)
    assert params == [Param("rounds", "int"), Param("label", "str", "x"), Param("limit", "int | None", None)]
    assert [p.required for p in params] == [True, False, False]
    assert params[0].default is MISSING
    assert not accepts_any(sample_system) and accepts_any(open_system)
    # a callable whose parameters cannot be read (a builtin without a text signature) is taken at
    # its word: whatever parameters the ruleset gives it are passed on, not refused
    with pytest.raises(ValueError):
        inspect.signature(min)
    assert accepts_any(min)
    assert params_of(open_system) == []
    assert params_of(len) == []  # a builtin with no Python signature's parameters after the first
    assert docstring(sample_system) == "Roll `rounds` times."


def test_a_functions_definition_is_found_in_its_source() -> None:
    node = source_def(sample_system)
    assert node is not None and node.name == "sample_system" and node.lineno > 1
    assert source_def(len) is None
    assert docstring(open_system) == ""
