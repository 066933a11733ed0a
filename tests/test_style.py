"""The code stays ruff-clean and type-checks (the architecture card asks for both in the test command)."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from tests.helpers import ROOT


def tool(name: str) -> list[str]:
    if shutil.which(name) is None:
        pytest.skip(f"{name} is not installed (pip install '.[test]')")
    return [sys.executable, "-m", name]


def test_ruff() -> None:
    result = subprocess.run([*tool("ruff"), "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy() -> None:
    result = subprocess.run([*tool("mypy"), "ecs_zombie", "systems", "cli.py"], cwd=ROOT, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
