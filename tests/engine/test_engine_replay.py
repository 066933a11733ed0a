"""Replay verification names where a re-run departs (ecs_zombie/replay.py): the tick, the first
system whose events differ, the first differing event, the entities and components that differ;
and a replay file whose content is inconsistent is refused in one line."""

from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path
from typing import Any

import msgpack
import pytest

from ecs_zombie import canonical, new_game
from ecs_zombie.components import Kind, Wounds
from ecs_zombie.errors import SaveError
from ecs_zombie.replay import Recorder, ReplayFile, diff_states, load_replay, verify, verify_fresh
from ecs_zombie.snapshot import wrap, write_atomic
from ecs_zombie.state import state_bytes


def recorded(seed: int = 5, ruleset: str = "shambling") -> tuple[Any, ReplayFile, Recorder]:
    game = new_game(ruleset, seed)
    recorder = Recorder(game)
    game.play()
    return game, recorder.replay(game), recorder


def test_diff_states_names_keys_entities_and_components() -> None:
    game = new_game("shambling", 2)
    wounded = next(e for e, _ in game.world.query1(Wounds))
    before = state_bytes(game)
    state = msgpack.unpackb(before, raw=False)
    state["tick"] = 7
    gone = state["entities"][0][0]
    state["entities"] = [[e, c] for e, c in state["entities"] if e != gone]
    state["entities"].append([999, [["Kind", ["ghost"]]]])
    for ent, comps in state["entities"]:
        if ent == wounded:
            for pair in comps:
                if pair[0] == "Wounds":
                    pair[1] = [1, pair[1][1]]
    after = canonical.pack(state)
    limit = game.world.get(wounded, Wounds).limit
    lines = diff_states(before, after)
    assert lines == ["tick: 0 → 7",
                     f"entity {gone}: only in the recorded",
                     f"entity {wounded} Wounds.taken: 0 → 1",
                     "entity 999: only in the replayed"]
    assert limit == 2
    assert diff_states(before, after, limit=2) == lines[:2]
    assert diff_states(before, before) == []
    game.close()


def test_a_faithful_replay_verifies_and_calls_back_every_tick() -> None:
    game, replay, _ = recorded()
    seen: list[int] = []
    assert verify(replay, on_tick=lambda g: seen.append(g.tick)) is None
    assert seen == list(range(1, game.tick + 1))
    assert verify(replay, until=2, on_tick=lambda g: seen.append(-g.tick)) is None
    assert seen[-2:] == [-1, -2]
    game.close()


def test_an_extra_recorded_decision_is_reported_unused() -> None:
    game, replay, _ = recorded()
    replay.decisions.append(0)
    found = verify(replay)
    assert found is not None and found.reason == "1 recorded decisions unused" and found.tick == game.tick
    assert verify(replay, until=game.tick) is None  # a partial verification does not count them
    game.close()


def test_a_changed_event_is_named_with_its_system_and_tick() -> None:
    game, replay, _ = recorded()
    index = next(i for i, e in enumerate(replay.events) if e[1] == "roll" and e[0] == 2)
    tampered = copy.deepcopy(replay)
    tampered.events[index][2]["why"] = "tampered"
    found = verify(tampered)
    assert found is not None and (found.tick, found.reason) == (2, "events differ")
    assert found.system == replay.events[index][3]
    assert found.differences[0].startswith("event ") and "'why': 'tampered'" in found.differences[0]
    game.close()


def test_a_missing_event_is_counted() -> None:
    """Where the recording has one event fewer, the first difference is where it was, blamed on
    the system that logged it."""
    game, replay, _ = recorded()
    index = next(i for i, e in enumerate(replay.events) if e[0] == 2 and e[1] == "roll")
    system = replay.events[index][3]
    tampered = copy.deepcopy(replay)
    del tampered.events[index]
    found = verify(tampered)
    assert found is not None and (found.tick, found.system, found.reason) == (2, system, "events differ")
    assert found.first_event is not None and found.first_event["replayed"][1] == "roll"
    game.close()


def test_a_changed_state_is_named_by_its_hash_and_entity() -> None:
    game, replay, _ = recorded()
    tampered = copy.deepcopy(replay)
    state = msgpack.unpackb(tampered.ticks[0][3], raw=False)
    ent = state["entities"][-1][0]
    state["entities"][-1][1].append(["Kind", ["intruder"]])
    state["entities"][-1][1].sort()
    tampered.ticks[0][3] = canonical.pack(state)
    tampered.ticks[0][1] = canonical.digest(tampered.ticks[0][3])
    found = verify(tampered)
    assert found is not None and (found.tick, found.system, found.reason) == (1, None, "state hash differs")
    assert f"entity {ent} Kind: only in the recorded ({{'name': 'intruder'}})" in found.differences
    game.close()


def test_a_re_run_that_fails_is_a_divergence() -> None:
    game, replay, _ = recorded()
    assert replay.decisions
    tampered = copy.deepcopy(replay)
    tampered.decisions[0] = 99  # no option index
    found = verify(tampered)
    assert found is not None and found.reason == "the re-run failed"
    assert found.crash is not None and found.crash.startswith("DecisionError: answer 99 to ")
    game.close()


def test_replay_files_round_trip_and_inconsistent_ones_are_refused(tmp_path: Path) -> None:
    game, replay, recorder = recorded()
    path = tmp_path / "g.replay"
    write_atomic(path, recorder.to_bytes(game))
    loaded = load_replay(path)
    assert (loaded.decisions, loaded.outcome, len(loaded.ticks)) == (replay.decisions, game.outcome, game.tick)
    assert loaded.events == [list(e) for e in replay.events]
    content = msgpack.unpackb(msgpack.unpackb(path.read_bytes(), raw=False)["body"], raw=False)
    for change in (lambda c: c.pop("decisions"), lambda c: c["ticks"].append([1, 2]),
                   lambda c: c.update(events="x"), lambda c: c.update(decisions=["a"]),
                   lambda c: c.update(initial=b"\xc1")):
        broken = copy.deepcopy(content)
        change(broken)
        path.write_bytes(wrap("replay", canonical.pack(broken)))
        with pytest.raises(SaveError, match="the replay's content is inconsistent"):
            load_replay(path)
    without_events = copy.deepcopy(content)
    without_events.pop("events")
    path.write_bytes(wrap("replay", canonical.pack(without_events)))
    assert load_replay(path).events == []
    game.close()


def test_kind_entities_in_a_state_are_what_inspect_shows() -> None:
    game = new_game("shambling", 1)
    ent = game.world.create(Kind("marker"))
    state = msgpack.unpackb(state_bytes(game), raw=False)
    assert [c for e, c in state["entities"] if e == ent] == [[["Kind", ["marker"]]]]
    game.close()


@pytest.mark.parametrize(("heavy", "until", "extra"), [(False, None, []), (True, None, ["--heavy"]),
                                                      (True, 4, ["--heavy", "--until", "4"])])
def test_a_fresh_verification_asks_for_what_it_was_given(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                         heavy: bool, until: int | None, extra: list[str]) -> None:
    """`replay --verify --fresh` runs the verification in a new process under another hash seed,
    passing on `--heavy` and `--until` when asked for them."""
    seen: list[tuple[list[str], dict[str, str]]] = []

    def fake(command: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
        seen.append((command, kw["env"]))  # type: ignore[arg-type]
        return subprocess.CompletedProcess(command, 0, json.dumps({"same": True}), "")

    monkeypatch.setattr(subprocess, "run", fake)
    monkeypatch.setenv("PYTHONHASHSEED", "1")
    assert verify_fresh(tmp_path / "g.replay", heavy=heavy, until=until, warmup=2) == {
        "same": True, "hash_seed": 2, "warmup": 2}
    (command, env), = seen
    assert command[-(len(extra) + 6):] == ["replay", str(tmp_path / "g.replay"), "--verify", "--json", "--warmup",
                                          "2", *extra]
    assert env["PYTHONHASHSEED"] == "2"  # another seed than this process's


def test_a_fresh_verification_is_plain_unless_asked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Left to its defaults: no `--heavy`, no `--until`, three warm-up games."""
    seen: list[list[str]] = []

    def fake(command: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
        seen.append(command)
        return subprocess.CompletedProcess(command, 0, json.dumps({"same": True}), "")

    monkeypatch.setattr(subprocess, "run", fake)
    assert verify_fresh(tmp_path / "g.replay")["warmup"] == 3
    assert seen[0][-6:] == ["replay", str(tmp_path / "g.replay"), "--verify", "--json", "--warmup", "3"]
