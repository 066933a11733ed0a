"""The code stays ruff-clean and type-checks (the architecture card asks for both in the test command).

Both tools are in the test extra (`pip install ".[test]"`): a missing one fails these tests rather
than skipping them, so a broken install can never pass the style checks unseen."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ecs_zombie._layout import stage_sources
from tests.helpers import ROOT


def tool(name: str) -> list[str]:
    """The tool as this interpreter runs it (`python -m name`): what the check below really uses."""
    if importlib.util.find_spec(name) is None:
        pytest.fail(f"{name} is not installed for {sys.executable} (pip install '.[test]')")
    return [sys.executable, "-m", name]


def test_ruff() -> None:
    result = subprocess.run([*tool("ruff"), "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy(tmp_path: Path) -> None:
    """Checked as the wheel lays the code out, so that every `ecs_zombie.systems...` import resolves
    and the rules are checked against the engine's types (mypyc compiles that same layout)."""
    stage_sources(ROOT, tmp_path)
    shutil.copyfile(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")  # the [tool.mypy] settings
    result = subprocess.run([*tool("mypy"), "ecs_zombie"], cwd=tmp_path, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    build_hook = subprocess.run([*tool("mypy"), "hatch_build.py"], cwd=ROOT, capture_output=True, text=True,
                                timeout=600)
    assert build_hook.returncode == 0, build_hook.stdout + build_hook.stderr


def test_a_missing_tool_fails_rather_than_skips() -> None:
    """A test extra without ruff or mypy must turn these checks red, never grey."""
    with pytest.raises(pytest.fail.Exception, match="not installed"):
        tool("no_such_style_tool_installed")
    assert tool("ruff") == [sys.executable, "-m", "ruff"]
