"""Replays: the initial snapshot, every decision, the whole event log, and per tick the state, its
hash and how many events each system logged, so that `verify` can name where a re-run departs.

Verification re-runs the game from the initial snapshot answering with the recorded decisions. At
the first tick whose state hash or events differ it names the tick, the first system whose events
differ (a system's events are its dice, draws, decisions and effects), the first differing event,
and the entities and components that differ from the recorded state. Heavy verification also saves
and reloads the game after every tick and checks the reload encodes to the same bytes: state that
does not survive a save shows up at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack

from ecs_zombie import canonical
from ecs_zombie.decisions import ScriptedPolicy
from ecs_zombie.errors import GameError, SaveError
from ecs_zombie.game import Game, answer_all
from ecs_zombie.snapshot import read_file, restore, state_bytes, unwrap, wrap


class TickProbe:
    """Hooked into the tick loop (`game.recorder`): per tick, the state, its hash and each system's
    number of events. Cheap: one encoding of the state per tick, a counter per system."""

    def __init__(self, game: Game) -> None:
        self.ticks: list[list[Any]] = []
        self._systems: list[list[Any]] = []
        self._mark = len(game.events)
        game.recorder = self

    def after_system(self, game: Game, name: str) -> None:
        self._systems.append([name, len(game.events) - self._mark])
        self._mark = len(game.events)

    def after_tick(self, game: Game) -> None:
        body = state_bytes(game, policy_state=False)
        self.ticks.append([game.tick, canonical.digest(body), self._systems, body])
        self._systems = []
        self._mark = len(game.events)


class Recorder(TickProbe):
    """Attached to a game as `game.recorder`; collects what a replay file holds."""

    def __init__(self, game: Game) -> None:
        self.initial = state_bytes(game)
        self._start = len(game.events)
        super().__init__(game)

    def decisions(self, game: Game) -> list[int]:
        return [e[2]["choice"] for e in game.events[self._start:] if e[1] == "decision"]

    def events(self, game: Game) -> list[Any]:
        return [list(e) for e in game.events[self._start:]]

    def to_bytes(self, game: Game) -> bytes:
        content = {"decisions": self.decisions(game),
                   "events": game.events[self._start:],  # tuples pack as lists do
                   "format": "ecs-zombie/replay", "initial": self.initial,
                   "outcome": game.outcome, "ticks": self.ticks}
        return wrap("replay", canonical.pack(content))

    def replay(self, game: Game) -> ReplayFile:
        """The replay as `load_replay` would read it back (without a file)."""
        return ReplayFile(msgpack.unpackb(self.initial, raw=False), self.decisions(game), self.ticks,
                          game.outcome, self.events(game))


@dataclass(slots=True)
class ReplayFile:
    initial: dict[str, Any]
    decisions: list[int]
    ticks: list[list[Any]]
    outcome: str | None
    events: list[Any] = field(default_factory=list)


def load_replay(path: Path) -> ReplayFile:
    content = unwrap(read_file(Path(path)), "replay", str(path))
    try:
        initial = msgpack.unpackb(content["initial"], raw=False, strict_map_key=True)
        decisions = [int(d) for d in content["decisions"]]
        ticks = content["ticks"]
        for t in ticks:
            if len(t) != 4:
                raise ValueError("tick record")
        events = content.get("events", [])
        if not isinstance(events, list):
            raise ValueError("events")
        return ReplayFile(initial, decisions, ticks, content.get("outcome"), events)
    except (KeyError, TypeError, ValueError, msgpack.UnpackException) as exc:
        raise SaveError(f"{path}: the replay's content is inconsistent ({exc})") from None


@dataclass(slots=True)
class Divergence:
    tick: int
    system: str | None
    differences: list[str] = field(default_factory=list)
    reason: str = ""


def _entities(body: bytes) -> dict[int, dict[str, Any]]:
    state = msgpack.unpackb(body, raw=False, strict_map_key=True)
    return {ent: dict((name, values) for name, values in comps) for ent, comps in state["entities"]}


def diff_states(expected: bytes, actual: bytes, limit: int = 20) -> list[str]:
    """Entities and components that differ between two encoded states (plus other top-level keys)."""
    out: list[str] = []
    a = msgpack.unpackb(expected, raw=False, strict_map_key=True)
    b = msgpack.unpackb(actual, raw=False, strict_map_key=True)
    for key in sorted(set(a) | set(b)):
        if key not in ("entities", "schema") and a.get(key) != b.get(key):
            out.append(f"{key}: recorded {a.get(key)!r}, replayed {b.get(key)!r}")
    ea, eb = _entities(expected), _entities(actual)
    for ent in sorted(set(ea) | set(eb)):
        if ent not in eb:
            out.append(f"entity {ent}: recorded but missing in the replay")
        elif ent not in ea:
            out.append(f"entity {ent}: not in the recording")
        else:
            for cname in sorted(set(ea[ent]) | set(eb[ent])):
                if ea[ent].get(cname) != eb[ent].get(cname):
                    out.append(f"entity {ent} {cname}: recorded {ea[ent].get(cname)!r}, "
                               f"replayed {eb[ent].get(cname)!r}")
    return out[:limit]


def start(replay: ReplayFile) -> Game:
    return restore(replay.initial)


def _first_event_difference(expected: list[Any], got: list[Any]) -> str:
    for i, (a, b) in enumerate(zip(expected, got, strict=False)):
        if canonical.pack(a) != canonical.pack(b):
            return f"event {i + 1} of the system: recorded {a!r}, replayed {b!r}"
    return f"the system logged {len(got)} events where the recording has {len(expected)}"


def verify(replay: ReplayFile, heavy: bool = False, until: int | None = None,
           on_tick: Any = None) -> Divergence | None:
    """Re-run the replay; None when every recorded tick matches, else where it first departs."""
    game = start(replay)
    policy = ScriptedPolicy(replay.decisions)
    pos = 0  # position in the recorded event log
    try:
        for tick, recorded_hash, systems, body in replay.ticks:
            if until is not None and tick > until:
                break
            probe = TickProbe(game)
            mark = len(game.events)
            try:
                answer_all(game, game.tick_steps(), policy)
            except GameError as exc:
                return Divergence(tick, game.system_name or None, [], f"the re-run failed: {exc}")
            got_tick, got_hash, got_systems, got_body = probe.ticks[-1]
            got_events = [list(e) for e in game.events[mark:]]
            first, detail = None, ""
            if replay.events:
                at, rec_at = 0, pos
                for i, (name, count) in enumerate(got_systems):
                    rec_name, rec_count = systems[i] if i < len(systems) else (None, 0)
                    mine = got_events[at:at + count]
                    theirs = replay.events[rec_at:rec_at + rec_count]
                    if name != rec_name or canonical.pack(mine) != canonical.pack(theirs):
                        first, detail = name, _first_event_difference(theirs, mine)
                        break
                    at, rec_at = at + count, rec_at + rec_count
                pos += sum(count for _name, count in systems)
            if got_tick != tick or got_hash != recorded_hash or first is not None:
                differences = diff_states(body, got_body)
                if detail:
                    differences.insert(0, detail)
                reason = "state hash differs" if got_hash != recorded_hash else "events differ"
                return Divergence(tick, first, differences, reason)
            if on_tick is not None:
                on_tick(game)
            if heavy:
                reloaded = restore(msgpack.unpackb(got_body, raw=False, strict_map_key=True))
                reloaded.events = []
                reloaded.log_base = game.log_pos
                again = state_bytes(reloaded, policy_state=False)
                if again != got_body:
                    return Divergence(tick, None, diff_states(got_body, again),
                                      "state changed across save and reload")
                game.close()
                game = reloaded
        if policy.pos != len(replay.decisions) and until is None:
            return Divergence(game.tick, None, [], f"{len(replay.decisions) - policy.pos} recorded decisions unused")
        return None
    finally:
        game.close()
