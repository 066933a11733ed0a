"""Adapters of the shipped hybrids: the few lines that join one game's seam to another's rule.

Each adapter calls the other game's rule through a step (`game.run_step`) or its public helpers,
never a copy of it (see docs/composing.md):

- `melee.py`: Night of the Shambling Dead's `strike` fought with Singapore Zombie Apocalypse's
  percentile melee (`shambling-sza`).
- `bites.py`: the Director game's zombies biting as SZA's do (`director-sza`).
- `summon.py`: the adaptive director's summons brought in by SZA's spawn (`sza-paced`).
"""

from ecs_zombie.systems.hybrids import bites, melee, summon  # noqa: F401
