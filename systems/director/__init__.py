"""The Director game: a Left-4-Dead-style co-op game on hex tiles, with a card-driven director
(`director`) and an adaptive one (`director-adaptive`)."""

from ecs_zombie.systems.director import (  # noqa: F401
    adaptive,
    admin,
    components,
    decisions,
    director,
    drawing,
    heuristics,
    players,
    specials,
    tables,
    tiles,
    zombies,
)
