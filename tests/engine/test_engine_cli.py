"""The command line as a user meets it: bad input is one line and exit status 2, never a traceback
or a lost file; saves and replays are deterministic across processes."""

from __future__ import annotations

import json
from pathlib import Path

import msgpack
import pytest

from ecs_zombie import canonical
from tests.helpers import ROOT, run_cli


def assert_refused(result, *needles: str) -> None:
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]


def test_run_json_has_the_numbers_a_player_wants() -> None:
    result = run_cli("run", "shambling", "--seed", "4", "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    for key in ("ruleset", "seed", "outcome", "turns", "survivors_left", "heroes_left", "zombies_destroyed"):
        assert key in out
    assert out["outcome"] in ("survivors", "zombies")


def test_same_seed_gives_identical_saves_in_fresh_processes(tmp_path: Path) -> None:
    """Determinism does not depend on the hash seed of the process (no hash() or set order)."""
    blobs = []
    for hashseed in ("0", "1", "4242"):
        path = tmp_path / f"s{hashseed}.msgpack"
        result = run_cli("run", "shambling", "--seed", "21", "--players", "3", "--policy", "random",
                         "--save", str(path), env={"PYTHONHASHSEED": hashseed})
        assert result.returncode == 0, result.stderr
        blobs.append(path.read_bytes())
    assert blobs[0] == blobs[1] == blobs[2]


def test_resume_is_byte_identical_to_never_stopping(tmp_path: Path) -> None:
    full, part, end = tmp_path / "full.msgpack", tmp_path / "part.msgpack", tmp_path / "end.msgpack"
    assert run_cli("run", "shambling", "--seed", "7", "--policy", "random", "--save", str(full)).returncode == 0
    assert run_cli("run", "shambling", "--seed", "7", "--policy", "random", "--stop-after", "3",
                   "--save", str(part)).returncode == 0
    assert run_cli("resume", str(part), "--save", str(end)).returncode == 0
    assert end.read_bytes() == full.read_bytes()


def test_replay_verify_and_tampering(tmp_path: Path) -> None:
    rec = tmp_path / "g.replay"
    assert run_cli("run", "shambling", "--seed", "7", "--record", str(rec)).returncode == 0
    ok = run_cli("replay", str(rec), "--verify", "--heavy")
    assert ok.returncode == 0 and "every tick's events and state match" in ok.stdout
    # Tamper with one decision and re-seal the file so it still loads: verification must name the tick.
    outer = msgpack.unpackb(rec.read_bytes(), raw=False)
    content = msgpack.unpackb(outer["body"], raw=False)
    content["decisions"][5] = 1 - content["decisions"][5] if content["decisions"][5] < 2 else 0
    body = canonical.pack(content)
    outer["body"], outer["blake2b"] = body, canonical.digest(body)
    bad = tmp_path / "bad.replay"
    bad.write_bytes(msgpack.packb(outer))
    result = run_cli("replay", str(bad), "--verify")
    assert result.returncode == 1
    assert "divergence at tick" in result.stderr
    assert "Traceback" not in result.stderr


def test_inspect_json_shape(tmp_path: Path) -> None:
    save = tmp_path / "s.msgpack"
    assert run_cli("run", "shambling", "--seed", "2", "--stop-after", "2", "--save", str(save)).returncode == 0
    out = json.loads(run_cli("inspect", str(save), "--json").stdout)
    assert set(out) >= {"ruleset", "seed", "tick", "entities"}
    assert out["tick"] == 2
    assert all(set(e) == {"id", "components"} for e in out["entities"])


def test_validate_everything_shipped() -> None:
    result = run_cli("validate")
    assert result.returncode == 0, result.stderr
    assert "prefabs/rulesets/shambling.yaml: ruleset shambling ok" in result.stdout
    assert "prefabs/scenarios/sza/bungalow.yaml: scenario ok (ruleset sza)" in result.stdout


def test_validate_a_prefab_file_alone() -> None:
    """A prefab file checked on its own, in a fresh process: its ruleset is loaded first, since its
    components (SZA's attributes, arms, ...) are registered by that ruleset's package."""
    result = run_cli("validate", "prefabs/sza/pieces.yaml")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("pieces.yaml: prefabs ok")


@pytest.mark.parametrize(("args", "needles"), [
    (["run", "nosuchgame"], ["unknown ruleset 'nosuchgame'"]),
    (["run", "shambling", "--dice", "7"], ["impossible for a d6"]),
    (["run", "shambling", "--dice", "3,x"], ["not a positive whole number"]),
    (["run", "shambling", "--cards", "ZZ"], ["not a card of this game's decks"]),
    (["run", "shambling", "--param", "front_line_cap=99"], ["above its maximum"]),
    (["run", "shambling", "--param", "nosuch=1"], ["unknown parameter 'nosuch'"]),
    (["run", "shambling", "--param", "front_line_cap=many"], ["takes int"]),
    (["run", "shambling", "--policy", "genius"], ["unknown policy 'genius'"]),
    (["resume", "no/such/save.msgpack"], ["no such file"]),
    (["replay", "no/such/file.replay"], ["no such file"]),
    (["validate", "no/such.yaml"], ["no such file"]),
])
def test_bad_arguments(args: list[str], needles: list[str]) -> None:
    assert_refused(run_cli(*args), *needles)


@pytest.mark.parametrize("damage", ["truncated", "corrupted", "foreign", "newer", "empty"])
def test_bad_saves(tmp_path: Path, damage: str) -> None:
    save = tmp_path / "s.msgpack"
    assert run_cli("run", "shambling", "--seed", "2", "--stop-after", "2", "--save", str(save)).returncode == 0
    data = save.read_bytes()
    if damage == "truncated":
        data = data[:100]
    elif damage == "corrupted":
        data = data[:200] + bytes([data[200] ^ 0x55]) + data[201:]
    elif damage == "foreign":
        data = b"PK\x03\x04 this is a zip file, not a save"
    elif damage == "newer":
        outer = msgpack.unpackb(data, raw=False)
        outer["version"] = 999
        data = msgpack.packb(outer)
    else:
        data = b""
    save.write_bytes(data)
    assert_refused(run_cli("resume", str(save)))
    assert_refused(run_cli("inspect", str(save)))


def test_bad_yaml_through_the_cli(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("ruleset: shambling\nentities:\n  - {prefab: hero, set: {Wounds: {taken: [}}\n")
    assert_refused(run_cli("run", str(path)), "broken.yaml:3", "malformed YAML")
    assert_refused(run_cli("validate", str(path)), "broken.yaml:3")
    path.write_text("ruleset: shambling\nentities:\n  - {prefab: zombiee}\n")
    assert_refused(run_cli("run", str(path)), "broken.yaml:3", "unknown prefab 'zombiee'")


def test_a_failed_run_never_overwrites_a_good_save(tmp_path: Path) -> None:
    save = tmp_path / "keep.msgpack"
    assert run_cli("run", "shambling", "--seed", "2", "--save", str(save)).returncode == 0
    before = save.read_bytes()
    assert_refused(run_cli("run", "shambling", "--dice", "9", "--save", str(save)))
    assert save.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_bare_save_names_go_to_the_saves_folder(tmp_path: Path) -> None:
    """A bare name is written into `saves/` of the working folder (not the checkout's), and what is
    written there is the save itself: it resumes."""
    name = f"bare-{tmp_path.name}.msgpack"  # unique: the checkout's saves/ must not hold it afterwards
    result = run_cli("run", "shambling", "--seed", "2", "--stop-after", "1", "--save", name, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "saves" / name).is_file()
    assert not (ROOT / "saves" / name).exists() and not (tmp_path / name).exists()
    resumed = run_cli("resume", str(tmp_path / "saves" / name), "--json", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
