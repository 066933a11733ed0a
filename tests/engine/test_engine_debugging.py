"""Replay debugging as a desync hunter needs it: blame the first difference (even through a
crash), catch what hides in the process (--fresh), read the log, diff two runs, know the code,
save at a pending decision, and look at the game (a self-contained page in headless Chromium)."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import msgpack
import pytest

from ecs_zombie import canonical, new_game
from ecs_zombie.errors import SaveError
from ecs_zombie.replay import Recorder, load_replay, verify
from ecs_zombie.rng import derive_seed
from ecs_zombie.ruleset import list_rulesets
from ecs_zombie.snapshot import load, save, write_atomic
from ecs_zombie.state import state_bytes
from ecs_zombie.stepper import Stepper
from tests.engine import planted_systems
from tests.helpers import run_cli

PLANTED = """\
id: planted
name: planted bugs
tick: turn
max_ticks: 10
packages: [{package}]
prefabs: [board.yaml]
phases:
  - name: one
    systems: [{systems}]
metrics: planted.metrics
"""


def planted(tmp_path: Path, systems: str, local: bool = False) -> str:
    """A ruleset of planted systems; `local`: their module copied beside it (for commands run in
    other processes, which import it from the ruleset's folder, not from the tests)."""
    package = "tests.engine.planted_systems"
    if local:
        shutil.copyfile(Path(planted_systems.__file__), tmp_path / "planted_systems.py")
        package = "planted_systems"
    (tmp_path / "ruleset.yaml").write_text(PLANTED.format(systems=systems, package=package))
    (tmp_path / "board.yaml").write_text("board:\n  Kind: {name: board}\n  Markers: {}\n  Tally: {}\n")
    (tmp_path / "scenario.yaml").write_text("ruleset: ruleset.yaml\nentities: [{prefab: board}]\n")
    return str(tmp_path / "scenario.yaml")


# -- catch what hides in the process -------------------------------------------------------------


def test_every_shipped_ruleset_verifies_in_a_fresh_process(tmp_path: Path) -> None:
    """Recorded here, verified in another process under another hash seed after other games."""
    for rid, _ in list_rulesets():
        game = new_game(rid, 1)
        recorder = Recorder(game)
        game.play()
        write_atomic(tmp_path / f"{rid}.replay", recorder.to_bytes(game))
        game.close()
        result = run_cli("replay", str(tmp_path / f"{rid}.replay"), "--verify", "--fresh", "--json")
        assert result.returncode == 0, (rid, result.stdout, result.stderr)
        assert json.loads(result.stdout)["verified"] is True


def test_a_module_global_passes_in_process_and_is_caught_fresh(tmp_path: Path) -> None:
    """A cache that outlives its game: a replay verified by a process whose first game is the
    replay's passes; the fresh process plays other games first and names the system."""
    scenario = planted(tmp_path, "planted.global_cache, planted.crasher", local=True)
    seed = next(s for s in range(1, 50) if s % 3 != derive_seed(s, "warmup", 0) % 3)
    assert run_cli("run", scenario, "--seed", str(seed), "--record", str(tmp_path / "g.replay")).returncode == 0
    assert run_cli("replay", str(tmp_path / "g.replay"), "--verify", "--heavy").returncode == 0
    fresh = run_cli("replay", str(tmp_path / "g.replay"), "--verify", "--fresh")
    assert fresh.returncode == 1, fresh.stdout + fresh.stderr
    assert "divergence at tick 1, in system planted.global_cache: events differ" in fresh.stderr


def test_a_set_iterated_in_hash_order_is_caught_fresh(tmp_path: Path) -> None:
    scenario = planted(tmp_path, "planted.set_order, planted.crasher", local=True)
    same_seed = {"PYTHONHASHSEED": "5"}
    assert run_cli("run", scenario, "--seed", "3", "--record", str(tmp_path / "s.replay"), env=same_seed
                   ).returncode == 0
    assert run_cli("replay", str(tmp_path / "s.replay"), "--verify", env=same_seed).returncode == 0
    fresh = run_cli("replay", str(tmp_path / "s.replay"), "--verify", "--fresh", "--json", env=same_seed)
    assert fresh.returncode == 1
    found = json.loads(fresh.stdout)["divergence"]
    assert (found["tick"], found["system"], found["reason"]) == (1, "planted.set_order", "events differ")


# -- blame the first difference ------------------------------------------------------------------


def _replay_bytes(scenario: str, seed: int, stop_after: int | None = None) -> bytes:
    """A game recorded as its replay file's bytes (played to the end, or to tick `stop_after`)."""
    game = new_game(scenario, seed)
    recorder = Recorder(game)
    game.play(stop_after=stop_after)
    data = recorder.to_bytes(game)
    game.close()
    return data


def _record(scenario: str, seed: int = 2) -> Any:
    game = new_game(scenario, seed)
    recorder = Recorder(game)
    game.play()
    replay = recorder.replay(game)
    game.close()
    return replay


def test_the_first_difference_is_blamed_even_when_the_re_run_then_crashes(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    replay = _record(planted(tmp_path, "planted.logger, planted.crasher"))
    assert verify(replay) is None
    monkeypatch.setitem(planted_systems.SWITCHES, "extra_roll", True)
    found = verify(replay)
    assert found is not None
    assert (found.tick, found.system, found.reason) == (1, "planted.logger", "events differ")
    assert found.crash == "KeyError: 'a board marked twice'"
    assert found.first_event is not None and found.first_event["recorded"] is None  # the recording had no more
    assert found.first_event["replayed"][2]["why"] == "second"
    assert found.differences[-1] == "then the re-run failed: KeyError: 'a board marked twice'"


def test_a_step_is_named_not_its_driver(tmp_path: Path) -> None:
    """In Stalingrad the spawn step runs inside `stalingrad.turns`: a changed spawn roll is blamed
    on `stalingrad.turns/zombie_final/spawn`."""
    game = new_game("stalingrad", 4)
    recorder = Recorder(game)
    game.play()
    replay = recorder.replay(game)
    game.close()
    index = next(i for i, e in enumerate(replay.events) if e[3].endswith("/spawn") and e[1] == "roll")
    tampered = copy.deepcopy(replay)
    tampered.events[index][2]["why"] = "changed"
    found = verify(tampered)
    assert found is not None and found.system == "stalingrad.turns/zombie_final/spawn"


def test_verification_says_which_systems_code_changed(tmp_path: Path) -> None:
    game = new_game("shambling", 3)
    recorder = Recorder(game)
    game.play()
    game.close()
    path = tmp_path / "r.replay"
    write_atomic(path, recorder.to_bytes(game))
    outer = msgpack.unpackb(path.read_bytes(), raw=False)
    content = msgpack.unpackb(outer["body"], raw=False)
    initial = msgpack.unpackb(content["initial"], raw=False)
    initial["provenance"]["code"]["shambling.combat"][0] = "000000000000"
    initial["provenance"]["code"]["shambling.pursuit"][1] = "000000000000"
    content["initial"] = canonical.pack(initial)
    content["decisions"][3] = 1 - content["decisions"][3] if content["decisions"][3] < 2 else 0
    body = canonical.pack(content)
    outer["body"], outer["blake2b"] = body, canonical.digest(body)
    path.write_bytes(msgpack.packb(outer))
    found = verify(load_replay(path))
    assert found is not None
    assert found.code_changes == ["shambling.combat: its function's code changed",
                                  "shambling.pursuit: code elsewhere in its module changed"]
    assert found.differences[:2] == [f"code changed since the recording: {line}" for line in found.code_changes]


# -- the log and diffs -----------------------------------------------------------------------------


@pytest.fixture
def two_replays(tmp_path: Path) -> tuple[Path, Path]:
    a, b = tmp_path / "a.replay", tmp_path / "b.replay"
    assert run_cli("run", "shambling", "--seed", "7", "--record", str(a)).returncode == 0
    assert run_cli("run", "shambling", "--seed", "7", "--policy", "random", "--record", str(b)).returncode == 0
    return a, b


def test_events_are_listed_and_filtered(two_replays: tuple[Path, Path]) -> None:
    a, _ = two_replays
    lines = run_cli("events", str(a), "--tick", "2", "--kind", "strike", "--json").stdout.splitlines()
    rows = [json.loads(line) for line in lines]
    assert rows and all(r["tick"] == 2 and r["kind"] == "strike" and r["system"] == "shambling.combat/strike"
                        for r in rows)
    assert set(rows[0]["data"]) == {"board", "zone", "side", "strength", "roll", "wounds"}
    by_system = run_cli("events", str(a), "--system", "core.narration/").stdout.splitlines()
    assert by_system[0].split() == ["tick", "system", "kind", "data"]
    assert all(line.split()[1].startswith("core.narration/") for line in by_system[1:])


def test_diff_of_two_replays_and_two_saves(two_replays: tuple[Path, Path], tmp_path: Path) -> None:
    a, b = two_replays
    assert run_cli("diff", str(a), str(a)).returncode == 0
    found = run_cli("diff", str(a), str(b), "--json")
    assert found.returncode == 1
    data = json.loads(found.stdout)
    assert data["same"] is False and data["tick"] == 1 and data["reason"] == "events differ"
    assert data["first_event"]["recorded"][1] == data["first_event"]["replayed"][1] == "decision"
    assert any(c["what"] == "field" and c["component"] == "Zone" and c["field"] == "name" for c in data["changes"])
    text = run_cli("diff", str(a), str(b)).stdout
    assert text.startswith("different at tick 1, in system ")
    assert "policies: A 'heuristic', B 'random'" in text
    assert any(line.startswith("  entity ") and "Zone.name: " in line and " → " in line for line in text.splitlines())
    s1, s2 = tmp_path / "1.msgpack", tmp_path / "2.msgpack"
    run_cli("run", "shambling", "--seed", "7", "--stop-after", "2", "--save", str(s1))
    run_cli("run", "shambling", "--seed", "8", "--stop-after", "2", "--save", str(s2))
    assert run_cli("diff", str(s1), str(s1)).returncode == 0
    saves = run_cli("diff", str(s1), str(s2))
    assert saves.returncode == 1 and "seed: 7 → 8" in saves.stdout
    bad = run_cli("diff", str(a), str(s1))
    assert bad.returncode == 2 and bad.stderr.strip() == "error: cannot compare a replay with a snapshot"


def test_diff_of_two_replays_that_start_apart_says_so_before_any_tick(tmp_path: Path) -> None:
    """Two games of different seeds differ before their first event: the difference is their start,
    (tick 0), given as its state changes, not blamed on the first tick's events."""
    from ecs_zombie.runs import diff_files

    paths = [tmp_path / "7.replay", tmp_path / "8.replay"]
    for seed, path in zip((7, 8), paths, strict=True):
        write_atomic(path, _replay_bytes("shambling", seed))
    found = diff_files(*paths)
    assert (found["same"], found["tick"], found["reason"]) == (False, 0, "the games start differently")
    assert {"what": "key", "key": "seed", "before": 7, "after": 8} in found["changes"]


def test_diff_and_inspect_of_saves_load_their_ruleset_first_in_a_fresh_process(tmp_path: Path) -> None:
    """Comparing two saves, or showing one, checks its entities against its components, which only
    its ruleset registers (Singapore's, in a process that has loaded nothing): the ruleset is loaded
    first, so the saves are compared and shown, not refused as naming unknown components."""
    s1, s2 = tmp_path / "1.msgpack", tmp_path / "2.msgpack"
    for seed, path in ((3, s1), (4, s2)):
        assert run_cli("run", "sza", "--seed", str(seed), "--stop-after", "1", "--save", str(path)).returncode == 0
    same = run_cli("diff", str(s1), str(s1))
    assert same.returncode == 0, same.stderr
    saves = run_cli("diff", str(s1), str(s2))
    assert saves.returncode == 1 and "seed: 3 → 4" in saves.stdout, saves.stderr
    shown = run_cli("inspect", str(s1), "--json")
    assert shown.returncode == 0 and json.loads(shown.stdout)["seed"] == 3, shown.stderr


# -- no silent half-saves --------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["shambling", "stalingrad", "director"])
def test_a_save_at_a_pending_decision_loads_at_that_decision(ruleset: str, tmp_path: Path) -> None:
    game = new_game(ruleset, 6)
    stepper = Stepper(game, resumable=True)
    for _ in range(7):
        stepper.answer(0)
    assert not stepper.at_tick_boundary and stepper.pending is not None
    save(game, tmp_path / "mid.msgpack")
    loaded = load(tmp_path / "mid.msgpack")
    assert loaded.pending is not None
    assert (loaded.pending.kind, loaded.pending.options) == (stepper.pending.kind, stepper.pending.options)
    again = Stepper(loaded)
    while not stepper.done:
        assert again.pending is not None and again.pending.kind == stepper.pending.kind  # type: ignore[union-attr]
        stepper.answer(0)
        again.answer(0)
    assert again.done and state_bytes(loaded) == state_bytes(game)
    game.close()
    loaded.close()


def test_a_save_mid_tick_without_the_tick_start_is_refused(tmp_path: Path) -> None:
    game = new_game("shambling", 6)
    stepper = Stepper(game)
    stepper.answer(0)
    with pytest.raises(SaveError, match="cannot save in the middle of a tick"):
        save(game, tmp_path / "mid.msgpack")
    assert not (tmp_path / "mid.msgpack").exists()
    game.close()


# -- look at the game ------------------------------------------------------------------------------


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail("headless Chromium is needed (Debian's chromium package: .ci/run installs it)")
    return found


def test_the_web_page_steps_through_the_game_in_chromium(tmp_path: Path) -> None:
    from ecs_zombie.webview import frames

    rec, page = tmp_path / "g.replay", tmp_path / "g.html"
    assert run_cli("run", "stalingrad", "--seed", "3", "--record", str(rec)).returncode == 0
    made = run_cli("replay", str(rec), "--html", str(page))
    assert made.returncode == 0 and f"wrote page: {page}" in made.stdout
    expected = frames(load_replay(rec))
    assert "http://" not in page.read_text() and "https://" not in page.read_text()  # nothing fetched
    for fragment, index in (("frame=0", 0), ("next=2", 2), ("frame=3&next=1", 4)):
        dom = subprocess.run([_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                              f"file://{page}#{fragment}"], capture_output=True, text=True, timeout=120).stdout
        frame = expected[min(index, len(expected) - 1)]
        board = dom.split('<pre id="board">', 1)[1].split("</pre>", 1)[0]
        assert board.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">") == "\n".join(frame["board"])
        rows = dom.split('<tbody id="events">', 1)[1].split("</tbody>", 1)[0].count("<tr>")
        assert rows == len(frame["events"])


def test_diff_of_a_game_and_its_longer_continuation(tmp_path: Path) -> None:
    """The same game recorded for 2 and for 4 ticks: alike as far as the shorter goes, then the one
    that ends first is named, at the first tick it lacks."""
    from ecs_zombie.runs import diff_files

    short, long = tmp_path / "short.replay", tmp_path / "long.replay"
    for path, ticks in ((short, "2"), (long, "4")):
        assert run_cli("run", "shambling", "--seed", "7", "--stop-after", ticks, "--record", str(path)).returncode == 0
    a_short = diff_files(short, long)
    assert (a_short["same"], a_short["tick"], a_short["reason"]) == (False, 3, "A ends before tick 3")
    b_short = diff_files(long, short)
    assert (b_short["same"], b_short["tick"], b_short["reason"]) == (False, 3, "B ends before tick 3")
    assert diff_files(long, long)["same"] is True


def test_a_divergence_lists_20_changes_and_a_diff_30(tmp_path: Path) -> None:
    """A recorded state that differs in many fields: `replay --verify` lists the first 20 changed
    fields under its divergence, `diff` the first 30 (here the state of tick 1 replaced by another
    seed's, which differs in 31)."""
    from ecs_zombie.decisions import PolicyTable
    from ecs_zombie.diffing import state_changes
    from ecs_zombie.runs import diff_files

    played = []
    for seed in (1, 2):
        game = new_game("director", seed)
        recorder = Recorder(game)
        game.play(PolicyTable("heuristic"))
        played.append((game, recorder))
    (game, recorder), (_other, foreign) = played
    assert len(state_changes(recorder.ticks[0][3], foreign.ticks[0][3], 1000)) == 31
    original, tampered = tmp_path / "a.replay", tmp_path / "b.replay"
    write_atomic(original, recorder.to_bytes(game))
    tick, _hash, systems, _body = recorder.ticks[0]
    recorder.ticks[0] = [tick, canonical.digest(foreign.ticks[0][3]), systems, foreign.ticks[0][3]]
    write_atomic(tampered, recorder.to_bytes(game))
    found = verify(load_replay(tampered))
    assert found is not None and found.reason == "state hash differs" and len(found.changes) == 20
    diff = diff_files(original, tampered)
    assert diff["reason"] == "state hash differs" and len(diff["changes"]) == 30
    for g, _ in played:
        g.close()


@pytest.mark.parametrize("names", ["the hero", "nothing"])
def test_a_replay_whose_initial_state_names_a_wrong_piece_is_refused(tmp_path: Path, names: str) -> None:
    """A replay's states are checked without building them (`check_entities`), as strictly as a
    save's: a deck whose draw pile names the hero (no Card) or an entity the state does not hold."""
    from ecs_zombie.replay import replay_of
    from ecs_zombie.snapshot import unwrap, wrap

    body = unwrap(_replay_bytes("shambling", 3, stop_after=2), "replay", "r")
    initial = msgpack.unpackb(body["initial"], raw=False)
    deck = next(e for e in initial["entities"] if any(c[0] == "Deck" for c in e[1]))
    hero = next(e[0] for e in initial["entities"] if any(c[0] == "Kind" and c[1] == ["hero"] for c in e[1]))
    wrong = hero if names == "the hero" else 99_999
    next(c[1] for c in deck[1] if c[0] == "Deck")[1] = [wrong]  # alone: no right one beside it
    body["initial"] = canonical.pack(initial)
    expected = "which has no Card" if names == "the hero" else "which the save does not hold"
    where = rf"initial state: entity {deck[0]} Deck\.draw names entity {wrong}, "
    with pytest.raises(SaveError, match=where + expected):
        replay_of(wrap("replay", canonical.pack(body)), "r.replay")
