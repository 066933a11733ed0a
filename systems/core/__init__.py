"""Systems every ruleset may use: narrative tracks of scripted steps."""

from ecs_zombie.systems.core import track  # noqa: F401
