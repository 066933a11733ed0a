"""Named hooks a ruleset refers to from YAML besides systems: table validators and metrics.

A table validator turns loaded YAML into the object systems use, raising `DataError` (via
`ecs_zombie.data.fail`) with the file, line and field of the first problem. A metrics function
returns the numbers a player of the game wants from a state (`outcome` excluded).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ecs_zombie.game import Game

TableValidator = Callable[[Any], Any]
Metrics = Callable[["Game"], dict[str, Any]]

TABLES: dict[str, TableValidator] = {}
METRICS: dict[str, Metrics] = {}


def table(name: str) -> Callable[[TableValidator], TableValidator]:
    def wrap(fn: TableValidator) -> TableValidator:
        TABLES[name] = fn
        return fn

    return wrap


def metrics(name: str) -> Callable[[Metrics], Metrics]:
    def wrap(fn: Metrics) -> Metrics:
        METRICS[name] = fn
        return fn

    return wrap
