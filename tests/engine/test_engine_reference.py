"""The speed reference plays the engine's game, event for event.

benchmarks/shambling_reference.py is a tight plain-Python Night of the Shambling Dead: the
denominator of the speed target "the checkout's plain Python at least 0.5x a tight plain-Python loop
of the same rules". A ratio against a loop that plays a different game measures nothing, and a rule
changed in systems/shambling/ (or a heuristic, a table, a stream) would leave the reference playing
the old game without anyone noticing. So every test run plays a few seeds both ways, through the
script's own `--check`, and holds them to the same `(tick, kind, data)` events and outcome: a rule
change now fails here until the reference follows it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.helpers import ROOT

SCRIPT = ROOT / "benchmarks" / "shambling_reference.py"
SEEDS = 20


def test_reference_matches_the_engine_event_for_event() -> None:
    command = [sys.executable, str(SCRIPT), "--check", str(SEEDS)]
    if os.environ.get("ECS_ZOMBIE_TEST_INSTALLED"):  # hold the reference to the build under test
        command.append("--installed")
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    found = re.search(r"identical: (\d+) games, (\d+) events", result.stdout)
    assert found is not None, result.stdout
    games, events = int(found[1]), int(found[2])
    assert games == SEEDS
    assert events > 100 * SEEDS  # whole games were compared, not empty logs
