"""Queries and effects shared by Shambling's systems: figures on a board, wounds, deaths, draws.

Order: boards by seat, figures by entity id. Every rule that walks figures or boards uses it.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence

from ecs_zombie.components import Card, Faction, Kind, Markers, Owner, Tally, Wounds, Zone
from ecs_zombie.decisions import Decision
from ecs_zombie.engagement import disengage_all
from ecs_zombie.game import Game

FRONT, SUPPORT = "front", "support"
SURVIVORS, ZOMBIES = "survivors", "zombies"
DECK = "shambling"


def player_side(board: int) -> str:
    return f"player:{board}"


def side_of(faction: str, board: int) -> str:
    """Who answers for a faction's figures: the board's player, or the narrator for zombies."""
    return player_side(board) if faction == SURVIVORS else "narrator"


def boards(game: Game) -> list[tuple[int, Markers, Tally]]:
    """Every board still in play: (seat, markers, tally), by seat."""
    out = []
    for _ent, (kind, owner, markers, tally) in game.world.query(Kind, Owner, Markers, Tally):
        if kind.name == "board" and not markers.has("fallen"):
            out.append((owner.player, markers, tally))
    out.sort(key=lambda b: b[0])
    return out


def board_state(game: Game, seat: int) -> tuple[Markers, Tally]:
    for _ent, (kind, owner, markers, tally) in game.world.query(Kind, Owner, Markers, Tally):
        if kind.name == "board" and owner.player == seat:
            return markers, tally
    raise KeyError(seat)


def figures(game: Game, board: int, faction: str | None = None, zone: str | None = None) -> tuple[int, ...]:
    """Figures on `board`, optionally of one faction and one zone, by id (a shared tuple)."""
    groups = game.world.index("shambling.figures", (Zone, Faction), _figure_keys)
    if faction is None and zone is not None:
        return tuple(sorted(groups[board, SURVIVORS, zone] + groups[board, ZOMBIES, zone]))
    return groups[board, faction, zone]


def _figure_keys(z: Zone, f: Faction) -> tuple[tuple[int, str | None, str | None], ...]:
    """A figure in play is filed under its board, with its side, and with its side and zone."""
    if not z.name:
        return ()
    return (z.board, f.side, z.name), (z.board, f.side, None), (z.board, None, None)


def set_zone(game: Game, ent: int, name: str) -> None:
    """Move a figure to another zone of its board (a new `Zone`: zones are frozen)."""
    game.world.add(ent, Zone(game.world.get(ent, Zone).board, name))


def is_wounded(game: Game, ent: int) -> bool:
    return game.world.get(ent, Wounds).taken > 0


def is_hero(game: Game, ent: int) -> bool:
    return game.world.get(ent, Kind).name == "hero"


def remove_figure(game: Game, ent: int, why: str) -> None:
    """Take a figure out of play, breaking every contact it had."""
    world = game.world
    disengage_all(world, ent)
    z = world.get(ent, Zone)
    faction = world.get(ent, Faction).side
    if faction == ZOMBIES and why == "killed":
        board_state(game, z.board)[1].bump("zombies_destroyed")
    elif faction == SURVIVORS:
        board_state(game, z.board)[1].bump(f"survivors_{why}")
    game.log("removed", figure=ent, piece=world.get(ent, Kind).name, zone=z.name, why=why)
    world.delete(ent)


def wound(game: Game, ent: int) -> bool:
    """One wound; True when it was the figure's last (it is removed)."""
    w = game.world.get(ent, Wounds)
    w.taken += 1
    game.log("wound", figure=ent, taken=w.taken)
    if w.taken >= w.limit:
        remove_figure(game, ent, "killed")
        return True
    return False


def allocate_wounds(game: Game, count: int, eligible: Sequence[int], side: str
                    ) -> Generator[Decision, object, None]:
    """`side` places `count` wounds one at a time among `eligible` figures, freely (the gauntlet's
    way; a strike's wounds, where a 6 forces the first onto a Hero, are placed by `crt_strike`).

    No figure takes more than its limit (two); wounds beyond what the eligible figures can take
    are lost.
    """
    alive = [e for e in eligible if game.world.exists(e)]
    for n in range(count):
        if not alive:
            return
        target = yield from game.decide(side, "shambling.wound", alive, left=count - n)
        if wound(game, target):
            alive.remove(target)


def draw_card(game: Game, why: str) -> Card:
    """Draw from the Shambling deck; on the joker every card is gathered and reshuffled (those
    drawn this turn included) and a replacement is dealt. DESIGN CHOICE: cards drawn earlier this
    turn keep the effect they already had; only the joker's draw is replaced."""
    _ent, deck = game.deck(DECK)
    while True:
        _cid, card = game.draw(deck, why)
        if card.face != "JK":
            return card
        game.shuffle(deck, "joker")

