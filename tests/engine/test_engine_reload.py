"""A process that lives on (a notebook, the terminal UI, a Dask worker) caches each ruleset and
scenario it loads; the cache must give way when any file the load read is edited, not only the top
file: a table edited in place is played at once, and a save made under the old table is refused as
made with different rules, naming the table."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ecs_zombie import load_game, load_ruleset, load_scenario, new_game, save_game
from ecs_zombie.batch import BatchSpec, check, run_batch
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.errors import SaveError
from ecs_zombie.filestamps import recording, stamp, unchanged
from tests.fuzzing import layout


def _edit(path: Path, old: str, new: str) -> None:
    """Change a file's text, keeping its size when the edit does, and make sure its modification time
    moves (two writes within the file system's clock tick would otherwise look alike)."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    before = path.stat().st_mtime_ns
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    os.utime(path, ns=(before + 1_000_000_000, before + 1_000_000_000))


@pytest.fixture
def data(tmp_path: Path) -> Path:
    layout(tmp_path)
    return tmp_path


def test_an_unchanged_ruleset_is_served_from_the_cache(data: Path) -> None:
    """The cache still serves: loading the same unchanged files twice gives the very same object."""
    first = load_ruleset(str(data / "shambling.yaml"))
    assert load_ruleset(str(data / "shambling.yaml")) is first


def test_an_edited_table_is_read_again(data: Path) -> None:
    """Shambling's strength table: 'hero: {unwounded: 3 ...}'. Edited to 4 in place, the next load of
    the ruleset (whose own file did not change) plays the 4."""
    first = load_ruleset(str(data / "shambling.yaml"))
    assert first.tables["shambling.strength"].of("hero", False) == 3
    _edit(data / "shambling" / "strength.yaml", "hero: {unwounded: 3", "hero: {unwounded: 4")
    again = load_ruleset(str(data / "shambling.yaml"))
    assert again is not first
    assert again.tables["shambling.strength"].of("hero", False) == 4
    assert again.content_hash != first.content_hash


def test_an_edited_prefab_file_is_read_again(data: Path) -> None:
    """The prefab files a ruleset names are among its files too."""
    first = load_ruleset(str(data / "shambling.yaml"))
    prefabs = data / "shambling" / "figures.yaml"
    _edit(prefabs, "\n", "\n# edited\n")
    assert load_ruleset(str(data / "shambling.yaml")) is not first


def test_a_scenario_follows_its_rulesets_tables(data: Path) -> None:
    """A scenario cached with its ruleset is loaded again when a table of that ruleset changes,
    whether the scenario is named by its own file or through its ruleset."""
    scenario_file = data / "scenarios" / "shambling.yaml"
    _edit(scenario_file, "ruleset: shambling\n", "ruleset: ../shambling.yaml\n")  # the copy, not the shipped one
    by_file = load_scenario(str(scenario_file))
    by_ruleset = load_scenario(str(data / "shambling.yaml"))
    assert load_scenario(str(scenario_file)) is by_file
    assert load_scenario(str(data / "shambling.yaml")) is by_ruleset
    _edit(data / "shambling" / "strength.yaml", "hero: {unwounded: 3", "hero: {unwounded: 4")
    for target, old in ((scenario_file, by_file), (data / "shambling.yaml", by_ruleset)):
        now = load_scenario(str(target))
        assert now is not old
        assert now.ruleset.tables["shambling.strength"].of("hero", False) == 4


def test_a_save_from_before_the_edit_is_refused_naming_the_table(data: Path) -> None:
    """A save records its rules; loaded after a table changed in the same process, it is refused as
    made with different rules, and the message names the changed file."""
    game = new_game(load_scenario(str(data / "shambling.yaml")), 3)
    save_game(game, data / "before.save")
    game.close()
    _edit(data / "shambling" / "strength.yaml", "hero: {unwounded: 3", "hero: {unwounded: 4")
    with pytest.raises(SaveError, match=r"different rules .*strength\.yaml"):
        load_game(data / "before.save")


@pytest.mark.parametrize("workers", [1, 2])
def test_a_batch_plays_the_edited_table(data: Path, workers: int) -> None:
    """Two batches with a table edited between them, in this process or on a pool: the second plays
    the new rules. Survivors at combat strength 0 against 'survivor: {unwounded: 2, wounded: 1}'
    win fewer games."""
    spec = BatchSpec(str(data / "shambling.yaml"), 30, 5, "heuristic", None, {})

    def results() -> list[tuple[str, int]]:
        check(spec)
        return [(r["outcome"], r["turns"]) for rows in run_batch(spec, workers, chunk=5) for r in rows]

    before = results()
    assert results() == before
    _edit(data / "shambling" / "strength.yaml", "survivor: {unwounded: 2, wounded: 1}",
          "survivor: {unwounded: 0, wounded: 0}")
    after = results()
    assert after != before
    assert sum(o == "survivors" for o, _ in after) < sum(o == "survivors" for o, _ in before)


def test_stamps_record_every_file_read_and_see_each_change(data: Path) -> None:
    """The stamps a load records: the ruleset's own file and each table; a changed size, a changed
    time or a file gone each make them stale."""
    from ecs_zombie import ruleset as ruleset_module

    ruleset_module._CACHE.clear()
    with recording() as seen:
        load_ruleset(str(data / "shambling.yaml"))
    names = {Path(name).relative_to(data).as_posix() for name, _, _ in seen}
    assert {"shambling.yaml", "shambling/crt.yaml", "shambling/strength.yaml", "shambling/narration.yaml",
            "shambling/deck.yaml", "shambling/figures.yaml"} <= names
    assert unchanged(frozenset(seen))
    crt = data / "shambling" / "crt.yaml"
    st = crt.stat()
    os.utime(crt, ns=(st.st_atime_ns, st.st_mtime_ns + 1))
    assert not unchanged(frozenset(seen))
    assert stamp(data / "no-such-file.yaml") is None


def test_a_verification_looks_at_the_files_once(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A heavy verification reloads every tick's state; inside it the rules' files are looked at once
    per set, not at each reload, so it stays as fast as before and sees one set of rules."""
    from ecs_zombie import filestamps, replay

    game = new_game(load_scenario(str(data / "shambling.yaml")), 4)
    recorder = replay.Recorder(game)
    game.play(PolicyTable("heuristic"))
    recorded = replay.replay_of(recorder.to_bytes(game))
    game.close()
    looks: list[str] = []
    real = filestamps.stamp

    def counted(path: Path | str) -> filestamps.Stamp | None:
        looks.append(str(path))
        return real(path)

    monkeypatch.setattr(filestamps, "stamp", counted)
    assert replay.verify(recorded, heavy=True) is None
    ticks = len(recorded.ticks)
    assert ticks > 3
    assert looks and len(looks) == len(set(looks))  # each file once, though the rules were loaded at every tick
    looks.clear()
    load_ruleset(str(data / "shambling.yaml"))
    load_ruleset(str(data / "shambling.yaml"))
    assert len(looks) == 2 * len(set(looks)) > 0  # outside one, each load looks at every file again


def test_a_save_from_before_the_edit_can_still_be_inspected(data: Path) -> None:
    """Reading a state (`inspect`, `diff`) needs its components, not the same rules: a save made
    before a table changed is read, though it can no longer be loaded to play on."""
    from ecs_zombie.loading import check_state
    from ecs_zombie.snapshot import unwrap_body

    game = new_game(load_scenario(str(data / "shambling.yaml")), 3)
    save_game(game, data / "before.save")
    game.close()
    _edit(data / "shambling" / "strength.yaml", "hero: {unwounded: 3", "hero: {unwounded: 4")
    body = unwrap_body((data / "before.save").read_bytes(), "snapshot", "before.save")
    assert check_state(body, "before.save").tick == 0
    from ecs_zombie.session import inspect_state

    shown = inspect_state(str(data / "before.save"), None)
    assert shown["tick"] == 0 and shown["entities"]
    with pytest.raises(SaveError, match="different rules"):
        load_game(data / "before.save")
