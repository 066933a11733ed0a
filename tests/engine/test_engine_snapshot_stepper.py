"""Save files (ecs_zombie/snapshot.py): written atomically as ordinary files, every way a file can be
wrong refused in one line, a loaded game sharing nothing with the state it came from; and the
stepper (stepper.py) that answers decisions from outside."""

from __future__ import annotations

import gc
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest

from ecs_zombie import canonical, loading, new_game
from ecs_zombie.components import Kind, Markers, Wounds, Zone
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.errors import DecisionError, SaveError
from ecs_zombie.snapshot import (
    FORMAT_VERSION,
    MAGIC,
    check_version,
    load,
    read_file,
    restore,
    save,
    unwrap,
    wrap,
    write_atomic,
)
from ecs_zombie.state import game_state, state_bytes
from ecs_zombie.stepper import Stepper


@pytest.fixture
def umask_027() -> Iterator[None]:
    old = os.umask(0o027)
    yield
    os.umask(old)


def test_a_save_is_an_ordinary_file_under_the_umask(tmp_path: Path, umask_027: None) -> None:
    """mkstemp makes 0600; a save is made 0666 less the umask, as any file a program writes."""
    path = tmp_path / "deeper" / "s.msgpack"
    write_atomic(path, b"data")
    assert path.read_bytes() == b"data"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    write_atomic(path, b"other")  # replaced whole
    assert path.read_bytes() == b"other" and os.listdir(path.parent) == ["s.msgpack"]


def test_a_save_that_cannot_be_written_leaves_nothing(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    with pytest.raises(SaveError, match="cannot write"):
        write_atomic(tmp_path / "taken", b"x")  # a folder of that name: the rename fails
    assert sorted(os.listdir(tmp_path)) == ["taken"] and os.listdir(tmp_path / "taken") == []
    (tmp_path / "file").write_text("x")
    with pytest.raises(SaveError, match="cannot write"):
        write_atomic(tmp_path / "file" / "s.msgpack", b"x")


def test_reading_files(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="no such file"):
        read_file(tmp_path / "missing")
    with pytest.raises(SaveError, match="is a folder"):
        read_file(tmp_path)
    (tmp_path / "f").write_bytes(b"abc")
    assert read_file(tmp_path / "f") == b"abc"


def test_format_versions() -> None:
    check_version(FORMAT_VERSION, "x")
    with pytest.raises(SaveError, match=f"x format {FORMAT_VERSION + 1} is newer than this ecs-zombie reads"):
        check_version(FORMAT_VERSION + 1, "x")
    with pytest.raises(SaveError, match=f"x format {FORMAT_VERSION - 1} was written by an older ecs-zombie"):
        check_version(FORMAT_VERSION - 1, "x")
    with pytest.raises(SaveError, match="newer"):
        check_version("2", "x")


def outer(**changes: Any) -> bytes:
    body = canonical.pack({"a": 1})
    fields = {"blake2b": canonical.digest(body), "body": body, "kind": "snapshot", "magic": MAGIC,
              "version": FORMAT_VERSION, **changes}
    return msgpack.packb(fields)  # type: ignore[no-any-return]


@pytest.mark.parametrize(("data", "message"), [
    (b"\xc1", "f: not an ecs-zombie file (unreadable or truncated)"),
    (msgpack.packb([1, 2]), "f: not an ecs-zombie file"),
    (outer(magic="other"), "f: not an ecs-zombie file"),
    (outer(kind="replay"), "f: this is a 'replay' file, not a snapshot"),
    (outer(blake2b=b"0" * 16), "f: checksum mismatch, the file is corrupted"),
    (outer(body="text"), "f: checksum mismatch, the file is corrupted"),
    (outer(body=b"\xc1", blake2b=canonical.digest(b"\xc1")), "f: corrupted body"),
    (outer(body=canonical.pack([1]), blake2b=canonical.digest(canonical.pack([1]))), "f: corrupted body"),
    (outer(version=FORMAT_VERSION + 1), "f: file format"),
])
def test_every_broken_file_is_one_save_error(data: bytes, message: str) -> None:
    with pytest.raises(SaveError) as info:
        unwrap(data, "snapshot", "f")
    assert str(info.value).startswith(message) and "\n" not in str(info.value)


def test_a_wrapped_body_comes_back() -> None:
    assert unwrap(outer(), "snapshot", "f") == {"a": 1}
    assert unwrap(wrap("replay", canonical.pack({"b": [2]})), "replay", "r") == {"b": [2]}


def test_a_loaded_game_shares_no_list_with_its_state(tmp_path: Path) -> None:
    game = new_game("shambling", 3)
    game.play(stop_after=1)
    ent = game.world.create(Markers(["a"]))
    state = msgpack.unpackb(state_bytes(game), raw=False)
    loaded = restore(state)
    loaded.world.get(ent, Markers).add("b")
    assert [c for e, c in state["entities"] if e == ent] == [[["Markers", [["a"]]]]]
    again = restore(state)
    assert again.world.get(ent, Markers).tags == ["a"]
    data = save(game, tmp_path / "s.msgpack")
    assert load(tmp_path / "s.msgpack") is not None and (tmp_path / "s.msgpack").read_bytes() == data
    for g in (game, loaded, again):
        g.close()


def test_loading_holds_the_collector_off_and_gives_it_back_as_it_was(tmp_path: Path) -> None:
    """Loading pauses the cyclic collector while it builds (most of a big load was collections):
    afterwards it is on again if it was on, and still off if the caller had turned it off, even
    when the load fails."""
    game = new_game("shambling", 3)
    save(game, tmp_path / "s.msgpack")
    seen: list[bool] = []
    real = loading.read_entities

    def spy(*args: Any, **kw: Any) -> Any:
        seen.append(gc.isenabled())
        return real(*args, **kw)

    mp = pytest.MonkeyPatch()
    mp.setattr(loading, "read_entities", spy)
    try:
        assert gc.isenabled()
        load(tmp_path / "s.msgpack").close()
        assert seen == [False] and gc.isenabled()
        gc.disable()
        try:
            load(tmp_path / "s.msgpack").close()
        finally:
            still_off = not gc.isenabled()
            gc.enable()
        assert still_off
        (tmp_path / "bad.msgpack").write_bytes(wrap("snapshot", canonical.pack({"format": "other"})))
        with pytest.raises(SaveError):
            load(tmp_path / "bad.msgpack")
        assert gc.isenabled()
    finally:
        mp.undo()
        game.close()


def test_a_loaded_state_joins_the_oldest_generation_unless_objects_are_kept_frozen(tmp_path: Path) -> None:
    """What a load builds all lives on, so it is handed to the collector's oldest generation at once
    (frozen and unfrozen): the next young collection does not walk a big save's objects. A process
    that keeps objects frozen itself (a fork server sharing pages) keeps them frozen: then the load
    leaves the generations alone."""
    game = new_game("shambling", 3)
    save(game, tmp_path / "s.msgpack")
    try:
        gc.collect()
        loaded = load(tmp_path / "s.msgpack")
        assert gc.get_freeze_count() == 0
        assert gc.get_count()[0] < 50  # the young generation was emptied, not left with the state
        assert any(gc.is_tracked(c) for c in loaded.world.table()[loaded.world.entities()[0]].values())
        loaded.close()
        gc.freeze()
        try:
            frozen = gc.get_freeze_count()
            load(tmp_path / "s.msgpack").close()
            assert frozen - 100 <= gc.get_freeze_count() <= frozen  # (a frozen object may be freed)
        finally:
            gc.unfreeze()
    finally:
        game.close()


def test_a_loaded_world_files_each_component_under_the_entities_that_hold_it(tmp_path: Path) -> None:
    """A load files its entities by component in one go (`World.load`): every query of the loaded
    world finds what the saved world's does, entities of every layout (several kinds of piece, an
    entity of one component) in rising id order, and each component set holds exactly its holders."""
    game = new_game("shambling", 3)
    game.play(stop_after=2)
    lone = game.world.create(Markers(["x"]))
    zombie = game.ruleset.prefabs["zombie"]
    game.world.create(*zombie.make(Zone(1, "front"), Wounds(1, 2)))
    loaded = load(tmp_path / "s.msgpack") if save(game, tmp_path / "s.msgpack") else None
    assert loaded is not None
    try:
        for t in (Kind, Markers, Wounds, Zone):
            assert loaded.world.query1(t) == game.world.query1(t)
        held = {t: sorted(ents) for t, ents in loaded.world._comps.items()}
        expected = {t: sorted(ents) for t, ents in game.world._comps.items()}
        assert held == expected and held[Markers][-2] == lone and all(held.values())
        assert loaded.world.table()[lone] == {Markers: Markers(["x"])}
    finally:
        game.close()
        loaded.close()


def test_a_load_shares_frozen_components_of_equal_values_and_nothing_else(tmp_path: Path) -> None:
    """Equal frozen components of plain values are made once per load (the world's own copies share
    them too); every other component is an object of its own."""
    game = new_game("shambling", 3)
    zombie = game.ruleset.prefabs["zombie"]
    a = game.world.create(*zombie.make(Zone(1, "front"), Wounds(0, 2)))
    b = game.world.create(*zombie.make(Zone(1, "front"), Wounds(0, 2)))
    c = game.world.create(*zombie.make(Zone(2, "front"), Wounds(0, 2)))
    loaded = load(tmp_path / "s.msgpack") if save(game, tmp_path / "s.msgpack") else None
    assert loaded is not None
    w = loaded.world
    assert w.get(a, Zone) is w.get(b, Zone) and w.get(a, Zone) == Zone(1, "front")
    assert w.get(c, Zone) == Zone(2, "front") and w.get(c, Zone) is not w.get(a, Zone)
    assert w.get(a, Wounds) == w.get(b, Wounds) and w.get(a, Wounds) is not w.get(b, Wounds)
    assert w.get(a, Kind) is not w.get(b, Kind)
    for g in (game, loaded):
        g.close()


@pytest.mark.parametrize(("change", "message"), [
    (lambda s: s.update(format="other"), "not an ecs-zombie snapshot"),
    (lambda s: s.update(version=FORMAT_VERSION + 1), "newer"),
    (lambda s: s.update(ruleset_hash="0" * 64), "the save was made with different rules of ruleset 'shambling'"),
    (lambda s: s["entities"].append([999, [["Nonesuch", [1]]]]), "entity 999: component 'Nonesuch' is not in the "
                                                                  "save's schema"),
    (lambda s: s["schema"].update(Nonesuch=["x"]), "uses an unknown component 'Nonesuch'"),
    (lambda s: s.pop("seed"), "the save's content is inconsistent: Object missing required field seed"),
    (lambda s: s["entities"].append([998, [["Kind", [1, 2]]]]), "the save's content is inconsistent: entity 998 "
                                                                 "component Kind: Expected array of length 1, got 2"),
    # a record too short to hold its id is named by its place in the list (the 54th, #53)
    (lambda s: s["entities"].append([]), "inconsistent: entity #53: Expected array of length 2, got 0"),
    (lambda s: s["entities"].append(7), "inconsistent: entity #53: Expected array, got int"),
    (lambda s: s["entities"].append([5]), "inconsistent: entity 5: Expected array of length 2, got 1"),
])
def test_inconsistent_content_is_a_save_error(change: Any, message: str) -> None:
    game = new_game("shambling", 3)
    state = game_state(game)
    game.close()
    state = msgpack.unpackb(canonical.pack(state), raw=False)
    change(state)
    with pytest.raises(SaveError, match=message.replace("(", r"\(")):
        restore(state)


# -- the stepper ------------------------------------------------------------------------------


def test_the_stepper_stops_at_each_decision_and_between_ticks() -> None:
    stepper = Stepper(new_game("shambling", 4))
    assert stepper.pending is not None and not stepper.at_tick_boundary and not stepper.done
    assert stepper.legal() == stepper.pending.options and stepper.legal() is not stepper.pending.options
    first_tick = stepper.game.tick
    while not stepper.done:
        stepper.answer(0)
    assert stepper.game.over and stepper.pending is None and stepper.at_tick_boundary
    assert stepper.legal() == [] and stepper.game.tick > first_tick
    with pytest.raises(DecisionError, match="no decision is pending"):
        stepper.answer(0)
    stepper.game.close()


def test_the_stepper_leaves_other_sides_to_policies_and_matches_play() -> None:
    """Answering only the narrator's decisions (0 each time) and leaving the rest to the heuristic
    plays the game a policy table `first` for the narrator and `heuristic` otherwise plays."""
    stepper = Stepper(new_game("shambling", 6), auto=PolicyTable("heuristic"), sides={"narrator"})
    asked = 0
    while not stepper.done:
        assert stepper.pending is not None and stepper.pending.side == "narrator"
        stepper.answer(0)
        asked += 1
    same = new_game("shambling", 6)
    same.play(PolicyTable("heuristic,narrator=first"))
    assert asked > 0 and state_bytes(same) == state_bytes(stepper.game)
    every_side = Stepper(new_game("shambling", 6), sides={"narrator"})  # no auto: every side is asked
    sides = set()
    while not every_side.done:
        assert every_side.pending is not None
        sides.add(every_side.pending.side)
        every_side.answer(0)
    assert sides - {"narrator"}
    for g in (stepper.game, same, every_side.game):
        g.close()


def test_writing_a_save_leaves_the_umask_and_the_usual_mode(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "s.msgpack", b"x")
        assert os.umask(0o022) == 0o022  # restored after being read
        assert stat.S_IMODE((tmp_path / "s.msgpack").stat().st_mode) == 0o644
    finally:
        os.umask(old)


def test_a_body_with_a_non_text_map_key_is_corrupted() -> None:
    body = msgpack.packb({1: "x"})
    data = msgpack.packb({"blake2b": canonical.digest(body), "body": body, "kind": "snapshot", "magic": MAGIC,
                          "version": FORMAT_VERSION})
    with pytest.raises(SaveError, match="f: corrupted body"):
        unwrap(data, "snapshot", "f")
