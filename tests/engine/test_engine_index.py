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
