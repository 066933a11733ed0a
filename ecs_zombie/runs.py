"""Two runs compared: two replays tick by tick, or two saves, for `ecs-zombie diff`.

Replays are compared as recorded (nothing re-run): their initial states, then each tick's events
(the first that differs, blamed on its system) and state (the fields that differ). Saves are
compared state to state. Differences in which code or files made them are listed too, since a
desync hunter wants to know whether the two runs had the same rules.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ecs_zombie.diffing import (
    describe_change,
    describe_event_difference,
    first_event_difference,
    state_changes,
)
from ecs_zombie.errors import GameError, SaveError
from ecs_zombie.loading import check_state
from ecs_zombie.replay import load_replay
from ecs_zombie.snapshot import read_file, unwrap, unwrap_body


def _kind(path: Path) -> str:
    raw = read_file(path)
    try:
        unwrap(raw, "snapshot", str(path))
        return "snapshot"
    except SaveError as exc:
        if "not a snapshot" in str(exc):
            return "replay"
        raise


def _code(state: dict[str, Any]) -> dict[str, Any]:
    return (state.get("provenance") or {}).get("code") or {}


def diff_files(a: Path, b: Path) -> dict[str, Any]:
    """Where two replays (or two saves) part; `same` is True when they do not."""
    kinds = (_kind(a), _kind(b))
    if kinds[0] != kinds[1]:
        raise GameError(f"cannot compare a {kinds[0]} with a {kinds[1]}")
    result: dict[str, Any] = {"same": True, "compared": f"{kinds[0]}s {a} and {b}", "tick": None, "system": None,
                              "reason": "", "first_event": None, "changes": [], "differences": []}
    if kinds[0] == "snapshot":
        for p in (a, b):  # typed first: whatever is compared has the shape of a state
            check_state(unwrap_body(read_file(p), "snapshot", str(p)), str(p))
        sa, sb = (unwrap(read_file(p), "snapshot", str(p)) for p in (a, b))
        return _states(result, sa, sb, "the saved states differ")
    ra, rb = load_replay(a), load_replay(b)
    code = sorted(k for k in set(_code(ra.initial)) | set(_code(rb.initial))
                  if _code(ra.initial).get(k) != _code(rb.initial).get(k))
    result["code_changes"] = code
    if state_changes(ra.initial, rb.initial, 1):
        return _states(result, ra.initial, rb.initial, "the games start differently")
    events_a: dict[int, list[Any]] = {}
    events_b: dict[int, list[Any]] = {}
    for store, events in ((events_a, ra.events), (events_b, rb.events)):
        for e in events:
            store.setdefault(e[0], []).append(e)
    ticks_b = {t[0]: t for t in rb.ticks}
    for tick, hash_a, _systems, body_a in ra.ticks:
        other = ticks_b.get(tick)
        if other is None:
            result.update(same=False, tick=tick, reason=f"B ends before tick {tick}")
            break
        first = first_event_difference(events_a.get(tick, []), events_b.get(tick, []))
        if first is not None or hash_a != other[1]:
            result.update(same=False, tick=tick, reason="events differ" if first else "state hash differs",
                          system=first["system"] if first else None, first_event=first)
            changes = state_changes(body_a, other[3], 30)
            result["changes"] = changes
            result["differences"] = ([describe_event_difference(first, tick, "A", "B")] if first else []) + [
                describe_change(c, "A", "B") for c in changes]
            break
    else:
        if len(rb.ticks) > len(ra.ticks):
            result.update(same=False, tick=len(ra.ticks) + 1, reason=f"A ends before tick {len(ra.ticks) + 1}")
    notes = [f"code differs: {name}" for name in code]
    if ra.initial.get("policy") != rb.initial.get("policy"):
        notes.append(f"policies: A {ra.initial.get('policy')!r}, B {rb.initial.get('policy')!r}")
    result["notes"] = notes
    if not result["same"]:
        result["differences"] = notes + result["differences"]
    return result


def _states(result: dict[str, Any], sa: dict[str, Any], sb: dict[str, Any], reason: str) -> dict[str, Any]:
    changes = state_changes(sa, sb, 50)
    if changes:
        result.update(same=False, reason=reason, tick=sa.get("tick"), changes=changes,
                      differences=[describe_change(c, "A", "B") for c in changes])
    return result
