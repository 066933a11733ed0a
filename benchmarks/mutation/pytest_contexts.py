"""pytest plugin for benchmarks/mutation.py's baseline run: which test executes which line, and how
long each test takes.

Coverage is started by coverage.py's own start-up hook (COVERAGE_PROCESS_START names the run's
configuration) in pytest and in every Python process a test starts. In pytest this plugin switches
the dynamic context to the test's node id; processes started by a test read the node id from the
environment variable the configuration's static context names (`context = ${ECS_MUTATION_CONTEXT}`).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Generator
from typing import Any

import pytest

CONTEXT_VARIABLE = "ECS_MUTATION_CONTEXT"
TIMES_VARIABLE = "ECS_MUTATION_TIMES"

_durations: dict[str, float] = {}
_outcomes: dict[str, str] = {}


def _coverage() -> Any:
    try:
        import coverage
    except ImportError:
        return None
    return coverage.Coverage.current()


def _stop_fork_server() -> None:
    """A fork server started during a test keeps that test's context in its children: stop it, so
    the next test that needs one starts its own."""
    try:
        from multiprocessing import forkserver
    except ImportError:  # pragma: no cover - every POSIX Python has it
        return
    server: Any = getattr(forkserver, "_forkserver", None)
    if server is not None and getattr(server, "_forkserver_pid", None) is not None:
        server._stop()


# Module-level dicts of the engine that are caches although their names do not end in `_CACHE`
# (each filled on first use and read after): emptied like the `_CACHE` ones. Every other module-level
# dict named in capitals is in KEPT: registries filled as modules are imported, and constant tables,
# which emptying would break. tests/test_mutation_caches.py holds every such dict to one of the two.
CACHES = {
    "ecs_zombie.batch": ("_SCENARIOS",),
    "ecs_zombie.fields": ("_FIELDS", "_ROWS"),
    "ecs_zombie.provenance": ("_MODULES",),
    "ecs_zombie.saved_entities": ("_SCHEMAS",),
    "ecs_zombie.signature": ("_SOURCE_DEFS",),
    "ecs_zombie.state": ("_LASTING", "_PLANS", "_SCHEMAS"),
}
KEPT = {
    "ecs_zombie.components": ("_BY_CLASS", "_BY_NAME", "_DECLARED_IDS"),
    "ecs_zombie.coverage": ("_OPTION_TYPES",),
    "ecs_zombie.data": ("_TYPES",),
    "ecs_zombie.decisions": ("_HEURISTICS",),
    "ecs_zombie.ruleset": ("_PARAM_TYPES",),
    "ecs_zombie.schedule": ("_REGISTRY",),
    "ecs_zombie.signature": ("_SIMPLE",),
    "ecs_zombie.snapshot": ("_LIMITS",),
}


def _clear_caches() -> None:
    """Empty the checkout's per-process caches (module-level `_CACHE` dicts, those in `CACHES`,
    `functools.lru_cache` functions) before each test, so that the code filling them counts for
    every test that needs it, not only for the first test of the process."""
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith("ecs_zombie"):
            continue
        named = CACHES.get(name, ())
        for attr, value in list(vars(module).items()):
            if (attr.endswith("_CACHE") or attr in named) and isinstance(value, dict):
                value.clear()
            elif callable(getattr(value, "cache_clear", None)) and getattr(value, "__module__", None) == name:
                value.cache_clear()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    _clear_caches()
    cov = _coverage()
    os.environ[CONTEXT_VARIABLE] = item.nodeid
    if cov is not None:
        cov.switch_context(item.nodeid)
    start = time.perf_counter()
    yield
    _durations[item.nodeid] = time.perf_counter() - start
    _stop_fork_server()
    os.environ.pop(CONTEXT_VARIABLE, None)
    if cov is not None:
        cov.switch_context("")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.failed:
        _outcomes[report.nodeid] = "failed"
    elif report.when == "call" or (report.when == "setup" and report.skipped):
        outcome = "xfailed" if hasattr(report, "wasxfail") else report.outcome
        _outcomes.setdefault(report.nodeid, outcome)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    path = os.environ.get(TIMES_VARIABLE)
    if path:
        tests = {nodeid: {"seconds": round(seconds, 4), "outcome": _outcomes.get(nodeid, "passed")}
                 for nodeid, seconds in _durations.items()}
        with open(path, "w", encoding="utf-8") as out:
            json.dump(tests, out, indent=0, sort_keys=True)
