"""Stalingrad at dusk: an example ecs-zombie plugin (a hybrid ruleset and a policy).

`RULESETS` is the folder the entry point `ecs_zombie.rulesets` names: the engine loads every
ruleset file in it, and each ruleset's `packages:` imports the systems (`zombie_dusk.rules`).
"""

from pathlib import Path

RULESETS = Path(__file__).resolve().parent / "rulesets"
