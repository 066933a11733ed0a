"""Commands for composers: the rulesets known, the systems with their declarations, a ruleset's
resolved schedule, and the decisions it asks."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ecs_zombie.commands.output import JsonOpt, emit_json, err, guarded, out, table


def rulesets(params: Annotated[str | None, typer.Option("--params", help="List this ruleset's parameters.")] = None,
             as_json: JsonOpt = False) -> None:
    """The rulesets, shipped and from installed plugins, with where each comes from (or one
    ruleset's tunable parameters)."""
    from ecs_zombie.catalog import catalog
    from ecs_zombie.ruleset import load_ruleset

    def body() -> None:
        if params:
            rs = load_ruleset(params)
            rows = [{"name": p.name, "type": p.type, "default": p.default, "min": p.minimum, "max": p.maximum,
                     "choices": list(p.choices), "description": p.description} for p in rs.parameters.values()]
            if as_json:
                emit_json(rows)
                return
            table(["parameter", "type", "default", "range", "description"],
                  [[r["name"], r["type"], r["default"], _range(r), r["description"]] for r in rows],
                  title=f"{rs.id} parameters")
            return
        cat = catalog()
        entries = sorted(cat.entries.values(), key=lambda e: e.id)
        if as_json:
            emit_json([{"id": e.id, "description": e.description, "origin": e.origin.as_dict(),
                        "path": str(e.path)} for e in entries])
        else:
            table(["ruleset", "from", "description"], [[e.id, e.origin.describe(), e.description] for e in entries])
        for problem in cat.conflicts + cat.broken:
            err.print(f"warning: {problem}", markup=False)

    guarded(body)


def _range(row: dict[str, Any]) -> str:
    if row["choices"]:
        return " | ".join(str(c) for c in row["choices"])
    if row["min"] is None and row["max"] is None:
        return ""
    return f"{row['min'] if row['min'] is not None else ''}..{row['max'] if row['max'] is not None else ''}"


def _listed(values: list[str]) -> str:
    return ", ".join(values) if values else "-"


def systems(ruleset: Annotated[str | None, typer.Argument(help="Only the systems this ruleset schedules.")] = None,
            as_json: JsonOpt = False) -> None:
    """Systems with what they read, write and create, the steps they call, their parameters, the
    decisions they ask and the ruleset parameters they use."""
    from ecs_zombie.introspect import systems as found

    rows = guarded(lambda: found(ruleset))
    if as_json:
        emit_json(rows)
        return
    for s in rows:
        out.print(f"{s['name']} — {s['doc'] or '(no docstring)'}", markup=False)
        params = [f"{p['name']}: {p['type'] or 'any'}" + ("" if p["required"] else f" = {p['default']!r}")
                  for p in s["params"]]
        calls = [c["step"] + (f"({', '.join(c['passes'])})" if c["passes"] else "") for c in s["calls"]]
        for label, value in (("params", params), ("reads", s["reads"]), ("reads if present", s["optional"]),
                             ("writes", s["writes"]),
                             ("creates", s["creates"]), ("calls", calls), ("step params", s["step_params"]),
                             ("decides", s["decides"]), ("uses", s["uses"])):
            if value or label in ("reads", "writes"):
                out.print(f"  {label}: {_listed(value)}", markup=False)


def schedule(ruleset: Annotated[str, typer.Argument(help="A ruleset id or file.")], as_json: JsonOpt = False) -> None:
    """A ruleset's resolved schedule: phases, steps and parameter bindings, and for each component
    the systems that write it in the order they run (so a composer sees what a swap changes)."""
    from ecs_zombie.introspect import schedule as resolved

    data = guarded(lambda: resolved(ruleset))
    if as_json:
        emit_json(data)
        return
    out.print(f"{data['id']} — {data['name']} ({data['path']})", markup=False)
    out.print(f"a {data['tick']} at a time, at most {data['max_ticks']}", markup=False)

    def entry(e: dict[str, Any], step: bool = False) -> str:
        label = e["system"] if step or e["label"] == e["system"] else f"{e['label']} = {e['system']}"
        params = [f"{k}=${e['bound'][k]} ({v!r})" if k in e["bound"] else f"{k}={v!r}" for k, v in e["params"].items()]
        return label + (f"  {' '.join(params)}" if params else "")

    for phase in data["phases"]:
        out.print(f"phase {phase['name']}", markup=False)
        for i, e in enumerate(phase["systems"], 1):
            out.print(f"  {i}. {entry(e)}", markup=False)
    if data["steps"]:
        out.print("steps", markup=False)
        for name, e in data["steps"].items():
            out.print(f"  {name} -> {entry(e, step=True)}", markup=False)
    out.print("run order (steps under the system that runs them)", markup=False)
    for path in data["run_order"]:
        out.print(f"  {path}", markup=False)
    out.print("writers of each component, in the order they run", markup=False)
    for comp, paths in data["writers"].items():
        out.print(f"  {comp}: {', '.join(paths)}", markup=False)


def decisions(ruleset: Annotated[str, typer.Argument(help="A ruleset id or file.")], as_json: JsonOpt = False) -> None:
    """The decisions a ruleset asks: who answers, the form of the options, which systems ask."""
    from ecs_zombie.introspect import decisions as asked

    rows = guarded(lambda: asked(ruleset))
    if as_json:
        emit_json(rows)
        return
    for d in rows:
        out.print(f"{d['kind']} ({d['side'] or 'side not documented'}) — {d['doc'] or '(not documented)'}",
                  markup=False)
        out.print(f"  options: {d['options'] or '(not documented)'}", markup=False)
        out.print(f"  asked by: {', '.join(d['asked_by'])}; heuristic: {'yes' if d['heuristic'] else 'no'}",
                  markup=False)


def validate(
    paths: Annotated[list[str] | None, typer.Argument(
        metavar="PATH...", help="Ruleset, scenario, prefab or table files (default: every shipped and installed "
                                "ruleset and every shipped scenario).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help=(
        "Print one JSON object: ok, and what was checked (or the error, which also goes to standard error)."))
    ] = False,
) -> None:
    """Check rulesets, prefabs and scenarios without running them (all shipped ones by default)."""
    from ecs_zombie.errors import GameError
    from ecs_zombie.session import _checked_line, check_files

    def body() -> list[dict[str, Any]]:
        try:
            return check_files(paths or [])
        except GameError as exc:
            if as_json:
                emit_json({"ok": False, "error": str(exc), "checked": []})
            raise

    checked = guarded(body)
    if as_json:
        emit_json({"ok": True, "checked": checked})
        return
    for record in checked:
        out.print(_checked_line(record), markup=False)
