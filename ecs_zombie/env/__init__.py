"""Learning agents: a PettingZoo AEC environment for any ruleset (`pip install "ecs-zombie[rl]"`).

    from ecs_zombie.env import aec_env
    env = aec_env("shambling", agents=["player:0"], opponents="heuristic", seed=7)

This package imports without numpy or PettingZoo: the declarations every game package makes
(`ecs_zombie.env.spec`) are plain Python; `aec_env` imports them when called. See docs/rl.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ecs_zombie.env.aec import ZombieEnv


def aec_env(ruleset: str, *, players: int | None = None, agents: Sequence[str] | None = None,
            opponents: str | Mapping[str, str] = "heuristic", seed: int = 0,
            shaped: bool | Mapping[str, float] = False,
            params: Mapping[str, Any] | None = None, record: str | Path | None = None) -> ZombieEnv:
    """A PettingZoo AEC environment of `ruleset` (an id, a ruleset file or a scenario file).

    `players`: the number of player seats (the scenario's default when None). `agents`: the sides
    trained from outside (`player:0`, `narrator`, ...; every side that answers decisions when None,
    or those `opponents` does not name when it is a mapping). `opponents`: the policy answering every
    other side (`heuristic`, `random`, `mcts:iterations=32`, ...) or a mapping side -> policy.
    `seed`: the game's seed until `reset(seed=...)` gives another. `shaped`: add the ruleset's
    shaped reward (its metrics' changes, weighted as its observation declares, or by the mapping
    metric -> weight given here). `record`: write each
    finished game's replay to this file (what `ecs-zombie run --record` writes)."""
    try:
        from ecs_zombie.env.aec import ZombieEnv
    except ImportError as exc:  # numpy, gymnasium or pettingzoo is missing
        from ecs_zombie.env.spec import EnvError

        raise EnvError(f"the learning environment needs the rl extra: pip install \"ecs-zombie[rl]\" ({exc})") from None
    return ZombieEnv(ruleset, players=players, agents=agents, opponents=opponents, seed=seed, shaped=shaped,
                     params=params, record=record)


__all__ = ["aec_env"]
