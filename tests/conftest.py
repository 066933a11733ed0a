"""Shared helpers: fresh games with forced dice and cards, and a CLI runner.

`ECS_ZOMBIE_TEST_INSTALLED=1 pytest` runs the suite against the installed package (a wheel's
compiled modules included) instead of the checkout, its command included.

Hypothesis runs derandomized (profile `derandomized`, the default): the same examples on every run,
so that a red build is a change in the code, never a new draw. `HYPOTHESIS_PROFILE=random pytest -m
hypothesis` draws fresh examples (CI runs it after the blocking runs, without failing the build).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from hypothesis import settings

# No deadline in either profile: this machine is shared, and a slow example is not a wrong one (the
# per-test timeout in pyproject.toml catches a hang).
settings.register_profile("derandomized", derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("random", derandomize=False, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "derandomized"))

_ROOT = Path(__file__).resolve().parent.parent
if os.environ.get("ECS_ZOMBIE_TEST_INSTALLED") and "ecs_zombie" not in sys.modules:
    # The checkout goes last on the path: `tests` still imports from it, `ecs_zombie` from the
    # installed package, here and in every process started from here (batch workers take our path).
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _ROOT] + [str(_ROOT)]
    _spec = importlib.util.find_spec("ecs_zombie")
    if _spec is None or _spec.origin is None or Path(_spec.origin).resolve().parent == _ROOT / "ecs_zombie":
        raise RuntimeError("ECS_ZOMBIE_TEST_INSTALLED: ecs_zombie is not installed (pip install .)")

from ecs_zombie.testing import make_game  # noqa: E402  (the fixture, registered by importing it)
from tests.helpers import ROOT, drive, run_cli  # noqa: E402


def pytest_report_header() -> str:
    import ecs_zombie.world

    return f"ecs_zombie.world: {ecs_zombie.world.__file__}"


__all__ = ["ROOT", "drive", "make_game", "run_cli"]
