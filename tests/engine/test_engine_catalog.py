"""Where rulesets and policies come from (ecs_zombie/catalog.py): the shipped games, installed
plugins (entry points, faked here as an installed distribution would declare them) and files;
origins as saves record them; conflicts and broken sources reported, never fatal."""

from __future__ import annotations

import importlib.metadata
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ecs_zombie import catalog as cat
from ecs_zombie._layout import PREFABS_DIR
from ecs_zombie.errors import DataError, GameError

SHIPPED = ["director", "director-adaptive", "director-sza", "shambling", "shambling-sza", "stalingrad",
           "stalingrad-paced", "stalingrad-shambling", "sza", "sza-paced"]


class FakeDist:
    def __init__(self, name: str, version: str) -> None:
        self.name, self.version = name, version


class FakeEntryPoint:
    def __init__(self, name: str, value: Any, dist: FakeDist | None, fails: bool = False) -> None:
        self.name, self.value, self.dist, self._value, self._fails = name, f"mod:{name}", dist, value, fails

    def load(self) -> Any:
        if self._fails:
            raise ImportError("no module named 'mod'")
        return self._value


@pytest.fixture
def plugins(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, list[FakeEntryPoint]]]:
    """Installed entry points by group (empty to start with); the catalog is rebuilt around the test."""
    groups: dict[str, list[FakeEntryPoint]] = {cat.RULESET_GROUP: [], cat.POLICY_GROUP: []}
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: list(groups.get(group, [])))
    cat.catalog(refresh=True)
    yield groups
    monkeypatch.undo()
    cat.catalog(refresh=True)


def ruleset_copy(folder: Path, rid: str, description: str = "A copy.") -> Path:
    text = (PREFABS_DIR / "rulesets" / "shambling.yaml").read_text(encoding="utf-8")
    text = text.replace("id: shambling\n", f"id: {rid}\n", 1)
    text = re.sub(r"(?m)^description: .*$", f"description: {description}", text, count=1)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{rid}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


# -- origins ----------------------------------------------------------------------------------


def test_origins_round_trip_and_describe_themselves() -> None:
    plugin = cat.Origin("plugin", "my-hybrids", "1.2")
    assert plugin.as_dict() == {"dist": "my-hybrids", "kind": "plugin", "path": "", "version": "1.2"}
    assert cat.Origin.from_dict(plugin.as_dict()) == plugin
    assert cat.Origin.from_dict({"kind": "shipped"}) == cat.Origin("shipped")
    assert [o.describe() for o in (plugin, cat.Origin("plugin", "bare"), cat.Origin("file", path="/x/r.yaml"),
                                   cat.Origin("shipped"))] == ["plugin my-hybrids 1.2", "plugin bare",
                                                               "file /x/r.yaml", "shipped"]


@pytest.mark.parametrize("data", [None, ["shipped"], {"kind": "stolen"}, {"kind": "plugin", "dist": 3},
                                  {"kind": "file", "path": None}, {}])
def test_a_bad_origin_is_a_game_error(data: Any) -> None:
    with pytest.raises(GameError, match="a ruleset origin must name shipped, plugin or file"):
        cat.Origin.from_dict(data)


# -- sources and the catalog ------------------------------------------------------------------


def test_ruleset_headers(tmp_path: Path) -> None:
    assert cat.ruleset_header(PREFABS_DIR / "rulesets" / "sza.yaml") == (
        "sza", cat.ruleset_header(PREFABS_DIR / "rulesets" / "sza.yaml")[1])  # type: ignore[index]
    (tmp_path / "no_id.yaml").write_text("phases: []\ndescription: [not, text]\n")
    assert cat.ruleset_header(tmp_path / "no_id.yaml") == ("no_id", "")
    (tmp_path / "scenario.yaml").write_text("ruleset: shambling\n")
    assert cat.ruleset_header(tmp_path / "scenario.yaml") is None
    (tmp_path / "list.yaml").write_text("- phases\n")
    assert cat.ruleset_header(tmp_path / "list.yaml") is None


def test_files_of_folders_files_lists_and_functions(tmp_path: Path) -> None:
    for name in ("b.yaml", "a.yaml", "c.yml", "notes.txt"):
        (tmp_path / name).write_text("x: 1\n")
    folder = [tmp_path / "a.yaml", tmp_path / "b.yaml", tmp_path / "c.yml"]
    assert cat._files_of(tmp_path) == folder
    assert cat._files_of(str(tmp_path)) == folder
    assert cat._files_of(tmp_path / "b.yaml") == [tmp_path / "b.yaml"]
    assert cat._files_of([tmp_path / "b.yaml", tmp_path]) == [tmp_path / "b.yaml", *folder]
    assert cat._files_of(lambda: [tmp_path / "a.yaml"]) == [tmp_path / "a.yaml"]
    with pytest.raises(TypeError, match="expected a folder, a ruleset file or a list of them, got int"):
        cat._files_of(3)


def test_the_shipped_games_are_the_catalog_without_plugins(plugins: dict[str, list[FakeEntryPoint]]) -> None:
    found = cat.catalog()
    assert sorted(found.entries) == SHIPPED
    assert all(e.origin == cat.Origin("shipped") for e in found.entries.values())
    assert found.conflicts == [] and found.broken == []
    assert cat.catalog() is found  # found once per process
    assert cat.catalog(refresh=True) is not found


def test_plugins_add_rulesets_report_conflicts_and_survive_breakage(
        tmp_path: Path, plugins: dict[str, list[FakeEntryPoint]]) -> None:
    mine = ruleset_copy(tmp_path / "mine", "my-hybrid", "Mine.")
    clash = ruleset_copy(tmp_path / "clash", "shambling")
    (tmp_path / "mine" / "broken.yaml").write_text("phases: [\n")
    plugins[cat.RULESET_GROUP] += [
        FakeEntryPoint("zz", tmp_path / "clash", FakeDist("Zeta-Dist", "2.0")),
        FakeEntryPoint("hybrids", lambda: tmp_path / "mine", FakeDist("alpha-dist", "1.0")),
        FakeEntryPoint("gone", None, FakeDist("beta-dist", "0.1"), fails=True),
    ]
    found = cat.catalog(refresh=True)
    assert sorted(found.entries) == sorted([*SHIPPED, "my-hybrid"])
    entry = found.entries["my-hybrid"]
    assert (entry.description, entry.path, entry.origin) == ("Mine.", mine, cat.Origin("plugin", "alpha-dist",
                                                                                          "1.0"))
    assert found.entries["shambling"].origin == cat.Origin("shipped")  # the shipped game wins
    assert found.conflicts == [f"ruleset 'shambling' of plugin Zeta-Dist 2.0 ({clash}) is hidden by the one of "
                               f"shipped ({PREFABS_DIR / 'rulesets' / 'shambling.yaml'})"]
    assert len(found.broken) == 2
    assert "broken.yaml" in found.broken[0] and "malformed YAML" in found.broken[0]
    assert found.broken[1] == ("plugin beta-dist 0.1: entry point 'gone' (mod:gone) failed: ImportError: "
                               "no module named 'mod'")
    assert cat.locate("my-hybrid") == entry
    assert cat.locate(str(mine)) == entry  # by path: the catalog's own entry


def test_the_same_file_offered_twice_is_no_conflict(tmp_path: Path, plugins: dict[str, list[FakeEntryPoint]]) -> None:
    ruleset_copy(tmp_path, "twice")
    plugins[cat.RULESET_GROUP] += [FakeEntryPoint("a", tmp_path, FakeDist("d", "1")),
                                   FakeEntryPoint("b", [tmp_path / "twice.yaml"], FakeDist("d", "1"))]
    found = cat.catalog(refresh=True)
    assert "twice" in found.entries and found.conflicts == []
    assert found.by_path(tmp_path / "twice.yaml") == found.entries["twice"]
    assert found.by_path(tmp_path / "other.yaml") is None


def test_locate_by_id_and_by_path(tmp_path: Path, plugins: dict[str, list[FakeEntryPoint]]) -> None:
    shipped = cat.locate("stalingrad")
    assert shipped.path == PREFABS_DIR / "rulesets" / "stalingrad.yaml" and shipped.origin.kind == "shipped"
    assert cat.locate(str(PREFABS_DIR / "rulesets" / "stalingrad.yaml")) == shipped
    loose = ruleset_copy(tmp_path, "loose", "Loose.")
    entry = cat.locate(str(loose))
    assert (entry.id, entry.description, entry.origin) == ("loose", "Loose.", cat.Origin("file",
                                                                                        path=str(loose.resolve())))
    with pytest.raises(DataError, match="unknown ruleset 'nosuch' \\(known: director, director-adaptive, "):
        cat.locate("nosuch")
    with pytest.raises(DataError, match="no such file"):
        cat.locate(str(tmp_path / "missing.yaml"))
    (tmp_path / "scenario.yml").write_text("ruleset: shambling\n")
    with pytest.raises(DataError, match="not a ruleset file \\(it has no 'phases:'\\)"):
        cat.locate(str(tmp_path / "scenario.yml"))


def test_a_saved_origin_finds_its_ruleset_or_says_what_is_missing(
        tmp_path: Path, plugins: dict[str, list[FakeEntryPoint]]) -> None:
    assert cat.find_saved("sza", cat.Origin("shipped")).id == "sza"
    loose = ruleset_copy(tmp_path, "loose")
    assert cat.find_saved("loose", cat.Origin("file", path=str(loose))).path == loose
    with pytest.raises(GameError, match=r"was loaded from the file /no/such\.yaml, which does not exist here"):
        cat.find_saved("x", cat.Origin("file", path="/no/such.yaml"))
    with pytest.raises(GameError, match=r"comes from the plugin their-dist 3\.1, which is not installed here "
                                        r"\(pip install their-dist\)"):
        cat.find_saved("theirs", cat.Origin("plugin", "their-dist", "3.1"))
    with pytest.raises(GameError, match="unknown ruleset 'gone'"):
        cat.find_saved("gone", cat.Origin("shipped"))


# -- policies ---------------------------------------------------------------------------------


def test_plugin_policies(plugins: dict[str, list[FakeEntryPoint]]) -> None:
    class Clever:
        name = "clever"

    plugins[cat.POLICY_GROUP] += [FakeEntryPoint("clever", Clever, FakeDist("b-dist", "1.0")),
                                  FakeEntryPoint("clever", object, FakeDist("c-dist", "1.0")),
                                  FakeEntryPoint("bare", Clever, None)]
    found = cat.plugin_policies()
    assert found == {"clever": (Clever, "plugin b-dist 1.0"), "bare": (Clever, "plugin mod:bare")}
    plugins[cat.POLICY_GROUP].append(FakeEntryPoint("zz-broken", None, FakeDist("d", "1"), fails=True))
    with pytest.raises(GameError, match=r"policy 'zz-broken' of plugin d 1 failed to load: ImportError"):
        cat.plugin_policies()
    plugins[cat.POLICY_GROUP][-1] = FakeEntryPoint("zz-data", 42, FakeDist("d", "1"))
    with pytest.raises(GameError, match="policy 'zz-data' of plugin d 1 is not a class or function"):
        cat.plugin_policies()


def test_a_shipped_scenario_is_found_from_any_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A scenario file named as in the checkout (`prefabs/scenarios/...`) or below the shipped prefabs
    (`scenarios/...`) is found from any working folder, as the shipped one."""
    from ecs_zombie.scenario import resolve

    monkeypatch.chdir(tmp_path)
    shipped = (PREFABS_DIR / "scenarios" / "sza" / "bungalow.yaml").resolve()
    for name in ("prefabs/scenarios/sza/bungalow.yaml", "scenarios/sza/bungalow.yaml"):
        assert resolve(name)[0].resolve() == shipped


def test_the_sources_are_staged_as_the_wheel_lays_them_out(tmp_path: Path) -> None:
    """For mypy and mypyc the checkout's Python files are copied where the wheel puts them: the
    rules under `ecs_zombie/systems/`, the command line as `ecs_zombie/cli.py`."""
    from ecs_zombie._layout import stage_sources

    root = Path(__file__).resolve().parents[2]
    stage_sources(root, tmp_path)
    for rel in ("ecs_zombie/game.py", "ecs_zombie/cli.py", "ecs_zombie/systems/sza/board.py",
                "ecs_zombie/systems/stalingrad/attack.py"):
        assert (tmp_path / rel).is_file(), rel
    assert (tmp_path / "ecs_zombie/systems/sza/board.py").read_bytes() == (root / "systems/sza/board.py").read_bytes()
    assert not (tmp_path / "systems").exists() and not (tmp_path / "ecs_zombie/systems/sza/__pycache__").exists()


def test_sources_in_folders_without_python_files_of_their_own_are_staged(tmp_path: Path) -> None:
    """A ruleset's module may sit folders deep with nothing but folders above it: every folder on
    the way is made."""
    from ecs_zombie._layout import stage_sources

    checkout, dest = tmp_path / "checkout", tmp_path / "staged"
    for rel in ("ecs_zombie/a.py", "ecs_zombie/b.py", "systems/deep/er/rules.py", "cli.py"):
        (checkout / rel).parent.mkdir(parents=True, exist_ok=True)
        (checkout / rel).write_text(f"# {rel}\n")
    stage_sources(checkout, dest)
    assert sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*.py")) == [
        "ecs_zombie/a.py", "ecs_zombie/b.py", "ecs_zombie/cli.py", "ecs_zombie/systems/deep/er/rules.py"]
    assert (dest / "ecs_zombie/systems/deep/er/rules.py").read_text() == "# systems/deep/er/rules.py\n"
