"""The public API: what `ecs_zombie` exports, documented, typed, and cheap to import."""

from __future__ import annotations

import importlib.util
import inspect
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import ecs_zombie
from tests.helpers import ROOT


def _load_tool() -> ModuleType:
    """tools/api_doc.py, which is no package: loaded from its file."""
    spec = importlib.util.spec_from_file_location("api_doc", ROOT / "tools" / "api_doc.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


api_doc = _load_tool()

# What the package promises (issue 14, point 5): driving a game from outside, the policies, the
# decorators of rules, the loaders.
PROMISED = {"Stepper", "Policy", "PolicyTable", "system", "heuristic", "table", "metrics", "decision_kind",
            "load_ruleset", "load_scenario", "load_game", "save_game", "load_replay", "new_game", "Game"}


def test_every_promised_name_is_exported_with_a_docstring() -> None:
    """Every exported name has a docstring in the source (what docs/api.md shows). The compiled
    build's `help()` lacks those of its compiled functions and classes: mypyc drops them (README,
    "The public API"), so at run time they are checked only where the code is interpreted."""
    assert PROMISED <= set(ecs_zombie.__all__)
    assert len(set(ecs_zombie.__all__)) == len(ecs_zombie.__all__)
    page = api_doc.render()
    for name in ecs_zombie.__all__:
        value = getattr(ecs_zombie, name)
        assert name in dir(ecs_zombie)
        if name == "__version__":
            assert isinstance(value, str)
            continue
        section = page.split(f"### `{name}`", 1)[1].split("\n### ", 1)[0]
        assert "*(no docstring)*" not in section.split("\n- ", 1)[0], f"{name} has no docstring in the source"
        module = sys.modules[getattr(value, "__module__", "") or "ecs_zombie"]
        if (getattr(module, "__file__", "") or "").endswith(".py"):
            assert (inspect.getdoc(value) or "").strip(), f"{name} has no docstring"


def test_the_api_page_is_generated_from_the_docstrings_and_up_to_date() -> None:
    """docs/api.md is what tools/api_doc.py writes from the source as it is now: a docstring changed
    without regenerating it fails here (run `python tools/api_doc.py`)."""
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    assert page == api_doc.render(), "docs/api.md is stale: run python tools/api_doc.py"
    for name in ecs_zombie.__all__:
        assert f"### `{name}`" in page


def test_the_page_goes_stale_when_a_docstring_changes(tmp_path: Path) -> None:
    """The staleness check can fail: a copy of the package with one docstring edited renders differently."""
    import shutil

    copy = tmp_path / "ecs_zombie"
    shutil.copytree(ROOT / "ecs_zombie", copy, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    stepper = copy / "stepper.py"
    stepper.write_text(stepper.read_text(encoding="utf-8").replace(
        "The pending decision's options", "The options of the pending decision"), encoding="utf-8")
    before = api_doc.render()
    old = api_doc.PACKAGE
    api_doc.PACKAGE = copy
    try:
        after = api_doc.render()
    finally:
        api_doc.PACKAGE = old
    assert before != after and "The options of the pending decision" in after


def test_the_package_ships_py_typed_in_its_wheel() -> None:
    assert (ROOT / "ecs_zombie" / "py.typed").is_file()
    wheel = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["hatch"]["build"][
        "targets"]["wheel"]
    # hatchling puts every file of a listed package in the wheel, unless excluded
    assert wheel["packages"] == ["ecs_zombie"]
    assert not any("py.typed" in str(p) for p in wheel.get("exclude", []))
    installed = os.environ.get("ECS_ZOMBIE_TEST_INSTALLED")
    if installed:
        assert (Path(ecs_zombie.__file__).parent / "py.typed").is_file()


def test_importing_the_package_is_cheap() -> None:
    """No command-line, plotting, distributed or save-decoding library at `import ecs_zombie`: those
    load when their names are first used (saves and replays), or never (the CLI's)."""
    code = ("import sys, json, ecs_zombie; print(json.dumps(sorted(m.split('.')[0] for m in sys.modules)))")
    env = dict(os.environ)
    if not os.environ.get("ECS_ZOMBIE_TEST_INSTALLED"):
        env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    loaded = set(json.loads(done.stdout))
    heavy = {"msgspec", "rich", "typer", "click", "textual", "matplotlib", "numpy", "dask", "distributed",
             "hypothesis", "pytest"}
    assert not loaded & heavy, sorted(loaded & heavy)


def test_lazy_names_load_on_first_use() -> None:
    code = ("import sys, ecs_zombie; assert 'ecs_zombie.snapshot' not in sys.modules; "
            "from ecs_zombie import load_game, load_replay; import ecs_zombie.snapshot as s; "
            "assert load_game is s.load; print('ok')")
    env = dict(os.environ)
    if not os.environ.get("ECS_ZOMBIE_TEST_INSTALLED"):
        env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.stdout.strip() == "ok", done.stderr
    try:
        ecs_zombie.no_such_name  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("an unknown name must raise AttributeError")


def test_a_game_driven_through_the_public_api_alone(tmp_path: Path) -> None:
    """What docs/api.md shows, used as a user would: a game stepped from outside and saved at a
    pending decision, loaded there again and finished, recorded and verified."""
    from ecs_zombie import PolicyTable, Recorder, Stepper, load_game, load_replay, new_game, save_game, verify_replay

    game = new_game("shambling", 7)
    recorder = Recorder(game)
    stepper = Stepper(game, auto=PolicyTable("heuristic"), sides={"player:0"}, resumable=True)
    assert stepper.pending is not None and stepper.pending.side == "player:0"
    save_game(game, tmp_path / "at.msgpack")
    loaded = load_game(str(tmp_path / "at.msgpack"))
    assert loaded.pending is not None and loaded.pending.kind == stepper.pending.kind
    loaded.close()
    while not stepper.done:
        stepper.answer(0)
    path = tmp_path / "g.replay"
    path.write_bytes(recorder.to_bytes(game))
    assert verify_replay(load_replay(path)) is None
    game.close()
