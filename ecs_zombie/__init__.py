"""ecs-zombie: a deterministic, headless ECS engine for tabletop zombie games.

The public API is what `__all__` lists (documented in `docs/api.md`, generated from these
docstrings by `tools/api_doc.py`); every other module is internal and may change between versions.

- Playing: `new_game`, `Game`, `Decision`, `Stepper` (answer decisions from outside, one at a time).
- Policies: the `Policy` protocol, `PolicyTable` (a policy per side), `make_policy`.
- Writing rules: the decorators `system`, `component`, `heuristic`, `table`, `metrics`, `board`,
  `hidden`, `option_reader`, and `decision_kind`.
- Loading and saving: `load_ruleset`, `load_scenario`, `load_game`, `save_game`, `load_replay`,
  `verify_replay`, `Recorder`.
- Errors: `GameError` and its kinds (every error caused by input, never by a bug).

Importing the package stays cheap: saves and replays (msgspec, the typed decoders) load on first use
of their names, and nothing of the command line (typer, rich, textual) is imported.
"""

from typing import TYPE_CHECKING, Any

from ecs_zombie._layout import mount as _mount

_mount()

from ecs_zombie.components import component, registered_components  # noqa: E402
from ecs_zombie.decisions import Decision, Policy, PolicyTable, decision_kind, heuristic, make_policy  # noqa: E402
from ecs_zombie.errors import DataError, DecisionError, GameError, SaveError, ScriptError  # noqa: E402
from ecs_zombie.game import Game, new_game  # noqa: E402
from ecs_zombie.registry import board, hidden, metrics, table  # noqa: E402
from ecs_zombie.ruleset import Ruleset, load_ruleset  # noqa: E402
from ecs_zombie.scenario import Scenario, load_scenario  # noqa: E402
from ecs_zombie.schedule import system  # noqa: E402
from ecs_zombie.stepper import Stepper  # noqa: E402
from ecs_zombie.version import __version__  # noqa: E402

if TYPE_CHECKING:
    from ecs_zombie.reading import option_reader as option_reader
    from ecs_zombie.replay import Recorder, ReplayFile
    from ecs_zombie.replay import load_replay as load_replay
    from ecs_zombie.replay import verify as verify_replay
    from ecs_zombie.snapshot import load as load_game
    from ecs_zombie.snapshot import save as save_game

# Names whose modules import the typed decoders of saves and replays, or that only rules and the
# terminal use: loaded on first use.
_LAZY = {
    "option_reader": ("ecs_zombie.reading", "option_reader"),
    "load_game": ("ecs_zombie.snapshot", "load"),
    "save_game": ("ecs_zombie.snapshot", "save"),
    "load_replay": ("ecs_zombie.replay", "load_replay"),
    "verify_replay": ("ecs_zombie.replay", "verify"),
    "Recorder": ("ecs_zombie.replay", "Recorder"),
    "ReplayFile": ("ecs_zombie.replay", "ReplayFile"),
}


def __getattr__(name: str) -> Any:
    """The names of `_LAZY`, imported when first asked for (PEP 562)."""
    found = _LAZY.get(name)
    if found is None:
        raise AttributeError(f"module 'ecs_zombie' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(found[0]), found[1])
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "DataError",
    "Decision",
    "DecisionError",
    "Game",
    "GameError",
    "Policy",
    "PolicyTable",
    "Recorder",
    "ReplayFile",
    "Ruleset",
    "SaveError",
    "Scenario",
    "ScriptError",
    "Stepper",
    "__version__",
    "board",
    "component",
    "decision_kind",
    "heuristic",
    "hidden",
    "load_game",
    "load_replay",
    "load_ruleset",
    "load_scenario",
    "make_policy",
    "metrics",
    "new_game",
    "option_reader",
    "registered_components",
    "save_game",
    "system",
    "table",
    "verify_replay",
]
