"""Group indexes: entities filed under keys computed from their components, kept up to date by the
World at every structural change, so that reading a group is one dictionary look-up.

A key function receives the components of `types` (in that order) and returns the keys an entity
is filed under. It may read only fields that never change in place: frozen components (`Zone`,
`Faction`) are replaced, not mutated, and the World re-files an entity whenever one of `types` is
added, replaced or removed.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Hashable
from typing import Any

KeyFn = Callable[..., tuple[Hashable, ...]]


class GroupIndex:
    __slots__ = ("groups", "keys", "member", "types")

    def __init__(self, types: tuple[type, ...], keys: KeyFn) -> None:
        self.types = types
        self.keys = keys
        self.groups: dict[Hashable, tuple[int, ...]] = {}
        self.member: dict[int, tuple[Hashable, ...]] = {}

    def build(self, table: dict[int, dict[type, Any]]) -> None:
        for ent in sorted(table):
            self.place(ent, table[ent])

    def place(self, ent: int, comps: dict[type, Any]) -> None:
        """File `ent` under the keys its current components give (or nowhere)."""
        new: tuple[Hashable, ...] = ()
        values = []
        for t in self.types:
            c = comps.get(t)
            if c is None:
                break
            values.append(c)
        else:
            new = self.keys(*values)
        old = self.member.get(ent, ())
        if new == old:
            return
        groups = self.groups
        for key in old:
            if key not in new:
                groups[key] = tuple([e for e in groups[key] if e != ent])
        for key in new:
            if key in old:
                continue
            members = groups.get(key, ())
            if not members or members[-1] < ent:  # the usual case: the newest entity
                groups[key] = (*members, ent)
            else:
                grown = list(members)
                insort(grown, ent)
                groups[key] = tuple(grown)
        if new:
            self.member[ent] = new
        else:
            self.member.pop(ent, None)
