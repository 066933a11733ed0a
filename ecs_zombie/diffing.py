"""Where two runs part: the first event that differs in a tick, and the components that differ
between two states, field by field (`entity 12 Wounds.taken: 0 → 2`).

Used by replay verification (recorded against re-run) and by `ecs-zombie diff` (two replays or two
saves). Every difference comes as structured data (for `--json`) and as one readable line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgpack

from ecs_zombie import canonical

# Keys of a state that say which code and files wrote it rather than what the game is.
PROVENANCE_KEYS = frozenset({"provenance", "ruleset_files", "schema"})
# Keys that say who answers the decisions, not what the game is: a replay answers from its record.
POLICY_KEYS = frozenset({"policy", "policy_rng"})


def decode(body: bytes | dict[str, Any]) -> dict[str, Any]:
    return body if isinstance(body, dict) else msgpack.unpackb(body, raw=False, strict_map_key=True)


def _entities(state: dict[str, Any]) -> dict[int, dict[str, dict[str, Any]]]:
    """Entity -> component -> field -> value, with field names from the state's schema."""
    schema = state.get("schema") or {}
    out: dict[int, dict[str, dict[str, Any]]] = {}
    for ent, comps in state.get("entities") or []:
        named: dict[str, dict[str, Any]] = {}
        for name, values in comps:
            fields = schema.get(name) or [str(i) for i in range(len(values))]
            named[name] = dict(zip(fields, values, strict=False))
        out[ent] = named
    return out


def state_changes(before: bytes | dict[str, Any], after: bytes | dict[str, Any], limit: int = 50
                  ) -> list[dict[str, Any]]:
    """The differences from `before` to `after`: top-level keys, entities only in one, components
    only in one, and field values; at most `limit`, in a stable order."""
    a, b = decode(before), decode(after)
    out: list[dict[str, Any]] = []
    for key in sorted(set(a) | set(b)):
        if key in ("entities", *PROVENANCE_KEYS, *POLICY_KEYS):
            continue
        if canonical.pack_sorted(a.get(key)) != canonical.pack_sorted(b.get(key)):
            out.append({"what": "key", "key": key, "before": a.get(key), "after": b.get(key)})
    ea, eb = _entities(a), _entities(b)
    for ent in sorted(set(ea) | set(eb)):
        if ent not in eb:
            out.append({"what": "entity", "entity": ent, "before": ea[ent], "after": None})
        elif ent not in ea:
            out.append({"what": "entity", "entity": ent, "before": None, "after": eb[ent]})
        else:
            for comp in sorted(set(ea[ent]) | set(eb[ent])):
                ca, cb = ea[ent].get(comp), eb[ent].get(comp)
                if ca is None or cb is None:
                    out.append({"what": "component", "entity": ent, "component": comp, "before": ca, "after": cb})
                    continue
                for field in [f for f in ca if f in cb] + [f for f in cb if f not in ca]:
                    if canonical.pack_sorted(ca.get(field)) != canonical.pack_sorted(cb.get(field)):
                        out.append({"what": "field", "entity": ent, "component": comp, "field": field,
                                    "before": ca.get(field), "after": cb.get(field)})
        if len(out) >= limit:
            break
    return out[:limit]


def describe_change(change: dict[str, Any], before: str = "recorded", after: str = "replayed") -> str:
    """One line for a change (`before`/`after` name the two runs where a value is absent)."""
    what = change["what"]
    if what == "key":
        return f"{change['key']}: {change['before']!r} → {change['after']!r}"
    ent = change["entity"]
    if what == "entity":
        return f"entity {ent}: only in the {after if change['before'] is None else before}"
    if what == "component":
        present = change["before"] if change["after"] is None else change["after"]
        side = before if change["after"] is None else after
        return f"entity {ent} {change['component']}: only in the {side} ({present!r})"
    return f"entity {ent} {change['component']}.{change['field']}: {change['before']!r} → {change['after']!r}"


def _packed(event: Sequence[Any]) -> bytes:
    return canonical.pack_sorted(list(event))


def first_event_difference(expected: Sequence[Sequence[Any]], got: Sequence[Sequence[Any]], complete: bool = True,
                           order: Sequence[str] = ()) -> dict[str, Any] | None:
    """The first event where two runs of one tick part (None if none): its position in the tick,
    both events (None where a run has none) and the system to blame. With `complete=False` (the
    second run stopped early, e.g. it raised) its having fewer events is no difference.

    The blame is the system that logged differently: the one both runs were in when they parted,
    else the one that runs first (`order`: paths in run order)."""
    if len(expected) == len(got) and canonical.pack(list(expected)) == canonical.pack(list(got)):
        return None  # the common case, in one packing each: the same bytes in insertion order are the same events
    n = min(len(expected), len(got))
    index = next((i for i in range(n) if _packed(expected[i]) != _packed(got[i])), None)
    if index is None:
        # a run stopped early (complete=False) may only have fewer events; more is a difference
        if len(expected) == len(got) or (not complete and len(got) < len(expected)):
            return None
        index = n
    a = expected[index] if index < len(expected) else None
    b = got[index] if index < len(got) else None
    path_a = a[3] if a is not None and len(a) > 3 else None
    path_b = b[3] if b is not None and len(b) > 3 else None
    common = got[index - 1][3] if index > 0 and len(got[index - 1]) > 3 else None
    if path_a == path_b or path_b is None:
        system = path_a
    elif path_a is None:
        system = path_b
    elif common in (path_a, path_b):
        system = common
    else:
        rank = {p: i for i, p in enumerate(order)}
        system = min((path_a, path_b), key=lambda p: rank.get(p.split("/")[0], len(rank)))
    return {"index": index, "system": system, "recorded": list(a) if a is not None else None,
            "replayed": list(b) if b is not None else None}


def describe_event_difference(found: dict[str, Any], tick: int, before: str = "recorded",
                              after: str = "replayed") -> str:
    a, b = found["recorded"], found["replayed"]

    def show(e: list[Any] | None) -> str:
        return "nothing" if e is None else f"{e[1]} {e[2]!r} (by {e[3] if len(e) > 3 else '?'})"

    return f"event {found['index'] + 1} of tick {tick}: {before} {show(a)}, {after} {show(b)}"
