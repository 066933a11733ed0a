"""Night of the Shambling Dead: narration-track steps, battle, combat rounds and pursuit."""

from ecs_zombie.systems.shambling import (  # noqa: F401
    combat,
    decisions,
    drawing,
    engage,
    heuristics,
    narration,
    outcome,
    placement,
    pursuit,
    tables,
)
