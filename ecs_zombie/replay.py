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
from ecs_zombie.diffing import describe_change, describe_event_difference, first_event_difference, state_changes
from ecs_zombie.errors import SaveError
from ecs_zombie.filestamps import held_still
from ecs_zombie.game import Game, answer_all
from ecs_zombie.loading import collection_paused, read_replay
from ecs_zombie.provenance import code_changes
from ecs_zombie.snapshot import read_file, restore, state_bytes, unwrap_body, wrap


class TickProbe:
    """Hooked into the tick loop (`game.recorder`): per tick, the state, its hash and each system's
    number of events. Cheap: one encoding of the state per tick, a counter per system."""

    def __init__(self, game: Game) -> None:
        self.ticks: list[list[Any]] = []
        self._systems: list[list[Any]] = []
        self._mark = len(game.events)
        game.recorder = self

    def after_step(self, game: Game, path: str) -> None:
        """A step inside a system ended: its events count with the system's."""

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
        """Every answer given since recording began, in order."""
        return [e[2]["choice"] for e in game.events[self._start:] if e[1] == "decision"]

    def events(self, game: Game) -> list[Any]:
        """The events logged since recording began."""
        return [list(e) for e in game.events[self._start:]]

    def to_bytes(self, game: Game) -> bytes:
        """The replay file's bytes (write them with `ecs_zombie.snapshot.write_atomic`)."""
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
    """A replay as loaded: the initial state, every decision's answer, per tick the state and its
    hash, the outcome and the event log (`verify` re-runs it)."""

    initial: dict[str, Any]
    decisions: list[int]
    ticks: list[list[Any]]
    outcome: str | None
    events: list[Any] = field(default_factory=list)
    # Read with `states=False`: its tick states held to their hashes only (`verify` looks into one
    # where its re-run departs); `name` is the file, for what such a state's problem says.
    states_unread: bool = False
    name: str = "replay"


def load_replay(path: str | Path, states: bool = True) -> ReplayFile:
    """A replay file, its content checked through as it is decoded (`ecs_zombie.loading.read_replay`):
    its shape, its initial state and every tick's state, so that whatever loads can be verified.
    `states=False` leaves each tick's state to `verify`, which needs to read one only where its re-run
    departs (`replay --verify`: reading them all costs more than playing the game)."""
    return replay_of(read_file(Path(path)), str(path), states)


def replay_of(data: bytes, name: str = "replay", states: bool = True) -> ReplayFile:
    """A replay file's bytes, checked as `load_replay` checks a file (`name` names it in errors)."""
    with collection_paused():  # thousands of events and their data, made at once, all kept
        saved, _initial = read_replay(unwrap_body(data, "replay", name), name, states)
        initial = msgpack.unpackb(saved.initial, raw=False, strict_map_key=True)
        ticks = [[tick, digest, [[system, count] for system, count in systems], body]
                 for tick, digest, systems, body in saved.ticks]
        return ReplayFile(initial, list(saved.decisions), ticks, saved.outcome, [list(e) for e in saved.events],
                          not states, name)


@dataclass(slots=True)
class Divergence:
    """Where a re-run first departs from its recording.

    `system` is the innermost system to blame (`stalingrad.turns/spawn`); `first_event` the first
    event that differs (its position in the tick, both versions); `changes` the state differences
    field by field; `crash` what the re-run raised, when it did (reported after the first
    difference, as its consequence); `code_changes` the systems whose code changed since the
    recording. `differences` is all of it as readable lines."""

    tick: int
    system: str | None
    differences: list[str] = field(default_factory=list)
    reason: str = ""
    first_event: dict[str, Any] | None = None
    changes: list[dict[str, Any]] = field(default_factory=list)
    crash: str | None = None
    code_changes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"tick": self.tick, "system": self.system, "reason": self.reason, "first_event": self.first_event,
                "changes": self.changes, "crash": self.crash, "code_changes": self.code_changes,
                "differences": self.differences}


def diff_states(expected: bytes, actual: bytes, limit: int = 20) -> list[str]:
    """Readable lines for what differs from a recorded state to a replayed one, field by field."""
    return [describe_change(c) for c in state_changes(expected, actual, limit)]


def start(replay: ReplayFile) -> Game:
    return restore(replay.initial)


def _by_tick(events: list[Any]) -> dict[int, list[Any]]:
    out: dict[int, list[Any]] = {}
    for e in events:
        out.setdefault(e[0], []).append(e)
    return out


def verify(replay: ReplayFile, heavy: bool = False, until: int | None = None,
           on_tick: Any = None) -> Divergence | None:
    """Re-run the replay; None when every recorded tick matches, else where it first departs.

    Each tick's events are compared with the recording's as a whole (GGPO's SyncTest, per event):
    the first one that differs names the system to blame, even when the re-run later raises. The
    rules' files are looked at once for edits, not at each heavy reload (`held_still`)."""
    with held_still():
        return _verify(replay, heavy, until, on_tick)


def _verify(replay: ReplayFile, heavy: bool, until: int | None, on_tick: Any) -> Divergence | None:
    game = start(replay)
    code = code_changes((replay.initial.get("provenance") or {}).get("code"), game.ruleset)
    order = [step.label for _p, steps in game.ruleset.phases for step in steps]
    policy = ScriptedPolicy(replay.decisions)
    recorded = _by_tick(replay.events)

    def diverged(tick: int, system: str | None, reason: str, first: dict[str, Any] | None = None,
                 changes: list[dict[str, Any]] | None = None, crash: str | None = None) -> Divergence:
        lines = [f"code changed since the recording: {line}" for line in code]
        if first is not None:
            lines.append(describe_event_difference(first, tick))
        lines += [describe_change(c) for c in changes or []]
        if crash is not None:
            lines.append(f"then the re-run failed: {crash}" if first is not None else f"the re-run failed: {crash}")
        return Divergence(tick, system, lines, reason, first, changes or [], crash, code)

    try:
        for tick, recorded_hash, _systems, body in replay.ticks:
            if until is not None and tick > until:
                break
            probe = TickProbe(game)
            mark = len(game.events)
            crash = None
            try:
                answer_all(game, game.tick_steps(), policy)
            except Exception as exc:  # a re-run that raises is what verification is for
                crash = f"{type(exc).__name__}: {exc}"
            got = [list(e) for e in game.events[mark:]]
            expected = recorded.get(tick, []) if replay.events else got
            first = first_event_difference(expected, got, complete=crash is None, order=order)
            if crash is not None:
                if first is not None:
                    return diverged(tick, first["system"], "events differ", first, crash=crash)
                return diverged(tick, game.system_path or None, "the re-run failed", crash=crash)
            got_tick, got_hash, _got_systems, got_body = probe.ticks[-1]
            if got_hash != recorded_hash and replay.states_unread:
                _check_recorded(replay, body, tick, game)
            if got_tick != tick or got_hash != recorded_hash or first is not None:
                reason = "events differ" if first is not None else "state hash differs"
                return diverged(tick, first["system"] if first else None, reason, first,
                                state_changes(body, got_body, 20))
            if on_tick is not None:
                on_tick(game)
            if heavy:
                reloaded = restore(got_body)  # the saved bytes themselves, decoded as a load decodes them
                reloaded.events = []
                reloaded.log_base = game.log_pos
                again = state_bytes(reloaded, policy_state=False)
                if again != got_body:
                    return diverged(tick, None, "state changed across save and reload",
                                    changes=state_changes(got_body, again, 20))
                game.close()
                game = reloaded
        if policy.pos != len(replay.decisions) and until is None:
            return diverged(game.tick, None, f"{len(replay.decisions) - policy.pos} recorded decisions unused")
        return None
    finally:
        game.close()


def _check_recorded(replay: ReplayFile, body: bytes, tick: int, game: Game) -> None:
    """A recorded state the re-run departs from, read through before it is compared: one that no
    engine could have written is the file's fault (`SaveError`), not a divergence."""
    from ecs_zombie.loading import body_of, check_tick_state, read_state

    initial = read_state(body_of(replay.initial, replay.name), replay.name)
    check_tick_state(body, tick, initial, game.ruleset, replay.name)


def walk(replay: ReplayFile, on_tick: Any, until: int | None = None) -> None:
    """Call `on_tick` with the game as recorded after each tick (restored from the recording's
    states, without re-running anything); the rules' files are looked at once (`held_still`)."""
    with held_still():
        for tick, _hash, _systems, body in replay.ticks:
            if until is not None and tick > until:
                break
            game = restore(msgpack.unpackb(body, raw=False, strict_map_key=True))
            try:
                on_tick(game)
            finally:
                game.close()


def warm_up(replay: ReplayFile, games: int) -> None:
    """Play `games` other games of the replay's ruleset and scenario in this process (random
    answers, seeds derived from the replay's): whatever a system leaks from one game to the next
    is then in place when the replay is verified."""
    from ecs_zombie.catalog import Origin, find_saved
    from ecs_zombie.game import new_game
    from ecs_zombie.rng import derive_seed
    from ecs_zombie.ruleset import load_ruleset
    from ecs_zombie.scenario import load_scenario

    state = replay.initial
    rs = load_ruleset(str(find_saved(state["ruleset"], Origin.from_dict(state["ruleset_origin"])).path),
                      state["tables"])
    scenario = load_scenario(str(rs.resolve(state["scenario"])), rs)
    for i in range(games):
        game = new_game(scenario, derive_seed(state["seed"], "warmup", i), players=state["players"],
                        policy="random")
        try:
            game.play()
        finally:
            game.close()


def verify_fresh(path: Path, heavy: bool = False, until: int | None = None, warmup: int = 3) -> dict[str, Any]:
    """Verify a replay in a new process, under another hash seed than this one, after `warmup`
    other games of its ruleset there: what lives outside the game's state (a module global, the
    order of a set of strings) shows as a divergence."""
    import json
    import os
    import subprocess
    import sys

    import ecs_zombie

    seed = "1" if os.environ.get("PYTHONHASHSEED") != "1" else "2"
    env = {**os.environ, "PYTHONHASHSEED": seed}
    root = str(Path(ecs_zombie.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join([root, *filter(None, [os.environ.get("PYTHONPATH")])])
    command = [sys.executable, "-m", "ecs_zombie.cli", "replay", str(path), "--verify", "--json",
               "--warmup", str(warmup)]
    if heavy:
        command.append("--heavy")
    if until is not None:
        command += ["--until", str(until)]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=3600)
    if done.returncode not in (0, 1):
        raise SaveError(f"the fresh process failed: {done.stderr.strip().splitlines()[-1:] or done.returncode}")
    result: dict[str, Any] = json.loads(done.stdout)
    result.update({"hash_seed": int(seed), "warmup": warmup})
    return result
