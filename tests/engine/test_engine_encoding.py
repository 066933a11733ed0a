"""Canonical encoding: the fast packer writes msgpack's own bytes, and the fast state encoder
writes exactly the packed `game_state` (the bytes every save, replay and hash depend on)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ecs_zombie import canonical, new_game
from ecs_zombie.components import Card, Wounds, Zone, component
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.state import game_state, state_bytes

_INTS = st.one_of(
    st.integers(-(2**63), 2**64 - 1),
    st.sampled_from([0, 1, -1, 31, 32, 127, 128, 255, 256, -32, -33, -128, -129, 65535, 65536, -32768, -32769,
                     2**31, 2**32, -(2**31) - 1, 2**63 - 1, -(2**63), 2**64 - 1]),
)
_SCALARS = st.one_of(st.none(), st.booleans(), _INTS, st.floats(), st.text(max_size=300), st.binary(max_size=300))
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=20), st.tuples(inner, inner),
                            st.dictionaries(st.text(max_size=40), inner, max_size=20)),
    max_leaves=60,
)


def reference(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True, strict_types=False)  # type: ignore[no-any-return]


@settings(max_examples=600, deadline=None)
@given(_VALUES)
def test_fast_packer_writes_msgpacks_bytes(value: Any) -> None:
    assert canonical.pack(value) == reference(value)


@pytest.mark.parametrize("ruleset", ["shambling", "director"])
def test_a_replay_file_is_its_content_packed_whole(ruleset: str) -> None:
    """A replay file is msgpack's own packing of its content, wrapped: whatever packs it faster
    (`canonical.pack`, packed parts joined) must write these bytes."""
    from ecs_zombie.replay import Recorder
    from ecs_zombie.snapshot import MAGIC

    game = new_game(ruleset, 4)
    recorder = Recorder(game)
    game.play(PolicyTable("heuristic"), stop_after=3)
    content = {"decisions": recorder.decisions(game), "events": recorder.events(game),
               "format": "ecs-zombie/replay", "initial": recorder.initial, "outcome": game.outcome,
               "ticks": recorder.ticks}
    body = reference(content)
    assert recorder.to_bytes(game) == reference({"blake2b": canonical.digest(body), "body": body, "kind": "replay",
                                                 "magic": MAGIC, "version": 2})


@pytest.mark.parametrize("n", [0, 1, 15, 16, 255, 256, 65535, 65536, 70000])
def test_sizes_at_every_format_boundary(n: int) -> None:
    for value in ("x" * n, b"x" * n, [1] * n, {str(i): i for i in range(n)}):
        assert canonical.pack(value) == reference(value)
    packer = msgpack.Packer()
    assert canonical.array_header(n) == packer.pack_array_header(n)
    assert canonical.map_header(n) == packer.pack_map_header(n)
    pairs = {str(i): i for i in range(n)}
    assert canonical.map_header(n) + canonical.map_pairs(canonical.pack(pairs), n) == reference(pairs)


def test_what_the_fast_packer_declines_msgpack_packs() -> None:
    """Integer map keys and subclasses of plain types: the bytes msgpack writes, not an error."""

    class Name(str):
        pass

    for value in ({1: "a"}, [Name("x")], {"k": Name("v")}):
        assert canonical.pack(value) == reference(value)
    with pytest.raises(TypeError):
        canonical.pack({"not plain": object()})


@pytest.mark.parametrize("ruleset", ["shambling", "stalingrad", "sza", "director"])
def test_state_bytes_is_the_packed_game_state_at_every_tick(ruleset: str) -> None:
    for seed in range(2):
        game = new_game(ruleset, seed)
        policies = PolicyTable("random")
        while True:
            for policy_state in (True, False):
                assert state_bytes(game, policy_state) == canonical.pack(game_state(game, policy_state))
            if game.over:
                break
            game.play(policies, stop_after=game.tick + 1)
        game.close()


def test_a_replaced_frozen_component_is_encoded_anew() -> None:
    """Records of all-frozen entities (cards) are reused while their components are the same
    objects; replacing one must show in the next state."""
    game = new_game("shambling", 1)
    card = next(e for e, _c in game.world.query1(Card))
    before = state_bytes(game)
    game.world.add(card, Card("QS", 12, "S", "shambling"))
    after = state_bytes(game)
    assert after != before and after == canonical.pack(game_state(game))
    game.close()


@component(name="TestFrozenBag")
@dataclass(frozen=True, slots=True)
class FrozenBag:
    items: list[int] = field(default_factory=list)


def test_a_frozen_component_holding_a_list_is_never_reused() -> None:
    """Frozen is not immutable when a field is a list: its record is encoded every time."""
    game = new_game("shambling", 1)
    bag = FrozenBag([1])
    ent = game.world.create(bag, Zone(0, ""))
    first = state_bytes(game)
    bag.items.append(2)
    assert state_bytes(game) != first
    assert state_bytes(game) == canonical.pack(game_state(game))
    game.world.delete(ent)
    game.close()


def test_equal_but_differently_packed_values_are_never_reused() -> None:
    """True == 1 == 1.0, but msgpack writes them apart: a card changed to an equal value of another
    type must be encoded anew, within a game and across games."""
    first = new_game("shambling", 1)
    state_bytes(first)  # keeps the cards' records
    second = new_game("shambling", 2)
    card = next(e for e, c in second.world.query1(Card) if c.value == 1)
    for value in (True, 1.0, 1):
        second.world.add(card, Card(second.world.get(card, Card).face, value, "H", "shambling"))  # type: ignore[arg-type]
        assert state_bytes(second) == canonical.pack(game_state(second))
    first.close()
    second.close()


def test_sorted_packing_and_the_checksum() -> None:
    """pack_sorted sorts every map's keys (by their text), turns tuples into lists, and packs as
    msgpack does; files carry "a 16-byte digest of body" (BLAKE2b, ecs_zombie/snapshot.py)."""
    import hashlib

    value = {"b": {"z": 1, "a": (2, {"y": 0, "x": 1})}, "a": [3], 10: "ten", 9: "nine"}
    assert canonical.sort_keys(value) == {10: "ten", 9: "nine", "a": [3], "b": {"a": [2, {"x": 1, "y": 0}], "z": 1}}
    assert list(canonical.sort_keys(value)) == [10, 9, "a", "b"]  # "10" < "9" < "a" as text
    assert canonical.pack_sorted({"b": 1, "a": (1, 2)}) == reference({"a": [1, 2], "b": 1})
    assert canonical.digest(b"body") == hashlib.blake2b(b"body", digest_size=16).digest()
    assert len(canonical.digest(b"")) == 16
    assert canonical.map_pairs(reference({"a": 1, "b": 2}), 2) == reference("a") + reference(1) + reference("b") + \
        reference(2)


def test_the_cache_of_packed_records_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Records kept across games are dropped once the cache holds its maximum, and states are the
    same bytes with or without them."""
    from ecs_zombie import state as state_module

    monkeypatch.setattr(state_module, "_LASTING", {})
    monkeypatch.setattr(state_module, "_LASTING_MAX", 5)
    game = new_game("shambling", 3)
    game.state_records = None
    assert state_bytes(game) == canonical.pack(game_state(game))
    assert 0 < len(state_module._LASTING) <= 5
    other = new_game("shambling", 4)
    assert state_bytes(other) == canonical.pack(game_state(other))
    assert len(state_module._LASTING) <= 5
    game.close()
    other.close()


def test_a_mutable_component_changed_in_place_is_encoded_anew() -> None:
    """Only all-frozen records are reused: an entity of mutable components changed in place shows."""
    game = new_game("shambling", 1)
    ent = game.world.create(Wounds(0, 2))
    first = state_bytes(game)
    game.world.get(ent, Wounds).taken = 1
    assert state_bytes(game) != first and state_bytes(game) == canonical.pack(game_state(game))
    game.close()


def test_the_cache_never_holds_more_than_its_maximum(monkeypatch: pytest.MonkeyPatch) -> None:
    from ecs_zombie import state as state_module

    sizes: list[int] = []

    class Watched(dict):  # type: ignore[type-arg]
        def __setitem__(self, key: Any, value: Any) -> None:
            super().__setitem__(key, value)
            sizes.append(len(self))

    monkeypatch.setattr(state_module, "_LASTING", Watched())
    monkeypatch.setattr(state_module, "_LASTING_MAX", 5)
    game = new_game("shambling", 3)
    game.state_records = None
    state_bytes(game)
    assert len(sizes) > 6 and max(sizes) == 5
    game.close()


def test_a_save_records_its_provenance() -> None:
    game = new_game("shambling", 1)
    state = game_state(game)
    assert set(state["provenance"]) == {"code", "engine"} and state["ruleset_files"]
    assert "provenance" not in game_state(game, policy_state=False)
    game.close()


def test_a_value_the_fast_packer_refuses_packs_as_its_plain_form() -> None:
    """Canonical bytes do not depend on a value's class: a mapping or list subclass (what YAML loading
    gives) and a tuple pack as the plain mapping and list would, through the fallback packer."""
    from ecs_zombie.data import YMap

    loaded = YMap({"b": [1, 2], "a": (3, 4)})
    assert canonical.pack(loaded) == msgpack.packb({"b": [1, 2], "a": [3, 4]}, use_bin_type=True)
    # bytes stay msgpack's bin type there too, as the fast packer writes them (not raw text)
    assert canonical.pack(YMap({"a": b"\x01"})) == canonical.pack({"a": b"\x01"}) == b"\x81\xa1a\xc4\x01\x01"


def test_the_world_reports_every_change_the_encoder_keeps_records_across() -> None:
    """`World.changes` names each entity created, deleted, or given, relieved of or replaced a
    component (what the encoder's kept records depend on); a change in place is not one, and nobody
    watching (None) costs nothing."""
    game = new_game("shambling", 1)
    world = game.world
    assert game.world.changes is None
    state_bytes(game)  # the encoder starts watching
    changes = world.changes
    assert changes == set()
    made = world.create(Zone(0, "pile"))
    other = world.create(Wounds(0, 2))
    world.get(other, Wounds).taken = 1  # in place: not reported
    assert changes == {made, other}
    changes.clear()
    world.add(made, Zone(0, "hand"))
    assert changes == {made}
    changes.clear()
    world.remove(other, Wounds)
    world.delete(made)
    assert world.changes == {made, other}
    assert state_bytes(game) == canonical.pack(game_state(game))
    game.close()


def test_a_load_into_a_watched_world_reports_every_entity_it_brings() -> None:
    """Every entity a save brings is new to an encoder already watching the world."""
    from ecs_zombie.loading import read_state
    from ecs_zombie.saved_entities import read_entities
    from ecs_zombie.world import World

    game = new_game("shambling", 2)
    saved = read_state(state_bytes(game), "save")
    world = World()
    world.changes = set()
    world.load(read_entities(saved, "save", {}), saved.next_entity)
    assert world.changes == set(game.world.entities())
    world.close()
    game.close()


_OPS = st.lists(st.tuples(st.sampled_from(["frozen", "mutable", "delete", "replace", "remove", "poke", "fork",
                                           "encode"]),
                          st.integers(0, 10_000)), max_size=60)


@settings(max_examples=150, deadline=None)
@given(_OPS)
def test_kept_records_never_differ_from_the_packed_state(ops: list[tuple[str, int]]) -> None:
    """Whatever the world goes through (pieces made, deleted, replaced, stripped, changed in place,
    the game forked and played on from the copy), the encoder's bytes are those of the packed state:
    kept records are dropped exactly when their entity changes, across blocks of ids."""
    game = new_game("shambling", 1)
    state_bytes(game)
    world = game.world
    try:
        for op, n in ops:
            ents = world.entities()
            ent = ents[n % len(ents)] if ents else None
            if op == "frozen":
                for _ in range(1 + n % 40):  # enough to open new blocks of ids
                    world.create(Zone(n % 3, f"z{n % 5}"), Card("AS", 1 + n % 13, "S", "shambling"))
            elif op == "mutable":
                world.create(Wounds(n % 3, 3), Zone(0, "board"))
            elif op == "delete" and ent is not None:
                world.delete(ent)
            elif op == "replace" and ent is not None:
                world.add(ent, Zone(n % 2, "moved"))
            elif op == "remove" and ent is not None:
                world.remove(ent, Zone)
            elif op == "poke" and ent is not None and Wounds in world.raw()[ent]:
                world.get(ent, Wounds).taken += 1
            elif op == "fork":
                copy = game.fork()
                assert state_bytes(copy) == state_bytes(game)
                game.close()
                game, world = copy, copy.world
            if op == "encode" or n % 3 == 0:
                assert state_bytes(game) == canonical.pack(game_state(game))
        assert state_bytes(game) == canonical.pack(game_state(game))
    finally:
        game.close()


def test_a_block_of_ids_emptied_while_another_opens_keeps_the_order() -> None:
    """Kept records are grouped by blocks of 32 ids: when a block empties, alone or while a new one
    opens between two states, the records still come in id order."""
    game = new_game("director", 1)
    state_bytes(game)
    world = game.world
    for ent in [e for e in world.entities() if 32 <= e < 64]:
        world.delete(ent)
    assert state_bytes(game) == canonical.pack(game_state(game))  # a block emptied
    for ent in [e for e in world.entities() if e < 32]:
        world.delete(ent)
    for _ in range(40):
        world.create(Zone(0, "new"))
    assert state_bytes(game) == canonical.pack(game_state(game))
    game.close()
