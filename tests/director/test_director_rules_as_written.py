"""The departures from the rule text a review found (issue #15, the Director game), each written as
the text (or the published design it names, or the design choice made where it is silent) says:
tiles joined only exit to entry, must-hold items, fresh ammo stacks, living victims, no zombies in
the safe room, what a Mob card moves, the threat per team size, the adaptive director's rhythm
and its respect for sewer grates."""

from __future__ import annotations

from typing import Any

import pytest

from ecs_zombie import hexgrid
from ecs_zombie.systems.director.board import Board, ammo_deck, hand_cards
from ecs_zombie.systems.director.components import HeldBy
from ecs_zombie.systems.director.players import action_options, reachable
from tests.director.director_setup import (
    BUILD_UP,
    FADE,
    at,
    director_hand,
    east_tile,
    equip,
    events,
    force,
    give_hand,
    hp,
    intensity,
    item,
    lay_after,
    loadout,
    markers,
    only,
    pacer,
    put,
    run_system,
    setup,
    state,
    stay,
    tile,
    zombie,
    zombies_at,
    zombies_just_appeared,
)

ISSUE = "rule deviation (#15): "


def _branch_beside_the_main_route(game: Any) -> tuple[int, int, int]:
    """Street -> crossroads (5, 0) -> east alley (10, 0) and the branch alley (5, 5): the east and
    the branch tiles touch along (8, 2)-(7, 3), which is no exit and no entry."""
    cross = east_tile(game, "CROSSROADS")
    east, branch = lay_after(game, cross, ["ALLEY", "QUIET", "ALLEY", "QUIET"])
    assert tile(game, east).center == [10, 0] and tile(game, branch).center == [5, 5]
    return cross, east, branch


def test_survivors_cross_between_tiles_only_at_exits(make_game: Any) -> None:
    """Place New Tile: a tile is placed "so that the entry point aligns with the current exit
    point"; the route runs from exit to entry, not across any shared edge."""
    game = make_game("director")
    p0, p1 = setup(game)
    _branch_beside_the_main_route(game)
    put(game, p0, 7, 3)
    put(game, p1, 0, 0)
    _s, best, _p = reachable(game, Board(game), p0, 1)
    assert (8, 2) not in best


def test_zombies_cross_between_tiles_only_at_exits(make_game: Any) -> None:
    """Zombies take "the shortest possible path" along the route: from the east alley they cannot
    step straight onto the branch beside it."""
    game = make_game("director")
    p0, p1 = setup(game)
    _branch_beside_the_main_route(game)
    put(game, p0, 6, 4)
    put(game, p1, 0, 0)
    z = zombie(game, 9, 1)
    run_system(game, "director.zombie_move")
    assert hexgrid.distance(at(game, z), (5, 5)) > 2  # not on the branch tile


def test_a_held_petrol_can_stays_in_hand_when_swapping(make_game: Any) -> None:
    """"Some Items must be kept in hand (e.g. Petrol Cans, Gas Cylinders)": the can is never in the
    inventory with another item in hand."""
    game = make_game("director")
    p0, p1 = setup(game)
    put(game, p0, 0, 0)
    equip(game, p0, "petrol", ["petrol"])
    give_hand(game, p1, [])
    swap = "swap:pistol" if "swap:pistol" in action_options(game, p0) else "none"
    run_system(game, "director.actions", {"director.action": only(0, swap)})
    inv = loadout(game, p0)
    assert inv.hand == "petrol" or "petrol" not in inv.items


def test_a_held_petrol_can_stays_in_hand_when_a_gun_is_found(make_game: Any) -> None:
    """"Some Items must be kept in hand": equipping a gun found on the way does not put the can
    back in the inventory."""
    game = make_game("director")
    p0, p1 = setup(game)
    put(game, p0, -2, 0)
    put(game, p1, -2, 2)
    equip(game, p0, "petrol", ["petrol"])
    item(game, "shotgun", -1, 0)
    run_system(game, "director.player_move", {"director.move": only(0, [-1, 0], stay), "director.equip": "equip"})
    inv = loadout(game, p0)
    assert inv.hand == "petrol" or "petrol" not in inv.items


def test_an_ammo_restock_is_a_full_stack_beside_the_hand(make_game: Any) -> None:
    """"discard all their current Attack Cards (discarded and spare) for that weapon (except those
    in hand) and replace them with a new stack equal to the Weapons Max Ammo" (pistol: 11)."""
    game = make_game("director")
    p0, p1 = setup(game)
    put(game, p0, -2, 0)
    put(game, p1, -2, 2)
    assert len(hand_cards(game, p0, "pistol")) == 4
    item(game, "ammo", -1, 0)
    run_system(game, "director.player_move", {"director.move": only(0, [-1, 0], stay)})
    assert len(ammo_deck(game, p0, "pistol").draw) == 11 and len(hand_cards(game, p0, "pistol")) == 4


@pytest.mark.parametrize("name", ["smoker", "hunter", "charger", "boomer", "jockey", "spitter"])
def test_special_infected_choose_a_living_victim(make_game: Any, name: str) -> None:
    """Special attacks strike survivors in play, not one already down at 0 hit points or less."""
    game = make_game("director")
    p0, p1 = setup(game)
    put(game, p0, 0, 0)
    put(game, p1, -2, 2)
    hp(game, p0, 0)
    markers(game, p0).add("pinned")
    hp(game, p1, 5)
    state(game).specials = [name]
    force(game, dice=[2, 2, 2])
    run_system(game, f"director.{name}")
    assert [e["survivor"] for e in events(game, "special_grab")] == [p1]


def test_no_zombie_is_placed_in_the_safe_room(make_game: Any) -> None:
    """The safe room is where the survivors are safe (design victory): new zombies due on the
    weakest player's tile do not appear inside it."""
    game = make_game("director")
    p0, p1 = setup(game)
    safe = east_tile(game, "SAFEROOM")
    put(game, p0, 5, 0)
    put(game, p1, 0, 0)
    hp(game, p0, 3)
    director_hand(game, ["HORDE"])
    force(game, dice=[1, 2, 3])
    run_system(game, "director.resolve")
    hexes = {(q, r) for q, r in tile(game, safe).hexes}
    assert len(zombies_at(game)) == 3 and not hexes & set(zombies_at(game))


def test_a_mob_card_does_not_move_the_other_cards_zombies(make_game: Any) -> None:
    """"Zombies will always appear nearest the weakest player, unless otherwise specified on the
    Director Card": the Horde card says nothing, so its zombies still come to the weakest player's
    tile when a Mob card is in the same hand."""
    game = make_game("director")
    p0, p1 = setup(game)
    alley = east_tile(game)
    put(game, p0, 5, 0)
    put(game, p1, 6, 0)
    hp(game, p0, 2)
    director_hand(game, ["MOB", "HORDE"])
    force(game, dice=[1, 2, 3, 4, 5])
    run_system(game, "director.resolve")
    on_alley = {(q, r) for q, r in tile(game, alley).hexes} & set(zombies_at(game))
    assert len(zombies_at(game)) == 5 and on_alley


def test_the_horde_grows_only_during_build_up(make_game: Any) -> None:
    """Published design: "mobs only during Build Up, growing the longer since the last" - the
    rounds of Peak Fade and Relax do not pile up cards for the next Build Up."""
    game = make_game("director-adaptive")
    setup(game)
    st = pacer(game)
    st.mode, st.mode_rounds, st.growth = FADE, 1, 0
    for _ in range(3):  # Peak Fade -> Relax, Relax, -> Build Up
        state(game).hand = []
        force(game, dice=[1])
        run_system(game, "core.pacer")
    assert st.mode == BUILD_UP and len(state(game).hand) == 1  # a D3 of 1 and no growth


def test_intensity_decays_next_to_a_stunned_zombie(make_game: Any) -> None:
    """Published design: intensity "decays when no infected are attacking" (design: by 20 a round);
    a stunned zombie does not attack ("every adjacent zombie (without a Stun Marker)")."""
    game = make_game("director-adaptive")
    p0, p1 = setup(game)
    put(game, p0, 0, 0)
    put(game, p1, -2, 2)
    intensity(game, p0, 50)
    zombie(game, 1, 0, "stun")
    run_system(game, "director.zombie_attack")
    run_system(game, "core.intensity")
    assert intensity(game, p0) == 30


def test_the_adaptive_director_honours_sewer_grates(make_game: Any) -> None:
    """"(or if there are any Tile-Based cards that change zombie placement)": with a player on the
    sewer grates, the adaptive director's zombies appear there too."""
    game = make_game("director-adaptive")
    p0, p1 = setup(game)
    sewer = east_tile(game, "ALLEY", "SEWER_GRATES")
    put(game, p0, 5, 0)
    put(game, p1, 0, 0)
    zombies_just_appeared(game)
    force(game, dice=[1])
    run_system(game, "core.pacer")
    assert state(game).placement == "rear"  # the adaptive director's own placement, behind the team
    director_hand(game, ["SHAMBLERS"])
    force(game, dice=[6])
    run_system(game, "director.resolve")
    hexes = {(q, r) for q, r in tile(game, sewer).hexes}
    assert list(zombies_at(game)) and set(zombies_at(game)) <= hexes



# -- walls where tiles touch ----------------------------------------------------------------------------


def test_no_attack_or_shot_through_the_wall_between_tiles(make_game: Any) -> None:
    """Tiles touch each other only where "the entry point aligns with the current exit point"
    (design: elsewhere their edges are walls): a zombie across the wall neither wounds nor can be
    shot; across the seam from the crossroads' exit (7, 0) to the alley's entry (8, 0) it does both."""
    game = make_game("director")
    p0, p1 = setup(game)
    _branch_beside_the_main_route(game)
    put(game, p0, 7, 3)
    put(game, p1, 0, 0)
    give_hand(game, p0, ["P1"])
    z = zombie(game, 8, 2)
    assert "shoot" not in action_options(game, p0)
    run_system(game, "director.zombie_attack")
    assert hp(game, p0) == 8
    put(game, p0, 7, 0)
    put(game, z, 8, 0)
    assert "shoot" in action_options(game, p0)
    run_system(game, "director.zombie_attack")
    assert hp(game, p0) == 7


def test_a_shove_into_the_wall_between_tiles_stuns_in_place(make_game: Any) -> None:
    """Melee: "The zombies are moved 1 hex away from the player" - not through the wall where the
    east alley touches the branch (design: stunned where it stands)."""
    game = make_game("director")
    p0, p1 = setup(game)
    _branch_beside_the_main_route(game)
    put(game, p0, 9, 1)
    put(game, p1, 0, 0)
    z = zombie(game, 8, 2)
    run_system(game, "director.actions", {"director.action": only(0, "melee")})
    assert at(game, z) == (8, 2) and "stun" in markers(game, z).tags


def test_a_jockey_cannot_steer_through_the_wall_between_tiles(make_game: Any) -> None:
    """The Jockey steers its victim hex by hex (design: a D6 a step, 5 is south-west); a step into
    the wall between two tiles is lost like any blocked step."""
    game = make_game("director")
    p0, p1 = setup(game)
    _branch_beside_the_main_route(game)
    put(game, p0, 8, 2)
    put(game, p1, 0, 0)
    game.world.add(p0, HeldBy("jockey", 2, 1))
    force(game, dice=[5, 5])
    run_system(game, "director.jockey")
    assert at(game, p0) == (8, 2) and events(game, "steered") == []


# -- special infected and the safe room -------------------------------------------------------------------


def test_a_jockey_does_not_steer_a_rider_lying_on_the_ground(make_game: Any) -> None:
    """A Jockey steers "in random directions in player turn" a survivor on their feet (design: one
    pinned on the ground is not steered)."""
    game = make_game("director")
    p0, p1 = setup(game)
    put(game, p0, 0, 0)
    put(game, p1, -2, 2)
    game.world.add(p0, HeldBy("jockey", 2, 1))
    markers(game, p0).add("pinned")
    force(game, dice=[1, 1])
    run_system(game, "director.jockey")
    assert at(game, p0) == (0, 0) and events(game, "steered") == []


def test_no_bile_zombie_appears_in_the_safe_room(make_game: Any) -> None:
    """Zombies are never placed in the safe room (design): a Boomer's victim standing in its middle
    brings no bile zombie, every hex beside them being the safe room's."""
    game = make_game("director")
    p0, p1 = setup(game)
    east_tile(game, "SAFEROOM")
    put(game, p0, 5, 0)
    put(game, p1, 0, 0)
    hp(game, p1, 8)
    hp(game, p0, 3)
    state(game).specials = ["boomer"]
    run_system(game, "director.boomer")
    assert events(game, "special_grab") == [{"special": "boomer", "survivor": p0}] and zombies_at(game) == {}


# -- what a Mob card moves, and sewer grates ----------------------------------------------------------------


def _fire(game: Any, ent: int, faces: list[str]) -> None:
    """These attack cards put into the suppressing-fire pile by `ent`."""
    for cid in give_hand(game, ent, faces):
        state(game).pile.append([cid, ent])
    give_hand(game, ent, [])


def test_suppressing_fire_holds_back_the_last_cards_zombies(make_game: Any) -> None:
    """Design: the new zombies are dealt to the hand's cards in the order they came into it, each
    up to its horde number: Horde (3) then Mob (2) against a fire of 3 leaves 2 zombies, both the
    Horde's, on the weakest player's tile (the alley, hexes 1 and 2), none behind."""
    game = make_game("director")
    p0, p1 = setup(game)
    east_tile(game)
    put(game, p0, 5, 0)
    put(game, p1, 6, 0)
    hp(game, p0, 2)
    give_hand(game, p1, [])
    director_hand(game, ["HORDE", "MOB"])
    _fire(game, p0, ["P3"])
    force(game, dice=[1, 2])
    run_system(game, "director.resolve")
    assert sorted(zombies_at(game)) == [(6, -2), (7, -1)]


def test_sewer_grates_draw_even_a_mob_cards_zombies(make_game: Any) -> None:
    """Design: a tile card that changes placement (sewer grates, a player on it) takes every new
    zombie, a Mob card's too: hex 6 of the alley, not the street behind."""
    game = make_game("director")
    p0, p1 = setup(game)
    east_tile(game, "ALLEY", "SEWER_GRATES")
    put(game, p0, 5, 0)
    put(game, p1, 0, 0)
    give_hand(game, p0, [])
    give_hand(game, p1, [])
    director_hand(game, ["MOB"])
    force(game, dice=[6, 6])
    run_system(game, "director.resolve", {"director.stack": [7, 0]})
    assert sorted(zombies_at(game)) == [(6, 1), (7, 0)]


# -- the threat and the number of players (director.scaling) ------------------------------------------------


@pytest.mark.parametrize(("players", "d3", "cards", "modifier"), [(1, 2, 1, -1), (2, 2, 2, 0), (3, 2, 3, 1),
                                                                   (4, 1, 3, 2)])
def test_the_director_draws_more_for_a_larger_team(make_game: Any, players: int, d3: int, cards: int,
                                                   modifier: int) -> None:
    """Design (`director.scaling`): every player adds suppressing fire, so the director draws one
    card fewer for a lone survivor, the D3 for two, one more for three and two more for four."""
    game = make_game("director", players=players)
    setup(game)
    force(game, dice=[d3])
    run_system(game, "director.draw")
    assert events(game, "director_cards") == [{"roll": d3, "modifier": modifier, "cards": cards}]
    assert len(state(game).hand) == cards


@pytest.mark.parametrize(("players", "horde"), [(1, 2), (2, 3), (3, 3), (4, 3)])
def test_a_lone_survivor_faces_one_zombie_fewer(make_game: Any, players: int, horde: int) -> None:
    """Design (`director.scaling`): a lone survivor's director hands count 1 less horde (a Horde
    card brings 2 zombies, not 3); two, three and four players play the card as printed (a larger
    team meets more cards instead: `test_the_director_draws_more_for_a_larger_team`)."""
    game = make_game("director", players=players)
    ents = setup(game)
    for e in ents:
        give_hand(game, e, [])
    director_hand(game, ["HORDE"])
    force(game, dice=[1, 2, 3])
    run_system(game, "director.resolve")
    assert events(game, "suppression_check")[0]["new_zombies"] == horde and len(zombies_at(game)) == horde
