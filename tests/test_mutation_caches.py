"""The mutation run's baseline empties the engine's caches before each test (benchmarks/mutation/
pytest_contexts.py), so that the lines filling a cache count for every test that needs them. A
cache it does not know is filled by the first test of the process only: mutants of those lines
then run too few tests and survive falsely (`fields._FIELDS` hid the test that refuses bytes in a
field of any value). So every module-level dict of the engine named in capitals must be listed as
a cache or as kept."""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import re

import ecs_zombie
from tests.helpers import ROOT

_PLUGIN = ROOT / "benchmarks" / "mutation" / "pytest_contexts.py"
_spec = importlib.util.spec_from_file_location("pytest_contexts", _PLUGIN)
assert _spec is not None and _spec.loader is not None
pytest_contexts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pytest_contexts)


def test_every_module_dict_of_the_engine_is_a_known_cache_or_kept() -> None:
    found: dict[str, set[str]] = {}
    for info in pkgutil.walk_packages(ecs_zombie.__path__, "ecs_zombie."):
        if info.name.startswith("ecs_zombie.systems") or info.name.endswith("__main__"):
            continue  # the rules packages: benchmarks/mutation.py's rules runs, not the engine's
        module = importlib.import_module(info.name)
        names = {a for a, v in vars(module).items()
                 if re.fullmatch(r"_[A-Z][A-Z0-9_]*", a) and isinstance(v, dict) and not a.endswith("_CACHE")}
        if names:
            found[info.name] = names
    listed = {m: set(pytest_contexts.CACHES.get(m, ())) | set(pytest_contexts.KEPT.get(m, ()))
              for m in set(pytest_contexts.CACHES) | set(pytest_contexts.KEPT)}
    assert found == listed


def test_the_caches_listed_are_emptied_and_the_kept_are_not() -> None:
    from ecs_zombie import fields
    from ecs_zombie.components import Position

    fields.field_types(Position)
    assert fields._FIELDS
    kept = dict(importlib.import_module("ecs_zombie.components")._BY_NAME)
    pytest_contexts._clear_caches()
    assert not fields._FIELDS
    assert importlib.import_module("ecs_zombie.components")._BY_NAME == kept
