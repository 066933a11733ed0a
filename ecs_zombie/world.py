"""One game's entities and components, on esper, sealed from every other game in the process.

esper keeps its database in module globals switched by world name. `World` owns a private world
name and switches to it before every call, so two games interleaved in one process can never see
each other's entities. Queries come back sorted by entity id (esper's own order is set order) and
as fresh lists (esper returns its cached lists by reference).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from typing import Any, TypeVar, overload

import esper

C = TypeVar("C")
C2 = TypeVar("C2")
C3 = TypeVar("C3")
C4 = TypeVar("C4")
T = TypeVar("T")

_serial = itertools.count(1)


class World:
    """A private esper world. Call `close()` (or let the game do it) to free it."""

    __slots__ = ("_closed", "_name", "_queries", "next_id")

    def __init__(self) -> None:
        self._name = f"ecs-zombie/{next(_serial)}"
        self._closed = False
        self.next_id = 1
        # Sorted query results, kept until the next structural change (create, delete, add, remove).
        self._queries: dict[tuple[type, ...], tuple[Any, ...]] = {}
        esper.switch_world(self._name)

    def _use(self) -> None:
        if esper.current_world != self._name:
            if self._closed:
                raise RuntimeError("this game's world has been closed")
            esper.switch_world(self._name)

    def close(self) -> None:
        """Delete the esper world; the object is unusable afterwards."""
        if self._closed:
            return
        self._closed = True
        if esper.current_world == self._name:
            esper.switch_world("default")
        esper.delete_world(self._name)

    # -- entities ------------------------------------------------------------------------------

    def create(self, *components: Any) -> int:
        self._use()
        self._queries.clear()
        ent = esper.create_entity(*components)
        self.next_id = ent + 1
        return ent

    def create_with_id(self, ent: int, components: Iterable[Any]) -> None:
        """Recreate an entity under a given id (loading a save); ids must come in increasing order."""
        self._use()
        self._queries.clear()
        esper._entity_count = itertools.count(ent)  # the current world's counter
        made = esper.create_entity(*components)
        assert made == ent
        self.next_id = ent + 1

    def set_next_id(self, next_id: int) -> None:
        """Continue the id count exactly where a saved game stopped."""
        self._use()
        esper._entity_count = itertools.count(next_id)
        self.next_id = next_id

    def delete(self, ent: int) -> None:
        self._use()
        self._queries.clear()
        esper.delete_entity(ent, immediate=True)

    def exists(self, ent: int) -> bool:
        if esper.current_world != self._name:
            self._use()
        return ent in esper._entities

    def entities(self) -> list[int]:
        self._use()
        return sorted(esper._entities)

    # -- components ----------------------------------------------------------------------------

    def add(self, ent: int, comp: Any) -> None:
        self._use()
        self._queries.clear()
        esper.add_component(ent, comp)

    def remove(self, ent: int, ctype: type[C]) -> C | None:
        self._use()
        self._queries.clear()
        return esper.try_remove_component(ent, ctype)

    def get(self, ent: int, ctype: type[C]) -> C:
        if esper.current_world != self._name:
            self._use()
        return esper._entities[ent][ctype]  # type: ignore[no-any-return]

    def try_get(self, ent: int, ctype: type[C]) -> C | None:
        self._use()
        return esper.try_component(ent, ctype)

    def has(self, ent: int, ctype: type) -> bool:
        self._use()
        return esper.has_component(ent, ctype)

    def components_of(self, ent: int) -> tuple[Any, ...]:
        self._use()
        return esper.components_for_entity(ent)

    # -- queries, sorted by entity id, as tuples (shared between callers: immutable) -------------

    def query1(self, ctype: type[C]) -> tuple[tuple[int, C], ...]:
        key = (ctype,)
        hit = self._queries.get(key)
        if hit is None or esper.current_world != self._name:
            self._use()
            hit = self._queries[key] = tuple(sorted(esper.get_component(ctype), key=_first))
        return hit

    @overload
    def query(self, c1: type[C], c2: type[C2], /) -> tuple[tuple[int, tuple[C, C2]], ...]: ...
    @overload
    def query(self, c1: type[C], c2: type[C2], c3: type[C3], /) -> tuple[tuple[int, tuple[C, C2, C3]], ...]: ...
    @overload
    def query(
        self, c1: type[C], c2: type[C2], c3: type[C3], c4: type[C4], /
    ) -> tuple[tuple[int, tuple[C, C2, C3, C4]], ...]: ...
    def query(self, *ctypes: type) -> tuple[tuple[int, tuple[Any, ...]], ...]:
        hit = self._queries.get(ctypes)
        if hit is None or esper.current_world != self._name:
            self._use()
            hit = self._queries[ctypes] = tuple(sorted(esper.get_components(*ctypes), key=_first))
        return hit

    def memo(self, key: tuple[Any, ...], compute: Callable[[], T]) -> T:
        """A value derived from queries, computed once until the next structural change.

        Only for values that depend on which entities have which components, or on frozen
        components (such as `Zone`): in-place changes to mutable components do not clear it."""
        full = ("memo", *key)
        hit = self._queries.get(full)  # type: ignore[arg-type]
        if hit is None or esper.current_world != self._name:
            self._use()
            hit = self._queries[full] = compute()  # type: ignore[index,assignment]
        return hit  # type: ignore[return-value]

    def count(self, ctype: type) -> int:
        self._use()
        return len(esper._components.get(ctype, ()))


def _first(item: tuple[int, Any]) -> int:
    return item[0]
