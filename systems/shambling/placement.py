"""Placing survivors between the Front Line and Support: deployment, newcomers and reordering.

Rule: "Players are free to place their survivors as they wish between the two zones ... they may
not have more than 6 figures in the Front Line zone at any one time" (cap: `front_line_cap`).
"Reorder the Survivors": at the end of each turn a player whose Hero lives may rearrange figures
between zones; a player whose Hero is dead cannot.
"""

from __future__ import annotations

from collections.abc import Generator

from ecs_zombie.components import Zone
from ecs_zombie.decisions import Decision
from ecs_zombie.game import Game
from ecs_zombie.schedule import system
from ecs_zombie.systems.core.track import current_turn
from ecs_zombie.systems.shambling.board import (
    DECK,
    FRONT,
    SUPPORT,
    SURVIVORS,
    boards,
    figures,
    is_hero,
    player_side,
    set_zone,
)


def front_count(game: Game, board: int) -> int:
    return len(figures(game, board, SURVIVORS, FRONT))


def place(game: Game, ent: int, board: int, cap: int) -> Generator[Decision, object, None]:
    """Ask the player where one undeployed figure goes (Front Line only while under the cap)."""
    options = [SUPPORT] if front_count(game, board) >= cap else [FRONT, SUPPORT]
    zone = yield from game.decide(player_side(board), "shambling.place", options, figure=ent)
    set_zone(game, ent, zone)
    game.log("placed", figure=ent, zone=zone)


def undeployed(game: Game, board: int) -> list[int]:
    return [e for e, z in game.world.query1(Zone) if z.board == board and z.name == ""]


@system("shambling.deploy",
        reads=("Zone", "Faction", "Deck", "Kind", "Markers", "Owner", "Tally"),
        writes=("Zone", "Deck"),
        decides=("shambling.place",))
def deploy(game: Game, cap: int = 6) -> Generator[Decision, object, None]:
    """Before the first turn: shuffle the deck and let each player place their figures."""
    if game.tick != 1:
        return
    _ent, deck = game.deck(DECK)
    game.shuffle(deck, "start of game")
    for seat, _m, _t in boards(game):
        for ent in undeployed(game, seat):
            yield from place(game, ent, seat, cap)


def hero_alive(game: Game, board: int) -> bool:
    return any(is_hero(game, e) for e in figures(game, board, SURVIVORS))


@system("shambling.reorder",
        reads=("Zone", "Faction", "Kind", "Wounds", "Markers", "Owner", "Tally"),
        writes=("Zone",),
        decides=("shambling.reorder",))
def reorder(game: Game, track: str, cap: int = 6) -> Generator[Decision, object, None]:
    """End of turn: players whose Hero lives may move figures between zones (each at most once)."""
    turn = current_turn(game, track)
    if turn is None or not turn.reorder:
        return
    for seat, _m, _t in boards(game):
        if not hero_alive(game, seat):
            continue
        moved: set[int] = set()
        while True:
            front = figures(game, seat, SURVIVORS, FRONT)
            support = figures(game, seat, SURVIVORS, SUPPORT)
            options: list[int | str] = ["done"]
            options += [e for e in front if e not in moved]
            if len(front) < cap:
                options += [e for e in support if e not in moved]
            choice = yield from game.decide(player_side(seat), "shambling.reorder", options)
            if choice == "done":
                break
            assert isinstance(choice, int)
            zone = SUPPORT if game.world.get(choice, Zone).name == FRONT else FRONT
            set_zone(game, choice, zone)
            moved.add(choice)
            game.log("reordered", figure=choice, zone=zone)
