"""Which files a load read, so that a cached ruleset or scenario is read again when any of them changes.

A ruleset is its own file and every table and prefab file it names; a scenario adds its own file,
its tables and its ruleset's files. A process that lives on (a notebook, the terminal UI, a batch
worker between two batches) caches each loaded ruleset and scenario; keyed by the top file alone,
an edited table would go on being played, and a save made under the edited rules would load as
"the same rules". So each load records the stamp (path, modification time, size) of every YAML file
it reads, a cached load adds its own stamps to any load around it, and a cache entry stands only
while every stamp it holds still matches its file.

The stamps decide nothing in a game: they only choose between a cached load and a fresh one of the
same files, and a fresh load of unchanged files gives the same rules.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

Stamp = tuple[str, int, int]  # a file's absolute path, modification time (ns) and size in bytes

_OPEN: ContextVar[tuple[set[Stamp], ...]] = ContextVar("ecs_zombie_reads", default=())
_HELD: ContextVar[set[frozenset[Stamp]] | None] = ContextVar("ecs_zombie_held_still", default=None)


def stamp(path: Path | str) -> Stamp | None:
    """The file's stamp now; None where it cannot be read (gone, or not a file)."""
    name = os.path.abspath(path)
    try:
        st = os.stat(name)
    except OSError:
        return None
    return (name, st.st_mtime_ns, st.st_size)


@contextmanager
def recording() -> Iterator[set[Stamp]]:
    """Collect the stamps of every file read (or cached load used) inside the block."""
    mine: set[Stamp] = set()
    token = _OPEN.set((*_OPEN.get(), mine))
    try:
        yield mine
    finally:
        _OPEN.reset(token)


def note(stamps: Iterable[Stamp]) -> None:
    """Add stamps to every recording open around the caller (a file read, or a cached load's files)."""
    open_now = _OPEN.get()
    if open_now:
        stamps = tuple(stamps)
        for mine in open_now:
            mine.update(stamps)


def note_file(path: Path) -> None:
    """Record `path` as read, if any recording is open (a plain load costs one look). Called before
    the file is read: a change made while it is read then shows as a change, never the reverse."""
    if _OPEN.get():
        found = stamp(path)
        if found is not None:
            note((found,))


def unchanged(stamps: frozenset[Stamp]) -> bool:
    """Whether every file still has the stamp recorded when it was read. Inside `held_still`, a set
    of stamps found unchanged once is not looked at again."""
    held = _HELD.get()
    if held is not None and stamps in held:
        return True
    same = all(stamp(name) == (name, mtime, size) for name, mtime, size in stamps)
    if same and held is not None:
        held.add(stamps)
    return same


@contextmanager
def held_still() -> Iterator[None]:
    """Within the block, files found unchanged once count as unchanged: an operation that loads the
    same rules many times (a heavy verification reloads every tick's state) looks at each file once,
    not at every load, and sees one set of rules from start to end."""
    token = _HELD.set(set())
    try:
        yield
    finally:
        _HELD.reset(token)
