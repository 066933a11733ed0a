"""The code stays ruff-clean and type-checks (the architecture card asks for both in the test command)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ecs_zombie._layout import stage_sources
from tests.helpers import ROOT


def tool(name: str) -> list[str]:
    if shutil.which(name) is None:
        pytest.skip(f"{name} is not installed (pip install '.[test]')")
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
