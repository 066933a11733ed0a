"""Named hooks a ruleset refers to from YAML besides systems: table validators, metrics and board
drawings.

A table validator turns loaded YAML into the object systems use, raising `DataError` (via
`ecs_zombie.data.fail`) with the file, line and field of the first problem. A metrics function
returns the numbers a player of the game wants from a state (`outcome` excluded). A board drawing
returns a game's board as lines of text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ecs_zombie.game import Game

TableValidator = Callable[[Any], Any]
Metrics = Callable[["Game"], dict[str, Any]]
Drawing = Callable[["Game"], list[str]]

TABLES: dict[str, TableValidator] = {}
METRICS: dict[str, Metrics] = {}
BOARDS: dict[str, Drawing] = {}
Determinizer = Callable[["Game", Any], None]
HIDDEN: dict[str, Determinizer] = {}


def table(name: str) -> Callable[[TableValidator], TableValidator]:
    """Register the validator of table `name` (`tables: {name: file.yaml}` in a ruleset): it turns the
    loaded YAML into the object systems read (`game.tables[name]`), raising `ecs_zombie.data.fail(...)`
    with the file, line and field of the first problem."""

    def wrap(fn: TableValidator) -> TableValidator:
        TABLES[name] = fn
        return fn

    return wrap


def board(name: str) -> Callable[[Drawing], Drawing]:
    """Register a text drawing of a game's board (lines of plain text, no markup): what `replay
    --show`, `view`, `play` and the web page show. A ruleset names it with `board:`."""

    def wrap(fn: Drawing) -> Drawing:
        BOARDS[name] = fn
        return fn

    return wrap


def hidden(name: str) -> Callable[[Determinizer], Determinizer]:
    """Register a determinizer: what a player could not see at the table (beyond dice and deck
    order, which the engine handles), re-sampled in a fork with the generator given. Search
    policies call it; a ruleset names it with `hidden:`."""

    def wrap(fn: Determinizer) -> Determinizer:
        HIDDEN[name] = fn
        return fn

    return wrap


def metrics(name: str) -> Callable[[Metrics], Metrics]:
    """Register a ruleset's metrics (`metrics: name` in its YAML): a function of a game returning the
    numbers its players care about (`outcome` excluded), which `run`, `batch` and `sweep` report."""

    def wrap(fn: Metrics) -> Metrics:
        METRICS[name] = fn
        return fn

    return wrap
