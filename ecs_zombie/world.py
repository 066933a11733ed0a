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

from ecs_zombie.index import GroupIndex, Groups, KeyFn

C = TypeVar("C")
C2 = TypeVar("C2")
C3 = TypeVar("C3")
C4 = TypeVar("C4")
T = TypeVar("T")

_serial = itertools.count(1)


class World:
    """A private esper world. Call `close()` (or let the game do it) to free it."""

    __slots__ = ("_closed", "_comps", "_ents", "_indexes", "_memos", "_name", "_queries", "next_id")

    def __init__(self) -> None:
        self._name = f"ecs-zombie/{next(_serial)}"
        self._closed = False
        self.next_id = 1
        # Sorted query results by component types, and memoised values by (key, the component types
        # they depend on). A structural change (create, delete, add, remove) drops only the entries
        # whose types the changed entity has: a zombie dying leaves the deck's query cached.
        self._queries: dict[tuple[type, ...], tuple[Any, ...]] = {}
        self._memos: dict[tuple[Any, ...], tuple[frozenset[type], Any]] = {}
        self._indexes: dict[str, GroupIndex] = {}
        esper.switch_world(self._name)
        # This world's own entity table. esper swaps its module globals between worlds but keeps each
        # world's dict object for the world's lifetime, so reading through it needs no switch.
        self._ents: dict[int, dict[type, Any]] = esper._entities
        self._comps: dict[type, set[int]] = esper._components  # type -> its entities (no empty sets)

    def _refile(self, ent: int, changed: type | None = None) -> None:
        """Keep group indexes true after `ent` came, changed (`changed` type) or is about to go."""
        comps = self._ents.get(ent, {})
        for index in self._indexes.values():
            if changed is None or changed in index.types:
                index.place(ent, comps)

    def _changed(self, types: Iterable[type], changed: type | None = None) -> None:
        """Drop cached results an entity with component `types` could be part of (all of them when
        `changed` is None: the entity came or went; else only those involving the `changed` type)."""
        have = set(types)
        if changed is not None:
            have.add(changed)
        for key in [k for k in self._queries if (changed is None or changed in k) and have.issuperset(k)]:
            del self._queries[key]
        for key in [k for k, (dep, _v) in self._memos.items()
                    if (changed is None or changed in dep) and have.issuperset(dep)]:
            del self._memos[key]

    def _use(self) -> None:
        if esper.current_world != self._name:
            if self._closed:
                raise RuntimeError("this game's world has been closed")
            esper.switch_world(self._name)

    def close(self) -> None:
        """Delete the esper world. Afterwards every change raises RuntimeError and reads find an
        empty world (reads stay unchecked: they are the hot path)."""
        if self._closed:
            return
        self._closed = True
        self._ents = {}
        self._comps = {}
        if esper.current_world == self._name:
            esper.switch_world("default")
        esper.delete_world(self._name)

    # -- entities ------------------------------------------------------------------------------

    def create(self, *components: Any) -> int:
        self._use()
        if self._queries or self._memos:
            self._changed([type(c) for c in components])
        ent = esper.create_entity(*components)
        self.next_id = ent + 1
        if self._indexes:
            self._refile(ent)
        return ent

    def create_with_id(self, ent: int, components: Iterable[Any]) -> None:
        """Recreate an entity under a given id (loading a save); ids must come in increasing order."""
        self._use()
        self._queries.clear()
        self._memos.clear()
        self._indexes.clear()
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
        self._changed(self._ents[ent])
        if self._indexes:
            for index in self._indexes.values():
                index.place(ent, {})
        esper.delete_entity(ent, immediate=True)

    def exists(self, ent: int) -> bool:
        return ent in self._ents

    def entities(self) -> list[int]:
        self._use()
        return sorted(self._ents)

    def raw(self) -> dict[int, dict[type, Any]]:
        """esper's own table, entity -> component type -> component: for encoders, and for rules that
        read several components of many figures in a loop (one look-up per figure instead of one call
        per component). Read it and change components in place; add or remove them, or entities, only
        through the World, which keeps its caches and indexes true."""
        self._use()
        return self._ents

    # -- components ----------------------------------------------------------------------------

    def add(self, ent: int, comp: Any) -> None:
        """Add a component, or replace the entity's component of that type."""
        self._use()
        self._changed(self._ents[ent], type(comp))
        esper.add_component(ent, comp)
        if self._indexes:
            self._refile(ent, type(comp))

    def remove(self, ent: int, ctype: type[C]) -> C | None:
        self._use()
        if ent in self._ents:
            self._changed(self._ents[ent], ctype)
        removed = esper.try_remove_component(ent, ctype)
        if self._indexes and ent in self._ents:
            self._refile(ent, ctype)
        return removed

    def get(self, ent: int, ctype: type[C]) -> C:
        return self._ents[ent][ctype]  # type: ignore[no-any-return]

    def try_get(self, ent: int, ctype: type[C]) -> C | None:
        comps = self._ents.get(ent)
        return None if comps is None else comps.get(ctype)

    def has(self, ent: int, ctype: type) -> bool:
        return ctype in self._ents[ent]

    # -- queries, sorted by entity id, as tuples (shared between callers: immutable) -------------

    def query1(self, ctype: type[C]) -> tuple[tuple[int, C], ...]:
        key = (ctype,)
        hit = self._queries.get(key)
        if hit is None:
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
        if hit is None:
            self._use()
            hit = self._queries[ctypes] = tuple(sorted(esper.get_components(*ctypes), key=_first))
        return hit

    def memo(self, key: tuple[Any, ...], depends: tuple[type, ...], compute: Callable[[], T]) -> T:
        """A value computed from the entities having all of `depends`, kept until one of them
        comes, goes, or has one of those components added, removed or replaced.

        Only for values that depend on which entities have those components, or on their frozen
        fields (such as `Zone`'s): changing a mutable component in place does not clear it."""
        hit = self._memos.get(key)
        if hit is None:
            self._use()
            value = compute()
            self._memos[key] = (frozenset(depends), value)
            return value
        return hit[1]  # type: ignore[no-any-return]

    def index(self, name: str, types: tuple[type, ...], keys: KeyFn) -> Groups:
        """The groups of the index `name` (built on first use, then kept up to date by every
        structural change): `groups[key]` -> entity ids in id order. See `ecs_zombie.index`."""
        found = self._indexes.get(name)
        if found is None:
            self._use()
            found = self._indexes[name] = GroupIndex(types, keys)
            found.build(self._ents)
        return found.groups

    def count(self, ctype: type) -> int:
        return len(self._comps.get(ctype, ()))

    def component_types(self) -> frozenset[type]:
        """The component types at least one entity has."""
        return frozenset(self._comps)


def _first(item: tuple[int, Any]) -> int:
    return item[0]
