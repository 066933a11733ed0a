"""Fuzzing what users hand the command (issue 17): real saves, replays and YAML files of every ruleset,
mutated with their structure in mind and their checksums recomputed (`tests/fuzzing.py`), each run
through the command in this process under a deadline and a memory cap.

Whatever the variant: exit status 0, 1 or 2; on 2, one `error:` line per error and nothing else; no
traceback; no hang (5 s); no memory blow-up (512 MB more address space at most). A YAML variant
that `validate` accepts must also `run`. A few dozen variants each, so that these stay a small part
of the suite; `benchmarks/fuzz.py` runs the same variants by the ten thousand.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ecs_zombie import new_game
from ecs_zombie.replay import Recorder
from ecs_zombie.ruleset import list_rulesets
from ecs_zombie.snapshot import save
from tests import fuzzing

RULESETS = [rid for rid, _ in list_rulesets()]
SECONDS, MEMORY_MB = 5.0, 512
FUZZ = settings(max_examples=25, suppress_health_check=list(HealthCheck), deadline=None)


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A save (a tick or two in) and a replay (six ticks) of every ruleset, and a copy of the data."""
    home = tmp_path_factory.mktemp("fuzz")
    saves, replays = [], []
    for i, rid in enumerate(RULESETS):
        game = new_game(rid, i, policy="random")
        game.play(stop_after=1 + i % 2)
        saves.append(save(game, home / "real.msgpack"))
        game.close()
        game = new_game(rid, i, policy="random")
        recorder = Recorder(game)
        game.play(stop_after=6)
        replays.append(recorder.to_bytes(game))
        game.close()
    fuzzing.layout(home / "data")
    (home / "v").mkdir()
    return {"home": home, "saves": saves, "replays": replays, "yaml": fuzzing.yaml_files(home / "data")}


def check(args: list[str], folder: Path, fresh: bool = False) -> fuzzing.Outcome:
    outcome = fuzzing.run_command(args, folder, SECONDS, MEMORY_MB, fresh)
    verdict = fuzzing.judge(outcome, SECONDS)
    assert not verdict.problem, f"{verdict.problem}: {verdict.detail}\n{outcome.trace or outcome.stderr}"
    return outcome


@FUZZ
@given(st.data())
def test_a_mutated_save_is_refused_in_one_line_or_plays(real: dict[str, Any], data: st.DataObject) -> None:
    ch = fuzzing.DataChooser(data)
    original = fuzzing.pick(ch, real["saves"])
    variant, _done = fuzzing.mutate_save(ch, original)
    folder = real["home"] / "v"
    path = folder / "s.msgpack"
    path.write_bytes(variant)
    (folder / "real.msgpack").write_bytes(original)
    command = fuzzing.pick(ch, [["inspect", str(path)], ["inspect", str(path), "--json"], ["resume", str(path)],
                                ["diff", str(folder / "real.msgpack"), str(path)]])
    check(command, folder)


@FUZZ
@given(st.data())
def test_a_mutated_replay_is_refused_in_one_line_or_verifies(real: dict[str, Any], data: st.DataObject) -> None:
    ch = fuzzing.DataChooser(data)
    variant, _done = fuzzing.mutate_save(ch, fuzzing.pick(ch, real["replays"]))
    folder = real["home"] / "v"
    path = folder / "r.replay"
    path.write_bytes(variant)
    command = fuzzing.pick(ch, [["inspect", str(path), "--json", "--tick", "2"], ["replay", str(path), "--verify"],
                                ["replay", str(path)], ["events", str(path)]])
    check(command, folder)


@settings(max_examples=15, suppress_health_check=list(HealthCheck), deadline=None)
@given(st.data())
def test_a_mutated_yaml_file_is_refused_in_one_line_or_plays(real: dict[str, Any], data: st.DataObject) -> None:
    """Rulesets, scenarios, prefab files and tables alike; what validate accepts, run plays."""
    ch = fuzzing.DataChooser(data)
    folder: Path = real["home"] / "data"
    target: Path = fuzzing.pick(ch, real["yaml"])
    original = target.read_text()
    try:
        variant, _done = fuzzing.mutate_yaml(ch, original)
        target.write_text(variant)
        rel = target.relative_to(folder)
        whole = [p for p in sorted(folder.glob("*.yaml")) if rel.as_posix() in p.read_text()] or [target]
        main = target if rel.parent == Path(".") or rel.parts[0] == "scenarios" else fuzzing.pick(ch, whole)
        validated = check(["validate", str(main)], real["home"] / "v", fresh=True)
        # run plays what validate checked as a game: a scenario, or a ruleset with its default one
        game = "scenario ok" in validated.stdout or "with its default scenario" in validated.stdout
        if validated.code == 0 and game:
            played = check(["run", str(main), "--seed", str(ch.below(100))], real["home"] / "v", fresh=True)
            assert played.code == 0, f"validate accepted {rel}, run refused it: {played.stderr}"
    finally:
        target.write_text(original)
        fuzzing.forget()


def test_the_harness_sees_a_traceback_a_hang_and_a_blow_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The judge is only as good as what it can see: a crash, a loop and a runaway allocation in a
    command are each reported as such, never as a pass."""
    from ecs_zombie import session

    def crash(*_a: Any) -> Any:
        raise KeyError("boom")

    def loop(*_a: Any) -> Any:
        while True:
            pass

    def hog(*_a: Any) -> Any:
        return [bytearray(64 * 1024 * 1024) for _ in range(64)]

    for fn, problem in ((crash, "traceback"), (loop, "hang"), (hog, "memory")):
        monkeypatch.setattr(session, "check_files", fn)  # what `validate` calls
        outcome = fuzzing.run_command(["validate"], tmp_path, seconds=1.0, memory_mb=256)
        assert fuzzing.judge(outcome, 1.0).problem == problem
    shutil.rmtree(tmp_path, ignore_errors=True)
