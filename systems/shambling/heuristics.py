"""The `heuristic` policy's answers for Shambling's decisions: sensible play, not perfect play.

Survivors give wounds to the already wounded non-heroes first (a wounded figure fights at half
strength and may turn into a zombie on turns 5 and 10: in 1,500 games this doubled the survivors'
win rate over spreading wounds), then to the unwounded, the hero last and a wounded hero (whose
wound would kill him) only when nobody else can take it: the hero is the one who reorders the board
and adds 1 to the join and pursuit rolls. Figures lost outright (dissension, a wild pursuit) are the
wounded first and never the hero while another can go. Counter-charge only with enough healthy
figures to cover every zombie, and send only as many as the fight needs (one per zombie, and enough
strength that the first strike's expected wounds could destroy them all), keeping the rest back out
of the pursuit's reach at the price of the join roll. Keep the wounded in Support and the healthy on
the Front Line. A victorious survivor re-engages (its strength joins the next strike; being in
contact only widens the player's own choice of who takes wounds), a zombie already in contact
first, except a wounded hero, who stays out (a 6 on the zombies' strike would have to kill him).
The narrator spreads wounds over its zombies, puts zombies on the hero first and always
re-engages: the hero first, then survivors already in contact (a free survivor brought in would
only widen the player's choice).
"""

from __future__ import annotations

from ecs_zombie.components import Engaged, Kind, Wounds, Zone
from ecs_zombie.decisions import Decision, heuristic
from ecs_zombie.game import Game
from ecs_zombie.systems.shambling.board import FRONT, SUPPORT, SURVIVORS, ZOMBIES, figures, is_hero, is_wounded
from ecs_zombie.systems.shambling.combat import strength


def _index(decision: Decision, value: object) -> int:
    return decision.options.index(value)


def _cheapest(game: Game, options: list[int]) -> int:
    """The figure whose loss hurts least: unwounded before wounded, anyone before the hero."""
    table = game.world.raw()
    return min(options, key=lambda e: (table[e][Wounds].taken > 0, table[e][Kind].name == "hero", e))


def _wound_cost(game: Game, ent: int) -> tuple[int, int]:
    """Where a survivor's next wound costs least: a wounded survivor (finished off), an unwounded
    survivor, the unwounded hero, and last the wounded hero, whom it would kill."""
    comps = game.world.raw()[ent]
    hurt = comps[Wounds].taken > 0
    if comps[Kind].name == "hero":
        return (3 if hurt else 2, ent)
    return (0 if hurt else 1, ent)


def _finish_off(game: Game, options: list[int]) -> int:
    """A figure to lose outright: the wounded first, the hero last whatever his wounds."""
    table = game.world.raw()
    return min(options, key=lambda e: (table[e][Kind].name == "hero", not table[e][Wounds].taken, e))


@heuristic("shambling.wound")
def wound(game: Game, d: Decision) -> int:
    if d.side == "narrator":
        return _index(d, _cheapest(game, d.options))
    return _index(d, min(d.options, key=lambda e: _wound_cost(game, e)))


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


def _enough(game: Game, board: int, chargers: list[int]) -> bool:
    """The chargers cover every zombie of the Front Line one each, and their first strike (with the
    support of the unwounded in Support) is expected to deal every wound those zombies can take:
    a further charger adds strength the CRT is not expected to need, and one more figure to the
    pursuit's reach."""
    zombies = figures(game, board, ZOMBIES, FRONT)
    if len(chargers) < len(zombies):
        return False
    table = game.world.raw()
    needed = sum(table[z][Wounds].limit - table[z][Wounds].taken for z in zombies)
    total = strength(game, FRONT, SURVIVORS, chargers, list(figures(game, board, SURVIVORS, SUPPORT)))
    crt = game.tables["shambling.crt"]
    return sum(crt.wounds(roll, total) for roll in range(1, 7)) >= 6 * needed


@heuristic("shambling.charger")
def charger(game: Game, d: Decision) -> int:
    board = int(d.side.split(":")[1])
    chargers = [e for e in figures(game, board, SURVIVORS, FRONT) if e not in d.options]
    healthy = [e for e in d.options if isinstance(e, int) and not is_wounded(game, e)]
    if healthy and not ("done" in d.options and _enough(game, board, chargers)):
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


heuristic("shambling.charge_target")(_least_engaged)


@heuristic("shambling.re_engage")
def re_engage(game: Game, d: Decision) -> int:
    """A victor's new target, or stay (see the module docstring). An enemy already in contact is
    already eligible for the victor's side's wounds: engaging it adds strength and widens nobody's
    choice but the victor's own side's; a free one is taken only when none is in contact."""
    table = game.world.raw()
    fig = d.context["figure"]
    if d.side != "narrator" and table[fig][Kind].name == "hero" and table[fig][Wounds].taken:
        return _index(d, "stay")
    enemies = [e for e in d.options if isinstance(e, int)]
    hero_first = d.side == "narrator"

    def key(e: int) -> tuple[bool, bool, int, int]:
        ops = len(table[e][Engaged].opponents)
        return (not (hero_first and table[e][Kind].name == "hero"), ops == 0, ops, e)

    return _index(d, min(enemies, key=key))


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
