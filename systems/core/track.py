"""Narrative tracks: a table of turns, each listing named steps that the ruleset maps to systems.

A track turns a game's script ("turn 4: zombies on the Front Line, then a replacement card") into
data. `core.narration` runs the current turn's `steps` and `core.aftermath` its `after_battle`
steps; each step names a step system from the ruleset's `steps:` table and passes it the entry's
other keys as parameters. A turn past the end of the track does nothing.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from ecs_zombie.data import YList, check_keys, fail, need, plain
from ecs_zombie.decisions import Decision
from ecs_zombie.game import Game
from ecs_zombie.schedule import system


@dataclass(frozen=True, slots=True)
class TrackTurn:
    title: str
    steps: list[tuple[str, dict[str, Any]]]
    after_battle: list[tuple[str, dict[str, Any]]]
    reorder: bool
    last: bool


@dataclass(frozen=True, slots=True)
class Track:
    turns: list[TrackTurn]
    where: list[tuple[str | None, int | None]]

    def turn(self, tick: int) -> TrackTurn | None:
        return self.turns[tick - 1] if 1 <= tick <= len(self.turns) else None

    def step_calls(self) -> list[tuple[str, dict[str, Any], str | None, int | None, str]]:
        """Each step a turn names, with the parameters it passes: loading checks them."""
        out = []
        for i, turn in enumerate(self.turns):
            file, line = self.where[i]
            for key, entries in (("steps", turn.steps), ("after_battle", turn.after_battle)):
                for j, (name, params) in enumerate(entries):
                    out.append((name, params, file, line, f"[{i}].{key}[{j}]"))
        return out


def validate_track(data: Any) -> Track:
    """Validate a track table (a list of turns); used by rulesets that register it under their name."""
    if not isinstance(data, YList) or not data:
        raise fail("a track is a non-empty list of turns", data, None, "track")
    turns: list[TrackTurn] = []
    where: list[tuple[str | None, int | None]] = []
    for i, entry in enumerate(data):
        f = f"[{i}]"
        check_keys(entry, ("title", "steps", "after_battle", "reorder", "last"), f)
        lists = []
        for key in ("steps", "after_battle"):
            raw = need(entry, key, list, f, default=[])
            parsed = []
            for j, step in enumerate(raw):
                name = need(step, "step", str, f"{f}.{key}[{j}]")
                parsed.append((name, {k: plain(v) for k, v in step.items() if k != "step"}))
            lists.append(parsed)
        turns.append(TrackTurn(need(entry, "title", str, f), lists[0], lists[1],
                               need(entry, "reorder", bool, f, default=False),
                               need(entry, "last", bool, f, default=False)))
        where.append((getattr(data, "file", None), data.line_of(i)))
    return Track(turns, where)


def current_turn(game: Game, track: str) -> TrackTurn | None:
    table = game.tables[track]
    return table.turn(game.tick) if isinstance(table, Track) else None


@system("core.narration", calls="*")
def narration(game: Game, track: str) -> Generator[Decision, object, None]:
    """Resolve this turn's narrated steps, in the order the track lists them."""
    turn = current_turn(game, track)
    if turn is None:
        return
    game.log("narration", title=turn.title)
    for name, params in turn.steps:
        yield from game.run_step(name, params)
        if game.over:
            return


@system("core.aftermath", calls="*")
def aftermath(game: Game, track: str) -> Generator[Decision, object, None]:
    """Resolve this turn's steps that the track places after the battle."""
    turn = current_turn(game, track)
    if turn is None:
        return
    for name, params in turn.after_battle:
        yield from game.run_step(name, params)
        if game.over:
            return
