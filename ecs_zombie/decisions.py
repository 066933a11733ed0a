"""Decisions: wherever a rule says someone chooses, a system yields a `Decision` and waits.

A system is a generator; `choice = yield Decision(...)` suspends it until an answer arrives. The
game loop asks a policy for the answer, but nothing ties the answer to the loop: a terminal, a
scripted replay or a learning agent can answer from outside (see `Game.start_tick`).

Each decision names the side that answers it (`player:0`, `narrator`, `gm`, `zombies`) so that
policies are assigned per side, and lists its legal options in a deterministic order. The answer is
an index into `options`; the option itself is what the system receives.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ecs_zombie.errors import DecisionError, GameError

if TYPE_CHECKING:
    from ecs_zombie.game import Game


@dataclass(slots=True)
class Decision:
    """A request for a choice among legal options."""

    side: str
    kind: str
    options: list[Any]
    context: dict[str, Any] = field(default_factory=dict)


class Policy(Protocol):
    name: str

    def choose(self, game: Game, decision: Decision) -> int: ...


Heuristic = Callable[["Game", Decision], int]
_HEURISTICS: dict[str, Heuristic] = {}


def heuristic(kind: str) -> Callable[[Heuristic], Heuristic]:
    """Register the heuristic answer for a decision kind (e.g. `shambling.wound`)."""

    def wrap(fn: Heuristic) -> Heuristic:
        _HEURISTICS[kind] = fn
        return fn

    return wrap


class RandomPolicy:
    """Uniform among the legal options, from the stream `policy/<side>`.

    The policy streams are saved with the game (so a resumed game chooses as an uninterrupted one)
    but are not part of the state a replay hashes: a replay answers from its recorded decisions."""

    name = "random"

    def choose(self, game: Game, decision: Decision) -> int:
        return game.rng("policy/" + decision.side).below(len(decision.options))


class HeuristicPolicy:
    """The ruleset's registered heuristic for the decision's kind; the first option where none is known."""

    name = "heuristic"

    def choose(self, game: Game, decision: Decision) -> int:
        fn = _HEURISTICS.get(decision.kind)
        return fn(game, decision) if fn is not None else 0


class FirstPolicy:
    """Always the first legal option: handy in tests that force everything else."""

    name = "first"

    def choose(self, game: Game, decision: Decision) -> int:
        return 0


class ScriptedPolicy:
    """Answers from a recorded list of indices (replays), optionally falling back to another policy."""

    name = "scripted"

    def __init__(self, answers: Iterable[int], fallback: Policy | None = None) -> None:
        self.answers = list(answers)
        self.pos = 0
        self.fallback = fallback

    def choose(self, game: Game, decision: Decision) -> int:
        if self.pos >= len(self.answers):
            if self.fallback is not None:
                return self.fallback.choose(game, decision)
            raise DecisionError(f"the recorded decisions ran out at {decision.kind} in tick {game.tick}")
        answer = self.answers[self.pos]
        self.pos += 1
        return answer


POLICIES: dict[str, Callable[[], Policy]] = {
    "heuristic": HeuristicPolicy,
    "random": RandomPolicy,
    "first": FirstPolicy,
}


class PolicyTable:
    """Which policy answers for which side: `heuristic`, or `random,narrator=heuristic`."""

    def __init__(self, spec: str = "heuristic") -> None:
        self.spec = spec
        self.default: Policy | None = None
        self.by_side: dict[str, Policy] = {}
        for part in (p.strip() for p in spec.split(",") if p.strip()):
            side, _, name = part.rpartition("=")
            if name not in POLICIES:
                raise GameError(f"unknown policy {name!r} (known: {', '.join(sorted(POLICIES))})")
            if side:
                self.by_side[side] = POLICIES[name]()
            else:
                self.default = POLICIES[name]()
        if self.default is None:
            self.default = HeuristicPolicy()

    def for_side(self, side: str) -> Policy:
        return self.by_side.get(side) or self.default  # type: ignore[return-value]

    def choose(self, game: Game, decision: Decision) -> int:
        return self.for_side(decision.side).choose(game, decision)
