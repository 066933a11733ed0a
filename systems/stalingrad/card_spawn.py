"""The hybrid's only adapter: zombies arrive by Night of the Shambling Dead's card deck.

In `stalingrad-shambling` the ruleset's `spawn` step is this system instead of `stalingrad.spawn`:
on each "S" round of the round track, one card is drawn from the Shambling deck
(`ecs_zombie.systems.shambling.board.draw_card`: ace 1 to 10; the joker reshuffles every card and
is replaced); its value is how many zombies enter, placed round the scenario's spawn squares in map
order, each of the type the spawn section's type die gives. Everything else about a new zombie
(face down, a character pushed, a zombie holding the square) is Stalingrad's own `spawn_at`.
"""

from __future__ import annotations

from collections.abc import Generator

from ecs_zombie.decisions import Decision
from ecs_zombie.errors import GameError
from ecs_zombie.game import Game
from ecs_zombie.grid import Square
from ecs_zombie.schedule import system
from ecs_zombie.systems.shambling.board import DECK, draw_card
from ecs_zombie.systems.stalingrad.board import state
from ecs_zombie.systems.stalingrad.spawn import (
    SPAWN_CALLS,
    SPAWN_CREATES,
    SPAWN_DECIDES,
    SPAWN_READS,
    SPAWN_REMOVES,
    SPAWN_WRITES,
    all_spawn_squares,
    spawn_zombies,
)


@system("stalingrad.card_spawn",
        reads=(*SPAWN_READS, "Deck", "Card"), writes=(*SPAWN_WRITES, "Deck"), creates=SPAWN_CREATES,
        removes=SPAWN_REMOVES, decides=SPAWN_DECIDES, calls=SPAWN_CALLS)
def card_spawn(game: Game) -> Generator[Decision, object, None]:
    """On an "S" round, a Shambling card's value is the number of zombies entering at the spawn squares."""
    if not game.tables["stalingrad.track"].spawns(game.tick):
        return
    squares = card_spawn_squares(game, "the hybrid's card spawn")
    card = draw_card(game, "zombie arrival")
    game.log("card_spawn", card=card.face, zombies=card.value)
    yield from spawn_zombies(game, card.value, squares)


def card_spawn_squares(game: Game, who: str) -> list[Square]:
    """Before the first card is drawn, the Shambling deck shuffled (once a game); the map's spawn
    squares, which a card's zombies come in round (`who` names the rule that needs one)."""
    _rs, tally = state(game)
    _ent, deck = game.deck(DECK)
    if not tally.counts.get("deck_shuffled"):
        game.shuffle(deck, "start of game")
        tally.bump("deck_shuffled")
    squares = all_spawn_squares(game)
    if not squares:
        raise GameError(f"{who} needs at least one 'spawn:<label>' square on the map")
    return squares
