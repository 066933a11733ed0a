"""Loading rulesets, prefabs and scenarios: every mistake is one line naming file, line and field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ecs_zombie._layout import PREFABS_DIR
from ecs_zombie.errors import DataError
from ecs_zombie.ruleset import load_ruleset
from ecs_zombie.scenario import load_scenario

RULESET = PREFABS_DIR / "rulesets" / "shambling.yaml"


def edited(tmp_path: Path, old: str, new: str) -> Path:
    text = RULESET.read_text()
    assert old in text
    path = tmp_path / "rs.yaml"
    path.write_text(text.replace(old, new, 1))
    return path


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def test_unknown_system_names_file_line_and_field(tmp_path: Path) -> None:
    path = edited(tmp_path, "- {system: shambling.pursuit,", "- {system: shambling.pursuet,")
    with pytest.raises(DataError) as info:
        load_ruleset(str(path))
    msg = str(info.value)
    assert f"rs.yaml:{line_of(path, 'pursuet')}:" in msg
    assert "phases[1].systems[2]" in msg and "unknown system 'shambling.pursuet'" in msg


def test_duplicate_system(tmp_path: Path) -> None:
    path = edited(tmp_path, "- {system: shambling.pursuit, params: {threshold: $pursuit_threshold}}",
                  "- {system: shambling.pursuit, params: {threshold: $pursuit_threshold}}\n"
                  "      - {system: shambling.pursuit, params: {threshold: 3}}")
    with pytest.raises(DataError, match="appears twice"):
        load_ruleset(str(path))
    path = edited(tmp_path, "- {system: shambling.pursuit, params: {threshold: $pursuit_threshold}}",
                  "- {system: shambling.pursuit, params: {threshold: $pursuit_threshold}}\n"
                  "      - {system: shambling.pursuit, label: second pursuit, params: {threshold: 3}}")
    labels = [s.label for s in load_ruleset(str(path)).phases[1][1]]
    assert labels == ["shambling.engage", "shambling.combat", "shambling.pursuit", "second pursuit"]


def test_system_reading_a_component_nothing_provides(tmp_path: Path) -> None:
    """A ruleset whose prefabs give no Wounds cannot run a system that reads Wounds."""
    (tmp_path / "figs.yaml").write_text("survivor:\n  Kind: {name: survivor}\n  Zone: {board: 0}\n")
    path = edited(tmp_path, "prefabs: [shambling/figures.yaml]", f"prefabs: [{tmp_path / 'figs.yaml'}]")
    with pytest.raises(DataError) as info:
        load_ruleset(str(path))
    lines = str(info.value).splitlines()
    assert len(lines) > 1  # every unprovided read is reported, not only the first
    reported = set()
    for line in lines:
        where, _, message = line.partition(": system ")
        name = message.split("'")[1]
        reported.add(name)
        # each at the line of the entry that schedules the system
        assert where.startswith(f"{path}:{line_of(path, name)}: "), line
        assert "which no prefab or system of this ruleset provides" in message
    assert {"shambling.engage", "shambling.combat"} <= reported


def test_parameter_default_out_of_range(tmp_path: Path) -> None:
    path = edited(tmp_path, "default: 6", "default: 60")
    with pytest.raises(DataError, match="above its maximum"):
        load_ruleset(str(path))


def test_malformed_yaml_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("ruleset: shambling\nentities: [\n  {prefab: hero\n")
    with pytest.raises(DataError, match=r"bad.yaml:\d+: malformed YAML"):
        load_scenario(str(path))


def test_yaml_is_loaded_safely(tmp_path: Path) -> None:
    path = tmp_path / "evil.yaml"
    path.write_text("ruleset: !!python/object/apply:os.system ['echo pwned']\n")
    with pytest.raises(DataError):
        load_scenario(str(path))


@pytest.mark.parametrize(("entry", "message"), [
    ("{prefab: heroo}", "unknown prefab 'heroo'"),
    ("{prefab: hero, set: {Wounds: {takn: 1}}}", "has no field 'takn'"),
    ("{prefab: hero, set: {Wounds: {taken: lots}}}", "takes int"),
    ("{prefab: hero, set: {Woundz: {taken: 1}}}", "unknown component 'Woundz'"),
    ("{prefab: hero, count: two}", "expected a whole number"),
])
def test_impossible_overrides(tmp_path: Path, entry: str, message: str) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(f"ruleset: shambling\nentities:\n  - {entry}\n")
    with pytest.raises(DataError) as info:
        load_scenario(str(path))
    assert message in str(info.value)
    assert "s.yaml:3:" in str(info.value)


def test_scenario_table_override_is_found_beside_the_scenario(tmp_path: Path) -> None:
    shutil.copy(PREFABS_DIR / "shambling" / "crt.yaml", tmp_path / "my_crt.yaml")
    (tmp_path / "s.yaml").write_text(
        "ruleset: shambling\ntables: {shambling.crt: my_crt.yaml}\n"
        "entities: [{prefab: board, per_player: true}]\ndecks: [{name: shambling, table: shambling.deck}]\n"
    )
    scenario = load_scenario(str(tmp_path / "s.yaml"))
    assert scenario.table_overrides["shambling.crt"] == str((tmp_path / "my_crt.yaml").resolve())


def test_a_misspelt_key_of_a_deck_is_refused_with_its_place(tmp_path: Path) -> None:
    """A scenario's deck takes `name` and `table` only: `tabel` is named, with the line."""
    (tmp_path / "s.yaml").write_text(
        "ruleset: shambling\nentities: [{prefab: board, per_player: true}]\n"
        "decks:\n  - {name: shambling, table: shambling.deck, tabel: x}\n")
    with pytest.raises(DataError) as info:
        load_scenario(str(tmp_path / "s.yaml"))
    assert "s.yaml:4: decks[0].tabel: unknown key 'tabel'" in str(info.value)


def test_a_broken_table_names_its_row(tmp_path: Path) -> None:
    text = (PREFABS_DIR / "shambling" / "crt.yaml").read_text().replace("  3: [0, 0, 0,", "  3: [0, x, 0,")
    (tmp_path / "crt.yaml").write_text(text)
    (tmp_path / "s.yaml").write_text("ruleset: shambling\ntables: {shambling.crt: crt.yaml}\n")
    with pytest.raises(DataError, match=r"crt.yaml:\d+: rows.3: row 3 must list 20 whole numbers"):
        load_scenario(str(tmp_path / "s.yaml"))


def test_system_parameters_may_name_ruleset_parameters(tmp_path: Path) -> None:
    """`$name` in a system's params takes the ruleset parameter; an unknown name is refused."""
    path = edited(tmp_path, "- {system: shambling.combat, params: {rounds: $combat_rounds}}",
                  "- {system: shambling.combat, params: {rounds: $combat_rounds}}")
    rs = load_ruleset(str(path))
    step = rs.phases[1][1][1]
    assert step.bound({"combat_rounds": 2})["rounds"] == 2
    path = edited(tmp_path, "- {system: core.narration, params: {track: shambling.narration}}",
                  "- {system: core.narration, params: {track: shambling.narration, x: $nosuch}}")
    with pytest.raises(DataError, match="names no parameter"):
        load_ruleset(str(path))


def test_a_scenario_must_provide_what_its_systems_read(tmp_path: Path) -> None:
    """A scenario placing nothing a system reads (and no system creating it) is refused at load,
    every offender on its own line naming the ruleset entry, instead of failing at the first read."""
    (tmp_path / "s.yaml").write_text("ruleset: stalingrad\nentities: []\n")
    with pytest.raises(DataError) as info:
        load_scenario(str(tmp_path / "s.yaml"))
    lines = str(info.value).splitlines()
    assert len(lines) == 12  # every system of stalingrad.yaml, steps included
    # the ruleset's own file is named as found (relative to the working folder, or absolute)
    assert lines[0].startswith(f"{tmp_path / 's.yaml'}: system 'stalingrad.setup' (")
    assert lines[0].endswith("rulesets/stalingrad.yaml:38: phases[0].systems[0]) reads StalingradRound, Tally, but "
                             "the scenario places no entity with them and no system creates them")


def test_misspelt_keys_are_refused_with_a_suggestion(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text("ruleset: shambling\nentites: []\n")
    with pytest.raises(DataError, match=r"s.yaml:2: entites: unknown key 'entites' \(did you mean 'entities'\?\)"):
        load_scenario(str(tmp_path / "s.yaml"))
    path = edited(tmp_path, "max_ticks: 10", "max_tick: 10")
    with pytest.raises(DataError, match=r"rs.yaml:\d+: max_tick: unknown key 'max_tick' \(did you mean 'max_ticks'"):
        load_ruleset(str(path))


@pytest.mark.parametrize(("deck", "message"), [("{table: shambling.deck}", "decks[0]: missing field 'name'"),
                                               ("{name: 3, table: shambling.deck}", "decks[0].name")])
def test_a_deck_without_a_name_in_text_is_refused_with_its_place(tmp_path: Path, deck: str, message: str) -> None:
    """A scenario's deck needs a `name` in text (the deck entity is made and found under it)."""
    (tmp_path / "s.yaml").write_text(
        f"ruleset: shambling\nentities: [{{prefab: board, per_player: true}}]\ndecks:\n  - {deck}\n")
    with pytest.raises(DataError) as info:
        load_scenario(str(tmp_path / "s.yaml"))
    assert f"s.yaml:4: {message}" in str(info.value)

