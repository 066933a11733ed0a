"""The plugin's policy: the engine's heuristic, except that characters never run."""

from __future__ import annotations

from ecs_zombie.decisions import Decision, HeuristicPolicy
from ecs_zombie.game import Game


class CautiousPolicy:
    """`cautious` (or `cautious:mode=stationary`): declares `mode` for every activation where it is
    offered, and answers everything else as `heuristic` does."""

    name = "cautious"

    def __init__(self, mode: str = "walking") -> None:
        self.mode = mode
        self.fallback = HeuristicPolicy()

    def choose(self, game: Game, decision: Decision) -> int:
        if decision.kind == "stalingrad.mode" and self.mode in decision.options:
            return decision.options.index(self.mode)
        return self.fallback.choose(game, decision)
