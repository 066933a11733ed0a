"""Loading and validating a ruleset: phases of ordered systems, steps, tables, prefabs and parameters.

A ruleset is the game's schedule, written in YAML (the shipped games under `prefabs/rulesets/`, a
plugin's or a user's anywhere). Loading checks it the way a scheduler should before anything runs,
and reports every problem it finds, each with its file, line and field:

- every system exists; a system appears twice only under different `label`s;
- each entry's `params` fit the system's signature (no unknown name, no missing value, each value
  of the annotated type; `$name` takes the ruleset parameter `name`, whose type must fit too);
- every step a system calls (its `calls`, the step names in its `step_params`, the steps a table
  names) is mapped under `steps:`, and the parameters each caller passes fit the step's system;
- every component a system reads is provided by a prefab, a deck or a system that creates it;
- every table has a registered validator and passes it; every parameter has a type, a default
  and a range, and is used by some system (an unused parameter is a mistake, not a knob).

Paths inside the file (`prefabs:`, `tables:`, `default_scenario:`) are looked for beside the file
first, then in the shipped `prefabs/`, so a ruleset folder works from any working directory.
`packages:` names the Python modules holding the ruleset's systems: a shipped short name (`core`,
`shambling`, ...), a module in the ruleset's own folder, or any importable dotted name.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ecs_zombie import canonical
from ecs_zombie._layout import PREFABS_DIR, SYSTEMS_DIR
from ecs_zombie.catalog import SHIPPED_DIR, Entry, Origin, catalog, locate
from ecs_zombie.components import by_name
from ecs_zombie.data import YList, YMap, check_keys, display_path, fail, load_yaml, need, need_int, plain, where
from ecs_zombie.errors import DataError, DataErrors
from ecs_zombie.filestamps import Stamp, note, recording, unchanged
from ecs_zombie.limits import MAX_TABLE_NUMBER, MAX_TICKS
from ecs_zombie.prefabs import Prefab, load_prefabs
from ecs_zombie.registry import BOARDS, HIDDEN, METRICS, TABLES
from ecs_zombie.schedule import SystemSpec, lookup
from ecs_zombie.signature import MISSING, accepts_any, params_of, type_error

RULESETS_DIR = SHIPPED_DIR  # the shipped games' ruleset files
_KEYS = ("id", "name", "description", "tick", "max_ticks", "packages", "default_scenario", "prefabs", "tables",
         "parameters", "phases", "steps", "metrics", "board", "hidden", "attached")
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
    """One scheduled system: a phase entry, or a named step under `steps:`, with its parameters.

    A parameter written `$name` takes the ruleset parameter `name` when the system runs, so a
    system's numbers can be tuned with `--param` and swept like any other parameter. `label` names
    the entry in event paths and replays (the system's name unless the YAML gives one; the step's
    name for a step)."""

    spec: SystemSpec
    params: dict[str, Any]
    refs: tuple[tuple[str, str], ...] = ()
    label: str = ""
    where: str = ""

    def bound(self, values: dict[str, Any]) -> dict[str, Any]:
        if not self.refs:
            return self.params
        return {**self.params, **{key: values[name] for key, name in self.refs}}


@dataclass(slots=True)
class Ruleset:
    """A loaded, validated ruleset (`load_ruleset`): its phases of systems with their bound
    parameters, steps, tables, tunable parameters, metrics, board drawing and default scenario."""

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
    steps: dict[str, Step] = field(default_factory=dict)
    origin: Origin = field(default_factory=lambda: Origin("shipped"))
    files: dict[str, str] = field(default_factory=dict)
    packages: tuple[str, ...] = ()
    table_refs: dict[str, str] = field(default_factory=dict)
    board: str = ""
    hidden: str = ""
    attached: tuple[str, ...] = ()
    # Values worked out from the rules alone, once per loaded ruleset, by whoever needs them (what
    # loading holds each kind of piece to): never game state.
    derived: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def folder(self) -> Path:
        """The folder of the ruleset's file (its relative paths resolve from there)."""
        return self.path.parent

    def scheduled(self) -> Iterator[Step]:
        """Every phase entry in order, then every step by name."""
        for _phase, entries in self.phases:
            yield from entries
        for name in sorted(self.steps):
            yield self.steps[name]

    def params_with(self, overrides: dict[str, Any], where: str) -> dict[str, Any]:
        """Defaults overridden and validated; an unknown name is an error before any game runs."""
        values = {k: p.default for k, p in sorted(self.parameters.items())}
        for key, value in overrides.items():
            if key not in self.parameters:
                known = ", ".join(sorted(self.parameters)) or "none"
                raise DataError(f"unknown parameter {key!r} for ruleset {self.id!r} (known: {known})", where)
            values[key] = self.parameters[key].check(value, where)
        return values

    def resolve(self, ref: str) -> Path:
        """A file named in this ruleset (or recorded by a save): see `resolve_ref`."""
        return resolve_ref(ref, self.folder)


# -- files -----------------------------------------------------------------------------------------


def resolve_ref(ref: str, folder: Path) -> Path:
    """A file named inside a YAML file: absolute as given; else beside the naming file (`folder`)
    when it is there, else in the shipped `prefabs/` when it is there, else beside the file (which
    then fails to load with a message naming that path)."""
    p = Path(ref)
    if p.is_absolute():
        return p
    for base in (folder, PREFABS_DIR):
        if (base / p).is_file():
            return base / p
    return folder / p


def ref_of(path: Path, folder: Path) -> str:
    """How a save names a file: relative to the ruleset's folder or the shipped prefabs/ when it
    lies inside one (so the name holds on another machine), else its absolute path."""
    full = path.resolve()
    for base in (folder, PREFABS_DIR):
        try:
            return full.relative_to(base.resolve()).as_posix()
        except ValueError:
            continue
    return str(full)


def _rules_only(value: Any, top: bool = True) -> Any:
    """A file's content without what does not change a rule: descriptions, and the ruleset's name."""
    if isinstance(value, dict):
        return {k: _rules_only(v, False) for k, v in value.items()
                if k != "description" and not (top and k == "name" and "phases" in value)}
    if isinstance(value, list):
        return [_rules_only(v, False) for v in value]
    return value


def file_hash(data: Any) -> str:
    return hashlib.sha256(canonical.pack_sorted(_rules_only(plain(data)))).hexdigest()[:16]


def changed_files(saved: dict[str, str], now: dict[str, str]) -> list[str]:
    """The files whose rules differ between a save's record and the ruleset as loaded now."""
    return sorted(k for k in set(saved) | set(now) if saved.get(k) != now.get(k))


# -- packages --------------------------------------------------------------------------------------


def import_package(name: str, folder: Path, where: tuple[Any, Any, str]) -> None:
    """Import the module holding a ruleset's systems (they register themselves on import)."""
    node, key, field_name = where
    if len(name) > 200 or not all(part.isidentifier() for part in name.split(".")):
        raise fail(f"{name[:60]!r}{'...' if len(name) > 60 else ''} is not a module name (dotted Python names, "
                   f"at most 200 characters)", node, key, field_name)
    shipped = "." not in name and (SYSTEMS_DIR / name / "__init__.py").is_file()
    module = f"ecs_zombie.systems.{name}" if shipped else name
    local = folder / Path(*name.split("."))
    added = False
    if not shipped and ((local / "__init__.py").is_file() or local.with_suffix(".py").is_file()):
        known = sys.modules.get(name.split(".")[0])
        top_file = getattr(known, "__file__", None)
        if known is not None and top_file and not Path(top_file).resolve().is_relative_to(folder.resolve()):
            raise fail(f"package {name!r} is already imported from {top_file}; the ruleset's folder has another",
                       node, key, field_name)
        sys.path.insert(0, str(folder))
        added = True
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is not None and not module.startswith(exc.name) and exc.name != module:
            raise fail(f"package {name!r} failed to import: {exc}", node, key, field_name) from None
        raise fail(f"no systems package {name!r} (looked in the shipped rules, in {display_path(folder)} and on "
                   f"the import path)", node, key, field_name) from None
    except Exception as exc:
        raise fail(f"package {name!r} failed to import: {type(exc).__name__}: {exc}", node, key, field_name) from None
    finally:
        if added:
            sys.path.remove(str(folder))


# -- loading ---------------------------------------------------------------------------------------


def ruleset_path(name_or_path: str) -> Path:
    """A ruleset's file from its id (shipped or plugin) or a path."""
    return locate(name_or_path).path


def list_rulesets() -> list[tuple[str, str]]:
    """(id, description) of every ruleset the catalog knows: shipped and installed plugins."""
    return sorted((e.id, e.description) for e in catalog().entries.values())


# (path as given made absolute, table overrides) -> (the stamps of every file the load read, the ruleset)
_CACHE: dict[tuple[str, tuple[tuple[str, str], ...]], tuple[frozenset[Stamp], Ruleset]] = {}


def load_ruleset(name_or_path: str, table_overrides: dict[str, str] | None = None) -> Ruleset:
    """Load and validate a ruleset (cached per process, so batch workers parse YAML once, while
    every file it read, its tables and prefabs included, is unchanged)."""
    return load_entry(locate(name_or_path), table_overrides)


def load_entry(entry: Entry, table_overrides: dict[str, str] | None = None) -> Ruleset:
    """`load_ruleset` of a catalog entry already found (a save's ruleset, found by its origin: each
    load and each replay verification skips the look-up by path)."""
    path = entry.path
    # The path as given, made absolute (no look-ups: a load and each heavy verification's reload
    # come here), since relative paths inside resolve from its folder.
    key = (os.path.abspath(path), tuple(sorted((table_overrides or {}).items())))
    cached = _CACHE.get(key)
    if cached is not None and unchanged(cached[0]):  # an edited table file is read again, not only the top one
        note(cached[0])  # a scenario loading this ruleset depends on its files too
        return cached[1]
    with recording() as stamps:
        rs = _Builder(path, entry.origin, table_overrides or {}).build()
    _CACHE[key] = (frozenset(stamps), rs)
    return rs


class _Builder:
    """One ruleset file being loaded: collects every error, then raises them together."""

    def __init__(self, path: Path, origin: Origin, table_overrides: dict[str, str]) -> None:
        self.path = path
        self.folder = path.parent
        self.origin = origin
        self.table_overrides = table_overrides
        self.errors: list[DataError] = []
        self.files: dict[str, str] = {}
        self.mentioned: set[str] = set()  # ruleset parameters named as `$name` in any entry

    def error(self, exc: DataError) -> None:
        self.errors.append(exc)

    def build(self) -> Ruleset:
        doc = load_yaml(self.path)
        if not isinstance(doc, YMap):
            raise DataError("a ruleset must be a mapping", display_path(self.path))
        check_keys(doc, _KEYS, "")
        self.files[ref_of(self.path, self.folder)] = file_hash(doc)
        rid = need(doc, "id", str, "ruleset")
        packages = need(doc, "packages", list, "ruleset")
        for i, pkg in enumerate(packages):
            if not isinstance(pkg, str):
                raise fail("expected a module name", packages, i, f"packages[{i}]")
            import_package(pkg, self.folder, (packages, i, f"packages[{i}]"))
        parameters = _parameters(need(doc, "parameters", dict, "ruleset", default=YMap()))
        tables, table_refs = self.tables(need(doc, "tables", dict, "ruleset", default=YMap()))
        prefabs = self.prefabs(need(doc, "prefabs", list, "ruleset", default=YList()))

        seen: dict[str, str] = {}
        phases: list[tuple[str, list[Step]]] = []
        raw_phases = need(doc, "phases", list, "ruleset")
        for pi, phase in enumerate(raw_phases):
            pname = need(phase, "name", str, f"phases[{pi}]")
            check_keys(phase, ("name", "systems"), f"phases[{pi}]")
            entries = need(phase, "systems", list, f"phases[{pi}]")
            steps: list[Step] = []
            for si, entry in enumerate(entries):
                step = self.entry(entry, entries, si, f"phases[{pi}].systems[{si}]", seen, parameters, None)
                if step is not None:
                    steps.append(step)
            phases.append((pname, steps))
        steps_doc = need(doc, "steps", dict, "ruleset", default=YMap())
        step_table: dict[str, Step] = {}
        for key in sorted(steps_doc):
            step = self.entry(steps_doc[key], steps_doc, key, f"steps.{key}", seen, parameters, key)
            if step is not None:
                step_table[key] = step
        self.check_calls(phases, step_table, tables)
        self.check_access(phases, step_table, prefabs)
        self.check_used(doc, parameters, phases, step_table)

        metrics = need(doc, "metrics", str, "ruleset")
        if metrics not in METRICS:
            self.error(fail(f"unknown metrics function {metrics!r}", doc, "metrics", "metrics"))
        drawing = need(doc, "board", str, "ruleset", default="")
        hidden = need(doc, "hidden", str, "ruleset", default="")
        if hidden and hidden not in HIDDEN:
            self.error(fail(f"unknown determinizer {hidden!r} (known: {', '.join(sorted(HIDDEN)) or 'none'})",
                            doc, "hidden", "hidden"))
        attached = self.attached(need(doc, "attached", list, "ruleset", default=YList()))
        if drawing and drawing not in BOARDS:
            self.error(fail(f"unknown board drawing {drawing!r} (known: {', '.join(sorted(BOARDS)) or 'none'})",
                            doc, "board", "board"))
        if self.errors:
            raise DataErrors(self.errors)
        scen = need(doc, "default_scenario", str, "ruleset", default=None)
        digest = hashlib.sha256(canonical.pack_sorted(self.files)).hexdigest()
        return Ruleset(
            id=rid,
            name=need(doc, "name", str, "ruleset"),
            description=need(doc, "description", str, "ruleset", default=""),
            path=self.path,
            tick_name=need(doc, "tick", str, "ruleset", default="turn"),
            max_ticks=need_int(doc, "max_ticks", "ruleset", 1, MAX_TICKS),
            phases=phases,
            parameters=parameters,
            tables=tables,
            prefabs=prefabs,
            metrics=metrics,
            default_scenario=resolve_ref(scen, self.folder) if scen else None,
            content_hash=digest,
            steps=step_table,
            origin=self.origin,
            files=dict(sorted(self.files.items())),
            packages=tuple(str(p) for p in packages),
            table_refs=table_refs,
            board=drawing,
            hidden=hidden,
            attached=attached,
        )

    # -- parts -------------------------------------------------------------------------------------

    def tables(self, doc: YMap) -> tuple[dict[str, Any], dict[str, str]]:
        tables: dict[str, Any] = {}
        refs: dict[str, str] = {}
        for name in sorted(set(doc) | set(self.table_overrides)):
            rel = self.table_overrides.get(name) or doc.get(name)
            if name not in TABLES:
                raise fail(f"no validator registered for table {name!r}", doc, name, f"tables.{name}")
            if not isinstance(rel, str):
                raise fail("expected a file name", doc, name, f"tables.{name}")
            path = resolve_ref(rel, self.folder)
            data = load_yaml(path)
            try:
                tables[name] = TABLES[name](data)
            except (TypeError, KeyError, IndexError, ValueError, AttributeError) as exc:
                # A validator that missed a shape (a list where a name belongs): still the file's
                # fault, said in one line; each such case found gets its own message in the validator.
                raise DataError(f"table {name!r} cannot be read: {type(exc).__name__}: {exc}",
                                display_path(path)) from None
            refs[name] = ref_of(path, self.folder)
            self.files[refs[name]] = file_hash(data)
        return tables, refs

    def prefabs(self, files: YList) -> dict[str, Prefab]:
        prefabs: dict[str, Prefab] = {}
        for i, rel in enumerate(files):
            if not isinstance(rel, str):
                raise fail("expected a file name", files, i, f"prefabs[{i}]")
            path = resolve_ref(rel, self.folder)
            loaded, raw = load_prefabs(path, prefabs)
            prefabs.update(loaded)
            self.files[ref_of(path, self.folder)] = file_hash(raw)
        return prefabs

    def attached(self, names: YList) -> tuple[str, ...]:
        """`attached:` the components this ruleset adds to pieces another game's systems own (its
        figures, which those systems make from prefabs and delete without knowing of them): strict
        mode lets a system create or delete an entity holding them undeclared. Reading, changing,
        adding or removing them still needs declaring."""
        out = []
        for i, name in enumerate(names):
            if not isinstance(name, str) or by_name(name) is None:
                self.error(fail(f"attached: {name!r} is not a registered component", names, i, f"attached[{i}]"))
                continue
            out.append(name)
        return tuple(sorted(set(out)))

    def entry(self, entry: Any, parent: Any, key: str | int, field_name: str, seen: dict[str, str],
              parameters: dict[str, Parameter], step_name: str | None) -> Step | None:
        """A phase entry or a `steps:` entry: `NAME` or `{system: NAME, label: L, params: {...}}`."""
        refs: list[tuple[str, str]] = []
        label = step_name
        params_doc: Any = YMap()
        if isinstance(entry, str):
            name, params = entry, {}
        elif isinstance(entry, dict):
            name = need(entry, "system", str, field_name)
            try:
                check_keys(entry, ("system", "label", "params"), field_name)
            except DataError as exc:
                self.error(exc)
            if step_name is None:
                label = need(entry, "label", str, field_name, default=None)
            elif "label" in entry:
                self.error(fail("a step is labelled by its name under steps:", entry, "label", f"{field_name}.label"))
            params_doc = need(entry, "params", dict, field_name, default=YMap())
            params = plain(params_doc)
        else:
            self.error(fail("expected a system name or {system: NAME, params: {...}}", parent, key, field_name))
            return None
        spec = lookup(name)
        file, line = where(parent, key)
        at = f"{file}:{line}: {field_name}" if file else field_name
        if isinstance(entry, dict):  # `$name`s written anywhere in the entry count as used, even in
            self.mentioned.update(_refs(plain(entry)))  # an entry with a mistake (no second error)
        if spec is None:
            self.error(fail(f"unknown system {name!r}", parent, key, field_name))
            return None
        label = label or name
        if label in seen:
            self.error(fail(f"{label!r} appears twice (first at {seen[label]}); give one entry a different "
                            f"label: to run a system twice", parent, key, field_name))
        seen[label] = field_name
        unknown_refs = set()
        for pkey, value in params.items():
            if isinstance(value, str) and value.startswith("$"):
                if value[1:] not in parameters:
                    self.error(fail(f"{value!r} names no parameter of this ruleset (known: "
                                    f"{', '.join(sorted(parameters)) or 'none'})", params_doc, pkey,
                                    f"{field_name}.params.{pkey}"))
                    unknown_refs.add(pkey)
                    continue
                refs.append((pkey, value[1:]))
        step = Step(spec, {k: v for k, v in params.items() if k not in dict(refs) and k not in unknown_refs},
                    tuple(refs), label, at)
        self.check_params(step, params_doc, field_name, parameters, step_name is not None)
        return step

    def check_params(self, step: Step, params_doc: Any, field_name: str, parameters: dict[str, Parameter],
                     is_step: bool) -> None:
        """The entry's parameters against the system's signature: names, types, missing values."""
        fn = step.spec.fn
        declared = {p.name: p for p in params_of(fn)}
        open_ended = accepts_any(fn)
        given: dict[str, Any] = dict(step.params)
        for key, ref in step.refs:
            param = parameters[ref]
            given[key] = param.default
        for key, value in given.items():
            f = f"{field_name}.params.{key}"
            p = declared.get(key)
            if p is None:
                if not open_ended:
                    self.error(fail(f"system {step.spec.name!r} takes no parameter {key!r} (it takes: "
                                    f"{', '.join(declared) or 'none'})", params_doc, key, f))
                continue
            bound_to = dict(step.refs).get(key)
            if bound_to is not None:
                if _ref_mismatch(p.annotation, parameters[bound_to]):
                    self.error(fail(f"${bound_to} is a {parameters[bound_to].type} parameter; {step.spec.name} "
                                    f"takes {key}: {p.annotation}", params_doc, key, f))
                continue
            problem = type_error(p.annotation, value) or _too_large(value)
            if problem:
                self.error(fail(f"{step.spec.name} parameter {key}: {problem}", params_doc, key, f))
        if not is_step:  # a step's missing values may come from its callers: checked with the calls
            missing = [n for n, p in declared.items() if p.required and n not in given]
            if missing:
                self.error(DataError(f"system {step.spec.name!r} needs a value for {', '.join(missing)}",
                                     *_split(step.where)))

    def check_calls(self, phases: list[tuple[str, list[Step]]], steps: dict[str, Step], tables: dict[str, Any]
                    ) -> None:
        """Every step called is mapped, and what its callers pass completes and fits its signature."""
        scheduled = [s for _p, ss in phases for s in ss] + list(steps.values())
        for step in scheduled:
            for name, passed in step.spec.calls:
                if name != "*":
                    self.check_call(name, passed, step.where, f"called by {step.spec.name}", steps)
            for pname in step.spec.step_params:
                value = step.params.get(pname)
                names = value if isinstance(value, list) else [value] if isinstance(value, str) else []
                for name in names:
                    if not isinstance(name, str):  # the parameter's type check says so, once
                        continue
                    self.check_call(name, {}, step.where, f"named by {step.spec.name}.{pname}", steps)
        for tname in sorted(tables):
            calls = getattr(tables[tname], "step_calls", None)
            if calls is None:
                continue
            for name, passed, file, line, field_name in calls():
                self.check_call(name, passed, f"{file}:{line}: {field_name}" if file else field_name,
                                f"named by table {tname}", steps)

    def check_call(self, name: str, passed: Any, at: str, why: str, steps: dict[str, Step]) -> None:
        step = steps.get(name)
        if step is None:
            self.error(DataError(f"step {name!r} ({why}) is not mapped under steps: (mapped: "
                                 f"{', '.join(sorted(steps)) or 'none'})", *_split(at)))
            return
        declared = {p.name: p for p in params_of(step.spec.fn)}
        bound = {k for k in step.params} | {k for k, _r in step.refs}
        names = set(passed)
        both = sorted(names & bound)
        if both:
            self.error(DataError(f"step {name!r} ({why}) is passed {', '.join(both)}, which steps.{name} also "
                                 f"sets", *_split(at)))
        if not accepts_any(step.spec.fn):
            unknown = sorted(names - set(declared))
            if unknown:
                self.error(DataError(f"step {name!r} ({why}) is passed {', '.join(unknown)}, which "
                                     f"{step.spec.name} does not take", *_split(at)))
        missing = sorted(n for n, p in declared.items() if p.required and n not in names and n not in bound)
        if missing:
            self.error(DataError(f"step {name!r} ({why}) runs {step.spec.name} without a value for "
                                 f"{', '.join(missing)} (set it under steps.{name}.params)", *_split(at)))
        if isinstance(passed, dict):
            for key, value in passed.items():
                p = declared.get(key)
                problem = (type_error(p.annotation, value) or _too_large(value)) if p is not None and \
                    value is not MISSING else None
                if problem:
                    self.error(DataError(f"step {name!r} ({why}) parameter {key}: {problem}", *_split(at)))

    def check_access(self, phases: list[tuple[str, list[Step]]], steps: dict[str, Step],
                     prefabs: dict[str, Prefab]) -> None:
        provided = {"Card", "Deck"}  # decks are built by the engine from card tables
        for prefab in prefabs.values():
            provided.update(prefab.components)
        scheduled = [s for _p, ss in phases for s in ss] + list(steps.values())
        for step in scheduled:
            provided.update(step.spec.creates)
        for step in scheduled:
            spec = step.spec
            unknown = sorted({c for c in (*spec.reads, *spec.writes, *spec.creates, *spec.optional, *spec.removes)
                              if by_name(c) is None})
            if unknown:
                self.error(DataError(f"system {spec.name!r} declares unknown components {', '.join(unknown)}",
                                     *_split(step.where)))
            missing = sorted(set(spec.reads) - provided)
            if missing:
                self.error(DataError(f"system {spec.name!r} reads {', '.join(missing)}, which no prefab or system "
                                     f"of this ruleset provides", *_split(step.where)))

    def check_used(self, doc: YMap, parameters: dict[str, Parameter], phases: list[tuple[str, list[Step]]],
                   steps: dict[str, Step]) -> None:
        scheduled = [s for _p, ss in phases for s in ss] + list(steps.values())
        used = {ref for s in scheduled for _k, ref in s.refs} | self.mentioned
        for step in scheduled:
            for name in step.spec.uses:
                used.add(name)
                if name not in parameters:
                    self.error(DataError(f"system {step.spec.name!r} uses the ruleset parameter {name!r}, which this "
                                         f"ruleset does not declare under parameters:", *_split(step.where)))
        params_doc = doc.get("parameters")
        for name in sorted(set(parameters) - used):
            self.error(fail(f"parameter {name!r} is used by no system: bind it as ${name} in a system's params, "
                            f"or remove it", params_doc, name, f"parameters.{name}"))


def _refs(value: Any) -> set[str]:
    """Every ruleset parameter named `$name` in a value, nested ones too."""
    if isinstance(value, str):
        return {value[1:]} if value.startswith("$") else set()
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return set().union(*(_refs(v) for v in items)) if items else set()


def _split(at: str) -> tuple[str | None, int | None, str | None]:
    """`file:line: field` back into DataError's parts."""
    head, sep, rest = at.partition(": ")
    file, colon, line = head.rpartition(":")
    if sep and colon and line.isdigit():
        return file, int(line), rest
    return None, None, at


def _too_large(value: Any) -> str | None:
    """A number given to a system beyond what any rule asks (every whole number in it, nested too)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and abs(value) > MAX_TABLE_NUMBER:
        return f"{value} is beyond what a system parameter may ask ({MAX_TABLE_NUMBER} either way)"
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return next((p for p in (_too_large(v) for v in items) if p), None)


def _ref_mismatch(annotation: str, param: Parameter) -> bool:
    """Whether a ruleset parameter of `param.type` cannot fit the system's annotation."""
    if not annotation:
        return False
    samples = {"int": 0, "float": 0.5, "bool": True, "str": "x"}
    return type_error(annotation, samples[param.type]) is not None and not (
        param.type == "int" and type_error(annotation, 0.5) is None)


def _parameters(doc: YMap) -> dict[str, Parameter]:
    out: dict[str, Parameter] = {}
    for name in sorted(doc):
        spec = doc[name]
        f = f"parameters.{name}"
        kind = need(spec, "type", str, f)
        if kind not in _PARAM_TYPES:
            raise fail(f"type must be one of {sorted(_PARAM_TYPES)}", spec, "type", f + ".type")
        check_keys(spec, ("type", "default", "min", "max", "choices", "description"), f)
        p = Parameter(
            name, kind, need(spec, "default", _PARAM_TYPES[kind], f),
            need(spec, "min", (int, float), f, default=None), need(spec, "max", (int, float), f, default=None),
            tuple(need(spec, "choices", list, f, default=[])), need(spec, "description", str, f, default=""),
        )
        p.check(p.default, f"{getattr(spec, 'file', '')}:{getattr(spec, 'line', 0)}: {f}.default")
        out[name] = p
    return out


__all__ = ["RULESETS_DIR", "Parameter", "Ruleset", "Step", "changed_files", "list_rulesets", "load_ruleset", "ref_of",
           "resolve_ref", "ruleset_path"]
