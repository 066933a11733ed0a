"""Systems with the determinism bugs a desync hunter meets, planted on purpose for the tests of
replay debugging: state kept in a module global, the order of a set of strings, and a rule that
logs differently followed by one that crashes."""

from __future__ import annotations

from typing import Any

from ecs_zombie.components import Kind, Markers, Tally
from ecs_zombie.game import Game
from ecs_zombie.registry import metrics
from ecs_zombie.schedule import system

_FIRST_SEED: list[int] = []  # BUG (planted): remembers the first game of the process, never reset
WORDS = ("ash", "birch", "cedar", "elm", "fir", "hazel", "larch", "maple", "oak", "pine", "rowan", "yew")
SWITCHES = {"extra_roll": False}  # flipped by a test after recording, as a code change would


@system("planted.global_cache", reads=("Tally",))
def global_cache(game: Game) -> None:
    """Rolls as many dice as the first game's seed says (a cache that outlives its game)."""
    if not _FIRST_SEED:
        _FIRST_SEED.append(game.seed)
    game.roll(f"{1 + _FIRST_SEED[0] % 3}d6", "cached")


@system("planted.set_order", reads=("Tally",))
def set_order(game: Game) -> None:
    """Rolls one die per word, in the order a set of strings iterates (it changes with the hash seed)."""
    for word in set(WORDS):  # BUG (planted): hash order
        game.roll("1d6", word)


@system("planted.logger", reads=("Markers",), writes=("Markers",))
def logger(game: Game) -> None:
    """Rolls a die and marks the board; with the switch on it rolls twice (the bug to find)."""
    game.roll("1d6", "first")
    if SWITCHES["extra_roll"]:
        game.roll("1d6", "second")
        game.world.get(game.world.query1(Markers)[0][0], Markers).add("rolled twice")


@system("planted.crasher", reads=("Markers", "Tally"), writes=("Tally",))
def crasher(game: Game) -> None:
    """Fails on a board the logger marked: the crash is a consequence, not the cause."""
    ent, markers = game.world.query1(Markers)[0]
    if markers.has("rolled twice"):
        raise KeyError("a board marked twice")
    game.world.get(ent, Tally).bump("rounds")
    if game.tick >= 4:
        game.end("survivors")


@metrics("planted.metrics")
def planted_metrics(game: Game) -> dict[str, Any]:
    return {}


# BUG (planted): per-game state outside the components, by the game's identity (the game is kept, so
# that its id is never reused by a later game)
_OUTSIDE: dict[int, tuple[Game, int]] = {}


@system("planted.outside_counter", creates=("Kind",))
def outside_counter(game: Game) -> None:
    """Counts its game's ticks in a dictionary outside the components: a game that goes on in one
    object counts 1, 2, 3...; a game saved and reloaded starts again. Logs the count and makes an
    entity named after it."""
    count = _OUTSIDE.get(id(game), (game, 0))[1] + 1
    _OUTSIDE[id(game)] = (game, count)
    game.log("outside_state", count=count)
    game.world.create(Kind(f"outside-{count}"))


@system("planted.end_at")
def end_at(game: Game, tick: int = 2) -> None:
    """Ends the game for the survivors at `tick`."""
    if game.tick == tick:
        game.end("survivors")


@system("planted.after")
def after(game: Game) -> None:
    """Logs that it ran (to show which systems run after the game ended)."""
    game.log("after_ran")


def with_planted(shipped: str, folder: Any, first: str, last: str | None = None, max_ticks: int | None = None,
                 params: dict[str, Any] | None = None) -> str:
    """A copy of a shipped ruleset in `folder` with the planted system `first` run first in its
    first phase (and `last` last in it); returns the ruleset file's path."""
    from pathlib import Path

    import yaml

    from ecs_zombie.ruleset import RULESETS_DIR

    doc = yaml.safe_load((RULESETS_DIR / f"{shipped}.yaml").read_text())
    doc["id"] = f"{shipped}-planted"
    doc["packages"] = [*doc["packages"], "tests.engine.planted_systems"]
    entries = doc["phases"][0]["systems"]
    entries.insert(0, {"system": first, "params": params or {}})
    if last:
        entries.append(last)
    if max_ticks is not None:
        doc["max_ticks"] = max_ticks
    path = Path(folder) / f"{shipped}-planted.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return str(path)
