"""Rule coverage of a batch: which options a policy was offered and took, and which events happened.

A balance figure is only as good as the players: a default policy that never takes an option the
rules offer (never walks, never searches, never trades) plays a different game from the book's. So a
batch run with `--coverage` counts, per decision kind, how many times it was asked, how many times
each *type* of option was among those offered and how many times one was taken; and how many times
each event kind was logged. An option type offered thousands of times and never taken is a rule the
policy does not use, seen at once.

An option's type is what it is, without its particulars: the option itself when it is a word
(`'walking'`; in a word of colon-separated parts the numbers, entity ids, are left out:
`'engage:9:run'` is `engage:run`), the leading word of a list (`['attack', 'aimed', 'rifle']` is `attack`), `square` for
a list of coordinates, `entity` for a number (decisions offer entities by id), the `action`, `kind`,
`type` or `name` of a mapping. A ruleset whose options need finer types registers a function of the game
and the option for its decision kind (`@option_types("shambling.wound")` telling a Hero from another
figure, say).

Counting happens in the process that plays the game (the recorder wraps the policy; events are
counted from the game's log), one compact dictionary per game, summed in game order by the batch
(so the totals are the same for any number of workers or backend).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ecs_zombie.decisions import Decision
    from ecs_zombie.game import Game

OptionType = Callable[["Game", Any], str]
_OPTION_TYPES: dict[str, OptionType] = {}
_MAPPING_KEYS = ("action", "kind", "type", "name")


def option_types(kind: str) -> Callable[[OptionType], OptionType]:
    """Register how the options of decision kind `kind` are typed for coverage."""

    def wrap(fn: OptionType) -> OptionType:
        _OPTION_TYPES[kind] = fn
        return fn

    return wrap


def option_type(option: Any, kind: str = "", game: Game | None = None) -> str:
    """The type of an option, without its particulars (see the module's docstring)."""
    custom = _OPTION_TYPES.get(kind)
    if custom is not None and game is not None:
        return custom(game, option)
    if isinstance(option, str):  # 'approach:10' and 'engage:9:run' name an entity: 'approach', 'engage:run'
        return ":".join(part for part in option.split(":") if not part.isdigit()) or option
    if isinstance(option, bool):
        return "yes" if option else "no"
    if isinstance(option, int):
        return "entity"
    if option is None:
        return "none"
    if isinstance(option, list | tuple):
        if option and isinstance(option[0], str):
            return option[0]
        if option and all(isinstance(v, int) and not isinstance(v, bool) for v in option):
            return "square"
        return "list"
    if isinstance(option, dict):
        for key in _MAPPING_KEYS:
            value = option.get(key)
            if isinstance(value, str):
                return value
        return "mapping"
    return type(option).__name__


@dataclass
class KindCount:
    """One decision kind: how often asked, and per option type how often offered and taken."""

    asked: int = 0
    offered: dict[str, int] = field(default_factory=dict)
    taken: dict[str, int] = field(default_factory=dict)

    def merge(self, other: KindCount) -> None:
        self.asked += other.asked
        for k, v in other.offered.items():
            self.offered[k] = self.offered.get(k, 0) + v
        for k, v in other.taken.items():
            self.taken[k] = self.taken.get(k, 0) + v

    def to_dict(self) -> dict[str, Any]:
        return {"asked": self.asked, "offered": dict(sorted(self.offered.items())),
                "taken": dict(sorted(self.taken.items()))}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> KindCount:
        return KindCount(int(d["asked"]), dict(d["offered"]), dict(d["taken"]))


@dataclass
class Coverage:
    """Decision and event counts summed over games (see the module's docstring)."""

    games: int = 0
    decisions: dict[str, KindCount] = field(default_factory=dict)
    events: dict[str, int] = field(default_factory=dict)

    def add(self, game: dict[str, Any]) -> None:
        """Add one game's counts (as `CoverageRecorder.result` gives them)."""
        self.games += 1
        for kind, d in game["decisions"].items():
            self.decisions.setdefault(kind, KindCount()).merge(KindCount.from_dict(d))
        for kind, n in game["events"].items():
            self.events[kind] = self.events.get(kind, 0) + n

    def never_taken(self) -> list[tuple[str, str, int]]:
        """(decision kind, option type, times offered) of each option type offered and never taken."""
        return [(kind, t, n) for kind, c in sorted(self.decisions.items())
                for t, n in sorted(c.offered.items()) if not c.taken.get(t)]

    def to_dict(self) -> dict[str, Any]:
        return {"games": self.games,
                "decisions": {k: c.to_dict() for k, c in sorted(self.decisions.items())},
                "events": dict(sorted(self.events.items())),
                "never_taken": [{"decision": k, "option": t, "offered": n} for k, t, n in self.never_taken()]}

    def rows(self) -> list[list[str]]:
        """The decision table: kind, option type, offered, taken, share of the kind's answers."""
        out = []
        for kind, c in sorted(self.decisions.items()):
            for t in sorted(set(c.offered) | set(c.taken)):
                taken = c.taken.get(t, 0)
                share = f"{100 * taken / c.asked:.1f}%" if c.asked else "-"
                out.append([kind, t, str(c.offered.get(t, 0)), str(taken), share])
        return out


class CoverageRecorder:
    """Wraps a policy (or policy table): counts every decision it answers, by option type."""

    name = "coverage"  # a Policy has a name (the protocol asks for one)

    def __init__(self, policy: Any) -> None:
        self.policy = policy
        self.needs_tick_start = getattr(policy, "needs_tick_start", False)
        self.decisions: dict[str, KindCount] = {}

    def choose(self, game: Game, decision: Decision) -> int:
        types = [option_type(o, decision.kind, game) for o in decision.options]  # before the policy looks
        index = self.policy.choose(game, decision)
        count = self.decisions.get(decision.kind)
        if count is None:
            count = self.decisions[decision.kind] = KindCount()
        count.asked += 1
        for t in sorted(set(types)):
            count.offered[t] = count.offered.get(t, 0) + 1
        if type(index) is int and 0 <= index < len(types):
            count.taken[types[index]] = count.taken.get(types[index], 0) + 1
        return index

    def result(self, events: Iterable[tuple[Any, ...]]) -> dict[str, Any]:
        """This game's counts: the decisions answered and the events of its log."""
        counts: dict[str, int] = {}
        for event in events:
            counts[event[1]] = counts.get(event[1], 0) + 1
        return {"decisions": {k: c.to_dict() for k, c in sorted(self.decisions.items())},
                "events": dict(sorted(counts.items()))}
