"""World's cached queries and memoised values (ecs_zombie/world.py): "a structural change (create,
delete, add, remove) drops only the entries whose types the changed entity has", queries come back
sorted by id, and a memo lasts until an entity with its component types comes, goes or has one of
them added, removed or replaced. Stale results would be silent rule errors; over-eager clearing is
what the caches exist to avoid, so both directions are pinned (an untouched cache is the same object)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ecs_zombie.components import Engaged, Faction, Kind, Markers, Wounds, Zone
from ecs_zombie.engagement import disengage_all, engage
from ecs_zombie.world import World


@pytest.fixture
def world() -> Iterator[World]:
    w = World()
    yield w
    w.close()


def test_creating_refreshes_only_the_queries_of_its_types(world: World) -> None:
    a = world.create(Kind("a"), Wounds(0, 2))
    kinds, wounds, both = world.query1(Kind), world.query1(Wounds), world.query(Kind, Wounds)
    b = world.create(Kind("b"))
    assert world.query1(Kind) == ((a, Kind("a")), (b, Kind("b")))
    assert world.query1(Wounds) is wounds  # b has no Wounds: that query stays cached
    assert world.query(Kind, Wounds) is both  # b lacks Wounds, so it cannot be in (Kind, Wounds)
    assert kinds != world.query1(Kind)
    c = world.create(Kind("c"), Wounds(1, 2))
    assert [e for e, _ in world.query(Kind, Wounds)] == [a, c]


def test_adding_and_replacing_refresh_the_queries_of_the_changed_type(world: World) -> None:
    a = world.create(Kind("a"))
    b = world.create(Kind("b"), Faction("zombies"))
    kinds, factions, pairs = world.query1(Kind), world.query1(Faction), world.query(Kind, Faction)
    world.add(a, Faction("survivors"))  # a gains a Faction: Faction queries change, Kind alone does not
    assert world.query1(Kind) is kinds
    assert world.query1(Faction) == ((a, Faction("survivors")), (b, Faction("zombies")))
    assert [e for e, _ in world.query(Kind, Faction)] == [a, b] and pairs != world.query(Kind, Faction)
    factions = world.query1(Faction)
    world.add(b, Faction("survivors"))  # replaced
    assert world.query1(Faction)[1] == (b, Faction("survivors")) and world.query1(Faction) is not factions
    assert world.query1(Kind) is kinds


def test_removing_and_deleting_refresh_their_queries(world: World) -> None:
    a = world.create(Kind("a"), Wounds(0, 2))
    b = world.create(Kind("b"), Wounds(0, 2))
    zones = world.create(Zone(0, "front"))
    zone_query = world.query1(Zone)
    world.query1(Kind)
    world.query1(Wounds)
    assert world.remove(a, Wounds) == Wounds(0, 2)
    assert [e for e, _ in world.query1(Wounds)] == [b] and [e for e, _ in world.query1(Kind)] == [a, b]
    assert world.remove(a, Wounds) is None  # nothing left to remove
    world.delete(b)
    assert world.query1(Wounds) == () and [e for e, _ in world.query1(Kind)] == [a]
    assert world.query1(Zone) is zone_query and world.exists(zones)


def test_queries_are_sorted_by_id_whatever_the_order_of_changes(world: World) -> None:
    ids = [world.create(Kind(str(i))) for i in range(6)]
    for ent in reversed(ids):
        world.add(ent, Wounds(ent, 9))
    assert [e for e, _ in world.query1(Wounds)] == ids
    assert [e for e, _ in world.query(Wounds, Kind)] == ids
    assert [w.taken for _, (w, _k) in world.query(Wounds, Kind)] == ids


def test_memo_lasts_until_its_types_change(world: World) -> None:
    calls: list[int] = []

    def count_zombies() -> int:
        calls.append(1)
        return sum(1 for _, f in world.query1(Faction) if f.side == "zombies")

    def memo() -> int:
        return world.memo(("zombies",), (Faction,), count_zombies)

    z = world.create(Faction("zombies"), Kind("z"))
    assert memo() == 1 and memo() == 1 and len(calls) == 1
    world.create(Kind("no faction"))  # unrelated: kept
    world.add(z, Wounds(1, 2))  # another type on a dependent entity: kept
    assert memo() == 1 and len(calls) == 1
    world.get(z, Kind).name = "renamed"  # in place: never clears (documented)
    assert memo() == 1 and len(calls) == 1
    y = world.create(Faction("zombies"))  # a new dependent entity
    assert memo() == 2 and len(calls) == 2
    world.add(y, Faction("survivors"))  # replaced
    assert memo() == 1 and len(calls) == 3
    world.remove(z, Faction)
    assert memo() == 0 and len(calls) == 4
    world.add(z, Faction("zombies"))
    assert memo() == 1 and len(calls) == 5
    world.delete(z)
    assert memo() == 0 and len(calls) == 6


def test_memo_of_two_types_needs_both(world: World) -> None:
    calls: list[int] = []

    def compute() -> int:
        calls.append(1)
        return len(world.query(Zone, Faction))

    a = world.create(Zone(0, "front"))
    assert world.memo(("k",), (Zone, Faction), compute) == 0
    world.create(Faction("zombies"))  # has Faction only: cannot be in the result
    world.add(a, Kind("x"))
    assert world.memo(("k",), (Zone, Faction), compute) == 0 and len(calls) == 1
    world.add(a, Faction("zombies"))  # now a has both
    assert world.memo(("k",), (Zone, Faction), compute) == 1 and len(calls) == 2


def test_small_reads(world: World) -> None:
    assert world.entities() == [] and world.count(Kind) == 0 and world.component_types() == frozenset()
    a = world.create(Kind("a"), Markers(["x"]))
    b = world.create(Kind("b"))
    assert world.entities() == [a, b] and world.next_id == b + 1
    assert world.count(Kind) == 2 and world.count(Markers) == 1 and world.count(Wounds) == 0
    assert world.component_types() == frozenset({Kind, Markers})
    assert world.has(a, Markers) and not world.has(b, Markers)
    assert world.try_get(b, Markers) is None and world.try_get(99, Kind) is None
    assert world.try_get(a, Markers) == Markers(["x"]) and world.get(a, Kind) == Kind("a")
    assert world.raw()[a][Kind] == Kind("a")
    world.delete(a)
    assert world.count(Markers) == 0 and world.component_types() == frozenset({Kind})
    assert not world.exists(a) and world.exists(b)


def test_ids_made_and_continued(world: World) -> None:
    world.create_with_id(4, [Kind("four")])
    world.create_with_id(7, [Kind("seven")])
    assert world.entities() == [4, 7] and world.next_id == 8
    assert world.create(Kind("next")) == 8
    world.set_next_id(20)
    assert world.next_id == 20 and world.create(Kind("later")) == 20 and world.next_id == 21
    assert [k.name for _, k in world.query1(Kind)] == ["four", "seven", "next", "later"]


def test_closing_twice_is_harmless_and_worlds_stay_apart() -> None:
    a, b = World(), World()
    ea = a.create(Kind("a"))
    b.create(Kind("b"))
    a.close()
    a.close()
    assert b.query1(Kind)[0][1] == Kind("b") and b.entities() == [1]
    assert not a.exists(ea) and a.count(Kind) == 0
    b.close()


# -- engagement ------------------------------------------------------------------------------


def test_engagement_is_symmetric_sorted_and_broken_whole(world: World) -> None:
    """Contact is kept in both pieces' `Engaged`, in id order; disengaging breaks every contact of
    the piece, and a gone opponent is skipped."""
    a, b, c, d = (world.create(Engaged()) for _ in range(4))
    engage(world, c, b)
    engage(world, c, a)
    engage(world, a, c)  # again: no duplicate
    engage(world, d, c)
    assert world.get(c, Engaged).opponents == [a, b, d]
    assert world.get(a, Engaged).opponents == [c] and world.get(b, Engaged).opponents == [c]
    world.delete(d)
    disengage_all(world, c)
    assert [world.get(e, Engaged).opponents for e in (a, b, c)] == [[], [], []]
    engage(world, a, b)
    world.get(b, Engaged).opponents.remove(a)  # one-sided: disengaging must not fail
    disengage_all(world, a)
    assert world.get(a, Engaged).opponents == []


def test_markers_and_tally_keep_equal_states_equal() -> None:
    """Markers sorted and unique; Tally's counts in key order (equal states encode equally)."""
    from ecs_zombie.components import Tally

    m = Markers()
    for tag in ("pinned", "armed", "pinned"):
        m.add(tag)
    assert m.tags == ["armed", "pinned"] and m.has("armed") and not m.has("x")
    m.discard("armed")
    m.discard("absent")
    assert m.tags == ["pinned"]
    t = Tally()
    t.bump("zeta")
    t.bump("alpha", 3)
    t.bump("zeta", 2)
    assert t.counts == {"alpha": 3, "zeta": 3} and list(t.counts) == ["alpha", "zeta"]


def test_multi_type_queries_read_their_own_world() -> None:
    a, b = World(), World()
    ea = a.create(Kind("a"), Wounds(0, 2))
    b.create(Kind("b"), Wounds(1, 2))
    b.create(Kind("b2"), Wounds(1, 2))
    assert [e for e, _ in a.query(Kind, Wounds)] == [ea]  # b was used last: a must switch back
    b.query(Kind, Wounds)
    assert a.query(Wounds, Kind) == ((ea, (Wounds(0, 2), Kind("a"))),)
    a.close()
    b.close()


def test_loading_entities_drops_memos_and_indexes(world: World) -> None:
    world.create(Faction("zombies"))
    calls: list[int] = []

    def count() -> int:
        calls.append(1)
        return len(world.query1(Faction))

    assert world.memo(("n",), (Faction,), count) == 1
    groups = world.index("sides", (Faction,), lambda f: (f.side,))
    assert groups["zombies"] == (1,)
    world.create_with_id(5, [Faction("zombies")])
    assert world.memo(("n",), (Faction,), count) == 2 and len(calls) == 2
    assert world.index("sides", (Faction,), lambda f: (f.side,))["zombies"] == (1, 5)


def test_a_world_filled_by_a_load_forgets_what_it_remembered_empty() -> None:
    """`load` fills an empty world in one go: a value memoised, a query or an index read while it
    was empty is worked out again from what the load brought."""
    from ecs_zombie.saved_entities import SavedEntities

    world = World()
    assert world.memo(("n",), (Faction,), lambda: len(world.query1(Faction))) == 0
    assert world.query1(Faction) == ()
    assert world.index("sides", (Faction,), lambda f: (f.side,)).get("zombies", ()) == ()
    zombies = Faction("zombies")
    world.load(SavedEntities([(1, {Faction: zombies}), (4, {Faction: zombies})], {Faction: {1, 4}}), 5)
    assert world.memo(("n",), (Faction,), lambda: len(world.query1(Faction))) == 2
    assert world.query1(Faction) == ((1, zombies), (4, zombies))
    assert world.index("sides", (Faction,), lambda f: (f.side,))["zombies"] == (1, 4)
    assert world.create(Faction("survivors")) == 5
    world.close()
