"""What every game's board rules share: which grid a position is on, and the distance on it.

`Position.grid` says whether a piece stands on squares or hexes, so that a rule written for one
grid can refuse the other (a hybrid that places hex pieces under a square-grid rule fails at
setup with a clear message, not with nonsense distances), and so that rules meant for any grid
(`distance`, `neighbours`) can serve both.
"""

from __future__ import annotations

from typing import Any

from ecs_zombie import hexgrid
from ecs_zombie.components import HEX, SQUARE, Position
from ecs_zombie.errors import GameError

SQUARE_STEPS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))


def require_grid(positions: tuple[tuple[int, Position], ...] | list[tuple[int, Position]], grid: str,
                 rule: str) -> None:
    """Refuse pieces on another grid than the one `rule` is written for."""
    for ent, pos in positions:
        if pos.grid != grid:
            raise GameError(f"{rule} plays on {grid} cells, but entity {ent} stands on a {pos.grid} cell "
                            f"({pos.x}, {pos.y}): this ruleset mixes boards")


def distance(a: Position, b: Position) -> int:
    """Cells between two positions of one grid: king's moves on squares, hex steps on hexes."""
    if a.grid != b.grid:
        raise GameError(f"no distance between a {a.grid} and a {b.grid} cell")
    if a.grid == HEX:
        return hexgrid.distance((a.x, a.y), (b.x, b.y))
    return max(abs(a.x - b.x), abs(a.y - b.y))


def neighbours(pos: Position) -> list[tuple[int, int]]:
    """The cells next to a position, in a fixed order (clockwise from north, or hex direction 0..5)."""
    if pos.grid == HEX:
        return hexgrid.neighbours((pos.x, pos.y))
    return [(pos.x + dx, pos.y + dy) for dx, dy in SQUARE_STEPS]


def render(game: Any) -> list[str]:
    """The game's board as lines of text: the ruleset's own drawing (`board:` in its YAML), or a
    summary of the pieces by kind and place for a ruleset that has none."""
    from ecs_zombie.registry import BOARDS

    drawing = BOARDS.get(getattr(game.ruleset, "board", ""))
    return drawing(game) if drawing is not None else describe(game)


def describe(game: Any) -> list[str]:
    """The pieces in a few words: each kind where it stands, with `*` after one that is hurt."""
    from ecs_zombie.components import Kind, Wounds, Zone

    groups: dict[tuple[str, str], list[str]] = {}
    for ent, kind in game.world.query1(Kind):
        zone, pos = game.world.try_get(ent, Zone), game.world.try_get(ent, Position)
        hurt = game.world.try_get(ent, Wounds)
        damaged = hurt is not None and hurt.taken > 0
        where = f"{zone.name} (board {zone.board})" if zone is not None and zone.name else ""
        label = f"({pos.x},{pos.y})" if pos is not None else ""
        groups.setdefault((kind.name, where), []).append(label + ("*" if damaged else ""))
    lines = []
    for (name, where), marks in sorted(groups.items()):
        spots = " ".join(m for m in marks if m)
        lines.append(f"{name}{' in ' + where if where else ''}: {len(marks)}{' ' + spots if spots else ''}")
    return lines


__all__ = ["HEX", "SQUARE", "describe", "distance", "neighbours", "render", "require_grid"]
