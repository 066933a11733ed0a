"""Where the rules, the data and the command live, in a checkout and once installed.

The repository keeps `systems/`, `prefabs/` and `cli.py` at its top level; the wheel nests them
under `ecs_zombie/`. A small import finder maps the checkout's files to the same dotted names, so
every import reads `ecs_zombie.systems.<ruleset>` and `ecs_zombie.cli` in both cases and no generic
top-level name (`systems`, `cli`) is ever importable.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE_DIR = Path(__file__).resolve().parent
_CHECKOUT = PACKAGE_DIR.parent
IN_CHECKOUT = (_CHECKOUT / "systems").is_dir() and not (PACKAGE_DIR / "systems").is_dir()
ROOT = _CHECKOUT if IN_CHECKOUT else PACKAGE_DIR
PREFABS_DIR = ROOT / "prefabs"
SYSTEMS_DIR = ROOT / "systems"


class _CheckoutFinder(importlib.abc.MetaPathFinder):
    """Finds `ecs_zombie.systems` and `ecs_zombie.cli` in a source checkout."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname == "ecs_zombie.systems":
            return importlib.util.spec_from_file_location(
                fullname, SYSTEMS_DIR / "__init__.py", submodule_search_locations=[str(SYSTEMS_DIR)]
            )
        if fullname == "ecs_zombie.cli":
            return importlib.util.spec_from_file_location(fullname, _CHECKOUT / "cli.py")
        return None


def mount() -> None:
    """Install the checkout finder once (a no-op in an installed wheel)."""
    if IN_CHECKOUT and not any(isinstance(f, _CheckoutFinder) for f in sys.meta_path):
        sys.meta_path.append(_CheckoutFinder())


# Where the checkout's files go in the wheel (pyproject's force-include says the same).
WHEEL_LAYOUT = {"ecs_zombie": "ecs_zombie", "systems": "ecs_zombie/systems", "cli.py": "ecs_zombie/cli.py"}


def stage_sources(checkout: Path, dest: Path) -> None:
    """Copy the checkout's Python sources into `dest` as the wheel lays them out, so that tools which
    follow imports by path (mypy, mypyc) see `ecs_zombie.systems.<ruleset>` where it is imported from.
    Standard library only: the wheel's build hook loads this file on its own."""
    for source, target in WHEEL_LAYOUT.items():
        src = checkout / source
        files = [(src, dest / target)] if src.is_file() else [
            (py, dest / target / py.relative_to(src)) for py in sorted(src.rglob("*.py"))]
        for py, copy in files:
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(py, copy)
