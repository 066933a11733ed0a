"""The Director phase: director cards, suppressing fire, new zombies and special conditions.

Rules ("Director Phase"): the first player rolls a D3 for the number of director cards, modified
by the tile card under the first player and by special circumstances; lurking cards from last round
join the hand. Each player from the first adds attack cards face down to suppressing fire; the pile
is shuffled and summed; if it falls short of the hand's total horde number, the difference is the
number of new zombies, placed on the tile of the player with least hit points on the hex a D6
gives. Then each card's special conditions are checked against the margin.
"""

from __future__ import annotations

from collections.abc import Callable, Generator

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
from ecs_zombie.systems.director.tables import DirectorCard, scaling

DIRECTOR_DECK = "director"


def row(game: Game, cid: int) -> DirectorCard:
    card: DirectorCard = game.tables["director.cards"].rows[game.world.get(cid, Card).face]
    return card


def card_modifier(game: Game, noise: int) -> int:
    """What modifies the number of director cards: the tile card under the first player, special
    circumstances (DESIGN CHOICE: `noise` more per survivor with a must-hold item in hand, such as
    a petrol can) and the number of players (DESIGN CHOICE: the `director.scaling` table, so that
    the threat grows with the team)."""
    state = director(game)[1]
    board = Board(game)
    mod = scaling(game, len(survivors(game))).cards
    items = game.tables["director.items"]
    for s in survivors(game):
        inv = game.world.get(s, Loadout)
        if inv.hand in items and items[inv.hand].kind == "held":
            mod += noise
        if seat_of(game, s) == state.first:
            tile = board.tile_at(hex_of(game.world.get(s, Position)))
            if tile is not None:
                mod += tile.director_mod
    return mod


def card_count(game: Game, dice: str, noise: int) -> int:
    """D3 + `card_modifier`, never below 0."""
    roll = game.roll(dice, "director cards")
    mod = card_modifier(game, noise)
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


@system("director.draw",
        reads=("DirectorState", "Deck", "Card", "Loadout", "Position", "MapTile", "Markers", "Faction", "FloorItem",
               "LadderLink", "Owner", "Tally"),
        writes=("DirectorState", "Deck"))
def draw(game: Game, dice: str = "1d3", noise: int = 1) -> None:
    """Draw Director Cards: D3 (plus modifiers) cards, then last round's lurkers join the hand."""
    draw_cards(game, card_count(game, dice, noise))
    join_lurkers(game)


def horde_total(game: Game) -> int:
    """The hand's total horde number, plus the team size's `horde` (`director.scaling`), never below 0."""
    cards = director(game)[1].hand
    if not cards:
        return 0
    return max(0, sum(row(game, c).horde for c in cards) + scaling(game, len(survivors(game))).horde)


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


@system("director.suppress",
        reads=("DirectorState", "Loadout", "AttackHand", "HeldBy", "Markers", "Owner", "Card", "Faction", "Tally"),
        writes=("DirectorState", "AttackHand"),
        decides=("director.suppress",))
def suppress(game: Game) -> Generator[Decision, object, None]:
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


def sewer_tile(game: Game, board: Board) -> int | None:
    """"Tile-Based cards that change zombie placement": the first tile (in entity order) whose
    ongoing card draws new zombies (`zombies_here`, sewer grates) with a survivor standing on it."""
    stood = {board.tile_of.get(hex_of(game.world.get(e, Position))) for e in survivors(game)}
    here = [e for e in sorted(board.tiles) if e in stood and "zombies_here" in board.tiles[e].effects]
    return here[0] if here else None


def target_tile(game: Game, how: str) -> int | None:
    """The tile new zombies appear on: the weakest player's (default), the first player's, or the
    rearmost tile in play (DESIGN CHOICE: `rear` is the tile of least depth, "behind the team").

    DESIGN CHOICE: zombies are never placed inside the safe room (it is where the survivors are
    safe): zombies due there appear on the tile whose exit leads into it, or not at all when that
    tile is gone."""
    board = Board(game)
    ent: int | None
    if how == "rear":
        ent = min(board.tiles, key=lambda e: (board.tiles[e].depth, board.tiles[e].order)) if board.tiles else None
    else:
        who = survivors(game)
        fig = (next((e for e in who if seat_of(game, e) == director(game)[1].first), None) if how == "first"
               else weakest(game))
        ent = board.tile_of.get(hex_of(game.world.get(fig, Position))) if fig is not None else None
    if ent is not None and board.tiles[ent].safe:
        parent = board.tiles[ent].parent
        ent = parent if parent in board.tiles and not board.tiles[parent].safe else None
        if ent is None:
            game.log("zombie_not_placed", reason="safe room")
    return ent


def placements(game: Game, state: DirectorState, count: int) -> list[tuple[str, int]]:
    """Where this round's `count` new zombies go, as (placement, how many) in order.

    A placement the director gives (`state.placement`, the adaptive director's `rear`) takes them
    all. Otherwise (DESIGN CHOICE) they are dealt to the hand's cards in the order the cards came
    into the hand, each up to its horde number, and appear where that card says (a Mob card moves
    its own horde number of them behind the team, no more). Zombies beyond the cards' horde numbers
    (a team size's positive `horde` in `director.scaling`) come to the weakest player."""
    if state.placement:
        return [(state.placement, count)]
    out: list[tuple[str, int]] = []
    left = count
    for cid in state.hand:
        card = row(game, cid)
        take = min(left, card.horde)
        left -= take
        if take and out and out[-1][0] == card.placement:
            out[-1] = (card.placement, out[-1][1] + take)
        elif take:
            out.append((card.placement, take))
    if left > 0:
        out.append(("weakest", left))
    return out


def _outside_safe_room(board: Board) -> Callable[[Hex], bool]:
    def open_hex(x: Hex) -> bool:
        t = board.tile_at(x)
        return t is not None and not t.safe

    return open_hex


def place_zombies(game: Game, count: int, how: str, tile_ent: int | None = None
                  ) -> Generator[Decision, object, None]:
    """Placing New Zombies: a D6 per zombie picks the numbered hex of the target tile (`tile_ent`,
    else the one `how` names); a zombie due on an occupied hex goes to an adjacent free hex the
    first player picks (DESIGN CHOICE: when no adjacent hex is free, the nearest free hexes are
    offered; with none left it is not placed; never a hex of the safe room, nor one across a wall
    between tiles)."""
    if count <= 0:
        return
    if tile_ent is None:
        tile_ent = target_tile(game, how)
    if tile_ent is None:
        return
    tile = game.world.get(tile_ent, MapTile)
    first = director(game)[1].first
    # one board for the whole placement, each new zombie put on it as it is placed (nothing else
    # moves or comes meanwhile: what a fresh board for each zombie would show)
    board = Board(game)
    for _ in range(count):
        number = game.roll("1d6", "new zombie hex")
        h: Hex = (tile.spawn[number - 1][0], tile.spawn[number - 1][1])
        if not board.free(h):
            open_hex = _outside_safe_room(board)
            options = [n for n in board.around(h) if board.free(n) and open_hex(n)]
            if not options:
                dist = board.bfs([h], open_hex)
                free = sorted((d, x) for x, d in dist.items() if board.free(x))
                options = [x for d, x in free if d == free[0][0]] if free else []
            if not options:
                game.log("zombie_not_placed", reason="no free hex")
                continue
            options.sort()
            pick = yield from game.decide(side(first), "director.stack", [list(o) for o in options],
                                          hex=list(h))
            h = (pick[0], pick[1])
        board.zombies[h] = spawn_zombie(game, h, active=True)
        tally(game).bump("zombies_spawned")
        director(game)[1].spawned += 1


@system("director.resolve",
        reads=("DirectorState", "Card", "Deck", "MapTile", "Position", "Wounds", "Owner", "FloorItem", "LadderLink",
               "Tally"),
        writes=("DirectorState", "Deck", "Tally"),
        creates=("Position", "Faction", "Kind", "Markers"),
        decides=("director.stack",))
def resolve(game: Game) -> Generator[Decision, object, None]:
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
    # DESIGN CHOICE: a tile card that changes placement (sewer grates with a survivor on them)
    # draws every new zombie to its tile, whatever the director cards or the director say.
    here = sewer_tile(game, Board(game)) if new > 0 else None
    if here is not None:
        yield from place_zombies(game, new, "here", here)
    else:
        for how, count in placements(game, state, new):
            yield from place_zombies(game, count, how)
    state.placement = ""
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
