"""Singapore Zombie Apocalypse: created characters, percentile combat, infection, and the rule
book's two scenarios played as a campaign (see docs/sza.md)."""

from ecs_zombie.systems.sza import (  # noqa: F401
    actions,
    combat,
    components,
    decisions,
    drawing,
    heuristics,
    stage,
    tables,
    turn,
    zombies,
)
