"""Worlds, snapshots and entity ids: the engine's guarantees independent of any game."""

from __future__ import annotations

import msgpack
import pytest

from ecs_zombie import new_game
from ecs_zombie.components import Kind, Markers, Wounds
from ecs_zombie.errors import SaveError
from ecs_zombie.snapshot import restore, state_bytes, unwrap, wrap
from ecs_zombie.world import World


def test_two_worlds_never_see_each_other() -> None:
    """esper keeps module-level worlds: interleaved calls on two World objects stay separate."""
    a, b = World(), World()
    ea = a.create(Kind("a"))
    eb = b.create(Kind("b"), Wounds(1, 2))
    assert ea == eb == 1  # each world counts its own ids
    assert [k.name for _, k in a.query1(Kind)] == ["a"]
    assert [k.name for _, k in b.query1(Kind)] == ["b"]
    assert a.query1(Wounds) == ()
    a.create(Kind("a2"))
    assert len(b.query1(Kind)) == 1
    a.close()
    b.close()


def test_setting_the_next_id_counts_in_that_world_only() -> None:
    """A loaded game continues its own id count (`set_next_id`), even while another world was the
    one in use: the other world's count goes on where it was."""
    a, b = World(), World()
    b.create(Kind("b"))
    a.create(Kind("a"))  # a is the world in use
    b.set_next_id(100)
    assert b.create(Kind("b2")) == 100 and b.next_id == 101
    assert a.create(Kind("a2")) == 2
    b.create_with_id(200, [Kind("loaded")])  # a save's entity, while a was in use
    assert a.create(Kind("a3")) == 3 and b.get(200, Kind).name == "loaded"
    a.close()
    b.close()


def test_a_closed_world_refuses_changes_and_reads_empty() -> None:
    world = World()
    ent = world.create(Kind("a"))
    world.close()
    for change in (lambda: world.create(Kind("b")), lambda: world.add(ent, Wounds(0, 2)), lambda: world.delete(ent),
                   lambda: world.remove(ent, Kind), lambda: world.query1(Markers), lambda: world.entities()):
        with pytest.raises(RuntimeError, match="closed"):
            change()
    assert not world.exists(ent) and world.try_get(ent, Kind) is None and world.count(Kind) == 0
    with pytest.raises(KeyError):
        world.get(ent, Kind)


def test_queries_are_sorted_immutable_and_refreshed() -> None:
    w = World()
    ids = [w.create(Kind(str(i))) for i in range(50)]
    result = w.query1(Kind)
    assert [e for e, _ in result] == sorted(ids)
    assert isinstance(result, tuple)
    w.delete(ids[3])
    assert ids[3] not in [e for e, _ in w.query1(Kind)]
    w.close()


def test_ids_are_never_reused_and_continue_after_a_load() -> None:
    """A loaded game continues esper's id count exactly: the next entity gets the next id."""
    game = new_game("shambling", 3)
    game.play(stop_after=2)
    doomed = game.world.create(Kind("temp"))
    game.world.delete(doomed)
    body = state_bytes(game)
    loaded = restore(msgpack.unpackb(body, raw=False))
    assert game.world.create(Kind("x")) == loaded.world.create(Kind("x")) == doomed + 1
    game.close()
    loaded.close()


def test_snapshot_encoding_is_canonical() -> None:
    """The same state gives the same bytes, including after a save and a load."""
    a, b = new_game("shambling", 11), new_game("shambling", 11)
    a.play(stop_after=4)
    b.play(stop_after=4)
    assert state_bytes(a) == state_bytes(b)
    again = restore(msgpack.unpackb(state_bytes(a), raw=False))
    assert state_bytes(again) == state_bytes(a)
    for g in (a, b, again):
        g.close()


def test_snapshot_carries_what_the_format_promises() -> None:
    game = new_game("shambling", 5)
    game.play(stop_after=1)
    state = msgpack.unpackb(state_bytes(game), raw=False)
    for key in ("version", "ruleset", "ruleset_hash", "seed", "tick", "entities", "rng", "next_entity",
                "log_pos", "schema", "params", "dice_script", "card_script"):
        assert key in state
    assert state["log_pos"] == len(game.events)
    game.close()


@pytest.mark.parametrize("mutate", ["truncate", "flip", "foreign", "newer", "kind"])
def test_bad_files_are_refused_with_one_line(mutate: str) -> None:
    game = new_game("shambling", 5)
    data = wrap("snapshot", state_bytes(game))
    game.close()
    if mutate == "truncate":
        data = data[: len(data) // 2]
    elif mutate == "flip":
        data = data[:-40] + bytes([data[-40] ^ 0xFF]) + data[-39:]
    elif mutate == "foreign":
        data = b'{"not": "ours"}'
    elif mutate == "newer":
        outer = msgpack.unpackb(data, raw=False)
        outer["version"] = 99
        data = msgpack.packb(outer)
    elif mutate == "kind":
        data = wrap("replay", b"\x80")
    with pytest.raises(SaveError) as info:
        restore(unwrap(data, "snapshot", "f"))
    assert "\n" not in str(info.value)


def test_a_copy_shares_a_frozen_component_and_never_a_mutable_one() -> None:
    """A fork or a reloaded world may hold the very object of a frozen component (it never changes,
    and one object per value keeps memory flat), but a fresh copy of every mutable one: a change in
    one world must not reach the other."""
    from ecs_zombie.components import Faction
    from ecs_zombie.world import clone_component

    side = Faction("zombies")
    assert clone_component(side) is side
    markers = Markers(["stunned"])
    copy = clone_component(markers)
    assert copy == markers and copy is not markers and copy.tags is not markers.tags
