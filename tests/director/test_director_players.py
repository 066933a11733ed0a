"""Player phase, scripted: movement and pick-ups, shooting (value x range, not through zombies,
through players wounds them), the Miss card, reload, melee push and stun, revive, un-pin."""

from __future__ import annotations

from typing import Any

from ecs_zombie.components import Markers
from ecs_zombie.systems.director.board import Board, ammo_deck, hand_cards
from ecs_zombie.systems.director.components import AttackHand, FloorItem, Loadout
from ecs_zombie.systems.director.players import action_options, reachable
from tests.director.director_setup import (
    at,
    faces,
    force,
    give_hand,
    hp,
    put,
    run_system,
    setup,
    tags,
    zombie,
    zombies_at,
)


def _lone(game: Any, where: tuple[int, int] = (-2, 0)) -> tuple[int, int]:
    p0, p1 = setup(game)
    put(game, p0, *where)
    put(game, p1, -2, 2)
    give_hand(game, p1, [])
    return p0, p1


def p0_does(action: str) -> Any:
    """Player 0 takes `action`; everyone else does nothing."""
    return lambda d: action if d.side == "player:0" else "none"


def test_shot_range_is_card_value_times_gun_range(make_game: Any) -> None:
    """Shooting: a 2 with the pistol (range 2) reaches 4 hexes; a 1 reaches 2; each card kills one."""
    game = make_game("director")
    p0, _p1 = _lone(game)
    two, one = give_hand(game, p0, ["P2", "P1"])
    z = zombie(game, 2, 0)
    asked = run_system(game, "director.actions", {"director.action": p0_does("shoot")})
    card_ask = next(d for d in asked if d.kind == "director.card")
    assert card_ask.options == ["done", two]
    assert zombies_at(game) == {} and hand_cards(game, p0, "pistol") == [one]
    assert two in ammo_deck(game, p0, "pistol").discard and not game.world.exists(z)


def test_no_shooting_through_zombies(make_game: Any) -> None:
    """"You may not shoot through other zombies": the zombie behind the blocker is 5 hexes round."""
    game = make_game("director")
    p0, _p1 = _lone(game)
    give_hand(game, p0, ["P2"])
    front = zombie(game, 0, 0)
    zombie(game, 2, 0)
    asked = run_system(game, "director.actions", {"director.action": p0_does("shoot")})
    target_ask = [d for d in asked if d.kind == "director.target"]
    assert target_ask == [] and not game.world.exists(front) and list(zombies_at(game)) == [(2, 0)]


def test_shooting_through_a_player_wounds_them_unless_pinned(make_game: Any) -> None:
    """"You may shoot through other players, however this will automatically cause 1 wound to the
    player (unless they are Pinned, in which case they are pre-ducked)"."""
    for pinned, expected in ((False, 7), (True, 8)):
        game = make_game("director")
        p0, p1 = _lone(game)
        put(game, p1, 0, 0)
        if pinned:
            game.world.get(p1, Markers).add("pinned")
        give_hand(game, p0, ["P2"])
        zombie(game, 2, 0)
        run_system(game, "director.actions", {"director.action": p0_does("shoot")})
        assert zombies_at(game) == {} and hp(game, p1) == expected


def test_a_miss_ends_the_shooting_and_hurts_an_adjacent_player(make_game: Any) -> None:
    """"If a Miss card is played, no other cards may be played ... if there is an adjacent player
    model to the player, they take 1HP damage due to the wild firing"."""
    game = make_game("director")
    p0, p1 = _lone(game)
    put(game, p1, -1, 0)
    miss, three = give_hand(game, p0, ["PMISS", "P3"])
    zombie(game, 2, -2)
    asked = run_system(game, "director.actions", {"director.action": lambda d: "shoot" if d.side == "player:0"
                                                  else "none", "director.card": miss})
    assert [d.kind for d in asked].count("director.card") == 1
    assert hp(game, p1) == 7 and hand_cards(game, p0, "pistol") == [three] and len(zombies_at(game)) == 1


def test_reload_discards_the_hand_and_draws_the_clip(make_game: Any) -> None:
    """Reload: "discard their current hand of cards, and draw a new hand with a size equal to the
    Clip Size of the gun" (pistol: 4)."""
    game = make_game("director")
    p0, _p1 = _lone(game)
    (one,) = give_hand(game, p0, ["P1"])
    force(game, cards=["P3", "P3", "P2", "PMISS"])
    run_system(game, "director.actions", {"director.action": p0_does("reload")})
    assert faces(game, hand_cards(game, p0, "pistol")) == ["P3", "P3", "P2", "PMISS"]
    deck = ammo_deck(game, p0, "pistol")
    assert one in deck.discard and len(deck.draw) + len(deck.discard) + 4 == 11


def test_melee_pushes_two_adjacent_zombies_away_and_stuns_them(make_game: Any) -> None:
    """Melee Attack: up to 2 adjacent zombies adjacent to each other are moved 1 hex away from the
    player and gain a Stun Marker; stunned zombies neither move nor bite; the markers then go."""
    game = make_game("director")
    p0, _p1 = _lone(game, (0, 0))
    give_hand(game, p0, [])
    a = zombie(game, 1, 0)
    b = zombie(game, 1, -1)
    run_system(game, "director.actions", {"director.action": p0_does("melee"), "director.melee": [a, b]})
    assert (at(game, a), at(game, b)) == ((2, 0), (2, -2))
    assert "stun" in tags(game, a) and "stun" in tags(game, b)
    run_system(game, "director.zombie_move")
    run_system(game, "director.zombie_attack")
    assert (at(game, a), at(game, b)) == ((2, 0), (2, -2)) and hp(game, p0) == 8
    run_system(game, "director.unstun")
    assert "stun" not in tags(game, a)


def test_revive_only_unhurt_and_with_no_adjacent_zombie(make_game: Any) -> None:
    """Revive Player: an adjacent player on 0HP or less; only if the reviver took no damage this
    round and has no adjacent zombies; back to 1 hit point, still pinned."""
    game = make_game("director")
    p0, p1 = _lone(game, (0, 0))
    put(game, p1, 1, 0)
    hp(game, p1, -2)
    game.world.get(p1, Markers).add("pinned")
    game.world.get(p0, Markers).add("hurt")
    assert "revive" not in action_options(game, p0)
    game.world.get(p0, Markers).discard("hurt")
    z = zombie(game, -1, 0)
    assert "revive" not in action_options(game, p0)
    game.world.delete(z)
    assert "revive" in action_options(game, p0)
    run_system(game, "director.actions", {"director.action": lambda d: "revive" if d.side == "player:0" else "none"})
    assert hp(game, p1) == 1 and "pinned" in tags(game, p1)


def test_pinned_player_may_only_shoot_or_reload_with_the_pistol(make_game: Any) -> None:
    """"A Pinned player may only make an Shooting Action or a Reload Action, and only using a single pistol"."""
    game = make_game("director")
    p0, _p1 = _lone(game, (0, 0))
    game.world.get(p0, Loadout).items = ["medkit"]
    game.world.get(p0, Markers).add("pinned")
    give_hand(game, p0, ["P1"])
    zombie(game, 1, 0)
    assert action_options(game, p0) == ["none", "shoot", "reload"]


def test_unpin_needs_hit_points_and_no_adjacent_zombie(make_game: Any) -> None:
    """Check to Un-Pin: "Hit Points are greater than 0" and "No adjacent zombies"."""
    game = make_game("director", players=3)
    p0, p1, p2 = setup(game)
    for p, h in ((p0, (0, 0)), (p1, (-2, 2)), (p2, (2, -2))):
        put(game, p, *h)
        game.world.get(p, Markers).add("pinned")
    zombie(game, 1, 0)
    hp(game, p1, 0)
    run_system(game, "director.unpin")
    assert ["pinned" in tags(game, p) for p in (p0, p1, p2)] == [True, True, False]


def test_moving_picks_up_items_passed_and_ammo_restocks_every_gun(make_game: Any) -> None:
    """Pick Up Items: items are picked up as they are passed over; an ammo restock refills every
    weapon carried; a new gun brings a fresh stack and may be taken into hand at once."""
    game = make_game("director")
    p0, _p1 = _lone(game)
    deck = ammo_deck(game, p0, "pistol")
    in_hand = len(hand_cards(game, p0, "pistol"))
    deck.discard.extend(deck.draw[:5])
    del deck.draw[:5]
    from ecs_zombie.components import Kind, Position

    game.world.create(Kind("item"), Position(-1, 0), FloorItem("ammo"))
    game.world.create(Kind("item"), Position(0, 0), FloorItem("shotgun"))
    run_system(game, "director.player_move", {
        "director.move": lambda d: [1, 0] if d.side == "player:0" else d.options[0],
        "director.pickup": "take", "director.equip": "equip"})
    assert at(game, p0) == (1, 0)
    assert deck.discard == [] and len(deck.draw) == 11 - in_hand
    inv = game.world.get(p0, Loadout)
    assert inv.weapons == ["pistol", "shotgun"] and inv.hand == "shotgun"
    assert len(game.world.get(p0, AttackHand).cards["shotgun"]) == 4
    assert game.world.query1(FloorItem) == ()


def test_item_with_room_is_picked_up_without_a_choice_but_a_held_item_may_be_left(make_game: Any) -> None:
    """Pick Up Items: "If a player moves over a hex containing an item, they immediately pick it up"
    (leaving it is only for a full slot); but of must-hold items (petrol cans) "they do not have to
    pick it up, however if they do it must immediately be placed in hand"."""
    game = make_game("director")
    p0, _p1 = _lone(game)
    from ecs_zombie.components import Kind, Position

    game.world.create(Kind("item"), Position(-1, 0), FloorItem("pills"))
    game.world.create(Kind("item"), Position(0, 0), FloorItem("petrol"))
    asked = run_system(game, "director.player_move", {
        "director.move": lambda d: [1, 0] if d.side == "player:0" else d.options[0],
        "director.pickup": "leave", "director.equip": "keep"})
    pickups = [d for d in asked if d.kind == "director.pickup"]
    assert [d.context["item"] for d in pickups] == ["petrol"] and pickups[0].options == ["leave", "take"]
    inv = game.world.get(p0, Loadout)
    assert inv.items == ["pills"] and inv.hand == "pistol"
    floor = [(game.world.get(e, Position).x, game.world.get(e, Position).y, i.name)
             for e, i in game.world.query1(FloorItem)]
    assert floor == [(0, 0, "petrol")]


def test_full_slot_means_leave_or_swap(make_game: Any) -> None:
    """"If there is no space in their inventory for that item type they may chose to leave the Item
    ... or discard an Item to make space for it (which will be placed on the floor)"."""
    game = make_game("director")
    p0, _p1 = _lone(game)
    game.world.get(p0, Loadout).items = ["medkit"]
    from ecs_zombie.components import Kind, Position

    game.world.create(Kind("item"), Position(-1, 0), FloorItem("medkit"))
    asked = run_system(game, "director.player_move", {
        "director.move": lambda d: [0, 0] if d.side == "player:0" else d.options[0],
        "director.pickup": "swap", "director.equip": "keep"})
    assert next(d for d in asked if d.kind == "director.pickup").options == ["leave", "swap"]
    floor = [(game.world.get(e, Position).x, game.world.get(e, Position).y, i.name)
             for e, i in game.world.query1(FloorItem)]
    assert floor == [(-1, 0, "medkit")] and game.world.get(p0, Loadout).items == ["medkit"]


def test_hazard_hex_hurts_on_entering(make_game: Any) -> None:
    """"If a player moves into a hex where a special rule applies, that rule should be resolved
    immediately" (design: a burning hex costs 1 hit point)."""
    game = make_game("director")
    p0, _p1 = _lone(game)
    from ecs_zombie.systems.director.components import MapTile

    min(game.world.query1(MapTile))[1].hazards = [[-1, 0]]
    run_system(game, "director.player_move", {"director.move": lambda d: [0, 0] if d.side == "player:0"
                                              else d.options[0]})
    assert hp(game, p0) == 7


def test_movement_never_through_zombies_or_players(make_game: Any) -> None:
    """Move Un-Pinned Players: "Players may not move through hexes occupied by zombies, or other players"."""
    game = make_game("director")
    p0, p1 = _lone(game, (-2, 0))
    put(game, p1, -1, 0)
    zombie(game, -1, -1)
    zombie(game, -2, 1)
    _s, best, _p = reachable(game, Board(game), p0, 4)
    assert set(best) == {(-2, 0)}


def test_med_kit_heals_self_or_an_adjacent_player_never_above_maximum(make_game: Any) -> None:
    """Use Item: "Items (if applicable) can be used on an adjacent player model"; single use; a med
    kit gives 4 hit points (design) and never lifts anyone above their maximum."""
    game = make_game("director")
    p0, p1 = _lone(game, (0, 0))
    put(game, p1, 1, 0)
    hp(game, p1, 6)
    hp(game, p0, 7)
    inv = game.world.get(p0, Loadout)
    inv.items, inv.hand = ["medkit"], "medkit"
    asked = run_system(game, "director.actions", {"director.action": p0_does("use"), "director.item_target": p1})
    assert next(d for d in asked if d.kind == "director.item_target").options == [p0, p1]
    assert (hp(game, p0), hp(game, p1)) == (7, 8) and inv.items == [] and inv.hand == "pistol"


def test_pipe_bomb_kills_every_zombie_around_the_target_hex(make_game: Any) -> None:
    """Use Item, pipe bomb (design: a hex up to 3 away, radius 1)."""
    game = make_game("director")
    p0, _p1 = _lone(game, (-2, 0))
    inv = game.world.get(p0, Loadout)
    inv.items, inv.hand = ["pipebomb"], "pipebomb"
    for h in ((1, 0), (1, -1), (2, 0), (0, 2)):
        zombie(game, *h)
    run_system(game, "director.actions", {"director.action": p0_does("use"), "director.item_target": [1, 0]})
    assert list(zombies_at(game)) == [(0, 2)] and inv.items == []


def test_swap_weapons_takes_another_carried_item_in_hand(make_game: Any) -> None:
    """Swap Weapons: "swap their currently in-hand weapon to any other item in their inventory"."""
    game = make_game("director")
    p0, _p1 = _lone(game)
    from ecs_zombie.systems.director.players import acquire_weapon

    acquire_weapon(game, p0, "rifle")
    assert "swap:rifle" in action_options(game, p0)
    run_system(game, "director.actions", {"director.action": p0_does("swap:rifle")})
    assert game.world.get(p0, Loadout).hand == "rifle"
