"""The project's own test helpers: the rule-testing helpers every ruleset author gets from
`ecs_zombie.testing` (re-exported here, so tests import one place), and the command run in a
subprocess.

Import them as `from tests.helpers import drive, run_cli` (the repository root is on pytest's path);
never `from conftest import ...`, which is ambiguous when sub-folders have their own conftest.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from ecs_zombie.testing import (
    check_random_play,
    check_recorded_replay,
    drive,
    events,
    force,
    games,
    play_recorded,
    run_system,
    strict_mode,
)

ROOT = Path(__file__).resolve().parent.parent

__all__ = ["ROOT", "check_random_play", "check_recorded_replay", "drive", "events", "force", "games",
           "play_recorded", "run_cli", "run_system", "strict_mode"]


def run_cli(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The command in a subprocess, as a user runs it (`python -m ecs_zombie`)."""
    full_env = dict(os.environ)
    command = [sys.executable, "-m", "ecs_zombie", *args]
    if os.environ.get("ECS_ZOMBIE_TEST_INSTALLED"):  # the installed command (-P: not the checkout in cwd)
        full_env.pop("PYTHONPATH", None)
        command.insert(1, "-P")
    else:
        full_env["PYTHONPATH"] = str(ROOT)  # the checkout's code, not an older installed copy
    full_env.update(env or {})
    return subprocess.run(command, capture_output=True, text=True, env=full_env, cwd=cwd or ROOT, timeout=300)
