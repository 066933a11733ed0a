"""Escape from Stalingrad Z on the square grid: initiative, activation, movement and zone of control,
attacks, the zombie turn, spawning, and the hybrid's card-driven spawn adapter."""

from ecs_zombie.systems.stalingrad import (  # noqa: F401
    activation,
    attack,
    board,
    card_spawn,
    components,
    decisions,
    drawing,
    geometry,
    heuristics,
    hidden,
    round,
    spawn,
    tables,
    zombies,
)
