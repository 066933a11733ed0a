"""A replay as a sequence of frames to step through: one at each decision, one after each system
(steps included) and one at the end of each tick, each with the board, the events since the
frame before, and every entity's components.

Frames are rebuilt by re-running the recording (its decisions answer the game), so they show the
game as it was between any two systems, not only at the recorded tick ends. `ecs-zombie view`
steps through them; tests read them directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgpack

from ecs_zombie.boards import render
from ecs_zombie.decisions import Decision, ScriptedPolicy
from ecs_zombie.game import Game, answer_all
from ecs_zombie.replay import ReplayFile, restore
from ecs_zombie.state import state_bytes

DECISION, SYSTEM, TICK = "decision", "system", "tick"


@dataclass(slots=True)
class Frame:
    """The game at one point: `kind` is `decision` (a decision is about to be answered), `system`
    (a system just ran) or `tick` (a tick just ended); `label` says which."""

    index: int
    tick: int
    kind: str
    label: str
    board: list[str]
    events: list[Any]
    entities: dict[int, dict[str, dict[str, Any]]]
    metrics: dict[str, Any] = field(default_factory=dict)


def _entities(game: Game) -> dict[int, dict[str, dict[str, Any]]]:
    # decoded from the state's bytes: a frame must not share a list or a dict with the live game
    state = msgpack.unpackb(state_bytes(game, policy_state=False), raw=False, strict_map_key=True)
    schema = state["schema"]
    return {ent: {name: dict(zip(schema[name], values, strict=True)) for name, values in comps}
            for ent, comps in state["entities"]}


class _Builder:
    def __init__(self, game: Game) -> None:
        self.game = game
        self.frames: list[Frame] = []
        self.mark = len(game.events)

    def add(self, kind: str, label: str) -> None:
        game = self.game
        events = [list(e) for e in game.events[self.mark:]]
        self.mark = len(game.events)
        self.frames.append(Frame(len(self.frames), game.tick, kind, label, render(game), events, _entities(game),
                                 game.metrics()))

    # the recorder hooks the game loop calls
    def after_step(self, game: Game, path: str) -> None:
        self.add(SYSTEM, path)

    def after_system(self, game: Game, name: str) -> None:
        self.add(SYSTEM, name)

    def after_tick(self, game: Game) -> None:
        self.add(TICK, f"end of {game.ruleset.tick_name} {game.tick}")


class _Watching:
    """Answers from the recording, taking a frame at each decision before answering it."""

    name = "recorded"

    def __init__(self, builder: _Builder, answers: list[int]) -> None:
        self.builder = builder
        self.scripted = ScriptedPolicy(answers)

    def choose(self, game: Game, decision: Decision) -> int:
        self.builder.add(DECISION, f"{decision.kind} ({decision.side}) asked by {game.system_path}")
        return self.scripted.choose(game, decision)


def build(replay: ReplayFile) -> list[Frame]:
    """Every frame of the replay, from its start to its end (or to where its re-run fails)."""
    game = restore(replay.initial)
    builder = _Builder(game)
    builder.add(TICK, "start")
    game.recorder = builder
    policy = _Watching(builder, replay.decisions)
    try:
        for _ in replay.ticks:
            if game.over:
                break
            try:
                answer_all(game, game.tick_steps(), policy)
            except Exception as exc:  # a replay that no longer re-runs: show how far it gets
                builder.add(TICK, f"the re-run failed: {type(exc).__name__}: {exc}")
                break
    finally:
        game.recorder = None
        game.close()
    return builder.frames


def find(frames: list[Frame], tick: int, system: str | None = None) -> int:
    """The first frame of `tick` (at or after `system` when given), else the last frame."""
    for f in frames:
        if f.tick == tick and f.kind != TICK and (system is None or f.label.endswith(system)
                                                   or f.label.endswith(f"asked by {system}")):
            return f.index
    for f in frames:
        if f.tick >= tick:
            return f.index
    return len(frames) - 1
