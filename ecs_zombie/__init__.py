"""ecs-zombie: a deterministic, headless ECS engine for tabletop zombie games.

The public surface is small on purpose; everything else is internal by convention.
"""

from ecs_zombie._layout import mount as _mount

_mount()

from ecs_zombie.components import component, registered_components  # noqa: E402
from ecs_zombie.decisions import Decision  # noqa: E402
from ecs_zombie.errors import DataError, GameError, SaveError, ScriptError  # noqa: E402
from ecs_zombie.game import Game, new_game  # noqa: E402
from ecs_zombie.schedule import system  # noqa: E402

__all__ = [
    "DataError",
    "Decision",
    "Game",
    "GameError",
    "SaveError",
    "ScriptError",
    "component",
    "new_game",
    "registered_components",
    "system",
]
