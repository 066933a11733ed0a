"""The Director phase: director cards, suppressing fire, new zombies and special conditions.

Rules ("Director Phase"): the first player rolls a D3 for the number of director cards, modified
by the tile card under the first player and by special circumstances; lurking cards from last round
join the hand. Each player from the first adds attack cards face down to suppressing fire; the pile
is shuffled and summed; if it falls short of the hand's total horde number, the difference is the
number of new zombies, placed on the tile of the player with least hit points on the hex a D6
gives. Then each card's special conditions are checked against the margin.
"""

from __future__ import annotations

from collections.abc import Generator

from ecs_zombie import hexgrid
from ecs_zombie.components import Card, Markers, Position
from ecs_zombie.decisions import Decision
from ecs_zombie.game import Game
from ecs_zombie.hexgrid import Hex
from ecs_zombie.schedule import system
from ecs_zombie.systems.director.board import (
    PINNING,
    Board,
    ammo_deck,
    card_value,
    director,
    hand_cards,
    held_by,
    hex_of,
    pinned,
    pistol_of,
    seat_of,
    side,
    spawn_zombie,
    survivors,
    tally,
    weakest,
    weapon,
)
from ecs_zombie.systems.director.components import DirectorState, Loadout, MapTile
from ecs_zombie.systems.director.tables import DirectorCard

DIRECTOR_DECK = "director"


def row(game: Game, cid: int) -> DirectorCard:
    card: DirectorCard = game.tables["director.cards"].rows[game.world.get(cid, Card).face]
    return card


def card_count(game: Game, dice: str, noise: int) -> int:
    """D3 + the first player's tile card modifier + special circumstances (DESIGN CHOICE: `noise`
    more per survivor with a must-hold item in hand, such as a petrol can), never below 0."""
    state = director(game)[1]
    roll = game.roll(dice, "director cards")
    board = Board(game)
    mod = 0
    items = game.tables["director.items"]
    for s in survivors(game):
        inv = game.world.get(s, Loadout)
        if inv.hand in items and items[inv.hand].kind == "held":
            mod += noise
        if seat_of(game, s) == state.first:
            tile = board.tile_at(hex_of(game.world.get(s, Position)))
            if tile is not None:
                mod += tile.director_mod
    total = max(0, roll + mod)
    game.log("director_cards", roll=roll, modifier=mod, cards=total)
    return total


def draw_cards(game: Game, count: int) -> None:
    """Draw `count` director cards into the director's hand."""
    state = director(game)[1]
    _e, deck = game.deck(DIRECTOR_DECK)
    for _ in range(count):
        if not deck.draw and not deck.discard:
            break
        cid, _card = game.draw(deck, "director card")
        deck.discard.remove(cid)
        state.hand.append(cid)


def join_lurkers(game: Game) -> None:
    """"Once the cards are drawn, add any Lurking cards from the previous round to the hand."""
    state = director(game)[1]
    if state.lurking:
        game.log("lurkers_join", cards=[game.world.get(c, Card).face for c in state.lurking])
    state.hand.extend(state.lurking)
    state.lurking = []


@system("director.draw", reads=("DirectorState", "Deck", "Card", "Loadout", "Position", "MapTile", "Markers"),
        writes=("DirectorState", "Deck"))
def draw(game: Game, dice: str = "1d3", noise: int = 1) -> None:
    """Draw Director Cards: D3 (plus modifiers) cards, then last round's lurkers join the hand."""
    draw_cards(game, card_count(game, dice, noise))
    join_lurkers(game)
    director(game)[1].placement = ""


def horde_total(game: Game) -> int:
    return sum(row(game, c).horde for c in director(game)[1].hand)


def allowance(game: Game, ent: int) -> tuple[str | None, int]:
    """Which weapon a survivor fires into suppressing fire, and how many cards at most.

    A player held by a pinning special attack adds none, as does one knocked down in a Charger's
    line (pinned by a special attack too) and one ridden by a Jockey (cannot fire); a player
    pinned otherwise adds at most one, and (DESIGN CHOICE) from their pistol, the only gun a
    pinned player may use. Otherwise the gun in hand allows its `suppress`."""
    by = held_by(game, ent)
    if by in PINNING or by == "jockey" or game.world.get(ent, Markers).has("knocked_down"):
        return None, 0
    if pinned(game, ent):
        pistol = pistol_of(game, ent)
        wd = weapon(game, pistol) if pistol else None
        return pistol, min(1, wd.suppress if wd else 0)
    hand = game.world.get(ent, Loadout).hand
    wd = weapon(game, hand)
    if wd is None:
        return None, 0
    return hand, wd.suppress


@system("director.suppress", reads=("DirectorState", "Loadout", "AttackHand", "HeldBy", "Markers", "Owner", "Card"),
        writes=("DirectorState", "AttackHand"))
def suppress(game: Game) -> Generator[Decision, int, None]:
    """Add Suppressing Fire: each player from the first adds up to their allowance of attack cards
    face down (or none); a slimed player's cards are drawn blind from their hand."""
    state = director(game)[1]
    for ent in survivors(game):
        gun, limit = allowance(game, ent)
        if gun is None:
            continue
        blind = game.world.get(ent, Markers).has("slimed")
        for _ in range(limit):
            cards = list(hand_cards(game, ent, gun))
            if not cards:
                break
            options: list[int | str] = ["done", "blind"] if blind else ["done", *cards]
            choice = yield from game.decide(side(seat_of(game, ent)), "director.suppress", options,
                                            survivor=ent, horde=horde_total(game), weapon=gun)
            if choice == "done":
                break
            if choice == "blind":
                choice = cards[game.rng("director/blind").below(len(cards))]
            assert isinstance(choice, int)
            hand_cards(game, ent, gun).remove(choice)
            state.pile.append([choice, ent])
            game.log("suppressing_fire", survivor=ent, weapon=gun)


def _return_pile(game: Game, state: DirectorState) -> int:
    """Turn the pile over: its total, every card to its weapon's discard pile."""
    total = 0
    for cid, ent in state.pile:
        total += card_value(game, cid)
        ammo_deck(game, ent, game.world.get(cid, Card).suit).discard.append(cid)
    state.pile = []
    return total


def target_tile(game: Game, how: str) -> int | None:
    """The tile new zombies appear on: the weakest player's (default), the first player's, or the
    rearmost tile in play (DESIGN CHOICE: `rear` is the tile of least depth, "behind the team").
    A director card's placement comes first, then "Tile-Based cards that change zombie placement":
    an ongoing `zombies_here` tile card with a player on its tile draws them there."""
    board = Board(game)
    if how == "weakest":
        stood = {board.tile_of.get(hex_of(game.world.get(e, Position))) for e in survivors(game)}
        here = [e for e in sorted(board.tiles) if e in stood and "zombies_here" in board.tiles[e].effects]
        if here:
            return here[0]
    if how == "rear":
        if not board.tiles:
            return None
        return min(board.tiles, key=lambda e: (board.tiles[e].depth, board.tiles[e].order))
    ents = survivors(game)
    if how == "first":
        ent = next((e for e in ents if seat_of(game, e) == director(game)[1].first), None)
    else:
        ent = weakest(game)
    if ent is None:
        return None
    return board.tile_of.get(hex_of(game.world.get(ent, Position)))


def place_zombies(game: Game, count: int, how: str) -> Generator[Decision, int, None]:
    """Placing New Zombies: a D6 per zombie picks the numbered hex of the target tile; a zombie due
    on an occupied hex goes to an adjacent free hex the first player picks (DESIGN CHOICE: when no
    adjacent hex is free, the nearest free hexes are offered; with none left it is not placed)."""
    if count <= 0:
        return
    tile_ent = target_tile(game, how)
    if tile_ent is None:
        return
    tile = game.world.get(tile_ent, MapTile)
    first = director(game)[1].first
    for _ in range(count):
        board = Board(game)
        number = game.roll("1d6", "new zombie hex")
        h: Hex = (tile.spawn[number - 1][0], tile.spawn[number - 1][1])
        if not board.free(h):
            options = [n for n in hexgrid.neighbours(h) if board.free(n)]
            if not options:
                dist = hexgrid.bfs([h], board.on_board)
                free = sorted((d, x) for x, d in dist.items() if board.free(x))
                options = [x for d, x in free if d == free[0][0]] if free else []
            if not options:
                game.log("zombie_not_placed", reason="no free hex")
                continue
            options.sort()
            pick = yield from game.decide(side(first), "director.stack", [list(o) for o in options],
                                          hex=list(h))
            h = (pick[0], pick[1])
        spawn_zombie(game, h, active=True)
        tally(game).bump("zombies_spawned")
        director(game)[1].spawned += 1


@system("director.resolve", reads=("DirectorState", "Card", "Deck", "MapTile", "Position", "Health", "Owner"),
        writes=("DirectorState", "Deck"), creates=("Position", "Faction", "Kind", "Markers"))
def resolve(game: Game) -> Generator[Decision, int, None]:
    """Resolve Suppressing Fire, place the new zombies, check each card's special conditions
    (the first condition that fires; `lurk` puts the card aside for next round)."""
    state = director(game)[1]
    game.rng("director/pile").shuffle(state.pile)
    fire = _return_pile(game, state)
    horde = horde_total(game)
    margin = fire - horde
    state.horde, state.suppress, state.spawned = horde, fire, 0
    new = max(0, -margin)
    game.log("suppression_check", horde=horde, suppressing_fire=fire, margin=margin, new_zombies=new)
    how = state.placement
    if not how:
        how = next((row(game, c).placement for c in state.hand if row(game, c).placement != "weakest"), "weakest")
    yield from place_zombies(game, new, how)
    _e, deck = game.deck(DIRECTOR_DECK)
    for cid in state.hand:
        effect = row(game, cid).effect(margin)
        if effect == "lurk":
            state.lurking.append(cid)
            game.log("lurk", card=game.world.get(cid, Card).face)
            continue
        deck.discard.append(cid)
        if effect is not None:
            state.specials.append(effect)
            tally(game).bump("specials")
            game.log("special_attack", card=game.world.get(cid, Card).face, special=effect)
    state.hand = []
