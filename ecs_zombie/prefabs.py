"""Prefabs: named entity templates in YAML, each a set of components with field values.

    survivor:
      Faction: {side: survivors}
      Wounds: {taken: 0, limit: 2}
    hero:
      extends: survivor
      Kind: {name: hero}

Every component name and field is checked against the registry when the file loads, so a typo is an
error naming the file, line and field rather than a silent default.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ecs_zombie.components import by_name
from ecs_zombie.data import YMap, display_path, fail, load_yaml, plain, suggest
from ecs_zombie.errors import DataError


@dataclass(slots=True)
class Prefab:
    name: str
    components: dict[str, dict[str, Any]]
    _templates: list[tuple[type, Any, tuple[Any, ...], tuple[int, ...]]] | None = None

    def templates(self) -> list[tuple[type, Any, tuple[Any, ...], tuple[int, ...]]]:
        """Per component, in name order: its class, a template instance (shared when it is frozen and
        holds no list or mapping), its field values in order, and which of them to copy per build."""
        if self._templates is None:
            out = []
            for cname in sorted(self.components):
                template = instantiate(cname, self.components[cname])
                args = by_name(cname).getter(template)  # type: ignore[union-attr]
                mutable = tuple(i for i, v in enumerate(args) if isinstance(v, list | dict))
                frozen = type(template).__dataclass_params__.frozen  # type: ignore[attr-defined]
                out.append((type(template), template if frozen and not mutable else None, args, mutable))
            self._templates = out
        return self._templates

    def make(self, *replace: Any) -> list[Any]:
        """Fresh components of the prefab, each instance in `replace` standing in for the prefab's
        component of its type (or added to them): what systems spawning pieces at run time use."""
        given = {type(c): c for c in replace}
        out = []
        for cls, shared, args, mutable in self.templates():
            if given:
                mine = given.pop(cls, None)
                if mine is not None:
                    out.append(mine)
                    continue
            if shared is not None:
                out.append(shared)
            elif not mutable:
                out.append(cls(*args))
            else:
                values = list(args)
                for i in mutable:
                    values[i] = fresh(values[i])
                out.append(cls(*values))
        out.extend(given.values())
        return out

    def derive(self, overrides: dict[str, Any]) -> Prefab:
        """This prefab with `overrides` ({Component: {field: value}}, already checked) merged in."""
        merged = {k: dict(v) for k, v in self.components.items()}
        for cname, values in overrides.items():
            merged.setdefault(cname, {}).update(values)
        return Prefab(self.name, merged)

    def build(self, overrides: dict[str, Any] | None = None, node: Any = None, field: str = "") -> list[Any]:
        """Fresh component instances, with `overrides` ({Component: {field: value}}) checked and
        applied; with `node` (loading data) errors name the file, line and field. Systems spawning
        pieces at run time use the quicker `make`."""
        if node is None and not overrides:
            return self.make()
        for cname, values in (overrides or {}).items():
            check_component(cname, values, node, f"{field}.{cname}" if field else cname)
        merged = self.derive(overrides or {}).components
        return [instantiate(cname, merged[cname], node, field) for cname in sorted(merged)]


def check_component(cname: str, values: Any, node: Any, field: str) -> None:
    """A component's values from YAML against its class: the component and each field known (with the
    nearest name when not), each value of its field's type (`ecs_zombie.fields`); `$player` stands
    for a seat number."""
    from ecs_zombie.components import registered_components
    from ecs_zombie.fields import problem

    ctype = by_name(cname)
    if ctype is None:
        raise fail(f"unknown component {cname!r}{suggest(cname, list(registered_components()))}", node,
                   cname if isinstance(node, dict) else None, field)
    if not isinstance(values, dict):
        raise fail("expected a mapping of field: value", node, cname if isinstance(node, dict) else None, field)
    for key in values:
        if key not in ctype.fields:
            hint = suggest(str(key), list(ctype.fields)) or f" (fields: {', '.join(ctype.fields) or 'none'})"
            raise fail(f"component {cname} has no field {key!r}{hint}", values, key, f"{field}.{key}")
        value = values[key]
        found = problem(ctype.cls, key, 0 if value == "$player" else plain(value))
        if found:
            raise fail(f"{cname}.{key} {found}", values, key, f"{field}.{key}")


def fresh(value: Any) -> Any:
    """A copy of a list or mapping for a new component: shallow when it holds only plain values."""
    if isinstance(value, list):
        return value[:] if all(not isinstance(v, list | dict) for v in value) else copy.deepcopy(value)
    if isinstance(value, dict):
        return dict(value) if all(not isinstance(v, list | dict) for v in value.values()) else copy.deepcopy(value)
    return value


def instantiate(cname: str, values: dict[str, Any], node: Any = None, field: str = "") -> Any:
    """A component from field values already checked by `check_component` (types included)."""
    ctype = by_name(cname)
    assert ctype is not None
    try:
        return ctype.cls(**{k: fresh(plain(v)) for k, v in values.items()})
    except TypeError as exc:
        raise fail(f"cannot build {cname}: {exc}", node, None, field) from None


def load_prefabs(path: Path, known: dict[str, Prefab]) -> tuple[dict[str, Prefab], Any]:
    doc = load_yaml(path)
    if not isinstance(doc, YMap):
        raise DataError("a prefab file must map prefab names to components", display_path(path))
    out: dict[str, Prefab] = {}
    for name in doc:
        body = doc[name]
        if not isinstance(body, YMap):
            raise fail("expected a mapping of components", doc, name, name)
        comps: dict[str, dict[str, Any]] = {}
        base = body.get("extends")
        if base is not None:
            if not isinstance(base, str):
                raise fail("extends takes the name of one prefab", body, "extends", f"{name}.extends")
            parent = out.get(base) or known.get(base)
            if parent is None:
                raise fail(f"extends unknown prefab {base!r}", body, "extends", f"{name}.extends")
            comps = {k: dict(v) for k, v in parent.components.items()}
        for cname in body:
            if cname == "extends":
                continue
            values = body[cname] if body[cname] is not None else YMap()
            check_component(cname, values, body, f"{name}.{cname}")
            comps.setdefault(cname, {}).update(plain(values))
        prefab = Prefab(name, comps)
        prefab.build(node=body, field=name)  # validate field types now, not at spawn time
        out[name] = prefab
    return out, plain(doc)
