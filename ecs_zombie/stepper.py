"""Driving a game from outside, one decision at a time (a person at a terminal, a learning agent,
a web page): the loop of `Game.play` turned inside out.

    stepper = Stepper(new_game("shambling", 7))
    while not stepper.done:
        decision = stepper.pending          # side, kind, legal options, context
        stepper.answer(choose(decision))    # an index into decision.options

Decisions the outside does not answer itself can be left to policies by side (`auto`), e.g.
`Stepper(game, auto=PolicyTable("heuristic"), sides={"player:0"})` asks only for player 0's
choices. Saves are taken between ticks: `at_tick_boundary` says when one may be.
"""

from __future__ import annotations

from collections.abc import Generator

from ecs_zombie.decisions import Decision, PolicyTable
from ecs_zombie.errors import DecisionError
from ecs_zombie.game import Game


class Stepper:
    """Runs `game` until a decision for one of `sides` (every side when None) is pending."""

    def __init__(self, game: Game, auto: PolicyTable | None = None, sides: set[str] | None = None) -> None:
        self.game = game
        self.auto = auto
        self.sides = sides
        self.pending: Decision | None = None
        self._steps: Generator[Decision, int, None] | None = None
        self._run(None)

    @property
    def done(self) -> bool:
        return self.pending is None and self.game.over

    @property
    def at_tick_boundary(self) -> bool:
        return self._steps is None

    def legal(self) -> list[object]:
        """The pending decision's options (an action mask is `range(len(legal()))`)."""
        return list(self.pending.options) if self.pending is not None else []

    def answer(self, index: int) -> Decision | None:
        """Answer the pending decision; returns the next one asked from outside (None at the end)."""
        if self.pending is None:
            raise DecisionError("no decision is pending")
        self._run(index)
        return self.pending

    def _ours(self, decision: Decision) -> bool:
        return self.auto is None or self.sides is None or decision.side in self.sides

    def _run(self, answer: int | None) -> None:
        game = self.game
        self.pending = None
        while True:
            if self._steps is None:
                if game.over:
                    return
                self._steps = game.tick_steps()
                answer = None
            try:
                decision = next(self._steps) if answer is None else self._steps.send(answer)
            except StopIteration:
                self._steps = None
                answer = None
                continue
            if self._ours(decision):
                self.pending = decision
                return
            assert self.auto is not None
            answer = self.auto.choose(game, decision)
