"""Systems every ruleset may use: narrative tracks of scripted steps, and pacing (Left 4 Dead's
adaptive director: per-figure intensity and a Build Up -> Sustain Peak -> Peak Fade -> Relax cycle
that summons through a step each game maps)."""

from ecs_zombie.systems.core import pacing, track  # noqa: F401
