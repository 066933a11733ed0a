"""Group indexes: entities filed under keys computed from their components, kept up to date by the
World at every structural change, so that reading a group is one dictionary look-up.

A key function receives the components of `types` (in that order) and returns the keys an entity
is filed under. It may read only fields that never change in place: frozen components (`Zone`,
`Faction`) are replaced, not mutated, and the World re-files an entity whenever one of `types` is
added, replaced or removed.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable, Hashable
from typing import Any

KeyFn = Callable[..., tuple[Hashable, ...]]


class Groups(dict[Hashable, tuple[int, ...]]):
    """key -> the ids filed under it, in id order. Read with `groups[key]`: a group is materialised as
    a tuple on first read after a change (an unknown key reads as `()`), so a burst of changes to a
    group costs one tuple, not one per change."""

    __slots__ = ("members",)

    def __init__(self) -> None:
        super().__init__()
        self.members: dict[Hashable, list[int]] = {}  # the sorted truth behind every tuple

    def __missing__(self, key: Hashable) -> tuple[int, ...]:
        members = self.members.get(key)
        if not members:
            return ()
        view = self[key] = tuple(members)
        return view

    # dict's own get() and `in` see only the groups read since their last change: answer from the truth.
    def get(self, key: Hashable, default: Any = ()) -> Any:  # type: ignore[override]
        return self[key] if self.members.get(key) else default

    def __contains__(self, key: object) -> bool:
        return bool(self.members.get(key))


class GroupIndex:
    __slots__ = ("groups", "keys", "member", "types")

    def __init__(self, types: tuple[type, ...], keys: KeyFn) -> None:
        self.types = types
        self.keys = keys
        self.groups = Groups()
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
        lists = groups.members
        for key in old:
            if key not in new:
                leaving = lists[key]
                del leaving[bisect_left(leaving, ent)]
                groups.pop(key, None)
        for key in new:
            if key in old:
                continue
            members = lists.get(key)
            if members is None:
                lists[key] = [ent]
            elif not members or members[-1] < ent:  # the usual case: the newest entity
                members.append(ent)
            else:
                insort(members, ent)
            groups.pop(key, None)
        if new:
            self.member[ent] = new
        else:
            self.member.pop(ent, None)
