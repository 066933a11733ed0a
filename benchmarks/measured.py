"""Which build a benchmark measures. Imported by every benchmark before it imports ecs_zombie.

By default, this checkout's code (plain Python, as the tests run it): the repository root goes first
on the import path. With `--installed`, the installed package instead: after `pip install .` that is
the wheel whose hot modules mypyc compiled (see hatch_build.py), which is what users run.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INSTALLED = "--installed" in sys.argv[1:]
if not INSTALLED:
    sys.path.insert(0, str(ROOT))


def add_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--installed", action="store_true",
                        help="measure the installed package (compiled by pip install .) instead of this checkout")


def build() -> str:
    """A line naming the build being measured."""
    import ecs_zombie.world

    where = Path(ecs_zombie.world.__file__ or "").resolve()
    kind = "plain Python" if where.suffix == ".py" else "compiled by mypyc"
    origin = "this checkout" if where.parent == ROOT / "ecs_zombie" else "installed"
    return f"build: {origin}, {kind} ({where.parent})"
