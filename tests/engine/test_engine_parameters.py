"""Ruleset parameters (ecs_zombie/ruleset.py, Parameter): values from YAML or from `--param` text,
typed, range-checked with both bounds allowed, and refused in one line naming where."""

from __future__ import annotations

from typing import Any

import pytest

from ecs_zombie.errors import DataError
from ecs_zombie.ruleset import Parameter, Step
from ecs_zombie.schedule import lookup

COUNT = Parameter("n", "int", 5, 1, 10)
RATE = Parameter("f", "float", 0.5, 0.0, 1.0)
FLAG = Parameter("b", "bool", False)
MODE = Parameter("s", "str", "a", choices=("a", "b"))


@pytest.mark.parametrize(("param", "value", "expected"), [
    (COUNT, 3, 3), (COUNT, "7", 7), (COUNT, " 8 ", 8), (COUNT, 1, 1), (COUNT, 10, 10),
    (RATE, 1, 1.0), (RATE, "0.25", 0.25), (RATE, 0.0, 0.0),
    (FLAG, True, True), (FLAG, "yes", True), (FLAG, "TRUE", True), (FLAG, "1", True), (FLAG, "No", False),
    (FLAG, "false", False), (FLAG, "0", False), (MODE, "b", "b"),
    (Parameter("u", "int", 0), -99, -99),  # no bounds
])
def test_accepted_values(param: Parameter, value: Any, expected: Any) -> None:
    got = param.check(value, "here")
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize(("param", "value", "message"), [
    (COUNT, "x", "here: parameter 'n' takes int, got 'x'"),
    (COUNT, "2.5", "here: parameter 'n' takes int, got '2.5'"),
    (COUNT, True, "here: parameter 'n' takes int, got True"),
    (COUNT, 2.0, "here: parameter 'n' takes int, got 2.0"),
    (COUNT, 0, "here: parameter 'n' = 0 is below its minimum 1"),
    (COUNT, 11, "here: parameter 'n' = 11 is above its maximum 10"),
    (RATE, True, "here: parameter 'f' takes float, got True"),
    (RATE, 1.5, "here: parameter 'f' = 1.5 is above its maximum 1.0"),
    (RATE, "-0.1", "here: parameter 'f' = -0.1 is below its minimum 0.0"),
    (FLAG, "maybe", "here: parameter 'b' takes bool, got 'maybe'"),
    (FLAG, 1, "here: parameter 'b' takes bool, got 1"),
    (MODE, "c", "here: parameter 's' = 'c' is not one of ['a', 'b']"),
    (MODE, 3, "here: parameter 's' takes str, got 3"),
])
def test_refused_values(param: Parameter, value: Any, message: str) -> None:
    with pytest.raises(DataError) as info:
        param.check(value, "here")
    assert str(info.value) == message


def test_a_step_binds_ruleset_parameters_by_name() -> None:
    spec = lookup("core.narration")
    assert spec is not None
    plain = Step(spec, {"track": "t"})
    assert plain.bound({"x": 1}) is plain.params
    bound = Step(spec, {"track": "t", "rounds": 1}, (("rounds", "combat_rounds"), ("cap", "front_line_cap")))
    assert bound.bound({"combat_rounds": 3, "front_line_cap": 6, "other": 0}) == {"track": "t", "rounds": 3, "cap": 6}
    assert bound.params == {"track": "t", "rounds": 1}
