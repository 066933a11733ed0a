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

from ecs_zombie.decisions import Decision, PolicyTable
from ecs_zombie.errors import DecisionError
from ecs_zombie.game import Game


class Stepper:
    """Runs `game` until a decision for one of `sides` (every side when None) is pending.

    With `resumable` the game keeps a copy of itself at each tick's start, so that it can be
    forked or saved at the pending decision (a saved game then loads at that same decision)."""

    def __init__(self, game: Game, auto: PolicyTable | None = None, sides: set[str] | None = None,
                 resumable: bool = False) -> None:
        self.game = game
        self.auto = auto
        self.sides = sides
        if resumable:
            game.keep_tick_start = True
        self.pending: Decision | None = None
        self._advance(None if game.pending is None else game.pending)

    @property
    def done(self) -> bool:
        """The game is over and nothing is pending."""
        return self.pending is None and self.game.over

    @property
    def at_tick_boundary(self) -> bool:
        """Between two ticks (no tick under way): where a plain save, or a fork without copies, is taken."""
        return self.game.running is None

    def legal(self) -> list[object]:
        """The pending decision's options (an action mask is `range(len(legal()))`)."""
        return list(self.pending.options) if self.pending is not None else []

    def answer(self, index: object) -> Decision | None:
        """Answer the pending decision; returns the next one asked from outside (None at the end)."""
        if self.pending is None:
            raise DecisionError("no decision is pending")
        game = self.game
        self._advance(game.step(index))
        return self.pending

    def _ours(self, decision: Decision) -> bool:
        return self.auto is None or self.sides is None or decision.side in self.sides

    def _advance(self, decision: Decision | None) -> None:
        """From `decision` (the game's pending one, or None to start stepping), answer other sides'
        decisions by policy until one of ours is pending or the game ends."""
        game = self.game
        if decision is None and game.pending is None:
            decision = game.step()
        while decision is not None and not self._ours(decision):
            assert self.auto is not None
            decision = game.step(self.auto.choose(game, decision))
        self.pending = decision
