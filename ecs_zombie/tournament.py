"""Tournaments: every policy plays each team of a ruleset on common seeds, against a fixed opponent.

A ruleset's deciding sides fall into two teams (`ecs_zombie.search.team_of`): the survivors (players,
the party) and the zombies (the narrator, the game master, zombies that decide). For each team that
decides anything and each policy, one batch is played with that policy answering every side of the
team and the opponent policy (`heuristic` unless told) answering the rest. Every batch plays the same
game seeds (`game_seed(seed, i)`), so the policies meet the same dice and decks in the same order as
far as their choices let them: differences between rows are the policies', not luck's (common random
numbers). The win rate is the team's outcome (`survivors` or `zombies`), with its Wilson interval.

The figures are the same for any worker count or backend. The time per decision is measured in the
processes that play (wall time inside the team's policies) and is not: it is reported beside them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ecs_zombie.arguments import sides_of
from ecs_zombie.balance import play_batch
from ecs_zombie.batch import BatchSpec, Row, check
from ecs_zombie.errors import GameError
from ecs_zombie.game import new_game
from ecs_zombie.scenario import load_scenario
from ecs_zombie.search import team_of
from ecs_zombie.stats import wilson

TEAMS = ("survivors", "zombies")


def teams(target: str, players: int | None) -> dict[str, list[str]]:
    """The deciding sides of each team, seats expanded (`player:N` is every player of the game)."""
    scenario = load_scenario(target)
    game = new_game(scenario, 0, players=players)
    try:
        seats = game.players
    finally:
        game.close()
    sides = sides_of(scenario.ruleset)
    if sides is None:
        raise GameError(f"ruleset {scenario.ruleset.id!r} asks a decision whose side is not documented "
                        "(decision_kind): a tournament cannot tell who plays for which team")
    out: dict[str, list[str]] = {}
    for side in sides:
        expanded = [f"player:{i}" for i in range(seats)] if side == "player:N" else [side]
        for s in expanded:
            out.setdefault(team_of(s), [])
            if s not in out[team_of(s)]:
                out[team_of(s)].append(s)
    return {t: out[t] for t in TEAMS if t in out}


class _Timing:
    """A row sink (`play_batch(out=...)`) that sums the rows' decision timings."""

    def __init__(self) -> None:
        self.decisions = 0
        self.seconds = 0.0

    def write(self, rows: list[Row]) -> None:
        for row in rows:
            self.decisions += int(row.get("timed_decisions", 0))
            self.seconds += float(row.get("timed_seconds", 0.0))


@dataclass
class Entry:
    """One policy playing one team: its batch's figures."""

    team: str
    policy: str
    spec: str  # the policy table the batch played
    games: int
    wins: int
    failed: int
    outcomes: dict[str, int]
    decisions: int
    seconds: float
    interrupted: bool = False

    @property
    def rate(self) -> float:
        played = self.games - self.failed
        return self.wins / played if played else 0.0

    def to_dict(self) -> dict[str, Any]:
        played = self.games - self.failed
        lo, hi = wilson(self.wins, played) if played else (0.0, 1.0)
        return {"team": self.team, "policy": self.policy, "policies": self.spec, "games": self.games,
                "failed": self.failed, "wins": self.wins, "rate": self.rate, "ci95": [lo, hi],
                "outcomes": dict(sorted(self.outcomes.items())), "decisions_per_game":
                    self.decisions / self.games if self.games else 0.0,
                "ms_per_decision": 1000 * self.seconds / self.decisions if self.decisions else None}


@dataclass
class Tournament:
    target: str
    seed: int
    games: int
    opponent: str
    players: int | None
    entries: list[Entry] = field(default_factory=list)
    interrupted: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"target": self.target, "seed": self.seed, "games": self.games, "opponent": self.opponent,
                "players": self.players, "interrupted": self.interrupted,
                "entries": [e.to_dict() for e in self.entries],
                "note": "rates and intervals are reproducible for any worker count; ms_per_decision is "
                        "wall time measured where the games ran"}


def table_spec(policy: str, sides: list[str], opponent: str) -> str:
    """The policy table of one entry: `policy` for each side of the team, `opponent` for the rest."""
    return ",".join([opponent, *(f"{s}={policy}" for s in sides)])


def play_tournament(target: str, policies: list[str], games: int, seed: int = 1, workers: int = 1,
                    opponent: str = "heuristic", players: int | None = None, backend: str = "local",
                    address: str | None = None, only: str | None = None) -> Tournament:
    """Play every policy for each team (or the team `only`); checked before any game is played."""
    if not policies:
        raise GameError("--policies names no policy")
    found = teams(target, players)
    if only is not None:
        if only not in found:
            raise GameError(f"team {only!r} decides nothing in {target!r} (teams: {', '.join(found)})")
        found = {only: found[only]}
    plan = [(team, p, BatchSpec(target, games, seed, table_spec(p, sides, opponent), players, timed=tuple(sides)))
            for team, sides in found.items() for p in policies]
    for _team, _p, spec in plan:  # every policy name and option, before the first batch
        check(spec, trial=False)
    result = Tournament(target, seed, games, opponent, players)
    for team, p, spec in plan:
        timing = _Timing()
        batch = play_batch(spec, workers, backend, address, out=timing)  # type: ignore[arg-type]
        summary = batch.summary
        result.entries.append(Entry(team, p, spec.policy, summary.games, summary.outcomes.get(team, 0),
                                    summary.failed, dict(summary.outcomes), timing.decisions, timing.seconds,
                                    batch.interrupted))
        if batch.interrupted:
            result.interrupted = True
            break
    return result
