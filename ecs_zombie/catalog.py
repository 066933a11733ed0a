"""Where rulesets and policies come from: the shipped games, installed plugins, and files.

A *source* is a folder of ruleset files. The engine's own games are one source (`prefabs/rulesets/`),
found exactly as a plugin's are: an installed distribution registers its sources under the
entry-point group `ecs_zombie.rulesets`, each entry point naming an object that is a folder (or a
ruleset file), a list of them, or a function returning either:

    [project.entry-points."ecs_zombie.rulesets"]
    my-hybrids = "my_hybrids:RULESETS"          # RULESETS = Path(__file__).parent / "rulesets"

A ruleset file given by path (`ecs-zombie run path/ruleset.yaml`) is its own source. Every ruleset
knows its `Origin` (shipped, a plugin's distribution and version, or a file), which saves and
replays record so that they find their ruleset again from any directory, or on another machine
with the same plugin installed.

Policies come the same way, under `ecs_zombie.policies`: each entry point names a class (or any
callable) that takes the policy's options as keyword arguments and returns a policy.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ecs_zombie._layout import PREFABS_DIR
from ecs_zombie.errors import DataError, GameError

RULESET_GROUP = "ecs_zombie.rulesets"
POLICY_GROUP = "ecs_zombie.policies"
SHIPPED_DIR = PREFABS_DIR / "rulesets"


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a ruleset comes from: `shipped`, `plugin` (a distribution and its version) or `file`."""

    kind: str
    dist: str = ""
    version: str = ""
    path: str = ""

    def as_dict(self) -> dict[str, str]:
        return {"dist": self.dist, "kind": self.kind, "path": self.path, "version": self.version}

    @classmethod
    def from_dict(cls, data: Any) -> Origin:
        if not isinstance(data, dict) or data.get("kind") not in ("shipped", "plugin", "file") or not all(
                isinstance(data.get(k, ""), str) for k in ("dist", "version", "path")):
            raise GameError(f"a ruleset origin must name shipped, plugin or file, got {data!r}")
        return cls(data["kind"], data.get("dist", ""), data.get("version", ""), data.get("path", ""))

    def describe(self) -> str:
        if self.kind == "plugin":
            return f"plugin {self.dist} {self.version}".rstrip()
        if self.kind == "file":
            return f"file {self.path}"
        return "shipped"


@dataclass(frozen=True, slots=True)
class Entry:
    """A ruleset the catalog knows: its id, one-line description, file and origin."""

    id: str
    description: str
    path: Path
    origin: Origin


@dataclass(slots=True)
class Catalog:
    """Every ruleset this process can find, by id; `conflicts` lists ids offered twice (the first
    found wins: the shipped games, then plugins in distribution-name order)."""

    entries: dict[str, Entry] = field(default_factory=dict)
    conflicts: list[str] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)

    def add(self, entry: Entry) -> None:
        known = self.entries.get(entry.id)
        if known is None:
            self.entries[entry.id] = entry
        elif known.path.resolve() != entry.path.resolve():
            self.conflicts.append(f"ruleset {entry.id!r} of {entry.origin.describe()} ({entry.path}) is hidden by "
                                  f"the one of {known.origin.describe()} ({known.path})")

    def by_path(self, path: Path) -> Entry | None:
        target = path.resolve()
        for entry in self.entries.values():
            if entry.path.resolve() == target:
                return entry
        return None


def ruleset_header(path: Path) -> tuple[str, str] | None:
    """(id, description) of a ruleset file, or None when the file is not a ruleset (no `phases:`)."""
    from ecs_zombie.data import load_yaml

    doc = load_yaml(path)
    if not isinstance(doc, dict) or "phases" not in doc:
        return None
    rid = doc.get("id", path.stem)
    description = doc.get("description", "")
    return str(rid), str(description) if isinstance(description, str) else ""


def _files_of(found: Any) -> list[Path]:
    """The ruleset files a source names: a folder's `*.yaml` files, a file, or a list of either."""
    if callable(found):
        found = found()
    if isinstance(found, str | Path):
        p = Path(found)
        return sorted(p.glob("*.yaml")) + sorted(p.glob("*.yml")) if p.is_dir() else [p]
    if isinstance(found, Iterable):
        out: list[Path] = []
        for item in found:
            out.extend(_files_of(item))
        return out
    raise TypeError(f"expected a folder, a ruleset file or a list of them, got {type(found).__name__}")


def _add_source(catalog: Catalog, files: list[Path], origin: Callable[[Path], Origin]) -> None:
    """Every ruleset file among `files` into the catalog (a file that does not load is reported)."""
    for path in files:
        try:
            header = ruleset_header(path)
        except GameError as exc:
            catalog.broken.append(str(exc))
            continue
        if header is not None:
            catalog.add(Entry(header[0], header[1], path, origin(path)))


def _fixed(origin: Origin) -> Callable[[Path], Origin]:
    def of(_path: Path) -> Origin:
        return origin

    return of


def _entry_points(group: str) -> list[importlib.metadata.EntryPoint]:
    eps = importlib.metadata.entry_points(group=group)
    return sorted(eps, key=lambda ep: ((ep.dist.name if ep.dist else "").lower(), ep.name))


_CATALOG: list[Catalog] = []


def catalog(refresh: bool = False) -> Catalog:
    """The shipped rulesets and those of installed plugins (found once per process)."""
    if _CATALOG and not refresh:
        return _CATALOG[0]
    found = Catalog()
    _add_source(found, _files_of(SHIPPED_DIR), lambda _p: Origin("shipped"))
    for ep in _entry_points(RULESET_GROUP):
        dist, version = (ep.dist.name, ep.dist.version) if ep.dist else (ep.name, "")
        try:
            files = _files_of(ep.load())
        except Exception as exc:  # a broken plugin is reported, never the end of the engine
            found.broken.append(f"plugin {dist} {version}: entry point {ep.name!r} ({ep.value}) failed: "
                                f"{type(exc).__name__}: {exc}")
            continue
        _add_source(found, files, _fixed(Origin("plugin", dist, version)))
    _CATALOG[:] = [found]
    return found


def locate(name_or_path: str) -> Entry:
    """A ruleset by id (shipped or plugin) or by the path of its file."""
    from ecs_zombie.arguments import check_text

    p = Path(check_text(name_or_path, "the ruleset"))
    cat = catalog()
    if p.suffix in (".yaml", ".yml"):
        if not p.is_file():
            raise DataError("no such file", str(p))
        entry = cat.by_path(p)
        if entry is not None:
            return entry
        header = ruleset_header(p)
        if header is None:
            raise DataError("not a ruleset file (it has no 'phases:')", str(p))
        return Entry(header[0], header[1], p, Origin("file", path=str(p.resolve())))
    entry = cat.entries.get(name_or_path)
    if entry is None:
        known = ", ".join(sorted(cat.entries)) or "none"
        raise DataError(f"unknown ruleset {name_or_path!r} (known: {known})")
    return entry


def find_saved(rid: str, origin: Origin) -> Entry:
    """The ruleset a save or replay names, found again from its recorded origin."""
    if origin.kind == "file":
        p = Path(origin.path)
        if not p.is_file():
            raise GameError(f"ruleset {rid!r} was loaded from the file {origin.path}, which does not exist here")
        return locate(str(p))
    entry = catalog().entries.get(rid)
    if entry is None:
        if origin.kind == "plugin":
            raise GameError(f"ruleset {rid!r} comes from the plugin {origin.dist} {origin.version}, which is not "
                            f"installed here (pip install {origin.dist})")
        raise GameError(f"unknown ruleset {rid!r}")
    return entry


# -- policies ------------------------------------------------------------------------------------


def plugin_policies() -> dict[str, tuple[Callable[..., Any], str]]:
    """Policy factories registered by installed distributions, by name, with where each comes from."""
    out: dict[str, tuple[Callable[..., Any], str]] = {}
    for ep in _entry_points(POLICY_GROUP):
        if ep.name in out:
            continue
        where = f"plugin {ep.dist.name} {ep.dist.version}" if ep.dist else f"plugin {ep.value}"
        try:
            factory = ep.load()
        except Exception as exc:
            raise GameError(f"policy {ep.name!r} of {where} failed to load: {type(exc).__name__}: {exc}") from None
        if not callable(factory):
            raise GameError(f"policy {ep.name!r} of {where} is not a class or function")
        out[ep.name] = (factory, where)
    return out
