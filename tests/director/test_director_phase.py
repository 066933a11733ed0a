"""Director phase, scripted: the D3 and its modifiers, lurking, suppressing fire and the zombie
count, placement on the weakest player's tile and the stacking rule, special conditions' margins."""

from __future__ import annotations

from typing import Any

from ecs_zombie.components import Markers
from ecs_zombie.systems.director.board import ammo_deck, hand_cards, tally
from ecs_zombie.systems.director.components import HeldBy, Loadout, MapTile
from ecs_zombie.systems.director.director import place_zombies
from ecs_zombie.systems.director.players import acquire_weapon
from ecs_zombie.systems.director.tables import Condition, DirectorCard
from ecs_zombie.systems.director.tiles import explore
from tests.director.director_setup import (
    director_hand,
    faces,
    force,
    give_hand,
    hp,
    put,
    run_system,
    setup,
    state,
    zombies_at,
)
from tests.helpers import drive


def start_tile(game: Any) -> tuple[int, MapTile]:
    return min(game.world.query1(MapTile))


def test_d3_gives_the_number_of_director_cards(make_game: Any) -> None:
    """Draw Director Cards: "The First Player rolls a D3 to determine the number of Director Cards"."""
    game = make_game("director")
    setup(game)
    force(game, dice=[2], cards=["HORDE", "SMOKER"])
    run_system(game, "director.draw")
    assert faces(game, state(game).hand) == ["HORDE", "SMOKER"]


def test_tile_card_under_first_player_and_special_circumstances_modify_the_count(make_game: Any) -> None:
    """"check the Tile Card that the First Player is currently standing on for any modifiers. Also
    check for any special circumstances": +1 for the tile card, +1 (design) per held petrol can."""
    game = make_game("director")
    _p0, p1 = setup(game)
    start_tile(game)[1].director_mod = 1
    force(game, dice=[1])
    run_system(game, "director.draw")
    assert len(state(game).hand) == 2
    state(game).hand = []
    game.world.get(p1, Loadout).items = ["petrol"]
    game.world.get(p1, Loadout).hand = "petrol"
    force(game, dice=[3])
    run_system(game, "director.draw")
    assert len(state(game).hand) == 5
    state(game).hand = []
    start_tile(game)[1].director_mod = -9
    force(game, dice=[3])
    run_system(game, "director.draw")
    assert state(game).hand == []


def test_rule_example_conditions_and_margins() -> None:
    """Check Special Conditions, the rules' example: fails by more than 1 -> Smoker; passes by 3, 2,
    1, 0 or fails by 1 -> lurks; only one condition ever triggers for a card."""
    card = DirectorCard("X", "x", "", 3, "weakest", (Condition("failed_by_more_than", 1, "smoker"),
                                                    Condition("not_passed_by_more_than", 3, "lurk")))
    assert [card.effect(m) for m in (-3, -2, -1, 0, 1, 2, 3, 4, 9)] == [
        "smoker", "smoker", "lurk", "lurk", "lurk", "lurk", "lurk", None, None]


def test_suppressing_fire_sums_and_the_shortfall_is_the_zombie_count(make_game: Any) -> None:
    """Add/Resolve Suppressing Fire: each player adds one card (pistol), the pile is summed; horde 6
    against fire 5 brings 6 - 5 = 1 zombie, on the weakest player's tile."""
    game = make_game("director")
    p0, p1 = setup(game)
    give_hand(game, p0, ["P3", "P1"])
    give_hand(game, p1, ["P2"])
    director_hand(game, ["HORDE", "HORDE"])
    run_system(game, "director.suppress")
    assert sorted(faces(game, [c for c, _s in state(game).pile])) == ["P2", "P3"]
    assert faces(game, hand_cards(game, p0, "pistol")) == ["P1"] and hand_cards(game, p1, "pistol") == []
    force(game, dice=[6])
    run_system(game, "director.resolve")
    assert (state(game).horde, state(game).suppress, state(game).spawned) == (6, 5, 1)
    assert list(zombies_at(game)) == [(1, 1)]  # hex 6 of the start tile
    assert tally(game).counts["zombies_spawned"] == 1
    # every card of the pile went back to its own weapon's discard pile
    assert sorted(faces(game, ammo_deck(game, p0, "pistol").discard))[-1:] == ["P3"]
    assert state(game).pile == []


def test_no_zombies_when_suppressing_fire_beats_the_horde(make_game: Any) -> None:
    """"If the total value of Suppressing Fire is less than the total Horde Value" only."""
    game = make_game("director")
    p0, p1 = setup(game)
    give_hand(game, p0, ["P3"])
    give_hand(game, p1, ["P3"])
    director_hand(game, ["SHAMBLERS", "SHAMBLERS"])
    run_system(game, "director.suppress")
    run_system(game, "director.resolve")
    assert zombies_at(game) == {} and state(game).suppress == 6 and state(game).horde == 2


def test_allowance_pinned_by_special_none_pinned_one_shotgun_two(make_game: Any) -> None:
    """A player pinned by a special attack adds no cards; one pinned otherwise only a single card;
    the shotgun (suppress 2) allows two."""
    game = make_game("director", players=3)
    p0, p1, p2 = setup(game)
    director_hand(game, ["HORDE"])
    game.world.add(p0, HeldBy("hunter", 2, 2))
    game.world.get(p0, Markers).add("pinned")
    give_hand(game, p0, ["P3"])
    acquire_weapon(game, p1, "shotgun")
    game.world.get(p1, Loadout).hand = "shotgun"
    give_hand(game, p1, ["S3", "S2", "S1"], "shotgun")
    acquire_weapon(game, p2, "shotgun")
    game.world.get(p2, Loadout).hand = "shotgun"
    give_hand(game, p2, ["S3", "S2"], "shotgun")
    give_hand(game, p2, ["P2", "P1"], "pistol")
    game.world.get(p2, Markers).add("pinned")
    asked = run_system(game, "director.suppress")
    by_side = [d.side for d in asked]
    assert "player:0" not in by_side
    assert by_side.count("player:1") == 2 and by_side.count("player:2") == 1
    assert sorted(faces(game, [c for c, _s in state(game).pile])) == ["P2", "S2", "S3"]


def test_slimed_player_adds_cards_blind(make_game: Any) -> None:
    """Boomer: a slimed player's suppressing fire is drawn blind (the card is not chosen)."""
    game = make_game("director")
    p0, p1 = setup(game)
    director_hand(game, ["HORDE"])
    game.world.get(p0, Markers).add("slimed")
    give_hand(game, p0, ["P3", "P1", "P2"])
    give_hand(game, p1, [])
    asked = run_system(game, "director.suppress")
    assert asked[0].options == ["done", "blind"] and len(state(game).pile) == 1


def test_lurking_card_joins_next_round(make_game: Any) -> None:
    """Place Lurkers Aside / Draw: SMOKER (fails by more than 3 -> Smoker, not passed by more than
    3 -> lurk): horde 2 against fire 1 fails by 1, so it lurks and joins next round's hand."""
    game = make_game("director")
    p0, p1 = setup(game)
    (smoker,) = director_hand(game, ["SMOKER"])
    give_hand(game, p0, ["P1"])
    give_hand(game, p1, [])
    run_system(game, "director.suppress")
    force(game, dice=[2])
    run_system(game, "director.resolve")
    assert state(game).lurking == [smoker] and state(game).hand == [] and state(game).specials == []
    assert smoker not in game.deck("director")[1].discard
    force(game, dice=[1], cards=["SHAMBLERS"])
    run_system(game, "director.draw")
    assert faces(game, state(game).hand) == ["SHAMBLERS", "SMOKER"] and state(game).lurking == []


def test_failing_by_more_than_n_triggers_the_special(make_game: Any) -> None:
    """SMOKER fails by more than 3: horde 2 + 3 against no fire fails by 5 -> a Smoker attack is
    queued (HORDE has no condition) and 5 zombies appear."""
    game = make_game("director")
    p0, p1 = setup(game)
    director_hand(game, ["SMOKER", "HORDE"])
    give_hand(game, p0, [])
    give_hand(game, p1, [])
    force(game, dice=[1, 2, 3, 4, 5])
    run_system(game, "director.resolve")
    assert state(game).specials == ["smoker"] and state(game).spawned == 5


def _second_tile(game: Any) -> int:
    """Lay an ALLEY against the start tile's exit (centre (5, 0), unrotated)."""
    start, tile = start_tile(game)
    tile.exits[0]["state"] = "open"
    force(game, cards=["ALLEY", "QUIET"])
    explore(game, start)
    return max(e for e, _t in game.world.query1(MapTile))


def test_new_zombies_on_the_weakest_players_tile_and_stacking(make_game: Any) -> None:
    """Placing New Zombies: a D6 per zombie on the tile of the player with least hit points; a
    second zombie due on the same hex goes to an adjacent hex the first player chooses."""
    game = make_game("director")
    _p0, p1 = setup(game)
    alley = _second_tile(game)
    assert game.world.get(alley, MapTile).center == [5, 0]
    put(game, p1, 4, 0)
    hp(game, p1, 3)
    force(game, dice=[3, 3])
    asked = drive(game, place_zombies(game, 2, "weakest"), {"director.stack": [5, -2]})
    assert [(d.side, d.kind, d.options) for d in asked] == [("player:0", "director.stack", [[3, 0], [5, -2]])]
    assert sorted(zombies_at(game)) == [(4, -1), (5, -2)]


def test_tied_weakest_goes_to_the_most_recent_first_player(make_game: Any) -> None:
    """"If players are tied on Hit Points, then use the player who was most recently first player"."""
    from ecs_zombie.systems.director.board import weakest

    game = make_game("director", players=3)
    p0, p1, p2 = setup(game)
    for p in (p0, p1, p2):
        hp(game, p, 5)
    state(game).first = 2
    assert weakest(game) == p2
    state(game).first = 0
    assert weakest(game) == p0
    hp(game, p1, 4)
    assert weakest(game) == p1


def test_a_card_may_place_its_zombies_behind_the_team(make_game: Any) -> None:
    """"unless otherwise specified on the Director Card": MOB places on the rearmost tile."""
    game = make_game("director")
    p0, p1 = setup(game)
    alley = _second_tile(game)
    put(game, p0, 5, 0)
    put(game, p1, 6, 0)
    hp(game, p0, 1)
    director_hand(game, ["MOB"])
    give_hand(game, p0, [])
    give_hand(game, p1, [])
    force(game, dice=[1, 2])
    run_system(game, "director.resolve")
    assert sorted(zombies_at(game)) == [(1, -2), (2, -1)]  # hexes 1 and 2 of the start tile
    assert alley != start_tile(game)[0]


def test_a_tile_card_may_draw_new_zombies_to_its_tile(make_game: Any) -> None:
    """"or if there are any Tile-Based cards that change zombie placement": SEWER_GRATES (design)
    brings new zombies to its tile while a player stands on it, not to the weakest player's."""
    game = make_game("director")
    p0, p1 = setup(game)
    start, tile = start_tile(game)
    tile.exits[0]["state"] = "open"
    force(game, cards=["ALLEY", "SEWER_GRATES"])
    explore(game, start)
    assert "zombies_here" in game.world.get(max(e for e, _t in game.world.query1(MapTile)), MapTile).effects
    put(game, p1, 5, 0)
    hp(game, p0, 1)
    director_hand(game, ["SHAMBLERS"])
    give_hand(game, p0, [])
    give_hand(game, p1, [])
    force(game, dice=[6])
    run_system(game, "director.resolve")
    assert list(zombies_at(game)) == [(6, 1)]  # hex 6 of the alley (centre (5, 0))
