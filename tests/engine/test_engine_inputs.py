"""Hostile input (issue 17): saves and replays are decoded against typed schemas, YAML is bounded and
strict, arguments are checked before any work starts, and interrupted saves leave no litter.

Each test takes a real file or command and changes one thing a person or a tool could change; the
expected outcome is one line naming what is wrong (or, for what loads, a game that plays)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest

from ecs_zombie import canonical, new_game, snapshot
from ecs_zombie.data import load_yaml
from ecs_zombie.errors import DataError, SaveError
from ecs_zombie.replay import Recorder, load_replay
from ecs_zombie.snapshot import load, remove_litter, restore, save, state_bytes, wrap, write_atomic
from tests.fuzzing import BOMBS, judge, run_command
from tests.helpers import ROOT

State = dict[str, Any]


def shambling_state() -> State:
    game = new_game("shambling", 3, policy="random")
    game.play(stop_after=1)
    state: State = msgpack.unpackb(state_bytes(game), raw=False)
    game.close()
    return state


def entity_with(state: State, component: str) -> list[Any]:
    return next(e for e in state["entities"] if any(c[0] == component for c in e[1]))


def values_of(entity: list[Any], component: str) -> list[Any]:
    return next(c[1] for c in entity[1] if c[0] == component)


def set_rng(state: State, key: str, value: Any) -> None:
    name = next(iter(state[key]))
    state[key][name] = value


# (what changes, what the one-line refusal says)
BROKEN: list[tuple[Callable[[State], Any], str]] = [
    (lambda s: s.update(seed=-1), "seed -1 is outside 0..18446744073709551615"),
    (lambda s: s.update(seed="7"), "Expected int, got str (at seed)"),
    (lambda s: s.update(tick=11), "tick 11 is past the ruleset's last (10)"),
    (lambda s: s.update(players=9), "Expected int <= 8 (at players)"),
    (lambda s: s.update(zz=1), "Object contains unknown field zz"),
    (lambda s: s.pop("next_entity"), "Object missing required field next_entity"),
    (lambda s: set_rng(s, "rng", [1, 2]), "its increment 2 is even"),
    (lambda s: set_rng(s, "rng", [1]), "Expected array of length 2, got 1"),
    (lambda s: set_rng(s, "rng", ["1", 3]), "Expected int, got str"),
    (lambda s: s["rng"].update({"policy/x": [1, 3]}), "RNG stream 'policy/x' is a policy's stream"),
    (lambda s: s.update(dice_script=[0]), "Expected int >= 1"),
    (lambda s: s.update(card_script=["7H\x00"]), "Expected str matching regex"),
    (lambda s: s.update(outcome="survivors"), "a game going on has none"),
    (lambda s: s["params"].update(front_line_cap=99), "parameter 'front_line_cap' = 99 is above its maximum 30"),
    (lambda s: s["params"].update(front_line_cap="6"), "parameter 'front_line_cap' = '6' is not a int"),
    (lambda s: s["params"].pop("combat_rounds"), "params: missing combat_rounds"),
    (lambda s: s["params"].update(nosuch=1), "params: unknown nosuch"),
    (lambda s: s.update(policy="genius"), "policy: unknown policy 'genius'"),
    (lambda s: s["ruleset_origin"].update(kind="elsewhere"), "Invalid enum value 'elsewhere'"),
    (lambda s: s["schema"].update(Wounds=["taken"]), "it gives component Wounds the fields taken, this ecs-zombie "
                                                     "taken, limit"),
    (lambda s: values_of(entity_with(s, "Wounds"), "Wounds").__setitem__(0, "1"),
     "Wounds.taken: Expected int, got str"),
    (lambda s: values_of(entity_with(s, "Wounds"), "Wounds").append(1),
     "component Wounds: Expected array of length 2, got 3"),
    (lambda s: values_of(entity_with(s, "Engaged"), "Engaged")[0].append(99_999),
     "Engaged.opponents names entity 99999, which the save does not hold"),
    (lambda s: values_of(entity_with(s, "Deck"), "Deck")[1].append(entity_with(s, "Kind")[0]),
     "Deck.draw names entity"),
    (lambda s: values_of(entity_with(s, "Deck"), "Deck")[1].append(0), "Expected int >= 1"),
    (lambda s: values_of(entity_with(s, "Owner"), "Owner").__setitem__(0, 8), "Expected int <= 7"),
    (lambda s: s["entities"].reverse(), "comes after entity"),
    (lambda s: entity_with(s, "Kind")[1].append(["Kind", ["again"]]), "lists a component twice"),
    (lambda s: s.update(next_entity=1), "is not below the next entity id 1"),
    (lambda s: s["entities"].append([10**6, [["Nonesuch", [1]]]]), "component 'Nonesuch' is not in the save's "
                                                                   "schema"),
    # a component's row itself malformed: the entity and, where it is readable, the component's name
    (lambda s: set_row(s, "Wounds", ["Wounds"]),
     ": entity 2 component Wounds: Expected array of at least length 2, got 1"),
    (lambda s: set_row(s, "Wounds", 5), ": entity 2 component ?: Expected array, got int"),
    (lambda s: set_row(s, "Wounds", []), ": entity 2 component ?: Expected array of at least length 1, got 0"),
    (lambda s: set_row(s, "Wounds", [7, [0, 2]]), ": entity 2: component '?' is not in the save's schema"),
]


def set_row(state: State, component: str, row: Any) -> None:
    """Replace the first entity's row of `component` (entity 2 of `shambling_state`) with `row`."""
    rows = entity_with(state, component)[1]
    rows[next(i for i, c in enumerate(rows) if c[0] == component)] = row


@pytest.mark.parametrize(("change", "message"), BROKEN)
def test_a_state_that_does_not_fit_its_types_is_refused_in_one_line(change: Callable[[State], Any],
                                                                     message: str) -> None:
    """Every field of the state is checked as it is decoded: its type, its range, the entities it
    names; the refusal says where (`the save's content is inconsistent: <where>: <what>`)."""
    state = shambling_state()
    change(state)
    with pytest.raises(SaveError) as info:
        restore(state, "s.msgpack")
    text = str(info.value)
    assert text.startswith("s.msgpack: ") and message in text and "\n" not in text, text


def test_what_loads_plays_and_the_bytes_do_not_change(tmp_path: Path) -> None:
    """Typed loading changes no byte: a save loaded and saved again is the same file, and plays."""
    for ruleset in ("shambling", "stalingrad", "sza", "director"):
        game = new_game(ruleset, 4, policy="random")
        game.play(stop_after=2)
        data = save(game, tmp_path / "a.msgpack")
        loaded = load(tmp_path / "a.msgpack")
        assert save(loaded, tmp_path / "b.msgpack") == data
        loaded.play()
        assert loaded.over
        game.close()
        loaded.close()


def test_a_value_only_json_would_not_hold_is_refused_where_a_field_takes_anything() -> None:
    """`MapTile.exits` holds mappings of anything: bytes there would pass msgspec's `Any` and then
    break `inspect --json`; they are refused as the save loads."""
    game = new_game("director", 2)
    game.play(stop_after=1)
    state: State = msgpack.unpackb(state_bytes(game), raw=False)
    game.close()
    values_of(entity_with(state, "MapTile"), "MapTile")[6].append({"hex": b"\x00"})
    with pytest.raises(SaveError, match=r"MapTile\.exits holds a value no component holds"):
        restore(state, "d.msgpack")


def record(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    game = new_game("shambling", 5)
    recorder = Recorder(game)
    game.play()
    path = tmp_path / "g.replay"
    write_atomic(path, recorder.to_bytes(game))
    game.close()
    return path, msgpack.unpackb(msgpack.unpackb(path.read_bytes(), raw=False)["body"], raw=False)


def rewrite(path: Path, content: dict[str, Any]) -> None:
    path.write_bytes(wrap("replay", canonical.pack(content)))


def retick(content: dict[str, Any], index: int, change: Callable[[State], Any], rehash: bool = True) -> None:
    state = msgpack.unpackb(content["ticks"][index][3], raw=False)
    change(state)
    body = canonical.pack(state)
    content["ticks"][index][3] = body
    if rehash:
        content["ticks"][index][1] = canonical.digest(body)


@pytest.mark.parametrize(("change", "message"), [
    (lambda c: c["ticks"][1].__setitem__(0, 7), "tick record 2 is of tick 7, where tick 2 comes next"),
    (lambda c: c["ticks"][0].__setitem__(1, b"0" * 16), "the state of tick 1 does not match its recorded hash"),
    (lambda c: c["ticks"][0].__setitem__(2, [["x", -1]]), "Expected int >= 0"),
    (lambda c: c["ticks"][0].append(1), "Expected array of length 4, got 5"),
    (lambda c: retick(c, 0, lambda s: s.update(tick="1")), "state of tick 1: Expected int, got str (at tick)"),
    (lambda c: retick(c, 0, lambda s: values_of(entity_with(s, "Engaged"), "Engaged")[0].append(10**6)),
     "state of tick 1: entity"),
    (lambda c: retick(c, 1, lambda s: s.update(ruleset_hash="0")), "names other rules than the initial state"),
    (lambda c: c["events"].__setitem__(0, [1, "roll"]), "Expected array of length 4, got 2"),
    (lambda c: c.update(decisions=[-1]), "Expected int >= 0"),
    (lambda c: c.update(initial=canonical.pack({"format": "ecs-zombie/snapshot", "version": 2})),
     "initial state: Object missing required field"),
])
def test_a_replay_is_checked_through_as_it_loads(tmp_path: Path, change: Callable[[dict[str, Any]], Any],
                                                 message: str) -> None:
    """Its own shape, its initial state, and every tick record: the tick after the one before, the
    recorded hash of the recorded state, and that state a valid one of the same rules."""
    path, content = record(tmp_path)
    change(content)
    rewrite(path, content)
    with pytest.raises(SaveError) as info:
        load_replay(path)
    assert message in str(info.value) and "the replay's content is inconsistent" in str(info.value), str(info.value)


def test_verifying_reads_a_recorded_state_where_the_re_run_departs_from_it(tmp_path: Path) -> None:
    """`replay --verify` leaves each tick's state to the re-run (reading them all cost more than the
    game), yet a state no engine could write is still the file's fault, in one line with status 2;
    one that could be written but was not is a divergence (status 1); the untouched replay verifies."""
    path, content = record(tmp_path)
    assert run_command(["replay", str(path), "--verify"], tmp_path).code == 0
    assert load_replay(path, states=False).states_unread and not load_replay(path).states_unread
    retick(content, 2, lambda s: values_of(entity_with(s, "Wounds"), "Wounds").__setitem__(1, b"\x00"))
    rewrite(path, content)
    with pytest.raises(SaveError, match="state of tick 3: entity"):
        load_replay(path)
    load_replay(path, states=False)  # held to its hash only
    outcome = run_command(["replay", str(path), "--verify"], tmp_path)
    assert outcome.code == 2 and not judge(outcome).problem, outcome.stderr
    assert "the replay's content is inconsistent: state of tick 3: entity" in outcome.stderr
    assert "Wounds.limit: Expected int, got bytes" in outcome.stderr
    path, content = record(tmp_path)
    retick(content, 2, lambda s: values_of(entity_with(s, "Wounds"), "Wounds").__setitem__(1, 9))
    rewrite(path, content)
    outcome = run_command(["replay", str(path), "--verify", "--json"], tmp_path)
    assert outcome.code == 1 and '"tick": 3' in outcome.stdout and "state hash differs" in outcome.stdout


def test_inspect_reads_a_replay_tick_through_the_same_types(tmp_path: Path) -> None:
    path, content = record(tmp_path)
    retick(content, 2, lambda s: values_of(entity_with(s, "Wounds"), "Wounds").__setitem__(1, b"\x00"))
    rewrite(path, content)
    outcome = run_command(["inspect", str(path), "--json", "--tick", "3"], tmp_path)
    assert outcome.code == 2 and not judge(outcome).problem
    assert "state of tick 3: entity" in outcome.stderr and "Wounds.limit: Expected int, got bytes" in outcome.stderr


def test_a_piece_missing_a_component_its_kind_holds_is_refused_at_load(tmp_path: Path) -> None:
    """Every piece of a kind holds its prefab's components all game long (a Shambling survivor its
    Wounds): a save where one lacks them is refused as it loads, in one line naming the piece,
    rather than loading and failing in the first rule that looks (14 of 1,968 resumed variants
    did so in the second fuzz campaign)."""
    state = shambling_state()
    survivor = next(e for e in state["entities"] if ["Kind", ["survivor"]] in e[1])
    survivor[1] = [c for c in survivor[1] if c[0] != "Wounds"]
    path = tmp_path / "s.msgpack"
    path.write_bytes(wrap("snapshot", canonical.pack(state)))
    outcome = run_command(["resume", str(path)], tmp_path)
    assert outcome.code == 2 and not judge(outcome).problem, outcome.stderr + outcome.trace
    assert f"entity {survivor[0]} is a survivor without Wounds, which every survivor holds" in outcome.stderr


def test_a_piece_waiting_off_the_board_loads_without_the_components_its_rules_remove(tmp_path: Path) -> None:
    """What a system declares it `removes` (a Stalingrad zombie waits for its square without
    Position and Facing, then is placed and loses AwaitingSpawn) is not required of its kind."""
    from ecs_zombie.components import Kind, Position
    from ecs_zombie.systems.stalingrad.components import AwaitingSpawn
    from ecs_zombie.systems.stalingrad.spawn import new_zombie

    game = new_game("stalingrad", 2, policy="random")
    ent = new_zombie(game, "walker", (1, 1))
    assert game.world.try_get(ent, Position) is None and game.world.get(ent, Kind).name == "walker"
    loaded = load(tmp_path / "w.msgpack") if save(game, tmp_path / "w.msgpack") else None
    assert loaded is not None and loaded.world.try_get(ent, AwaitingSpawn) == AwaitingSpawn(1, 1)
    game.close()
    loaded.close()


def test_a_resumed_game_a_rule_cannot_play_is_the_saves_fault(tmp_path: Path) -> None:
    """What only the rules know (a figure in a battle is of a kind the strength table lists) shows
    when a rule reads it: one line naming the file, the system and the turn, exit status 2."""
    state = shambling_state()
    for entity in state["entities"]:
        entity[1] = [["Kind", ["survivorx"]] if c == ["Kind", ["survivor"]] else c for c in entity[1]]
    path = tmp_path / "s.msgpack"
    path.write_bytes(wrap("snapshot", canonical.pack(state)))
    outcome = run_command(["resume", str(path)], tmp_path)
    assert outcome.code == 2 and not judge(outcome).problem, outcome.stderr + outcome.trace
    assert "the game it holds fails in shambling." in outcome.stderr and "KeyError" in outcome.stderr


def test_a_file_run_a_rule_cannot_play_is_the_files_fault(tmp_path: Path) -> None:
    """What only the rules know (the strength table is keyed by the figures' kinds) shows when a rule
    reads it: `run` of a file says so in one line naming the file, the system and the turn, exit
    status 2 (found by the fuzz campaign: a traceback before)."""
    path = ruleset_copy(tmp_path, "shambling", {"shambling/figures.yaml": lambda t: t.replace(
        "Kind: {name: survivor}", "Kind: {name: survivorx}", 1)})
    outcome = run_command(["run", str(path), "--seed", "1"], tmp_path)
    assert outcome.code == 2 and not judge(outcome).problem, outcome.stderr + outcome.trace
    assert f"{path}: the game fails in shambling." in outcome.stderr and "KeyError: 'survivorx'" in outcome.stderr


def test_validate_tries_several_seeds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A value a rule reads only on some paths: in shambling-sza a survivor's kind renamed breaks
    Shambling's strength table, which seed 0's game never consults (the fuzz campaign found it: a
    file validate accepted and run failed on). validate plays seeds 0 to 4 and refuses it."""
    from ecs_zombie import session

    path = ruleset_copy(tmp_path, "shambling-sza", {"shambling/figures.yaml": lambda t: t.replace(
        "Kind: {name: survivor}", "Kind: {name: survivorx}", 1)})
    outcome = run_command(["validate", str(path)], tmp_path, fresh=True)
    assert outcome.code == 2 and not judge(outcome).problem, outcome.stderr + outcome.trace
    assert "a trial game (1 player, seed " in outcome.stderr and "KeyError: 'survivorx'" in outcome.stderr
    # where the game broke: the system and the turn
    assert re.search(r"a trial game \(1 player, seed [1-4]\) fails in shambling\.[a-z_.]+/?\S* at turn \d+ "
                     r"\(KeyError: 'survivorx'\)", outcome.stderr), outcome.stderr
    monkeypatch.setattr(session, "TRIAL_GAMES", 1)
    assert run_command(["validate", str(path)], tmp_path, fresh=True).code == 0  # seed 0 alone passes


# -- YAML -----------------------------------------------------------------------------------------


def test_an_alias_bomb_fails_fast_with_little_memory(tmp_path: Path) -> None:
    """Nine levels of nine aliases (9**9 values expanded) in a few hundred bytes: refused as the
    nodes are counted, before anything is built (it once ran 60 s and took 5.9 GB)."""
    path = tmp_path / "bomb.yaml"
    path.write_text(BOMBS[0])
    assert len(BOMBS[0]) < 600
    tracemalloc.start()
    start = time.perf_counter()
    with pytest.raises(DataError, match="more than 20000 values once its aliases are expanded"):
        load_yaml(path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert time.perf_counter() - start < 1.0 and peak < 20 * 1024 * 1024


@pytest.mark.parametrize(("text", "message"), [
    ("x: " + "[" * 400 + "]" * 400 + "\n", "bomb.yaml:1: lists and mappings nested deeper than 32 levels"),
    ("a: &a [[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]\nb: &b [[[[[[[[[[[[[[*a]]]]]]]]]]]]]]\n",
     "nested deeper than 32 levels once its aliases are expanded"),
    ("x: &a [*a]\n", "an alias refers to the mapping or list that contains it"),
    ("x:\n" + "".join(f"  - &a{i} 1\n  - *a{i}\n" for i in range(1001)), "more than 1000 aliases"),
    ("x:\n" + "  - 1\n" * 20_001, "more than 20000 values"),
    ("when: 2024-01-31\n", "bomb.yaml:1: a date or time is not allowed here (write it in quotes to keep it as text)"),
    ("x: !!binary aGVsbG8=\n", "binary data (!!binary) is not allowed here"),
    ("x: !!set {a, b}\n", "a set (!!set) is not allowed here (write a list)"),
    ("x: 18446744073709551616\n", "the whole number 18446744073709551616 is outside what 64 bits hold"),
    ("x: " + "9" * 5000 + "\n", "is too large"),
    ("x: .inf\n", "'.inf' is not a finite number"),
    ('x: "bell\\a"\n', "text holds the control character '\\x07'"),
    ("x: \x01\n", "malformed YAML: character '\\x01' at position 3 is not allowed"),
    ("x: !!python/object/apply:os.system [true]\n", "could not determine a constructor"),
])
def test_yaml_holds_only_what_json_holds_within_bounds(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(text)
    with pytest.raises(DataError) as info:
        load_yaml(path)
    assert message in str(info.value) and "\n" not in str(info.value), str(info.value)


def ruleset_copy(tmp_path: Path, ruleset: str, edit: dict[str, Callable[[str], str]]) -> Path:
    """The shipped data as one folder (rulesets at its top), with files edited."""
    from tests.fuzzing import layout

    layout(tmp_path / "data")
    for rel, change in edit.items():
        target = tmp_path / "data" / rel
        target.write_text(change(target.read_text()))
    return tmp_path / "data" / f"{ruleset}.yaml"


@pytest.mark.parametrize(("ruleset", "rel", "old", "new", "message"), [
    ("stalingrad", "stalingrad/weapons.yaml", "rof: 3", "rfo: 3", "unknown key 'rfo' (did you mean 'rof'?)"),
    ("stalingrad", "stalingrad/weapons.yaml", "rof: 3", "rof: 3000", "rof must be at most 1000"),
    ("stalingrad", "stalingrad/spawn.yaml", "count: 1d2", "count: 1000d1000", "1000d1000 gives more than 1000"),
    ("stalingrad", "stalingrad/map.yaml", '"+": {terrain: door}', '"+": {terrain: door, opne: true}',
     "unknown key 'opne' (did you mean 'open'?)"),
    ("shambling", "shambling/strength.yaml", "support_bonus", "suport_bonus",
     "unknown key 'suport_bonus' (did you mean 'support_bonus'?)"),
    ("shambling", "shambling/narration.yaml", "reorder: true", "reordr: true", "did you mean 'reorder'?"),
    ("shambling", "shambling/narration.yaml", "cards: 1, zone: front", "cards: 100000, zone: front",
     "100000 is beyond what a system parameter may ask"),
    ("shambling", "shambling/figures.yaml", "Wounds:", "Woundss:", "unknown component 'Woundss' (did you mean "
                                                                 "'Wounds'?)"),
    ("shambling", "shambling.yaml", "max_ticks: 10", "max_ticks: 0", "max_ticks must be from 1 to 10000"),
    ("sza", "sza/rules.yaml", "water_uses: 3", "water_use: 3", "did you mean 'water_uses'?"),
    ("sza", "sza/maps.yaml", "size: [35, 15]", "size: [35, 1500]", "expected [width, height], each 1..100"),
    ("sza", "sza/maps.yaml", "{kind: door, at: [6, 2]}", "{kind: door, at: [six, 2]}", "expected [x, y] on the board"),
    ("sza", "sza/scenarios.yaml", "zombies: 15", "zombie: 15", "did you mean 'zombies'?"),
    ("director", "director/weapons.yaml", "clip: 4", "clips: 4", "did you mean 'clip'?"),
    ("director", "director/specials.yaml", "smoker:", "smoker_:", "unknown key 'smoker_' (did you mean 'smoker'?)"),
    # found by the 20,000-variant campaign (benchmarks/fuzz.py): tracebacks before
    ("stalingrad", "stalingrad/figures.yaml", "extends: character", "extends: {character: 1}",
     "extends takes the name of one prefab"),
    ("stalingrad-shambling", "stalingrad-shambling.yaml", "zombies: [zombie_activations, zombie_final]",
     "zombies: [zombie_activations, [zombie_final]]", "zombies: expected list[str], got list"),
    # found by the third campaign (--seed 3)
    ("shambling", "shambling.yaml", "packages: [core, shambling]", "packages: [core, " + "shambling" * 40 + "]",
     "is not a module name (dotted Python names, at most 200 characters)"),
    ("sza", "sza/rules.yaml", "weapons: [fire_axe, crowbar]", "weapons: [[fire_axe], crowbar]",
     "unknown weapon ['fire_axe']"),
])
def test_every_table_refuses_unknown_keys_and_numbers_out_of_bounds(tmp_path: Path, ruleset: str, rel: str,
                                                                     old: str, new: str, message: str) -> None:
    path = ruleset_copy(tmp_path, ruleset, {rel: lambda text: text.replace(old, new, 1)})
    assert old in (ROOT / "prefabs" / (rel if "/" in rel else f"rulesets/{rel}")).read_text()
    outcome = run_command(["validate", str(path)], tmp_path)
    assert outcome.code == 2 and not judge(outcome).problem, outcome.stderr + outcome.trace
    assert message in outcome.stderr, outcome.stderr


@pytest.mark.parametrize(("change", "message"), [
    (lambda t: t.replace("count: 9", "count: 1000000000"), "count must be from 0 to 1000, got 1000000000"),
    (lambda t: t.replace("players: 1", "players: 9"), "players must be from 1 to 8, got 9"),
    (lambda t: t.replace("entities:", "entites:"), "unknown key 'entites' (did you mean 'entities'?)"),
    (lambda t: t.replace("Zone: {board: $player}}", "Zone: {board: $player, name: [front]}}"),
     "Zone.name takes str, got ['front']"),
    # 1,000 survivors a seat for 8 seats, then 1,000 more twice: the total crosses 10,000 there
    (lambda t: t.replace("count: 9", "count: 1000").replace(
        "entities:\n", "entities:\n  - {prefab: survivor, count: 1000}\n  - {prefab: survivor, count: 1000}\n", 1),
     "the scenario places more than 10000 entities (counting 8 players for per_player entries)"),
])
def test_a_scenario_is_held_to_its_bounds(tmp_path: Path, change: Callable[[str], str], message: str) -> None:
    path = ruleset_copy(tmp_path, "shambling", {"scenarios/shambling.yaml": change})
    outcome = run_command(["validate", str(path)], tmp_path)
    assert outcome.code == 2 and message in outcome.stderr and not judge(outcome).problem, outcome.stderr


# -- arguments ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "message"), [
    (["run", "shambling", "--seed", "-1", "--save", "s.msgpack"], "--seed takes a whole number from 0 to "
                                                                  "18446744073709551615 (what a save holds), got -1"),
    (["run", "shambling", "--seed", str(2**64), "--save", "s.msgpack"], "got 18446744073709551616"),
    (["run", "shambling", "--dice", "²"], "dice script entry 1 is not a positive whole number up to 1000: '²'"),
    (["run", "shambling", "--dice", "1001"], "up to 1000"),
    (["run", "stalingrad", "--players", "4"], "players must be 1..1, got 4"),
    (["run", "sza", "--players", "7"], "players must be 1..6, got 7"),
    (["batch", "director", "--games", "100000", "--players", "5", "--quiet"], "players must be 1..4, got 5"),
    (["run", "shambling", "--policy", "narator=random"], "--policy names the side 'narator', which no decision of "
                                                         "ruleset 'shambling' is asked of (did you mean 'narrator'?)"),
    (["run", "director", "--policy", "player:2=random"], "--policy names player:2, but this game has 2 players "
                                                          "(player:0..player:1)"),
    (["run", "stalingrad", "--policy", "zombies=first"], "(sides: player:0; see ecs-zombie decisions stalingrad)"),
    (["run", "shambling", "--save", "a\x00b"], "the file name holds the control character '\\x00'"),
    (["run", "shambling", "--record", "dir/"], "'dir/' is no file name"),
    (["batch", "shambling", "--games", "5", "--seed", "-3"], "--seed takes a whole number"),
    (["batch", "shambling", "--games", "5", "--policy", "player:1=random"], "but this game has 1 player (player:0)"),
])
def test_arguments_are_refused_before_any_work(tmp_path: Path, args: list[str], message: str) -> None:
    outcome = run_command(args, tmp_path)
    assert outcome.code == 2 and not judge(outcome).problem, outcome.stderr + outcome.trace
    assert message in outcome.stderr, outcome.stderr
    assert outcome.seconds < 3 and not (tmp_path / "saves").exists()


def test_sides_and_seats_that_exist_are_taken(tmp_path: Path) -> None:
    for args in (["run", "director", "--players", "4", "--policy", "random,player:3=first"],
                 ["run", "sza", "--players", "2", "--policy", "gm=random,player:1=first,party=heuristic"],
                 ["run", "shambling", "--players", "3", "--policy", "heuristic,narrator=random,player:2=first"]):
        outcome = run_command(args, tmp_path, seconds=60)
        assert outcome.code == 0, outcome.stderr + outcome.trace


def test_a_plot_without_matplotlib_is_refused_before_the_batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not after 100,000 games have played: the backend is looked for first."""
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    outcome = run_command(["batch", "shambling", "--games", "100000", "--plot", "p.png", "--quiet"], tmp_path)
    assert outcome.code == 2 and "--plot needs matplotlib" in outcome.stderr and outcome.seconds < 3


# -- litter ---------------------------------------------------------------------------------------

KILLED_WRITER = textwrap.dedent("""
    import os, sys, time
    sys.path.insert(0, sys.argv[2])
    from ecs_zombie import snapshot
    os.fsync = lambda fd: time.sleep(60)  # stuck in the middle of the write: killed there
    snapshot.write_atomic(snapshot.Path(sys.argv[1]), b"x" * 100_000)
""")


def test_a_save_killed_midway_leaves_no_litter_once_the_next_save_succeeds(tmp_path: Path) -> None:
    target = tmp_path / "s.msgpack"
    write_atomic(target, b"good")
    for killed in range(3):
        child = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(target), str(ROOT)])
        deadline = time.monotonic() + 30
        while len([p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]) <= killed and \
                time.monotonic() < deadline:
            time.sleep(0.02)
        child.send_signal(signal.SIGKILL)
        child.wait()
    left = sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp"))
    assert len(left) == 3 and target.read_bytes() == b"good"  # what a kill leaves; the save itself intact
    write_atomic(target, b"better")
    assert sorted(os.listdir(tmp_path)) == ["s.msgpack"] and target.read_bytes() == b"better"


def test_litter_of_a_live_writer_is_left_alone(tmp_path: Path) -> None:
    """A temporary file of a process still running may be a save under way: it stays (an hour-old
    one, or one whose name holds no pid, goes)."""
    target = tmp_path / "s.msgpack"
    live = tmp_path / f".s.msgpack.{os.getppid()}.abc.tmp"
    old = tmp_path / ".s.msgpack.xyz.tmp"
    other = tmp_path / ".t.msgpack.1.abc.tmp"  # another file's
    for p in (live, old, other):
        p.write_bytes(b"")
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    assert remove_litter(target) == [old]
    assert live.exists() and other.exists()


def test_litter_of_another_users_process_is_left_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A writer this process may not signal (another user's: PermissionError) may be alive: its
    temporary file stays; one whose writer is gone goes."""
    target = tmp_path / "s.msgpack"
    theirs = tmp_path / ".s.msgpack.4242.abc.tmp"
    theirs.write_bytes(b"")

    def refused(pid: int, sig: int) -> None:
        raise PermissionError

    with monkeypatch.context() as m:
        m.setattr(snapshot.os, "kill", refused)
        assert remove_litter(target) == [] and theirs.exists()

    def gone(pid: int, sig: int) -> None:
        raise ProcessLookupError

    monkeypatch.setattr(snapshot.os, "kill", gone)
    assert remove_litter(target) == [theirs] and not theirs.exists()


def test_a_tile_hex_that_is_not_a_pair_is_refused_at_load(tmp_path: Path) -> None:
    """A laid tile's hexes are pairs (q, r) the rules unpack: a save whose tile holds a hex of one
    number is refused as it loads, naming the field (found by the third fuzz campaign: a replay's
    tick state crashed the Director's board before)."""
    game = new_game("director", 2, policy="random")
    game.play(stop_after=1)
    state: State = msgpack.unpackb(state_bytes(game), raw=False)
    game.close()
    tile = entity_with(state, "MapTile")
    hexes = values_of(tile, "MapTile")[state["schema"]["MapTile"].index("hexes")]
    hexes[0] = hexes[0][:1]
    with pytest.raises(SaveError, match=r"MapTile.hexes: .*length >= 2"):
        restore(state, "s.msgpack")


def test_a_replay_state_its_rules_cannot_measure_is_refused_in_one_line(tmp_path: Path) -> None:
    """`replay` reads each tick's recorded state for its metrics: one that loads but that the rules'
    metrics cannot read (SZA's campaign with no scenario left in it) is the file's fault, in one
    line naming the tick (found by the fourth fuzz campaign: a traceback before)."""
    game = new_game("sza", 1)
    recorder = Recorder(game)
    game.play(stop_after=3)
    path = tmp_path / "s.replay"
    write_atomic(path, recorder.to_bytes(game))
    game.close()
    content = msgpack.unpackb(msgpack.unpackb(path.read_bytes(), raw=False)["body"], raw=False)
    retick(content, 1, lambda s: values_of(entity_with(s, "SzaStage"), "SzaStage").__setitem__(0, []))
    rewrite(path, content)
    outcome = run_command(["replay", str(path)], tmp_path)
    assert outcome.code == 2 and not judge(outcome).problem, outcome.stderr + outcome.trace
    assert f"{path}: the state of turn 2 fails in its rules (IndexError" in outcome.stderr


def test_yaml_reaches_its_bounds(tmp_path: Path) -> None:
    """The limits are inclusive: 1,000 aliases and 20,000 values (here the mapping, its key, the list
    and 19,997 numbers) load; one more of either is refused (above)."""
    path = tmp_path / "edge.yaml"
    path.write_text("x:\n" + "".join(f"  - &a{i} 1\n  - *a{i}\n" for i in range(1000)))
    assert len(load_yaml(path)["x"]) == 2000
    path.write_text("x:\n" + "  - 1\n" * 19_997)
    assert len(load_yaml(path)["x"]) == 19_997
    path.write_text("x:\n" + "  - 1\n" * 19_998)
    with pytest.raises(DataError, match="more than 20000 values"):
        load_yaml(path)


def test_the_api_takes_every_seed_a_save_holds_and_no_other() -> None:
    """`new_game` checks its seed itself (the CLI's own check is not the only gate): 0 to 2**64 - 1,
    what a save's seed field holds; one past either end is refused in one line."""
    from ecs_zombie.errors import GameError

    for seed in (0, 2**64 - 1):
        with new_game("shambling", seed) as game:
            assert game.seed == seed
    for seed in (-1, 2**64):
        with pytest.raises(GameError, match=rf"the seed must be a whole number from 0 to {2**64 - 1} .*got {seed}$"):
            new_game("shambling", seed)


def test_a_load_makes_each_distinct_frozen_value_once_and_shares_it(tmp_path: Path) -> None:
    """A frozen component of plain values (a zone, a side) is made once per distinct value
    as a save loads and shared by every piece that holds it, as a live world shares them: 10,000
    zombies in one zone hold one Zone, not 10,000."""
    from ecs_zombie.components import Faction, Zone

    game = new_game("shambling", 3)
    game.play(stop_after=3)
    save(game, tmp_path / "s.msgpack")
    game.close()
    with load(tmp_path / "s.msgpack") as loaded:
        for ctype in (Zone, Faction):
            held = [c for _ent, c in loaded.world.query1(ctype)]
            assert len(held) > len(set(held)), ctype  # several pieces share some value
            assert len({id(c) for c in held}) == len(set(held)), ctype


def test_which_components_a_load_may_share() -> None:
    """Shared only when sharing cannot show: frozen, and every field a whole number, text, flag or
    number, narrowed or not (`one_of`, `within`). A plugin's frozen component of such fields is
    shared like `Zone`; one holding a list, or not frozen, never."""
    import dataclasses

    from ecs_zombie.components import one_of, within
    from ecs_zombie.fields import field_types
    from ecs_zombie.saved_entities import _shareable

    @dataclasses.dataclass(frozen=True, slots=True)
    class Mood:
        kind: str = dataclasses.field(default="calm", metadata=one_of("calm", "angry"))
        level: int = dataclasses.field(default=0, metadata=within(0, 9))
        label: str = ""

    @dataclasses.dataclass(frozen=True, slots=True)
    class Trail:
        squares: list[int] = dataclasses.field(default_factory=list)

    @dataclasses.dataclass(slots=True)
    class Loose:
        kind: str = dataclasses.field(default="calm", metadata=one_of("calm", "angry"))

    assert [_shareable(c, field_types(c)) for c in (Mood, Trail, Loose)] == [True, False, False]


def test_a_state_without_a_single_piece_loads_empty() -> None:
    """No entities and so no components in its schema (a plugin's game whose setup places nothing
    yet): nothing to decode, and the world comes back empty with its id count where it was."""
    state = shambling_state()
    state["entities"], state["schema"] = [], {}
    with restore(state, "s.msgpack") as game:
        assert game.world.raw() == {} and game.world.next_id == state["next_entity"]
