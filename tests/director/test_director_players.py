"""Player phase, scripted: movement and pick-ups, shooting (value x range, not through zombies,
through players wounds them), the Miss card, reload, melee push and stun, revive, un-pin."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from ecs_zombie import hexgrid
from ecs_zombie.components import Card, Markers
from ecs_zombie.systems.director.board import Board, ammo_deck, hand_cards
from ecs_zombie.systems.director.components import AttackHand, FloorItem, HeldBy, Loadout
from ecs_zombie.systems.director.players import acquire_weapon, action_options, reachable
from ecs_zombie.systems.director.tiles import lay, tileset
from tests.director.director_setup import (
    at,
    east_tile,
    equip,
    events,
    faces,
    floor_items,
    force,
    give_hand,
    hand_faces,
    hp,
    item,
    lay_after,
    loadout,
    mark,
    markers,
    only,
    put,
    run_defaults,
    run_system,
    scenario_with,
    setup,
    start_tile,
    stay,
    tags,
    tiles,
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
    deck.discard.extend(deck.draw[:5])
    del deck.draw[:5]

    item(game, "ammo", -1, 0)
    item(game, "shotgun", 0, 0)
    run_system(game, "director.player_move", {
        "director.move": lambda d: [1, 0] if d.side == "player:0" else d.options[0],
        "director.pickup": "take", "director.equip": "equip"})
    assert at(game, p0) == (1, 0)
    assert deck.discard == []  # how many the fresh stack holds: see #15 in test_director_rules_as_written.py
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
    from ecs_zombie.components import Position

    item(game, "pills", -1, 0)
    item(game, "petrol", 0, 0)
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
    from ecs_zombie.components import Position

    item(game, "medkit", -1, 0)
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
    since = mark(game)
    run_system(game, "director.player_move", {"director.move": only(0, [1, 0], stay)})
    assert hp(game, p0) == 7 and at(game, p0) == (1, 0)  # three steps, one of them burning
    assert events(game, "damage", since) == [{"survivor": p0, "amount": 1, "hp": 7, "why": "hazard hex"}]


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


# -- guns: range, shots, clip, cards -----------------------------------------------------------------


def _armed(game: Any, gun: str, where: tuple[int, int] = (-2, 0)) -> tuple[int, int]:
    p0, p1 = _lone(game, where)
    if gun != "pistol":
        acquire_weapon(game, p0, gun)
        equip(game, p0, gun)
    return p0, p1


# (gun, distance to the zombie, card values offered): "multiplying the value of the Attack Card by
# the Range of the gun" (design: pistol range 2, shotgun 1, rifle 3); a Miss is always offered.
RANGES = [
    ("pistol", 2, [1, 2, 3]), ("pistol", 3, [2, 3]), ("pistol", 5, [3]), ("pistol", 6, [3]),
    ("shotgun", 1, [1, 2, 3]), ("shotgun", 2, [2, 3]), ("shotgun", 3, [3]),
    ("rifle", 3, [1, 2, 3]), ("rifle", 4, [2, 3]), ("rifle", 7, [3]),
]


@pytest.mark.parametrize(("gun", "distance", "offered"), RANGES)
def test_each_guns_range(make_game: Any, gun: str, distance: int, offered: list[int]) -> None:
    """Shooting: "the shot can be upto (2x2) 4 hexes" for a 2 with a range-2 gun: a card is offered
    when its value times the gun's range reaches the zombie (design ranges)."""
    game = make_game("director")
    p0, _p1 = _armed(game, gun)
    east_tile(game)
    letter = gun[0].upper()
    give_hand(game, p0, [f"{letter}1", f"{letter}2", f"{letter}3", f"{letter}MISS"], gun)
    zombie(game, -2 + distance, 0)
    asked = run_system(game, "director.actions", {"director.action": p0_does("shoot"), "director.card": "done"})
    (card_ask,) = [d for d in asked if d.kind == "director.card"]
    values = [game.world.get(c, Card).value for c in card_ask.options[1:]]
    assert sorted(values) == [0, *offered]


@pytest.mark.parametrize(("gun", "distance"), [("pistol", 7), ("shotgun", 4), ("rifle", 10)])
def test_no_shooting_beyond_the_longest_reach(make_game: Any, gun: str, distance: int) -> None:
    """Beyond a 3's reach (pistol 6, shotgun 3, rifle 9 hexes) shooting is not offered."""
    game = make_game("director")
    p0, _p1 = _armed(game, gun)
    east_tile(game)
    if distance > 9:
        lay_after(game, max(tiles(game)), ["ALLEY", "QUIET"])
    letter = gun[0].upper()
    give_hand(game, p0, [f"{letter}3"], gun)
    zombie(game, -2 + distance, 0)
    assert "shoot" not in action_options(game, p0)
    put(game, p0, -1, 0)  # one hex nearer: in reach
    assert "shoot" in action_options(game, p0)


@pytest.mark.parametrize(("gun", "cards", "shots"), [
    ("pistol", ["P3", "P3", "P2", "P1"], 2), ("shotgun", ["S3", "S2", "S2", "S1"], 3),
    ("rifle", ["R3", "R2", "R1"], 2)])
def test_cards_a_shooting_action_may_play(make_game: Any, gun: str, cards: list[str], shots: int) -> None:
    """"expend a number of attack cards from their current hand (upto the limit of their equipped
    gun)": each card kills one zombie (design: pistol 2, shotgun 3, rifle 2 a shooting action)."""
    game = make_game("director")
    p0, _p1 = _armed(game, gun, (0, 0))
    give_hand(game, p0, cards, gun)
    for h in ((1, 0), (1, -1), (0, -1), (-1, 0)):
        zombie(game, *h)
    since = mark(game)
    run_system(game, "director.actions", {"director.action": p0_does("shoot")})
    assert len(events(game, "zombie_killed", since)) == shots
    assert len(zombies_at(game)) == 4 - shots and len(hand_cards(game, p0, gun)) == len(cards) - shots
    assert events(game, "action", since) == [{"survivor": p0, "action": "shoot"}]


@pytest.mark.parametrize(("gun", "clip"), [("pistol", 4), ("shotgun", 4), ("rifle", 3)])
def test_reload_draws_the_guns_clip(make_game: Any, gun: str, clip: int) -> None:
    """Reload: "draw a new hand with a size equal to the Clip Size of the gun" (design: pistol 4,
    shotgun 4, rifle 3)."""
    game = make_game("director")
    p0, _p1 = _armed(game, gun)
    give_hand(game, p0, [], gun)
    since = mark(game)
    run_system(game, "director.actions", {"director.action": p0_does("reload")})
    assert len(hand_cards(game, p0, gun)) == clip
    assert events(game, "reloaded", since) == [{"survivor": p0, "weapon": gun, "cards": clip}]


@pytest.mark.parametrize(("gun", "cards"), [
    ("pistol", {"P1": 3, "P2": 4, "P3": 3, "PMISS": 1}),
    ("shotgun", {"S1": 3, "S2": 4, "S3": 2, "SMISS": 1}),
    ("rifle", {"R1": 2, "R2": 3, "R3": 2, "RMISS": 1})])
def test_each_guns_attack_cards(make_game: Any, gun: str, cards: dict[str, int]) -> None:
    """A gun's Max Ammo is its attack cards (design: pistol 1x3, 2x4, 3x3, Miss = 11; shotgun
    1x3, 2x4, 3x2, Miss = 10; rifle 1x2, 2x3, 3x2, Miss = 8): hand and stack hold exactly them."""
    game = make_game("director")
    p0, _p1 = _armed(game, gun)
    deck = ammo_deck(game, p0, gun)
    held_cards = hand_cards(game, p0, gun)
    assert Counter(faces(game, [*held_cards, *deck.draw, *deck.discard])) == Counter(cards)


def test_the_pistol_never_runs_dry_but_other_guns_do(make_game: Any) -> None:
    """Design (as in Left 4 Dead): a pistol's spent cards are reshuffled when its stack is empty;
    a shotgun with every card spent cannot reload."""
    game = make_game("director")
    p0, _p1 = _armed(game, "shotgun")
    for gun in ("pistol", "shotgun"):
        give_hand(game, p0, [], gun)
        deck = ammo_deck(game, p0, gun)
        deck.discard.extend(deck.draw)
        deck.draw.clear()
    assert "reload" not in action_options(game, p0)
    equip(game, p0, "pistol")
    assert "reload" in action_options(game, p0)
    run_system(game, "director.actions", {"director.action": p0_does("reload")})
    assert len(hand_cards(game, p0, "pistol")) == 4


def test_a_rifle_found_comes_loaded_with_its_clip(make_game: Any) -> None:
    """"If a new gun is picked up, the player should prepare a new Ammo Stack" (design: a found gun
    comes loaded with a clip: the rifle's is 3)."""
    game = make_game("director")
    p0, _p1 = _lone(game)
    item(game, "rifle", -1, 0)
    since = mark(game)
    run_system(game, "director.player_move", {"director.move": only(0, [-1, 0], stay),
                                              "director.equip": "equip"})
    assert len(hand_cards(game, p0, "rifle")) == 3 and loadout(game, p0).hand == "rifle"
    assert events(game, "picked_up", since) == [{"survivor": p0, "item": "rifle"}]
    assert events(game, "moved", since) == [{"survivor": p0, "to": [-1, 0]}]


def test_a_blind_card_with_no_target_is_wasted(make_game: Any) -> None:
    """Boomer: slimed players "draw blind on ... Attacks" (design: a blind card with no zombie in
    its reach is wasted): a 1 (reach 2) cannot hit the zombie 4 hexes away, a 3 can."""
    game = make_game("director")
    p0, _p1 = _lone(game)
    markers(game, p0).add("slimed")
    give_hand(game, p0, ["P1", "P3"])
    zombie(game, 2, 0)
    since = mark(game)
    asked = run_system(game, "director.actions", {"director.action": p0_does("shoot"), "director.card": "blind"})
    assert [d.options for d in asked if d.kind == "director.card"] in ([["done", "blind"]] * 2, [["done", "blind"]])
    assert events(game, "shot_wasted", since) == [{"survivor": p0, "card": "P1"}]
    assert zombies_at(game) == {} and hand_cards(game, p0, "pistol") == []


def test_miss_and_melee_and_revive_are_logged(make_game: Any) -> None:
    """The Miss, Melee and Revive actions, each logged with who did what."""
    game = make_game("director", players=3)
    p0, p1, p2 = setup(game)
    put(game, p0, 0, 0)
    put(game, p1, -1, 0)
    put(game, p2, -2, 2)
    miss, _three = give_hand(game, p0, ["PMISS", "P3"])
    give_hand(game, p1, [])
    give_hand(game, p2, [])
    zombie(game, 2, -2)
    since = mark(game)
    run_system(game, "director.actions", {"director.action": p0_does("shoot"), "director.card": miss})
    assert events(game, "miss", since) == [{"survivor": p0, "card": "PMISS"}]
    assert events(game, "damage", since) == [{"survivor": p1, "amount": 1, "hp": 7, "why": "wild firing"}]
    z = zombie(game, 1, 0)
    since = mark(game)
    run_system(game, "director.actions", {"director.action": p0_does("melee")})
    assert events(game, "melee", since) == [{"survivor": p0, "zombie": z, "to": [2, 0]}]
    game.world.delete(z)
    markers(game, p0).discard("hurt")
    put(game, p2, 0, 1)
    hp(game, p2, 0)
    since = mark(game)
    run_system(game, "director.actions", {"director.action": p0_does("revive")})
    assert events(game, "revived", since) == [{"survivor": p0, "revived": p2}] and hp(game, p2) == 1


def test_melee_stuns_in_place_a_zombie_with_nothing_free_behind(make_game: Any) -> None:
    """Melee Attack: "moved 1 hex away from the player, and each gain a Stun Marker" (design: with
    no free hex straight behind it, it is stunned where it stands)."""
    game = make_game("director")
    p0, _p1 = _lone(game, (0, 0))
    give_hand(game, p0, [])
    z = zombie(game, 1, 0)
    zombie(game, 2, 0, "stun")  # straight behind it
    run_system(game, "director.actions", {"director.action": p0_does("melee")})
    assert at(game, z) == (1, 0) and "stun" in tags(game, z)
    put(game, p0, 1, 1)  # struck from (1, 1), the hex straight behind it is (1, -1): free
    markers(game, z).discard("stun")
    run_system(game, "director.actions", {"director.action": p0_does("melee")})
    assert at(game, z) == (1, -1) and "stun" in tags(game, z)


def test_melee_strikes_two_zombies_only_when_they_are_adjacent_to_each_other(make_game: Any) -> None:
    """"strike upto 2 adjacent zombies (who must be adjacent to each other and to the player)"."""
    game = make_game("director")
    _lone(game, (0, 0))
    a = zombie(game, 1, 0)
    b = zombie(game, -1, 0)  # opposite side: not adjacent to a
    c = zombie(game, 0, -1)  # adjacent to b (and not to a)
    asked = run_system(game, "director.actions", {"director.action": p0_does("melee"), "director.melee": [b, c]})
    (ask,) = [d for d in asked if d.kind == "director.melee"]
    assert sorted(ask.options) == sorted([[a], [b], [c], [b, c]])
    assert at(game, a) == (1, 0) and (at(game, b), at(game, c)) == ((-2, 0), (0, -2))


# -- movement -------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["director", "director-adaptive", "director-sza"])
def test_players_move_y_hexes(make_game: Any, ruleset: str) -> None:
    """"each Unpinned player model can now move Y hexes" (design: Y = `player_move`, 4): every hex
    offered is at most 4 steps away, and the hex 4 along is offered, the 5th is not; the same in
    each hybrid built on the Director game (each declares Y afresh)."""
    game = make_game(ruleset)
    p0, _p1 = _lone(game)
    east_tile(game)
    asked = run_system(game, "director.player_move", {"director.move": only(0, [2, 0], stay)})
    opts = {(o[0], o[1]) for o in next(d for d in asked if d.side == "player:0").options}
    assert (2, 0) in opts and (3, 0) not in opts
    assert max(hexgrid.distance((-2, 0), h) for h in opts) == 4
    assert at(game, p0) == (2, 0)


@pytest.mark.parametrize("how", ["ruleset", "defaults", "tuned"])
def test_y_as_the_ruleset_binds_it_and_by_default(make_game: Any, how: str) -> None:
    """Y is the ruleset's `player_move` (4), tunable (3 here); the system's own default is 4 too."""
    game = make_game("director", params={"player_move": 3} if how == "tuned" else {})
    _lone(game)
    east_tile(game)
    runner = run_defaults if how == "defaults" else run_system
    asked = runner(game, "director.player_move", {"director.move": stay})
    opts = next(d for d in asked if d.side == "player:0").options
    assert max(hexgrid.distance((-2, 0), (o[0], o[1])) for o in opts) == (3 if how == "tuned" else 4)


def test_pinned_or_ridden_players_do_not_move(make_game: Any) -> None:
    """"each Unpinned player model can now move" (design: a Jockey's rider steers instead)."""
    game = make_game("director")
    p0, p1 = _lone(game)
    markers(game, p0).add("pinned")
    game.world.add(p1, HeldBy("jockey", 2, 1))
    asked = run_system(game, "director.player_move")
    assert asked == []


# -- items ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "before", "after"), [("medkit", 2, 6), ("pills", 2, 4), ("medkit", 5, 8)])
def test_healing_items(make_game: Any, name: str, before: int, after: int) -> None:
    """Use Item: med kit and pills (design: +4 and +2 hit points, never above the maximum of 8)."""
    game = make_game("director")
    p0, _p1 = _lone(game, (0, 0))
    equip(game, p0, name, [name])
    hp(game, p0, before)
    since = mark(game)
    run_system(game, "director.actions", {"director.action": p0_does("use")})
    assert hp(game, p0) == after
    assert events(game, "heal", since) == [{"survivor": p0, "hp": after, "why": name}]
    assert events(game, "used", since) == [{"survivor": p0, "item": name}]
    assert loadout(game, p0).items == [] and loadout(game, p0).hand == "pistol"


@pytest.mark.parametrize(("name", "reach"), [("pipebomb", 3), ("molotov", 2), ("petrol", 1)])
def test_thrown_items_range_and_radius(make_game: Any, name: str, reach: int) -> None:
    """Use Item, thrown (design: pipe bomb range 3, molotov 2, petrol can 1; each kills every zombie
    within 1 of the hex it lands on)."""
    game = make_game("director")
    p0, _p1 = _lone(game, (-2, 0))
    east_tile(game)
    equip(game, p0, name, [name])
    for q in range(-1, 5):
        zombie(game, q, 0)
    zombie(game, -2 + reach, -1)  # next to the farthest target: dies with it
    zombie(game, -2 + reach, -2)  # two from it: survives
    asked = run_system(game, "director.actions", {"director.action": p0_does("use"),
                                                  "director.item_target": [-2 + reach, 0]})
    targets = next(d for d in asked if d.kind == "director.item_target").options
    assert max(hexgrid.distance((-2, 0), (t[0], t[1])) for t in targets) == reach
    left = sorted(zombies_at(game))
    assert (-2 + reach, -1) not in left and (-2 + reach, -2) in left
    assert [h for h in left if h[1] == 0] == [(q, 0) for q in range(-1, 5) if abs(q - (-2 + reach)) > 1]


def test_after_using_an_item_the_best_gun_is_in_hand(make_game: Any) -> None:
    """Design: using an item puts the best gun back in hand: a primary (shotgun) over the pistol."""
    game = make_game("director")
    p0, _p1 = _lone(game, (0, 0))
    acquire_weapon(game, p0, "shotgun")
    equip(game, p0, "pills", ["pills"])
    hp(game, p0, 5)
    run_system(game, "director.actions", {"director.action": p0_does("use")})
    assert loadout(game, p0).hand == "shotgun"


def test_a_swapped_item_is_dropped_where_the_new_one_lay(make_game: Any) -> None:
    """"Place the Item in the inventory, and discard an Item to make space for it (which will be
    placed on the floor)": the dropped item and the pick-up are logged."""
    game = make_game("director")
    p0, _p1 = _lone(game)
    acquire_weapon(game, p0, "shotgun")
    item(game, "rifle", -1, 0)
    since = mark(game)
    run_system(game, "director.player_move", {"director.move": only(0, [-1, 0], stay),
                                              "director.pickup": "swap", "director.equip": "keep"})
    assert loadout(game, p0).weapons == ["pistol", "rifle"] and floor_items(game) == [(-1, 0, "shotgun")]
    assert events(game, "dropped", since) == [{"survivor": p0, "item": "shotgun", "at": [-1, 0]}]
    assert events(game, "picked_up", since) == [{"survivor": p0, "item": "rifle"}]
    assert "shotgun" not in game.world.get(p0, AttackHand).cards


def test_a_dropped_guns_cards_stay_with_its_stack(make_game: Any) -> None:
    """A gun put down takes its hand's cards back onto its ammo stack's discard pile ("its attack
    cards stay in its stack for next time"): no card is lost."""
    from ecs_zombie.systems.director.board import _stack
    from ecs_zombie.systems.director.players import drop

    game = make_game("director")
    p0, _p1 = _lone(game)
    acquire_weapon(game, p0, "shotgun")
    hand = list(game.world.get(p0, AttackHand).cards["shotgun"])
    assert hand
    drop(game, p0, "shotgun", (0, 0))
    stack = _stack(game, p0, "shotgun")
    assert stack is not None and all(c in stack.discard for c in hand)


def test_an_ammo_restock_refills_every_gun_carried(make_game: Any) -> None:
    """"If a player walks over an ammo restock then this should be done for all weapons currently
    carried": every spent card of the pistol and the shotgun is back in its stack."""
    game = make_game("director")
    p0, _p1 = _lone(game)
    acquire_weapon(game, p0, "shotgun")
    for gun in ("pistol", "shotgun"):
        deck = ammo_deck(game, p0, gun)
        deck.discard.extend(deck.draw[:3])
        del deck.draw[:3]
    item(game, "ammo", -1, 0)
    since = mark(game)
    run_system(game, "director.player_move", {"director.move": only(0, [-1, 0], stay)})
    assert ammo_deck(game, p0, "pistol").discard == [] and ammo_deck(game, p0, "shotgun").discard == []
    assert events(game, "ammo_restock", since) == [{"survivor": p0}] and floor_items(game) == []


def test_unpin_is_logged(make_game: Any) -> None:
    """Check to Un-Pin Players: the player is "placed back on their feet" (logged)."""
    game = make_game("director")
    p0, _p1 = _lone(game, (0, 0))
    markers(game, p0).add("pinned")
    markers(game, p0).add("knocked_down")
    since = mark(game)
    run_system(game, "director.unpin")
    assert events(game, "unpinned", since) == [{"survivor": p0}] and tags(game, p0) == []


def test_of_two_equally_short_routes_the_shot_avoids_the_friend(make_game: Any) -> None:
    """"count the shortest route to the target zombie ... You may shoot through other players,
    however this will automatically cause 1 wound" (design: of equally short routes, the one
    crossing fewer survivors): (0, 0) -> (2, -1) goes by (1, 0), not through the friend on (1, -1)."""
    game = make_game("director")
    p0, p1 = _lone(game, (0, 0))
    put(game, p1, 1, -1)
    give_hand(game, p0, ["P1"])
    zombie(game, 2, -1)
    since = mark(game)
    run_system(game, "director.actions", {"director.action": p0_does("shoot")})
    assert zombies_at(game) == {} and hp(game, p1) == 8 and events(game, "damage", since) == []


@pytest.mark.parametrize(("carried", "found", "asked"), [
    ("pipebomb", "molotov", ["leave", "swap"]), ("medkit", "pills", None), ("pills", "medkit", None),
    ("pipebomb", "medkit", None), ("shotgun", "rifle", ["leave", "swap"])])
def test_one_item_a_slot(make_game: Any, carried: str, found: str, asked: list[str] | None) -> None:
    """"If there is no space in their inventory for that item type" (design: one item per slot:
    pipe bomb and molotov share the throwable slot, shotgun and rifle the primary; med kit and
    pills each have their own): a full slot asks leave or swap, a free one takes it at once."""
    game = make_game("director")
    p0, _p1 = _lone(game)
    if carried in ("shotgun", "rifle"):
        acquire_weapon(game, p0, carried)
    else:
        equip(game, p0, "pistol", [carried])
    item(game, found, -1, 0)
    got = run_system(game, "director.player_move", {"director.move": only(0, [-1, 0], stay),
                                                    "director.pickup": "leave", "director.equip": "keep"})
    pickups = [d.options for d in got if d.kind == "director.pickup"]
    assert pickups == ([asked] if asked else [])
    inv = loadout(game, p0)
    assert (found in inv.items or found in inv.weapons) is (asked is None)


def test_staying_put_is_no_move(make_game: Any) -> None:
    """A player may stay where they are: no step, no `moved` event."""
    game = make_game("director")
    _lone(game)
    since = mark(game)
    run_system(game, "director.player_move", {"director.move": stay})
    assert events(game, "moved", since) == []


def test_swapping_away_the_gun_in_hand_leaves_the_pistol_in_hand(make_game: Any) -> None:
    """Design: dropping the item in hand puts the best gun left in hand (here the pistol), and a
    gun picked up is only taken in hand if the player chooses to."""
    game = make_game("director")
    p0, _p1 = _lone(game)
    acquire_weapon(game, p0, "shotgun")
    equip(game, p0, "shotgun")
    item(game, "rifle", -1, 0)
    asked = run_system(game, "director.player_move", {"director.move": only(0, [-1, 0], stay),
                                                      "director.pickup": "swap", "director.equip": "keep"})
    assert loadout(game, p0).hand == "pistol"
    assert [d.options for d in asked if d.kind == "director.equip"] == [["keep", "equip"]]


def test_a_petrol_can_taken_goes_straight_into_hand(make_game: Any) -> None:
    """"if they do [pick it up] it must immediately be placed in hand": no equip question."""
    game = make_game("director")
    p0, _p1 = _lone(game)
    item(game, "petrol", -1, 0)
    asked = run_system(game, "director.player_move", {"director.move": only(0, [-1, 0], stay),
                                                      "director.pickup": "take"})
    assert loadout(game, p0).hand == "petrol" and loadout(game, p0).items == ["petrol"]
    assert [d.kind for d in asked if d.kind == "director.equip"] == []


def test_a_med_kit_may_be_taken_straight_into_hand(make_game: Any) -> None:
    """"If the Item is equippable (e.g. Guns, Med kits) the player may choose to immediately take
    that weapon into hand"."""
    game = make_game("director")
    p0, _p1 = _lone(game)
    item(game, "medkit", -1, 0)
    run_system(game, "director.player_move", {"director.move": only(0, [-1, 0], stay), "director.equip": "equip"})
    assert loadout(game, p0).hand == "medkit" and loadout(game, p0).items == ["medkit"]


def test_a_player_on_exactly_zero_can_be_revived(make_game: Any) -> None:
    """Revive Player: "an adjacent player on 0HP or less" - 0 included."""
    game = make_game("director")
    p0, p1 = _lone(game, (0, 0))
    put(game, p1, 1, 0)
    hp(game, p1, 0)
    assert "revive" in action_options(game, p0)
    hp(game, p1, 1)
    assert "revive" not in action_options(game, p0)


def test_healing_is_offered_only_to_the_hurt_within_reach(make_game: Any) -> None:
    """Use Item: on the user or "an adjacent player model" (design: only to someone below their
    maximum): all unhurt, no use; a hurt player two hexes away is not a target."""
    game = make_game("director", players=3)
    p0, p1, p2 = setup(game)
    put(game, p0, 0, 0)
    put(game, p1, 1, 0)
    put(game, p2, 2, 0)
    give_hand(game, p0, [])
    equip(game, p0, "medkit", ["medkit"])
    assert "use" not in action_options(game, p0)
    hp(game, p2, 3)
    assert "use" not in action_options(game, p0)
    hp(game, p1, 7)
    asked = run_system(game, "director.actions", {"director.action": p0_does("use")})
    assert [d.options for d in asked if d.kind == "director.item_target"] == [] and hp(game, p1) == 8


def test_a_ladder_whose_far_end_is_taken_cannot_be_crossed(make_game: Any) -> None:
    """Players never share a hex: with someone on the far end of a ladder, it cannot be crossed."""
    game = make_game("director")
    p0, p1 = setup(game)
    s_ent, s_tile = start_tile(game)
    lay(game, tileset(game).tiles["ALLEY"], 0, (5, 0), s_ent, 1, False, 0)
    s_tile.exits[0]["state"] = "open"
    lay_after(game, s_ent, ["ALLEY", "QUIET"])
    put(game, p0, 1, 0)
    put(game, p1, 9, 0)
    _s, best, _p = reachable(game, Board(game), p0, 4)
    assert (9, 0) not in best and (10, 0) not in best


def test_a_slimed_shooter_may_stop_before_a_blind_card(make_game: Any) -> None:
    """Slimed, the shooter still chooses whether to play another (blind) card."""
    game = make_game("director")
    p0, _p1 = _lone(game)
    markers(game, p0).add("slimed")
    give_hand(game, p0, ["P3", "P3"])
    zombie(game, 0, 0)
    run_system(game, "director.actions", {"director.action": p0_does("shoot"), "director.card": "done"})
    assert len(hand_cards(game, p0, "pistol")) == 2 and len(zombies_at(game)) == 1


def test_a_gun_found_again_brings_its_whole_stack(make_game: Any) -> None:
    """"If a new gun is picked up, the player should prepare a new Ammo Stack": a shotgun dropped
    with spent cards and found again comes back with every card not in hand in its stack."""
    game = make_game("director")
    p0, _p1 = _lone(game)
    acquire_weapon(game, p0, "shotgun")
    deck = ammo_deck(game, p0, "shotgun")
    deck.discard.extend(deck.draw[:4])
    del deck.draw[:4]
    item(game, "rifle", -1, 0)
    item(game, "shotgun", 0, 0)
    run_system(game, "director.player_move", {"director.move": only(0, [-1, 0], stay), "director.pickup": "swap"})
    run_system(game, "director.player_move", {"director.move": only(0, [0, 0], stay), "director.pickup": "swap"})
    assert loadout(game, p0).weapons == ["pistol", "shotgun"]
    assert deck.discard == [] and len(deck.draw) + len(hand_cards(game, p0, "shotgun")) == 10


def test_each_card_reaches_only_its_own_range(make_game: Any) -> None:
    """"The range of each shot is determined my multiplying the value of the Attack Card by the Range
    of the gun": a pistol 1 reaches 2 hexes (not 3), a pistol 2 reaches 4 (and the target question
    says so)."""
    game = make_game("director")
    p0, _p1 = _lone(game)
    east_tile(game)
    one, two = give_hand(game, p0, ["P1", "P2"])
    near = zombie(game, 0, 0)  # 2 hexes away
    zombie(game, 0, 1)  # 3
    far = zombie(game, 2, -2)  # 4
    asked = run_system(game, "director.actions", {"director.action": p0_does("shoot"),
                                                  "director.card": lambda d: one if one in d.options else "done"})
    assert [d.kind for d in asked].count("director.target") == 0 and not game.world.exists(near)
    assert len(zombies_at(game)) == 2
    give_hand(game, p0, ["P2"])
    asked = run_system(game, "director.actions", {"director.action": p0_does("shoot"), "director.target": far})
    (ask,) = [d for d in asked if d.kind == "director.target"]
    assert ask.context["range"] == 4 and len(ask.options) == 2 and not game.world.exists(far)
    assert two not in hand_cards(game, p0, "pistol")
    zombie(game, 2, -2)
    give_hand(game, p0, ["P3"])
    asked = run_system(game, "director.actions", {"director.action": p0_does("shoot")})
    assert [d.context["range"] for d in asked if d.kind == "director.target"] == [6]


def test_an_item_names_the_gun_it_is(make_game: Any, tmp_path: Path) -> None:
    """Items (design): a weapon item carries its gun (`weapon`): a found sawn-off is a shotgun."""
    path = scenario_with(tmp_path, "director.items", "items.yaml",
                         "rifle: {kind: weapon, slot: primary, weapon: rifle}",
                         "sawnoff: {kind: weapon, slot: primary, weapon: shotgun}")
    game = make_game(str(path))
    p0, _p1 = _lone(game)
    item(game, "sawnoff", -1, 0)
    run_system(game, "director.player_move", {"director.move": only(0, [-1, 0], stay), "director.equip": "equip"})
    assert loadout(game, p0).weapons == ["pistol", "shotgun"] and loadout(game, p0).hand == "shotgun"
    assert len(hand_cards(game, p0, "shotgun")) == 4


def test_a_revived_player_with_no_zombie_beside_gets_up_at_the_unpin_check(make_game: Any) -> None:
    """Revive: "Hit Points reset to 1, though will still be pinned"; then Check to Un-Pin: "Hit
    Points are greater than 0" and "No adjacent zombies" - 1 is enough to get up."""
    game = make_game("director")
    _p0, p1 = _lone(game, (0, 0))
    put(game, p1, 1, 0)
    hp(game, p1, -1)
    markers(game, p1).add("pinned")
    run_system(game, "director.actions", {"director.action": p0_does("revive")})
    assert hp(game, p1) == 1 and "pinned" in tags(game, p1)
    run_system(game, "director.unpin")
    assert "pinned" not in tags(game, p1)


def test_of_two_routes_each_past_a_friend_the_first_found_is_taken(make_game: Any) -> None:
    """Design (deterministic ties): from (0, 0) to (2, -1) both shortest routes pass a friend; the
    route found first, through (1, -1), is the one taken, and only that friend is wounded."""
    game = make_game("director", players=3)
    p0, p1, p2 = setup(game)
    put(game, p0, 0, 0)
    put(game, p1, 1, 0)
    put(game, p2, 1, -1)
    give_hand(game, p0, ["P1"])
    give_hand(game, p1, [])
    give_hand(game, p2, [])
    zombie(game, 2, -1)
    run_system(game, "director.actions", {"director.action": p0_does("shoot")})
    assert (hp(game, p1), hp(game, p2)) == (8, 7) and zombies_at(game) == {}


def test_a_gun_out_of_cards_reloads_only_what_is_left(make_game: Any) -> None:
    """Reload draws the clip from the gun's stack; a shotgun with 2 cards left draws 2 (its spent
    cards are not reshuffled: only the pistol never runs dry)."""
    game = make_game("director")
    p0, _p1 = _armed(game, "shotgun")
    give_hand(game, p0, [], "shotgun")
    deck = ammo_deck(game, p0, "shotgun")
    deck.discard.extend(deck.draw[2:])
    del deck.draw[2:]
    since = mark(game)
    run_system(game, "director.actions", {"director.action": p0_does("reload")})
    assert len(hand_cards(game, p0, "shotgun")) == 2
    assert events(game, "reloaded", since) == [{"survivor": p0, "weapon": "shotgun", "cards": 2}]


def test_a_new_ammo_stack_is_shuffled(make_game: Any) -> None:
    """A survivor's new ammo stack is shuffled: the first clips dealt at set-up differ from game to
    game (seeds 1..6)."""
    clips = set()
    for seed in range(1, 7):
        game = make_game("director", seed=seed)
        p0, _p1 = setup(game)
        clips.add(tuple(sorted(hand_faces(game, p0))))
    assert len(clips) > 1
