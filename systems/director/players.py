"""The Player phase: movement with item pick-ups and new tiles, one action each, the un-pin check.

Rules ("Player Phase"): from the first player on, each unpinned player moves Y hexes, not through
zombies or players, resolving special hexes at once and picking up items passed over; a player
moving onto a tile with open exits has new tiles laid. All players move before anyone acts; then
each takes one action (shoot, reload, swap weapons, melee, use an item, revive); finally pinned
players with hit points above 0 and no adjacent zombie get up.
"""

from __future__ import annotations

import heapq
from collections.abc import Generator
from typing import Any

from ecs_zombie import hexgrid
from ecs_zombie.components import HEX, Card, Kind, Markers, Position, Wounds
from ecs_zombie.decisions import Decision
from ecs_zombie.game import Game
from ecs_zombie.hexgrid import Hex
from ecs_zombie.schedule import system
from ecs_zombie.systems.director.board import (
    Board,
    ammo_deck,
    any_shot,
    damage,
    draw_to_hand,
    hand_cards,
    heal,
    held_by,
    hex_of,
    kill_zombie,
    pinned,
    pistol_of,
    restock,
    seat_of,
    shots_from,
    side,
    spend,
    survivors,
    weapon,
)
from ecs_zombie.systems.director.components import AttackHand, FloorItem, HeldBy, Loadout
from ecs_zombie.systems.director.tables import ItemDef
from ecs_zombie.systems.director.tiles import explore, open_exits

ACCESS = ("Position", "Faction", "Wounds", "Markers", "Loadout", "AttackHand", "HeldBy", "MapTile", "FloorItem",
          "LadderLink", "Owner", "DirectorState", "Card", "Deck")


def items_table(game: Game) -> dict[str, ItemDef]:
    table: dict[str, ItemDef] = game.tables["director.items"]
    return table


def must_hold(game: Game, name: str) -> bool:
    """An item that "must be kept in hand" (petrol can, gas cylinder): once taken it stays in hand
    until it is used (thrown) or swapped for another such item found."""
    row = items_table(game).get(name)
    return row is not None and row.kind == "held"


# -- movement ------------------------------------------------------------------------------------


def reachable(game: Game, board: Board, ent: int, budget: int) -> tuple[Hex, dict[Hex, int], dict[Hex, Hex]]:
    """Hexes a survivor can reach with `budget` movement points: 1 a hex, never through zombies or
    players, from tile to tile only where an exit meets an entry (`Board.linked`); a ladder/sewer
    costs `ladder_cost` (Z) to the other end."""
    start = hex_of(game.world.get(ent, Position))
    zombies, players, steps = board.zombies, board.players, board.steps
    extra = {h: (to, c) for h, (to, c) in board.links.items() if board.free(to) or to == start}
    # `hexgrid.weighted_paths` with a step of 1 to each free `linked` neighbour, then the ladder
    # (the same pushes in the same order), over the board's steps
    best: dict[Hex, int] = {start: 0}
    parent: dict[Hex, Hex] = {}
    heap: list[tuple[int, int, Hex]] = [(0, 0, start)]
    order = 0
    over = budget + 1
    while heap:
        c, _o, h = heapq.heappop(heap)
        if c > best.get(h, over):
            continue
        nc = c + 1
        if nc <= budget:
            for n in steps.get(h, ()):
                if n not in zombies and n not in players and nc < best.get(n, over):
                    best[n] = nc
                    parent[n] = h
                    order += 1
                    heapq.heappush(heap, (nc, order, n))
        link = extra.get(h)
        if link is not None:
            n, price = link
            nc = c + price
            if nc <= budget and nc < best.get(n, over):
                best[n] = nc
                parent[n] = h
                order += 1
                heapq.heappush(heap, (nc, order, n))
    return start, best, parent


@system("director.player_move",
        reads=(*ACCESS, "Tally"),
        writes=("Position", "Loadout", "AttackHand", "Deck", "Wounds", "Markers", "MapTile", "DirectorState",
                "Tally"),
        creates=("MapTile", "Position", "Kind", "FloorItem", "LadderLink", "Faction", "Markers", "Deck"),
        uses=("ladder_cost",),
        decides=("director.equip", "director.move", "director.pickup"))
def player_move(game: Game, moves: int = 4) -> Generator[Decision, object, None]:
    """Move Un-Pinned Players: each in turn picks a hex within Y (`player_move`) points and walks the
    shortest route there, resolving hazard hexes (1 damage), items and new tiles on the way.

    DESIGN CHOICE: the destination is chosen on the map as it stood when the move began; tiles laid
    during the move can be entered from the next round. A ridden (Jockey) survivor does not move
    on their own."""
    for ent in survivors(game):
        if pinned(game, ent) or held_by(game, ent):
            continue
        board = Board(game)
        start, best, parent = reachable(game, board, ent, moves)
        options = sorted(best)
        choice = yield from game.decide(side(seat_of(game, ent)), "director.move", [list(h) for h in options],
                                        survivor=ent, at=list(start))
        dest = (choice[0], choice[1])
        if dest == start:
            continue
        for h in hexgrid.path_to(parent, start, dest):
            yield from enter(game, ent, h, board)
        game.log("moved", survivor=ent, to=list(dest))


def enter(game: Game, ent: int, h: Hex, board: Board) -> Generator[Decision, object, None]:
    """Step onto a hex: hazards hurt, items are picked up, a tile with open exits gets new tiles.
    `board` is kept up to date with the step."""
    pos = game.world.get(ent, Position)
    old = hex_of(pos)
    pos.x, pos.y = h
    board.players.pop(old, None)
    board.players[h] = ent
    if h in board.hazards:
        damage(game, ent, 1, "hazard hex")
    item = board.items.get(h)
    if item is not None:
        yield from pick_up(game, ent, item, h)
        board.items = Board(game).items
    # "at any point in their movement, a player moves onto a Tile with one or more Open Exits":
    # every step counts, also one within a tile reached without laying tiles (steered by a Jockey)
    tile_ent = board.tile_of.get(h)
    if tile_ent is not None and open_exits(board.tiles[tile_ent]):
        explore(game, tile_ent)


def acquire_weapon(game: Game, ent: int, name: str) -> None:
    """A new gun brings a fresh ammo stack of its max ammo beside the cards in hand (`restock`),
    loaded with a clip when none of its cards is in hand (DESIGN CHOICE: guns are found loaded)."""
    inv = game.world.get(ent, Loadout)
    if name not in inv.weapons:
        inv.weapons = sorted([*inv.weapons, name])
    restock(game, ent, name)
    wd = weapon(game, name)
    if wd is not None and not hand_cards(game, ent, name):
        draw_to_hand(game, ent, name, wd.clip)


def _slot_holder(game: Game, ent: int, slot: str) -> str | None:
    inv = game.world.get(ent, Loadout)
    table = items_table(game)
    for name in (*inv.weapons, *inv.items):
        row = table.get(name)
        if row is not None and row.slot == slot:
            return name
    return None


def drop(game: Game, ent: int, name: str, h: Hex) -> None:
    """Put a carried item on the floor (its attack cards stay in its stack for next time)."""
    inv = game.world.get(ent, Loadout)
    if name in inv.weapons:
        inv.weapons = [w for w in inv.weapons if w != name]
        cards = game.world.get(ent, AttackHand).cards.pop(name, [])
        ammo_deck(game, ent, name).discard.extend(cards)
    else:
        inv.items.remove(name)
    if inv.hand == name:
        inv.hand = best_weapon(game, ent)
    game.world.create(Kind("item"), Position(h[0], h[1], HEX), FloorItem(name))
    game.log("dropped", survivor=ent, item=name, at=list(h))


def best_weapon(game: Game, ent: int) -> str:
    """The gun a survivor takes in hand after using or dropping what they held: a primary, else the pistol."""
    inv = game.world.get(ent, Loadout)
    prim = [w for w in inv.weapons if (wd := weapon(game, w)) is not None and not wd.pistol]
    return prim[0] if prim else (pistol_of(game, ent) or "")


def pick_up(game: Game, ent: int, item_ent: int, h: Hex) -> Generator[Decision, object, None]:
    """Pick Up Items: "they immediately pick it up" when its slot has room; with the slot full,
    leave it or swap it for the item in that slot (which is dropped here). A must-hold item (petrol
    can) need not be picked up ("they do not have to"), but goes straight into hand if it is, and
    stays there: a gun or item found while one is held goes into the inventory, otherwise it may
    go straight into hand. An ammo restock brings a fresh stack for every carried gun."""
    world = game.world
    name = world.get(item_ent, FloorItem).name
    row = items_table(game).get(name)
    if row is None:
        return
    inv = world.get(ent, Loadout)
    who = side(seat_of(game, ent))
    if row.kind == "ammo":
        world.delete(item_ent)
        for w in inv.weapons:
            restock(game, ent, w)
        game.log("ammo_restock", survivor=ent)
        return
    holder = _slot_holder(game, ent, row.slot)
    if holder is None and row.kind != "held":
        choice = "take"  # room for it: picked up, no choice
    else:
        options = ["leave", "take"] if holder is None else ["leave", "swap"]
        choice = yield from game.decide(who, "director.pickup", options, survivor=ent, item=name, holding=holder)
    if choice == "leave":
        return
    world.delete(item_ent)
    if holder is not None:
        drop(game, ent, holder, h)
    if row.kind == "weapon":
        acquire_weapon(game, ent, row.weapon or name)
    else:
        inv.items = sorted([*inv.items, name])
    game.log("picked_up", survivor=ent, item=name)
    if row.kind == "held":
        inv.hand = name
        return
    if must_hold(game, inv.hand):  # the can stays in hand: what is found goes into the inventory
        return
    equip = yield from game.decide(who, "director.equip", ["keep", "equip"], survivor=ent, item=name)
    if equip == "equip":
        inv.hand = row.weapon or name


# -- actions -------------------------------------------------------------------------------------


def gun_for_action(game: Game, ent: int) -> str | None:
    """The gun a survivor shoots or reloads: a pinned one only the pistol, otherwise the gun in hand."""
    if pinned(game, ent):
        return pistol_of(game, ent)
    hand = game.world.get(ent, Loadout).hand
    return hand if weapon(game, hand) is not None else None


def _max_range(game: Game, gun: str, ent: int) -> int:
    wd = weapon(game, gun)
    assert wd is not None
    values = [game.world.get(c, Card).value for c in hand_cards(game, ent, gun)]
    return max(values, default=0) * wd.range


def downed_neighbours(game: Game, board: Board, ent: int) -> list[int]:
    me = hex_of(game.world.get(ent, Position))
    out = []
    for n in board.around(me):
        other = board.players.get(n)
        if other is not None and game.world.get(other, Wounds).left <= 0:
            out.append(other)
    return sorted(out)


def melee_options(board: Board, me: Hex) -> list[list[int]]:
    """Up to two adjacent zombies that are adjacent to each other (no wall between)."""
    adj = sorted((board.zombies[n], n) for n in board.around(me) if n in board.zombies)
    out = [[z] for z, _h in adj]
    for i, (a, ha) in enumerate(adj):
        for b, hb in adj[i + 1:]:
            if hexgrid.adjacent(ha, hb) and board.linked(ha, hb):
                out.append([a, b])
    return out


def action_options(game: Game, ent: int) -> list[str]:
    world = game.world
    board = Board(game)
    me = hex_of(world.get(ent, Position))
    inv = world.get(ent, Loadout)
    by = held_by(game, ent)
    options = ["none"]
    gun = gun_for_action(game, ent)
    can_fire = by != "jockey"  # ridden by a Jockey: "not pinned but cannot fire"
    if gun is not None and can_fire and hand_cards(game, ent, gun):
        if any_shot(board, me, _max_range(game, gun, ent)):
            options.append("shoot")
    if gun is not None and can_fire:
        deck = ammo_deck(game, ent, gun)
        wd = weapon(game, gun)
        if wd is not None and (deck.draw or (wd.pistol and deck.discard)):
            options.append("reload")
    if pinned(game, ent):
        return options
    if not must_hold(game, inv.hand):  # "Some Items must be kept in hand": no swapping them away
        options += [f"swap:{w}" for w in (*inv.weapons, *inv.items) if w != inv.hand]
    if melee_options(board, me):
        options.append("melee")
    row = items_table(game).get(inv.hand)
    if row is not None and row.kind in ("heal", "throw", "held") and item_targets(game, board, ent, row):
        options.append("use")
    if downed_neighbours(game, board, ent) and not world.get(ent, Markers).has("hurt") \
            and not board.adjacent_zombies(me):
        options.append("revive")
    return options


def item_targets(game: Game, board: Board, ent: int, row: ItemDef) -> list[Any]:
    me = hex_of(game.world.get(ent, Position))
    if row.kind == "heal":
        out = [ent] + [board.players[n] for n in board.around(me) if n in board.players]
        return sorted(e for e in out if game.world.get(e, Wounds).left < game.world.get(e, Wounds).limit)
    targets = []
    for h in sorted(board.zombies):
        if hexgrid.distance(me, h) <= row.range:
            targets.append(list(h))
    return targets


@system("director.actions",
        reads=(*ACCESS, "StatusTimers"),
        writes=("Position", "Loadout", "AttackHand", "Deck", "Wounds", "Markers", "Intensity", "Tally",
                "StatusTimers"),
        creates=("Position", "Kind", "FloorItem"),
        decides=("director.action", "director.card", "director.item_target", "director.melee", "director.revive",
                 "director.target"))
def actions(game: Game) -> Generator[Decision, object, None]:
    """Actions: each player from the first takes one action; a pinned player may only shoot or
    reload, with the pistol."""
    for ent in survivors(game):
        options = action_options(game, ent)
        who = side(seat_of(game, ent))
        choice = yield from game.decide(who, "director.action", options, survivor=ent)
        if choice == "none":
            continue
        game.log("action", survivor=ent, action=choice)
        if choice == "shoot":
            yield from shoot(game, ent)
        elif choice == "reload":
            reload(game, ent)
        elif choice.startswith("swap:"):
            game.world.get(ent, Loadout).hand = choice[5:]
        elif choice == "melee":
            yield from melee(game, ent)
        elif choice == "use":
            yield from use_item(game, ent)
        elif choice == "revive":
            yield from revive(game, ent)


def shoot(game: Game, ent: int) -> Generator[Decision, object, None]:
    """Shooting: play attack cards one at a time, up to the gun's `shots`; each kills one zombie
    within card value x gun range by the shortest route not through zombies; a survivor the route
    passes through takes 1 wound unless pinned. A Miss ends the shooting and wounds every adjacent
    survivor. A slimed survivor's cards are drawn blind (a card with no target is wasted)."""
    gun = gun_for_action(game, ent)
    wd = weapon(game, gun) if gun else None
    if gun is None or wd is None:
        return
    who = side(seat_of(game, ent))
    blind = game.world.get(ent, Markers).has("slimed")
    world = game.world
    for _ in range(wd.shots):
        cards = list(hand_cards(game, ent, gun))
        if not cards:
            return
        board = Board(game)
        me = hex_of(world.get(ent, Position))
        reach = shots_from(board, me, _max_range(game, gun, ent), ent)
        if blind:
            choice = yield from game.decide(who, "director.card", ["done", "blind"], survivor=ent, weapon=gun)
            if choice == "done":
                return
            cid = cards[game.rng("director/blind").below(len(cards))]
        else:
            playable: list[int | str] = ["done"] + [
                c for c in cards if world.get(c, Card).value == 0
                or any(d <= world.get(c, Card).value * wd.range for d, _t in reach.values())]
            pick = yield from game.decide(who, "director.card", playable, survivor=ent, weapon=gun)
            if pick == "done":
                return
            assert isinstance(pick, int)
            cid = pick
        value = world.get(cid, Card).value
        spend(game, ent, gun, cid)
        if value == 0:
            game.log("miss", survivor=ent, card=world.get(cid, Card).face)
            for n in board.around(me):
                other = board.players.get(n)
                if other is not None:
                    damage(game, other, 1, "wild firing")
            return
        # the shortest routes within the longest reach are the shortest routes (fewest friends crossed)
        targets = {z: t for z, t in reach.items() if t[0] <= value * wd.range}
        if not targets:
            game.log("shot_wasted", survivor=ent, card=world.get(cid, Card).face)
            continue
        options = sorted(targets)
        z = yield from game.decide(who, "director.target", options, survivor=ent, range=value * wd.range,
                                   crossings=[len(targets[o][1]) for o in options])
        for other in targets[z][1]:
            if not pinned(game, other):
                damage(game, other, 1, "shot through")
        kill_zombie(game, z, f"shot by {ent}")


def reload(game: Game, ent: int) -> None:
    """Reload: discard the hand, draw a new hand of the gun's clip size."""
    gun = gun_for_action(game, ent)
    wd = weapon(game, gun) if gun else None
    if gun is None or wd is None:
        return
    for cid in list(hand_cards(game, ent, gun)):
        spend(game, ent, gun, cid)
    got = draw_to_hand(game, ent, gun, wd.clip)
    game.log("reloaded", survivor=ent, weapon=gun, cards=got)


def melee(game: Game, ent: int) -> Generator[Decision, object, None]:
    """Melee Attack: up to two adjacent zombies (adjacent to each other) are pushed one hex straight
    away from the player and stunned (DESIGN CHOICE: a zombie with no free hex behind it, or a wall
    between tiles, is stunned where it stands)."""
    world = game.world
    board = Board(game)
    me = hex_of(world.get(ent, Position))
    pick = yield from game.decide(side(seat_of(game, ent)), "director.melee", melee_options(board, me), survivor=ent)
    for z in pick:
        pos = world.get(z, Position)
        h = hex_of(pos)
        d = hexgrid.direction_of(me, h)
        assert d is not None
        dest = hexgrid.neighbour(h, d)
        if board.free(dest) and board.linked(h, dest):
            del board.zombies[h]
            board.zombies[dest] = z
            pos.x, pos.y = dest
        world.get(z, Markers).add("stun")
        game.log("melee", survivor=ent, zombie=z, to=list(hex_of(pos)))


def use_item(game: Game, ent: int) -> Generator[Decision, object, None]:
    """Use Item: the item in hand, once, on the user or an adjacent player (med kit, pills), or
    thrown at a hex within range (pipe bomb, molotov, petrol can), killing every zombie within
    its radius. DESIGN CHOICE: the hand then takes the best gun."""
    world = game.world
    inv = world.get(ent, Loadout)
    row = items_table(game)[inv.hand]
    board = Board(game)
    targets = item_targets(game, board, ent, row)
    who = side(seat_of(game, ent))
    target = yield from game.decide(who, "director.item_target", targets, survivor=ent, item=row.name)
    if row.kind == "heal":
        heal(game, target, row.heal, row.name)
    else:
        center = (target[0], target[1])
        for h in sorted(board.zombies):
            if hexgrid.distance(h, center) <= row.radius:
                kill_zombie(game, board.zombies[h], row.name)
    inv.items.remove(row.name)
    inv.hand = best_weapon(game, ent)
    game.log("used", survivor=ent, item=row.name)


def revive(game: Game, ent: int) -> Generator[Decision, object, None]:
    """Revive Player: an adjacent player at 0 hit points or less goes back to 1, still pinned
    (only when the reviver took no damage this round and has no adjacent zombie)."""
    board = Board(game)
    target = yield from game.decide(side(seat_of(game, ent)), "director.revive", downed_neighbours(game, board, ent),
                                    survivor=ent)
    hp = game.world.get(target, Wounds)
    hp.left = min(1, hp.limit)
    game.log("revived", survivor=ent, revived=target)


@system("director.unpin",
        reads=("Position", "Faction", "Wounds", "Markers", "HeldBy", "MapTile", "Owner", "DirectorState",
               "FloorItem", "LadderLink", "Tally"),
        writes=("Markers",))
def unpin(game: Game) -> None:
    """Check to Un-Pin Players: hit points above 0 and no adjacent zombie (DESIGN CHOICE: and no
    special infected still holding them)."""
    board = Board(game)
    world = game.world
    for ent in survivors(game):
        markers = world.get(ent, Markers)
        if not markers.has("pinned") or world.try_get(ent, HeldBy) is not None:
            continue
        if world.get(ent, Wounds).left > 0 and not board.adjacent_zombies(hex_of(world.get(ent, Position))):
            markers.discard("pinned")
            markers.discard("knocked_down")
            game.log("unpinned", survivor=ent)
