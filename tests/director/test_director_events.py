"""Every event kind the Director game's systems log is pinned by a rule test (replays and
debugging read them): each kind must appear in some test of this folder as `events(game, "kind"`,
where that test asserts the event's fields where the rule produces it."""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers import ROOT

SYSTEMS = ROOT / "systems" / "director"
HERE = Path(__file__).resolve().parent


def test_every_logged_event_kind_is_asserted_by_a_rule_test() -> None:
    logged = set()
    for path in SYSTEMS.glob("*.py"):
        logged.update(re.findall(r"game\.log\(\s*['\"]([a-z_]+)['\"]", path.read_text()))
    asserted = set()
    for path in HERE.glob("test_*.py"):
        asserted.update(re.findall(r'events\(game, "([a-z_]+)"', path.read_text()))
    assert len(logged) >= 40  # the scan found the systems' log calls
    assert sorted(logged - asserted) == []
