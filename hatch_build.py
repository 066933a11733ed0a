"""Wheel build hook: compile the engine's and the core rules' hot modules to C with mypyc.

Why: a game is tens of thousands of small Python calls (component look-ups, decisions, logged
events). mypyc compiles the same typed source to a C extension per module, which runs Night of the
Shambling Dead about 1.7 times as fast, with byte-identical games (a test checks the installed build
against the checkout). The source stays plain Python: a checkout and an editable install run it as
is, and the wheel carries each `.py` beside its compiled module.

`ECS_ZOMBIE_PURE_PYTHON=1` builds without compiling. When compiling fails (no C compiler, say), the
hook says so and the wheel is the pure-Python one: installing never fails for want of a compiler.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

# Modules compiled (paths as in the wheel). The rest of the package stays interpreted: it is either
# cold (the CLI, checking a save's header) or written for flexibility rather than speed; a save's entities
# (saved_entities.py) are compiled: a 10,000-entity load is one long loop over them.
COMPILED = [
    "ecs_zombie/world.py",
    "ecs_zombie/index.py",
    "ecs_zombie/game.py",
    "ecs_zombie/decisions.py",
    "ecs_zombie/dice.py",
    "ecs_zombie/rng.py",
    "ecs_zombie/prefabs.py",
    "ecs_zombie/schedule.py",
    "ecs_zombie/engagement.py",
    "ecs_zombie/state.py",
    "ecs_zombie/canonical.py",
    "ecs_zombie/replay.py",
    "ecs_zombie/saved_entities.py",
    "ecs_zombie/systems/core/track.py",
    "ecs_zombie/systems/shambling/board.py",
    "ecs_zombie/systems/shambling/combat.py",
    "ecs_zombie/systems/shambling/engage.py",
    "ecs_zombie/systems/shambling/heuristics.py",
    "ecs_zombie/systems/shambling/narration.py",
    "ecs_zombie/systems/shambling/outcome.py",
    "ecs_zombie/systems/shambling/placement.py",
    "ecs_zombie/systems/shambling/pursuit.py",
]

_DRIVER = """
import sys
from setuptools import setup
from mypyc.build import mypycify

setup(name="ecs-zombie-compiled", script_args=["build_ext", "--inplace"],
      ext_modules=mypycify(sys.argv[1:], opt_level="3", group_name="ecs_zombie"))
"""

_MYPY_INI = "[mypy]\nignore_missing_imports = True\n"


def _layout(root: Path) -> Any:
    """ecs_zombie/_layout.py, loaded on its own: the package's dependencies are not in the build
    environment, so the package itself cannot be imported here."""
    spec = importlib.util.spec_from_file_location("_ecs_zombie_layout", root / "ecs_zombie" / "_layout.py")
    if spec is None or spec.loader is None:
        raise RuntimeError("ecs_zombie/_layout.py is missing")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class CompileHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        self._stage: Path | None = None
        if self.target_name != "wheel" or version == "editable" or os.environ.get("ECS_ZOMBIE_PURE_PYTHON"):
            return
        self._stage = Path(tempfile.mkdtemp(prefix="ecs-zombie-mypyc-"))
        try:
            built = compile_modules(Path(self.root), self._stage)
        except (OSError, subprocess.SubprocessError, RuntimeError) as exc:
            self.app.display_warning(f"ecs-zombie: not compiled, installing pure Python ({exc})")
            return
        for source, dest in built.items():
            build_data["force_include"][str(source)] = dest
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if self._stage is not None:
            shutil.rmtree(self._stage, ignore_errors=True)


def compile_modules(root: Path, stage: Path) -> dict[Path, str]:
    """Stage the sources in the wheel's layout, compile `COMPILED`, return compiled file -> wheel path."""
    _layout(root).stage_sources(root, stage)
    (stage / "mypy.ini").write_text(_MYPY_INI)
    (stage / "driver.py").write_text(_DRIVER)
    result = subprocess.run([sys.executable, "driver.py", *COMPILED], cwd=stage, capture_output=True, text=True)
    if result.returncode != 0:
        last = (result.stderr or result.stdout).strip().splitlines()[-1:] or ["no output"]
        raise RuntimeError(f"mypyc failed: {last[0]}")
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    built = {stage / (module[: -len(".py")] + suffix): module[: -len(".py")] + suffix for module in COMPILED}
    built[stage / ("ecs_zombie__mypyc" + suffix)] = "ecs_zombie__mypyc" + suffix
    missing = [str(p.name) for p in built if not p.is_file()]
    if missing:
        raise RuntimeError(f"mypyc built no {', '.join(missing)}")
    return built
