"""How every command prints: one-line errors, strict JSON, and tables that read well both on a
terminal (rich, fitted to its width) and in a pipe (plain text, nothing cut)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.table import Table

from ecs_zombie.errors import GameError
from ecs_zombie.rows import strict_json

out = Console(highlight=False, soft_wrap=True)  # lines never wrapped: output is often piped
err = Console(stderr=True, highlight=False, soft_wrap=True)
T = TypeVar("T")

JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document instead of text.")]


def guarded(fn: Callable[[], T]) -> T:
    """Run a command body; input errors become one line each on stderr and exit status 2."""
    try:
        return fn()
    except GameError as exc:
        for line in str(exc).splitlines() or [type(exc).__name__]:
            err.print(f"error: {line}", markup=False)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        err.print("interrupted")
        raise typer.Exit(130) from None


def emit_json(obj: Any) -> None:
    """One JSON document on stdout that any strict parser reads."""
    sys.stdout.write(json.dumps(strict_json(obj), sort_keys=True, allow_nan=False) + "\n")


def emit_json_line(obj: Any) -> None:
    """One JSON object on one line (JSON lines): `emit_json`'s document, which never spans lines."""
    emit_json(obj)


def table(columns: Sequence[str], rows: Sequence[Sequence[Any]], title: str | None = None,
          console: Console | None = None, transpose: bool = False) -> None:
    """A table that reads in full wherever it is printed.

    In a pipe: plain aligned columns, every cell in full. On a terminal: a rich table when it fits
    the width with words wrapped but none broken; else, with `transpose` (a table whose rows are
    like columns, such as turns), the table turned on its side if that fits; else one block per
    row, a `column: value` line each (psql's expanded display)."""
    console = console or out
    cells = [[str(c) for c in row] for row in rows]
    if not console.is_terminal:
        _plain(console, list(columns), cells, title)
        return
    t = _fitted(console, list(columns), cells, title)
    if t is not None:
        console.print(t, soft_wrap=False)
        return
    if transpose and cells:
        turned = _fitted(console, [columns[0], *(r[0] for r in cells)],
                         [[c, *(r[i] for r in cells)] for i, c in enumerate(columns) if i], title)
        if turned is not None:
            console.print(turned, soft_wrap=False)
            return
    if title:
        console.print(title, markup=False)
    width = max(len(c) for c in columns)
    for n, row in enumerate(cells):
        console.print(("" if n == 0 else "\n") + f"-[ {columns[0]} {row[0]} ]-", markup=False)
        for c, v in zip(columns[1:], row[1:], strict=True):
            console.print(f"{c.ljust(width)}  {v}", markup=False)


def _fitted(console: Console, columns: list[str], cells: list[list[str]], title: str | None) -> Table | None:
    """A rich table as wide as the console allows, every column at least as wide as its longest
    word (so words wrap whole, never cut), the room left shared in proportion to what each column
    would use unwrapped; None when even the longest words do not fit side by side."""
    texts = [[c, *(row[i] for row in cells)] for i, c in enumerate(columns)]
    natural = [max(len(line) for t in col for line in t.splitlines() or [""]) for col in texts]
    shortest = [max([len(w) for t in col for w in t.split()] or [1]) for col in texts]
    room = console.width - (3 * len(columns) + 1)  # borders and one space of padding each side
    if sum(shortest) > room:
        return None
    widths = natural
    if sum(natural) > room:
        spare, wants = room - sum(shortest), [n - s for n, s in zip(natural, shortest, strict=True)]
        total = sum(wants)
        widths = [s + (spare * w // total if total else 0) for s, w in zip(shortest, wants, strict=True)]
    t = Table(title=title, title_justify="left")
    for c, w in zip(columns, widths, strict=True):
        t.add_column(c, overflow="fold", width=w)
    for row in cells:
        t.add_row(*row)
    return t


def _plain(console: Console, columns: list[str], cells: list[list[str]], title: str | None) -> None:
    if title:
        console.print(title, markup=False)
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    for row in [columns, *cells]:
        console.print("  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip(), markup=False)


def wrote(path: Path, what: str, console: Console | None = None) -> None:
    """Say which file a command wrote (a bare name given to --save, --record, --out or --plot goes
    into `saves/`: the user sees where)."""
    (console or out).print(f"wrote {what}: {path}", markup=False)
