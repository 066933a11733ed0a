"""What a composer needs to see: systems with their declarations, a ruleset's resolved schedule,
the systems that write each component in the order they run, and the decisions a ruleset asks.

Everything here returns plain data (the CLI prints it as text or JSON): `ecs-zombie systems`,
`ecs-zombie schedule RULESET`, `ecs-zombie decisions RULESET`.
"""

from __future__ import annotations

from typing import Any

from ecs_zombie.decisions import KINDS, heuristic_for
from ecs_zombie.ruleset import Ruleset, Step, load_ruleset
from ecs_zombie.schedule import SystemSpec, registered
from ecs_zombie.signature import MISSING, params_of


def describe_system(spec: SystemSpec) -> dict[str, Any]:
    params = []
    for p in params_of(spec.fn):
        params.append({"name": p.name, "type": p.annotation or None,
                       "default": None if p.default is MISSING else p.default, "required": p.required})
    return {
        "name": spec.name, "doc": spec.doc, "module": spec.module, "params": params,
        "reads": sorted(spec.reads), "optional": sorted(spec.optional), "writes": sorted(spec.writes),
        "creates": sorted(spec.creates),
        "removes": sorted(spec.removes),
        "calls": [{"step": name, "passes": list(passes)} for name, passes in spec.calls],
        "step_params": list(spec.step_params), "decides": sorted(spec.decides), "uses": sorted(spec.uses),
    }


def systems(ruleset: str | None) -> list[dict[str, Any]]:
    """Every system a ruleset schedules (in schedule order), or every registered one by name."""
    if ruleset is not None:
        rs = load_ruleset(ruleset)
        seen: dict[str, SystemSpec] = {}
        for step in rs.scheduled():
            seen.setdefault(step.spec.name, step.spec)
        return [describe_system(spec) for spec in seen.values()]
    from ecs_zombie.catalog import catalog

    for entry in catalog().entries.values():  # import every known ruleset's packages
        try:
            load_ruleset(entry.id)
        except Exception:  # a broken plugin is listed by `rulesets`; its systems are simply absent
            continue
    return [describe_system(spec) for spec in registered().values()]


def _entry(step: Step, rs: Ruleset) -> dict[str, Any]:
    params: dict[str, Any] = dict(step.params)
    bindings = {}
    for key, ref in step.refs:
        params[key] = rs.parameters[ref].default
        bindings[key] = ref
    return {"label": step.label, "system": step.spec.name, "params": params, "bound": bindings,
            "where": step.where}


def step_order(rs: Ruleset) -> list[tuple[str, Step]]:
    """Every system as it runs: each phase entry, then the steps it may call right after it (under
    `label/step`). Steps named by tables are placed after the first system that runs table steps."""
    table_steps: list[str] = []
    for name in sorted(rs.tables):
        calls = getattr(rs.tables[name], "step_calls", None)
        if calls is not None:
            for step_name, *_rest in calls():
                if step_name not in table_steps:
                    table_steps.append(step_name)
    out: list[tuple[str, Step]] = []
    placed: set[str] = set()

    def visit(path: str, step: Step) -> None:  # each step is placed once: the walk ends
        out.append((path, step))
        names = [n for n, _p in step.spec.calls if n != "*"]
        for pname in step.spec.step_params:
            value = step.params.get(pname)
            names += value if isinstance(value, list) else [value] if isinstance(value, str) else []
        if any(n == "*" for n, _p in step.spec.calls):
            names += [n for n in table_steps if n not in placed]
        for name in names:
            if name in rs.steps and name not in placed:
                placed.add(name)
                visit(f"{path}/{name}", rs.steps[name])

    for _phase, entries in rs.phases:
        for entry in entries:
            visit(entry.label, entry)
    for name in sorted(rs.steps):
        if name not in placed:
            out.append((f"steps.{name}", rs.steps[name]))
    return out


def schedule(ruleset: str) -> dict[str, Any]:
    """The resolved schedule: phases, steps, parameter bindings, and each component's writers."""
    rs = load_ruleset(ruleset)
    order = step_order(rs)
    writers: dict[str, list[str]] = {}
    for path, step in order:
        for comp in sorted({*step.spec.writes, *step.spec.creates}):
            writers.setdefault(comp, []).append(path)
    return {
        "id": rs.id, "name": rs.name, "origin": rs.origin.as_dict(), "path": str(rs.path),
        "tick": rs.tick_name, "max_ticks": rs.max_ticks,
        "phases": [{"name": name, "systems": [_entry(s, rs) for s in entries]} for name, entries in rs.phases],
        "steps": {name: _entry(step, rs) for name, step in sorted(rs.steps.items())},
        "parameters": {name: p.default for name, p in sorted(rs.parameters.items())},
        "run_order": [path for path, _s in order],
        "writers": dict(sorted(writers.items())),
    }


def decisions(ruleset: str) -> list[dict[str, Any]]:
    """Every decision kind the ruleset's systems ask: who answers, the options' form, what it means,
    which systems ask it, and whether the `heuristic` policy knows it."""
    rs = load_ruleset(ruleset)
    asked: dict[str, list[str]] = {}
    for step in rs.scheduled():
        for kind in step.spec.decides:
            names = asked.setdefault(kind, [])
            if step.spec.name not in names:
                names.append(step.spec.name)
    out = []
    for kind in sorted(asked):
        info = KINDS.get(kind)
        out.append({"kind": kind, "side": info.side if info else None, "options": info.options if info else None,
                    "doc": info.doc if info else None, "asked_by": asked[kind],
                    "heuristic": heuristic_for(kind) is not None})
    return out
