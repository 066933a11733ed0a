"""The `heuristic` policy's answers for Shambling's decisions: sensible play, not perfect play.

Survivors give wounds to the already wounded first (a wounded figure fights at half strength and may
turn into a zombie on turns 5 and 10: in 1,500 games this doubled the survivors' win rate over
spreading wounds), the hero last; counter-charge only with enough healthy figures to cover every
zombie; keep the wounded in Support and the healthy on the Front Line. The narrator spreads wounds
over its zombies, puts zombies on the hero first and always re-engages.
"""

from __future__ import annotations

from ecs_zombie.components import Engaged, Kind, Wounds, Zone
from ecs_zombie.decisions import Decision, heuristic
from ecs_zombie.game import Game
from ecs_zombie.systems.shambling.board import FRONT, SUPPORT, SURVIVORS, figures, is_hero, is_wounded


def _index(decision: Decision, value: object) -> int:
    return decision.options.index(value)


def _cheapest(game: Game, options: list[int]) -> int:
    """The figure whose loss hurts least: unwounded before wounded, anyone before the hero."""
    table = game.world.raw()
    return min(options, key=lambda e: (table[e][Wounds].taken > 0, table[e][Kind].name == "hero", e))


def _finish_off(game: Game, options: list[int]) -> int:
    """The wounded first (see the module docstring), the hero last."""
    table = game.world.raw()
    return min(options, key=lambda e: (not table[e][Wounds].taken, table[e][Kind].name == "hero", e))


@heuristic("shambling.wound")
def wound(game: Game, d: Decision) -> int:
    if d.side == "narrator":
        return _index(d, _cheapest(game, d.options))
    return _index(d, _finish_off(game, d.options))


@heuristic("shambling.flee")
def flee(game: Game, d: Decision) -> int:
    return _index(d, _finish_off(game, d.options))


heuristic("shambling.pursue")(flee)


@heuristic("shambling.place")
def place(game: Game, d: Decision) -> int:
    fig = d.context.get("figure")
    wants_front = fig is None or not is_wounded(game, fig)
    return _index(d, FRONT if wants_front and FRONT in d.options else SUPPORT)


@heuristic("shambling.stance")
def stance(game: Game, d: Decision) -> int:
    board = int(d.side.split(":")[1])
    healthy = [e for e in figures(game, board, SURVIVORS, FRONT) if not is_wounded(game, e)]
    return _index(d, "counter-charge" if len(healthy) >= int(d.context.get("zombies", 0)) else "stand")


@heuristic("shambling.charger")
def charger(game: Game, d: Decision) -> int:
    healthy = [e for e in d.options if isinstance(e, int) and not is_wounded(game, e)]
    if healthy:
        return _index(d, max(healthy, key=lambda e: (is_hero(game, e), -e)))
    return _index(d, "done") if "done" in d.options else 0


@heuristic("shambling.assign")
def assign(game: Game, d: Decision) -> int:
    table = game.world.raw()
    for i, e in enumerate(d.options):
        if table[e][Kind].name == "hero":
            return i
    return 0


def _least_engaged(game: Game, d: Decision) -> int:
    table = game.world.raw()
    enemies = [e for e in d.options if isinstance(e, int)]
    return _index(d, min(enemies, key=lambda e: (len(table[e][Engaged].opponents), e)))


heuristic("shambling.re_engage")(_least_engaged)
heuristic("shambling.charge_target")(_least_engaged)


@heuristic("shambling.reorder")
def reorder(game: Game, d: Decision) -> int:
    movable = [e for e in d.options if isinstance(e, int)]
    for e in movable:  # wounded out of the Front Line first, which frees room
        if game.world.get(e, Zone).name == FRONT and is_wounded(game, e) and not is_hero(game, e):
            return _index(d, e)
    for e in movable:
        if game.world.get(e, Zone).name == SUPPORT and not is_wounded(game, e):
            return _index(d, e)
    return _index(d, "done")
