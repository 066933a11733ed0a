"""Loading and validating a ruleset: phases of ordered systems, tables, prefabs and parameters.

A ruleset is the game's schedule, written in YAML under `prefabs/rulesets/`. Loading checks it the
way a scheduler should before anything runs: every system exists, none appears twice, every
component a system reads is provided by a prefab or created by a system, every table has a
registered validator and passes it, every parameter has a type, a default and a range.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ecs_zombie import canonical
from ecs_zombie._layout import PREFABS_DIR
from ecs_zombie.components import by_name
from ecs_zombie.data import YList, YMap, display_path, fail, load_yaml, need, plain
from ecs_zombie.errors import DataError
from ecs_zombie.prefabs import Prefab, load_prefabs
from ecs_zombie.registry import METRICS, TABLES
from ecs_zombie.schedule import SystemSpec, load_package, lookup

RULESETS_DIR = PREFABS_DIR / "rulesets"
_PARAM_TYPES: dict[str, type | tuple[type, ...]] = {"int": int, "float": float, "bool": bool, "str": str}


@dataclass(frozen=True, slots=True)
class Parameter:
    """A tunable number of the ruleset (`ecs-zombie rulesets --params NAME`)."""

    name: str
    type: str
    default: Any
    minimum: Any = None
    maximum: Any = None
    choices: tuple[Any, ...] = ()
    description: str = ""

    def check(self, value: Any, where: str) -> Any:
        """The value converted from text where needed, or a one-line error naming `where`."""
        kind = _PARAM_TYPES[self.type]
        if isinstance(value, str) and self.type != "str":
            value = _from_text(value, self.type, self.name, where)
        if self.type == "float" and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kind) or (isinstance(value, bool) and self.type != "bool"):
            raise DataError(f"parameter {self.name!r} takes {self.type}, got {value!r}", where)
        if self.minimum is not None and value < self.minimum:
            raise DataError(f"parameter {self.name!r} = {value!r} is below its minimum {self.minimum}", where)
        if self.maximum is not None and value > self.maximum:
            raise DataError(f"parameter {self.name!r} = {value!r} is above its maximum {self.maximum}", where)
        if self.choices and value not in self.choices:
            raise DataError(f"parameter {self.name!r} = {value!r} is not one of {list(self.choices)}", where)
        return value


def _from_text(text: str, kind: str, name: str, where: str) -> Any:
    try:
        if kind == "int":
            return int(text)
        if kind == "float":
            return float(text)
        if text.lower() in ("true", "yes", "1"):
            return True
        if text.lower() in ("false", "no", "0"):
            return False
    except ValueError:
        pass
    raise DataError(f"parameter {name!r} takes {kind}, got {text!r}", where)


@dataclass(frozen=True, slots=True)
class Step:
    """One entry of a phase: a system and the parameters the YAML gives it.

    A parameter written `$name` takes the ruleset parameter `name` when the system runs, so a
    system's numbers can be tuned with `--param` and swept like any other parameter."""

    spec: SystemSpec
    params: dict[str, Any]
    refs: tuple[tuple[str, str], ...] = ()

    def bound(self, values: dict[str, Any]) -> dict[str, Any]:
        if not self.refs:
            return self.params
        return {**self.params, **{key: values[name] for key, name in self.refs}}


@dataclass(slots=True)
class Ruleset:
    id: str
    name: str
    description: str
    path: Path
    tick_name: str
    max_ticks: int
    phases: list[tuple[str, list[Step]]]
    parameters: dict[str, Parameter]
    tables: dict[str, Any]
    prefabs: dict[str, Prefab]
    metrics: str
    default_scenario: Path | None
    content_hash: str
    steps: dict[str, SystemSpec] = field(default_factory=dict)

    def params_with(self, overrides: dict[str, Any], where: str) -> dict[str, Any]:
        """Defaults overridden and validated; an unknown name is an error before any game runs."""
        values = {k: p.default for k, p in sorted(self.parameters.items())}
        for key, value in overrides.items():
            if key not in self.parameters:
                known = ", ".join(sorted(self.parameters)) or "none"
                raise DataError(f"unknown parameter {key!r} for ruleset {self.id!r} (known: {known})", where)
            values[key] = self.parameters[key].check(value, where)
        return values


def ruleset_path(name_or_path: str) -> Path:
    """A ruleset's file from its short name (`shambling`) or a path."""
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml"):
        return p
    return RULESETS_DIR / f"{name_or_path}.yaml"


def list_rulesets() -> list[tuple[str, str]]:
    out = []
    for path in sorted(RULESETS_DIR.glob("*.yaml")):
        data = load_yaml(path)
        if isinstance(data, dict):
            out.append((str(data.get("id", path.stem)), str(data.get("description", ""))))
    return sorted(out)


_CACHE: dict[tuple[str, int, int, tuple[tuple[str, str], ...]], Ruleset] = {}


def load_ruleset(name_or_path: str, table_overrides: dict[str, str] | None = None) -> Ruleset:
    """Load and validate a ruleset (cached per process: batch workers parse YAML once)."""
    path = ruleset_path(name_or_path)
    if not path.is_file():
        known = ", ".join(r for r, _ in list_rulesets())
        raise DataError(f"unknown ruleset {name_or_path!r} (known: {known})")
    stat = path.stat()  # a file edited since it was cached is read again
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size, tuple(sorted((table_overrides or {}).items())))
    if key in _CACHE:
        return _CACHE[key]
    rs = _build(path, load_yaml(path), table_overrides or {})
    _CACHE[key] = rs
    return rs


def _build(path: Path, doc: Any, table_overrides: dict[str, str]) -> Ruleset:
    if not isinstance(doc, YMap):
        raise DataError("a ruleset must be a mapping", display_path(path))
    rid = need(doc, "id", str, "ruleset")
    for pkg in need(doc, "packages", list, "ruleset"):
        try:
            load_package(str(pkg))
        except ModuleNotFoundError as exc:
            raise fail(f"no systems package {pkg!r} ({exc})", doc, "packages", "packages") from None
    hashed: dict[str, Any] = {"ruleset": plain(doc)}

    parameters = _parameters(need(doc, "parameters", dict, "ruleset", default=YMap()))
    tables, hashed["tables"] = _tables(need(doc, "tables", dict, "ruleset", default=YMap()), table_overrides)
    prefab_files = need(doc, "prefabs", list, "ruleset", default=YList())
    prefabs: dict[str, Prefab] = {}
    for i, rel in enumerate(prefab_files):
        if not isinstance(rel, str):
            raise fail("expected a file name", prefab_files, i, f"prefabs[{i}]")
        loaded, raw = load_prefabs(PREFABS_DIR / rel, prefabs)
        prefabs.update(loaded)
        hashed[f"prefabs/{rel}"] = raw

    phases: list[tuple[str, list[Step]]] = []
    seen: dict[str, str] = {}
    raw_phases = need(doc, "phases", list, "ruleset")
    for pi, phase in enumerate(raw_phases):
        pname = need(phase, "name", str, f"phases[{pi}]")
        steps: list[Step] = []
        entries = need(phase, "systems", list, f"phases[{pi}]")
        for si, entry in enumerate(entries):
            steps.append(_step(entry, entries, si, f"phases[{pi}].systems[{si}]", seen, parameters))
        phases.append((pname, steps))
    step_systems = _steps_table(need(doc, "steps", dict, "ruleset", default=YMap()), seen)
    for table_obj in tables.values():
        check = getattr(table_obj, "check_steps", None)
        if check is not None:
            check(step_systems)
    _check_access(doc, phases, step_systems, prefabs)

    metrics = need(doc, "metrics", str, "ruleset")
    if metrics not in METRICS:
        raise fail(f"unknown metrics function {metrics!r}", doc, "metrics", "metrics")
    scen = need(doc, "default_scenario", str, "ruleset", default=None)
    digest = hashlib.sha256(canonical.pack_sorted(hashed)).hexdigest()
    return Ruleset(
        id=rid,
        name=need(doc, "name", str, "ruleset"),
        description=need(doc, "description", str, "ruleset", default=""),
        path=path,
        tick_name=need(doc, "tick", str, "ruleset", default="turn"),
        max_ticks=need(doc, "max_ticks", int, "ruleset"),
        phases=phases,
        parameters=parameters,
        tables=tables,
        prefabs=prefabs,
        metrics=metrics,
        default_scenario=PREFABS_DIR / scen if scen else None,
        content_hash=digest,
        steps=step_systems,
    )


def _step(entry: Any, parent: Any, index: int, field_name: str, seen: dict[str, str],
          parameters: dict[str, Parameter]) -> Step:
    refs: list[tuple[str, str]] = []
    if isinstance(entry, str):
        name, params = entry, {}
    elif isinstance(entry, dict):
        name = need(entry, "system", str, field_name)
        params_doc = need(entry, "params", dict, field_name, default=YMap())
        params = plain(params_doc)
        for key, value in params.items():
            if isinstance(value, str) and value.startswith("$"):
                if value[1:] not in parameters:
                    raise fail(f"{value!r} names no parameter of this ruleset", params_doc, key,
                               f"{field_name}.params.{key}")
                refs.append((key, value[1:]))
    else:
        raise fail("expected a system name or {system: NAME, params: {...}}", parent, index, field_name)
    spec = lookup(name)
    if spec is None:
        raise fail(f"unknown system {name!r}", parent, index, field_name)
    if name in seen:
        raise fail(f"system {name!r} appears twice (first at {seen[name]})", parent, index, field_name)
    seen[name] = field_name
    return Step(spec, params, tuple(refs))


def _steps_table(doc: YMap, seen: dict[str, str]) -> dict[str, SystemSpec]:
    """Named step systems a track system may invoke (e.g. the narration track's `gauntlet`)."""
    out: dict[str, SystemSpec] = {}
    for key in sorted(doc):
        name = doc[key]
        spec = lookup(name) if isinstance(name, str) else None
        if spec is None:
            raise fail(f"unknown system {name!r}", doc, key, f"steps.{key}")
        if name in seen:
            raise fail(f"system {name!r} appears twice (first at {seen[name]})", doc, key, f"steps.{key}")
        seen[name] = f"steps.{key}"
        out[key] = spec
    return out


def _check_access(doc: YMap, phases: list[tuple[str, list[Step]]], steps: dict[str, SystemSpec],
                  prefabs: dict[str, Prefab]) -> None:
    provided = {"Card", "Deck"}  # decks are built by the engine from card tables
    for prefab in prefabs.values():
        provided.update(prefab.components)
    specs = [s.spec for _, ss in phases for s in ss] + list(steps.values())
    for spec in specs:
        provided.update(spec.creates)
    for spec in specs:
        for comp in (*spec.reads, *spec.writes, *spec.creates):
            if by_name(comp) is None:
                raise fail(f"system {spec.name!r} declares unknown component {comp!r}", doc, "phases", "phases")
        missing = sorted(set(spec.reads) - provided)
        if missing:
            raise fail(
                f"system {spec.name!r} reads {', '.join(missing)}, which no prefab or system provides",
                doc, "phases", "phases",
            )


def _parameters(doc: YMap) -> dict[str, Parameter]:
    out: dict[str, Parameter] = {}
    for name in sorted(doc):
        spec = doc[name]
        f = f"parameters.{name}"
        kind = need(spec, "type", str, f)
        if kind not in _PARAM_TYPES:
            raise fail(f"type must be one of {sorted(_PARAM_TYPES)}", spec, "type", f + ".type")
        p = Parameter(
            name, kind, need(spec, "default", _PARAM_TYPES[kind], f),
            need(spec, "min", (int, float), f, default=None), need(spec, "max", (int, float), f, default=None),
            tuple(need(spec, "choices", list, f, default=[])), need(spec, "description", str, f, default=""),
        )
        p.check(p.default, f"{getattr(spec, 'file', '')}:{getattr(spec, 'line', 0)}: {f}.default")
        out[name] = p
    return out


def _tables(doc: YMap, overrides: dict[str, str]) -> tuple[dict[str, Any], dict[str, Any]]:
    tables: dict[str, Any] = {}
    raw: dict[str, Any] = {}
    for name in sorted(set(doc) | set(overrides)):
        rel = overrides.get(name) or doc.get(name)
        if name not in TABLES:
            raise fail(f"no validator registered for table {name!r}", doc, name, f"tables.{name}")
        if not isinstance(rel, str):
            raise fail("expected a file name", doc, name, f"tables.{name}")
        path = PREFABS_DIR / rel  # an absolute override stays absolute
        data = load_yaml(path)
        tables[name] = TABLES[name](data)
        raw[name] = plain(data)
    return tables, raw
