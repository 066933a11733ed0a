"""Group indexes stay true through every kind of structural change."""

from __future__ import annotations

from ecs_zombie.components import Faction, Kind, Zone
from ecs_zombie.world import World


def by_zone(z: Zone, f: Faction) -> tuple[tuple[str, str], ...]:
    return ((z.name, f.side),)


def test_index_follows_creates_replacements_removals_and_deletes() -> None:
    w = World()
    a = w.create(Zone(0, "front"), Faction("survivors"))
    groups = w.index("t", (Zone, Faction), by_zone)
    assert groups[("front", "survivors")] == (a,)
    b = w.create(Zone(0, "front"), Faction("survivors"), Kind("x"))
    c = w.create(Kind("no zone"))
    assert groups[("front", "survivors")] == (a, b)
    w.add(a, Zone(0, "support"))  # replacement re-files
    assert groups[("front", "survivors")] == (b,) and groups[("support", "survivors")] == (a,)
    w.add(b, Faction("zombies"))
    assert groups[("front", "zombies")] == (b,) and groups[("front", "survivors")] == ()
    w.remove(a, Faction)  # no longer has both types: filed nowhere
    assert groups[("support", "survivors")] == ()
    w.add(c, Zone(0, "front"))
    w.add(c, Faction("zombies"))
    assert groups[("front", "zombies")] == (b, c)
    w.delete(b)
    assert groups[("front", "zombies")] == (c,)
    d = w.create(Zone(0, "front"), Faction("zombies"))  # a change not yet read through groups[...]
    assert groups.get(("front", "zombies")) == (c, d) and ("front", "zombies") in groups
    assert groups.get(("nowhere", "zombies")) == () and ("nowhere", "zombies") not in groups
    w.close()


def test_groups_read_from_their_sorted_truth() -> None:
    """A group reads as the ids filed under its key in id order; an unknown or emptied key reads as
    () and is neither `in` the groups nor given by `get` (whose default is then returned)."""
    from ecs_zombie.index import GroupIndex

    index = GroupIndex((Zone,), lambda z: (z.name,) if z.name else ())
    groups = index.groups
    assert groups["nowhere"] == () and "nowhere" not in groups and groups.get("nowhere", "dflt") == "dflt"
    assert groups.get("nowhere") == ()
    for ent, name in [(5, "a"), (2, "a"), (9, "a"), (7, "b"), (3, "")]:
        index.place(ent, {Zone: Zone(0, name)})
    assert groups["a"] == (2, 5, 9) and groups["b"] == (7,) and "a" in groups and groups.get("b") == (7,)
    assert index.member == {5: ("a",), 2: ("a",), 9: ("a",), 7: ("b",)}  # 3 has no key: filed nowhere
    index.place(4, {Zone: Zone(0, "a")})  # not the newest id: still in order
    assert groups["a"] == (2, 4, 5, 9)
    index.place(5, {Zone: Zone(0, "b")})  # moved
    assert groups["a"] == (2, 4, 9) and groups["b"] == (5, 7)
    index.place(5, {Zone: Zone(0, "b")})  # unchanged: nothing to do
    assert groups["b"] == (5, 7)
    for ent in (2, 4, 9):
        index.place(ent, {})
    assert groups["a"] == () and "a" not in groups and groups.get("a", None) is None
    assert 9 not in index.member


def test_an_index_built_from_existing_entities_and_keyed_by_several_types() -> None:
    w = World()
    a = w.create(Zone(1, "front"), Faction("zombies"))
    b = w.create(Zone(1, "front"))
    c = w.create(Zone(2, "back"), Faction("survivors"), Kind("x"))
    groups = w.index("pair", (Zone, Faction), lambda z, f: ((z.board, f.side), f.side))
    assert groups[(1, "zombies")] == (a,) and groups["zombies"] == (a,) and groups["survivors"] == (c,)
    assert groups[(1, "survivors")] == () and b not in [e for v in groups.values() for e in v]
    assert w.index("pair", (Zone,), lambda z: ()) is groups  # one index per name, built once
    w.close()
