"""Which code made a save or a replay: the engine's version and a fingerprint of every system.

A replay re-run by different code may diverge for a reason no data shows. Saves and replays record
the engine version and, for each system the ruleset schedules, a fingerprint of its function's
source and of its module's source, so that verification can say which systems' code changed
before it reports a divergence. Sources are read from the `.py` files (beside the compiled modules
in the installed build), so both builds give the same fingerprints.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ecs_zombie.version import __version__

if TYPE_CHECKING:
    from ecs_zombie.ruleset import Ruleset

_MODULES: dict[str, tuple[str, dict[str, str]]] = {}


def _module_source(module: str) -> tuple[str, dict[str, str]]:
    """(hash of the module's source, hash of each top-level function's source by name)."""
    found = _MODULES.get(module)
    if found is None:
        try:
            spec = importlib.util.find_spec(module)
        except (ImportError, ValueError):
            spec = None
        origin = Path(spec.origin) if spec is not None and spec.origin else None
        if origin is not None and origin.suffix != ".py":
            origin = origin.with_name(origin.name.split(".", 1)[0] + ".py")
        text = origin.read_text(encoding="utf-8") if origin is not None and origin.is_file() else ""
        functions: dict[str, str] = {}
        if text:
            for node in ast.parse(text).body:
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    segment = ast.get_source_segment(text, node) or ""
                    functions[node.name] = _h(segment)
        found = _MODULES[module] = (_h(text), functions)
    return found


def _h(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def fingerprints(ruleset: Ruleset) -> dict[str, list[str]]:
    """System name -> [its function's source hash, its module's source hash], for every system the
    ruleset schedules (phases and steps). Worked out once per loaded ruleset (sources are read once
    per process: `_module_source`), since every recorded game and every verification asks; each
    caller gets its own copy."""
    found: dict[str, list[str]] | None = ruleset.derived.get("fingerprints")
    if found is None:
        out: dict[str, list[str]] = {}
        for step in ruleset.scheduled():
            spec = step.spec
            if spec.name in out:
                continue
            module_hash, functions = _module_source(spec.module)
            out[spec.name] = [functions.get(getattr(spec.fn, "__name__", ""), ""), module_hash]
        found = ruleset.derived["fingerprints"] = dict(sorted(out.items()))
    return {name: list(hashes) for name, hashes in found.items()}


def stamp(ruleset: Ruleset) -> dict[str, Any]:
    """What a save or replay records of the code that made it."""
    return {"code": fingerprints(ruleset), "engine": __version__}


def code_changes(recorded: Any, ruleset: Ruleset) -> list[str]:
    """One line per system whose code differs from what a save or replay recorded."""
    if not isinstance(recorded, dict):
        return []
    now = fingerprints(ruleset)
    lines = []
    for name in sorted(set(recorded) | set(now)):
        was, is_ = recorded.get(name), now.get(name)
        if was == is_:
            continue
        if was is None:
            lines.append(f"{name}: not in the recording's ruleset")
        elif is_ is None:
            lines.append(f"{name}: no longer scheduled")
        elif isinstance(was, list) and len(was) == 2 and was[0] != is_[0]:
            lines.append(f"{name}: its function's code changed")
        else:
            lines.append(f"{name}: code elsewhere in its module changed")
    return lines
