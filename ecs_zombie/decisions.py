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


@dataclass(frozen=True, slots=True)
class DecisionKind:
    """What a decision kind asks, for people and tools (`ecs-zombie decisions RULESET`): who answers
    (`side`: `player:N`, `narrator`, `gm`, `party`, ...), the form of its options, and what it means."""

    kind: str
    side: str
    options: str
    doc: str


KINDS: dict[str, DecisionKind] = {}


def decision_kind(kind: str, side: str, options: str, doc: str) -> None:
    """Document a decision kind a system asks (`@system(..., decides=(kind,))` names it)."""
    KINDS[kind] = DecisionKind(kind, side, options, doc)


class Policy(Protocol):
    """What answers decisions: a `name` and `choose`, which returns the index of the option taken.

    A policy must be deterministic given the game (randomness only from `game.rng("policy/<side>")`,
    which saves carry) and must not change the game: it only looks. Register one for `--policy` with
    the entry point group `ecs_zombie.policies` (a factory taking its options as text)."""

    name: str

    def choose(self, game: Game, decision: Decision) -> int:
        """The index into `decision.options` of the option this policy takes."""
        ...


Heuristic = Callable[["Game", Decision], int]
_HEURISTICS: dict[str, Heuristic] = {}


def heuristic(kind: str) -> Callable[[Heuristic], Heuristic]:
    """Register the heuristic answer for a decision kind (e.g. `shambling.wound`)."""

    def wrap(fn: Heuristic) -> Heuristic:
        _HEURISTICS[kind] = fn
        return fn

    return wrap


def heuristic_for(kind: str) -> Heuristic | None:
    """The registered heuristic of a decision kind, if any."""
    return _HEURISTICS.get(kind)


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


def _mcts(**options: str) -> Policy:
    from ecs_zombie.search import MCTSPolicy

    return MCTSPolicy(**options)


POLICIES: dict[str, Callable[..., Policy]] = {
    "heuristic": HeuristicPolicy,
    "random": RandomPolicy,
    "first": FirstPolicy,
    "mcts": _mcts,
}


def make_policy(text: str) -> Policy:
    """A policy from `name` or `name:key=value[:key=value...]` (options go to its factory as text):
    the engine's own, or one an installed plugin registers under `ecs_zombie.policies`."""
    name, *opts = text.split(":")
    options: dict[str, str] = {}
    for opt in opts:
        key, sep, value = opt.partition("=")
        if not sep or not key:
            raise GameError(f"policy option {opt!r} of {text!r} is not key=value")
        options[key] = value
    factory: Callable[..., Policy] | None = POLICIES.get(name)
    if factory is None:
        from ecs_zombie.catalog import plugin_policies

        found = plugin_policies()
        if name not in found:
            known = sorted({*POLICIES, *found})
            raise GameError(f"unknown policy {name!r} (known: {', '.join(known)})")
        factory = found[name][0]
    try:
        return factory(**options)
    except TypeError as exc:
        raise GameError(f"policy {name!r} does not take {', '.join(options) or 'these options'}: {exc}") from None
    except ValueError as exc:
        raise GameError(f"policy {text!r}: {exc}") from None


def split_side(part: str) -> tuple[str, str]:
    """`player:0=cautious:mode=walking` -> ("player:0", "cautious:mode=walking"); `random` -> ("", "random").
    What precedes the first `=` is a side when it has no `:` or is a seat (`player:N`); otherwise the
    `=` belongs to a policy's option (`cautious:mode=walking`)."""
    head, eq, rest = part.partition("=")
    if eq and (":" not in head or (head.startswith("player:") and head[7:].isdigit())):
        return head.strip(), rest.strip()
    return "", part


class PolicyTable:
    """Which policy answers for which side: `heuristic`, `random,narrator=heuristic`, or with a
    policy's options, `heuristic,player:0=cautious:mode=walking`."""

    def __init__(self, spec: str = "heuristic") -> None:
        self.spec = spec
        self.default: Policy | None = None
        self.by_side: dict[str, Policy] = {}
        for part in (p.strip() for p in spec.split(",") if p.strip()):
            side, text = split_side(part)
            policy = make_policy(text)
            if side:
                self.by_side[side] = policy
            else:
                self.default = policy
        if self.default is None:
            self.default = HeuristicPolicy()
        # a search policy forks the game at its decisions: the game must keep each tick's start
        self.needs_tick_start = any(getattr(p, "needs_tick_start", False)
                                    for p in (self.default, *self.by_side.values()))

    def for_side(self, side: str) -> Policy:
        """The policy answering `side`: its own, else the default."""
        return self.by_side.get(side) or self.default  # type: ignore[return-value]

    def choose(self, game: Game, decision: Decision) -> int:
        """The answer of the decision's side's policy."""
        return self.for_side(decision.side).choose(game, decision)
