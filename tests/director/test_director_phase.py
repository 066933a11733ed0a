"""Director phase, scripted: the D3 and its modifiers, lurking, suppressing fire and the zombie
count, placement on the weakest player's tile and the stacking rule, special conditions' margins."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from ecs_zombie.components import Markers
from ecs_zombie.errors import ScriptError
from ecs_zombie.systems.director.board import ammo_deck, hand_cards, tally
from ecs_zombie.systems.director.components import AttackHand, HeldBy, Loadout, MapTile
from ecs_zombie.systems.director.director import draw_cards, place_zombies
from ecs_zombie.systems.director.players import acquire_weapon
from ecs_zombie.systems.director.tables import Condition, DirectorCard
from ecs_zombie.systems.director.tiles import explore
from tests.director.director_setup import (
    DIRECTOR_DECK,
    director_hand,
    east_tile,
    equip,
    events,
    faces,
    force,
    give_hand,
    hp,
    mark,
    markers,
    put,
    run_defaults,
    run_system,
    scenario_with,
    setup,
    state,
    tags,
    tile,
    zombie,
    zombies_at,
    zombies_just_appeared,
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
    three, _one = give_hand(game, p0, ["P3", "P1"])
    (two,) = give_hand(game, p1, ["P2"])
    director_hand(game, ["HORDE", "HORDE"])
    run_system(game, "director.suppress")
    assert sorted(faces(game, [c for c, _s in state(game).pile])) == ["P2", "P3"]
    assert faces(game, hand_cards(game, p0, "pistol")) == ["P1"] and hand_cards(game, p1, "pistol") == []
    force(game, dice=[6])
    run_system(game, "director.resolve")
    assert (state(game).horde, state(game).suppress, state(game).spawned) == (6, 5, 1)
    assert list(zombies_at(game)) == [(1, 1)]  # hex 6 of the start tile
    assert tally(game).counts["zombies_spawned"] == 1
    # every card of the pile went back to its own stack's discard pile
    assert three in ammo_deck(game, p0, "pistol").discard and two in ammo_deck(game, p1, "pistol").discard
    assert three not in ammo_deck(game, p1, "pistol").discard and two not in ammo_deck(game, p0, "pistol").discard
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


def test_a_pinned_player_adds_one_card_whatever_the_gun_allows(make_game: Any, tmp_path: Path) -> None:
    """"A player who is pinned for other reasons may only ever add a single card, irrespective of
    any other equipment/rules that state he may add more": even a pistol allowing 2 gives one."""
    game = make_game(str(scenario_with(tmp_path, "director.weapons", "weapons.yaml", "suppress: 1", "suppress: 2")))
    p0, p1 = setup(game)
    director_hand(game, ["HORDE"])
    give_hand(game, p0, ["P3", "P2", "P1"])
    give_hand(game, p1, ["P3", "P2", "P1"])
    markers(game, p0).add("pinned")
    run_system(game, "director.suppress", {"director.suppress": lambda d: d.options[1]})
    assert sorted(s for _c, s in state(game).pile) == sorted([p0, p1, p1])


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
    since = mark(game)
    force(game, dice=[1], cards=["SHAMBLERS"])
    run_system(game, "director.draw")
    assert faces(game, state(game).hand) == ["SHAMBLERS", "SMOKER"] and state(game).lurking == []
    assert events(game, "lurkers_join", since) == [{"cards": ["SMOKER"]}]


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



@pytest.mark.parametrize(("d6", "hex_"), [(1, (2, -1)), (2, (1, -2)), (3, (-1, -1)), (4, (-2, 1)), (5, (-1, 2)),
                                         (6, (1, 1))])
def test_the_d6_numbers_a_tiles_mid_edge_hexes(make_game: Any, d6: int, hex_: tuple[int, int]) -> None:
    """DESIGN CHOICE (prefabs/director/tiles.yaml): a tile that numbers no spawn hexes of its own
    numbers its six mid-edge hexes 1-6 for the placing D6, counter-clockwise from [2, -1]; on the
    start tile at the origin, unrotated, a 1 places at (2, -1) ... a 6 at (1, 1)."""
    game = make_game("director")
    p0, p1 = setup(game)
    put(game, p0, 0, 0)
    put(game, p1, 0, 1)  # no survivor on a numbered hex (nor on the entry, beside hex 4)
    start = min(e for e, _t in game.world.query1(MapTile))
    force(game, dice=[d6])
    drive(game, place_zombies(game, 1, "here", start))
    assert sorted(zombies_at(game)) == [hex_]

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
    _second_tile(game)
    put(game, p0, 5, 0)
    put(game, p1, 6, 0)
    hp(game, p0, 1)
    director_hand(game, ["MOB"])
    give_hand(game, p0, [])
    give_hand(game, p1, [])
    force(game, dice=[1, 2])
    run_system(game, "director.resolve")
    # hexes 1 and 2 of the start tile (depth 0), not of the alley (depth 1) the weakest stands on
    assert sorted(zombies_at(game)) == [(1, -2), (2, -1)]


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


# -- the D3 and its modifiers, as the rulesets run them ---------------------------------------------


@pytest.mark.parametrize("ruleset", ["director", "director-adaptive"])
def test_the_director_rolls_a_d3(make_game: Any, ruleset: str) -> None:
    """"The First Player rolls a D3 to determine the number of Director Cards to draw": a 3 draws
    three cards, a 4 is impossible on the die (both rulesets, their YAML's `dice`)."""
    game = make_game(ruleset)
    setup(game)
    system = "director.draw" if ruleset == "director" else "core.pacer"
    zombies_just_appeared(game)  # the adaptive director's growth adds nothing
    since = mark(game)
    force(game, dice=[3])
    run_system(game, system)
    assert len(state(game).hand) == 3
    assert events(game, "director_cards", since) == [{"roll": 3, "modifier": 0, "cards": 3}]
    assert [e["dice"] for e in events(game, "roll", since)] == ["1d3"]
    assert events(game, "lurkers_join", since) == []  # none lurked: nothing joins
    state(game).hand = []
    force(game, dice=[4])
    with pytest.raises(ScriptError):
        run_system(game, system)


def test_the_d3_default_of_the_system_itself(make_game: Any) -> None:
    """`director.draw` without parameters rolls a D3 too (a 3 draws three; a 4 is impossible)."""
    game = make_game("director")
    setup(game)
    force(game, dice=[3])
    run_defaults(game, "director.draw")
    assert len(state(game).hand) == 3
    force(game, dice=[4])
    with pytest.raises(ScriptError):
        run_defaults(game, "director.draw")


def test_car_alarm_adds_a_card_while_the_first_player_stands_on_it(make_game: Any) -> None:
    """"check the Tile Card that the First Player is currently standing on for any modifiers":
    CAR_ALARM (design: +1 director card, ongoing) counts only under the first player."""
    game = make_game("director")
    p0, p1 = setup(game)
    alarm = east_tile(game, "ALLEY", "CAR_ALARM")
    assert tile(game, alarm).effects == ["Car alarm"]  # the ongoing card stays beside its tile
    put(game, p0, 6, 0)
    put(game, p1, 0, 0)
    since = mark(game)
    force(game, dice=[1])
    run_system(game, "director.draw")
    assert len(state(game).hand) == 2
    assert events(game, "director_cards", since) == [{"roll": 1, "modifier": 1, "cards": 2}]
    state(game).hand = []
    put(game, p0, 0, -1)
    put(game, p1, 6, 0)  # the second player on the alarm: no modifier
    force(game, dice=[1])
    run_system(game, "director.draw")
    assert len(state(game).hand) == 1


def test_each_held_petrol_can_adds_one_card(make_game: Any) -> None:
    """"Also check for any special circumstances that may alter the number of cards drawn"
    (design: +1 card per survivor holding a must-hold item such as a petrol can; `noise` 1; a team
    of three adds 1 more card, `director.scaling`)."""
    game = make_game("director", players=3)
    p0, p1, _p2 = setup(game)
    equip(game, p0, "petrol", ["petrol"])
    equip(game, p1, "petrol", ["petrol"])
    since = mark(game)
    force(game, dice=[2])
    run_system(game, "director.draw")
    assert len(state(game).hand) == 5
    assert events(game, "director_cards", since) == [{"roll": 2, "modifier": 3, "cards": 5}]
    state(game).hand = []
    equip(game, p1, "pistol")  # carried but not in hand: no noise
    force(game, dice=[2])
    run_system(game, "director.draw")
    assert len(state(game).hand) == 4


def test_the_director_deck_is_fifteen_cards(make_game: Any) -> None:
    """Design (docs/director.md): Shamblers x4, Horde x3, Mob x2 and one card per special infected."""
    game = make_game("director")
    setup(game)
    draw_cards(game, 40)
    assert Counter(faces(game, state(game).hand)) == Counter({
        "SHAMBLERS": 4, "HORDE": 3, "MOB": 2, "SMOKER": 1, "HUNTER": 1, "BOOMER": 1, "JOCKEY": 1,
        "CHARGER": 1, "SPITTER": 1})


@pytest.mark.parametrize(("face", "horde"), [
    ("SHAMBLERS", 1), ("HORDE", 3), ("MOB", 2), ("SMOKER", 2), ("HUNTER", 2), ("BOOMER", 2), ("JOCKEY", 2),
    ("CHARGER", 2), ("SPITTER", 2)])
def test_each_cards_horde_number(make_game: Any, face: str, horde: int) -> None:
    """The card's Horde Number (design: Shamblers 1, Horde 3, Mob 2, specials 2): against no
    suppressing fire, that many new zombies appear."""
    game = make_game("director")
    p0, p1 = setup(game)
    put(game, p0, 0, 0)
    put(game, p1, -2, 0)
    director_hand(game, [face])
    since = mark(game)
    force(game, dice=[1, 2, 3, 4, 5, 6])
    run_system(game, "director.resolve")
    check = events(game, "suppression_check", since)
    assert check == [{"horde": horde, "suppressing_fire": 0, "margin": -horde, "new_zombies": horde}]
    assert len(zombies_at(game)) == horde


# -- suppressing fire -----------------------------------------------------------------------------


@pytest.mark.parametrize(("gun", "cards", "added"), [
    ("pistol", ["P1", "P2", "P3"], 1), ("shotgun", ["S1", "S2", "S3"], 2), ("rifle", ["R1", "R2", "R3"], 1)])
def test_the_gun_in_hand_sets_how_many_cards_go_to_suppressing_fire(make_game: Any, gun: str, cards: list[str],
                                                                     added: int) -> None:
    """"Each player ... adds a single Attack Card (or more if their currently equipped weapon
    allows)" (design: pistol 1, shotgun 2, rifle 1)."""
    game = make_game("director")
    p0, p1 = setup(game)
    if gun != "pistol":
        acquire_weapon(game, p0, gun)
        equip(game, p0, gun)
    give_hand(game, p0, cards, gun)
    give_hand(game, p1, [])
    director_hand(game, ["HORDE"])
    since = mark(game)
    run_system(game, "director.suppress", {"director.suppress": lambda d: d.options[1]})
    assert len(state(game).pile) == added
    assert events(game, "suppressing_fire", since) == [{"survivor": p0, "weapon": gun}] * added


def test_no_suppressing_fire_with_an_item_in_hand(make_game: Any) -> None:
    """"Players may choose to add no cards ... if they ... are using a weapon that does not allow
    Suppressing Fire" (design: a non-gun in hand adds none)."""
    game = make_game("director")
    p0, p1 = setup(game)
    equip(game, p0, "medkit", ["medkit"])
    give_hand(game, p0, ["P3"])
    give_hand(game, p1, [])
    director_hand(game, ["HORDE"])
    asked = run_system(game, "director.suppress")
    assert asked == [] and state(game).pile == []


def test_suppressing_fire_total_and_margin_are_logged(make_game: Any) -> None:
    """Resolve Suppressing Fire: the pile is turned over and added up; compared to the total
    horde value, the shortfall is the number of new zombies."""
    game = make_game("director")
    p0, p1 = setup(game)
    put(game, p0, 0, 0)
    put(game, p1, -2, 0)
    give_hand(game, p0, ["P3"])
    give_hand(game, p1, ["P2"])
    director_hand(game, ["HORDE", "SHAMBLERS", "MOB"])
    run_system(game, "director.suppress", {"director.suppress": lambda d: d.options[1]})
    since = mark(game)
    force(game, dice=[1])
    run_system(game, "director.resolve")
    assert events(game, "suppression_check", since) == [
        {"horde": 6, "suppressing_fire": 5, "margin": -1, "new_zombies": 1}]
    (placed,) = events(game, "zombie_placed", since)
    assert placed["at"] == [2, -1] and placed["active"] is True  # hex 1 of the (rear) start tile


# -- placing new zombies --------------------------------------------------------------------------


@pytest.mark.parametrize(("d6", "hex_"), [(1, (2, -1)), (2, (1, -2)), (3, (-1, -1)), (4, (-2, 1)), (5, (-1, 2)),
                                          (6, (1, 1))])
def test_the_d6_gives_the_numbered_hex(make_game: Any, d6: int, hex_: tuple[int, int]) -> None:
    """"roll a D6, and then place the zombie on the hex relating to that number" (design: hexes 1..6
    are the six mid-edge hexes counter-clockwise from [2, -1]). New director zombies are active."""
    game = make_game("director")
    p0, p1 = setup(game)
    put(game, p0, 0, 0)
    put(game, p1, -2, 0)
    since = mark(game)
    force(game, dice=[d6])
    drive(game, place_zombies(game, 1, "weakest"))
    (z,) = events(game, "zombie_placed", since)
    assert (z["at"], z["active"]) == ([hex_[0], hex_[1]], True)
    assert list(zombies_at(game)) == [hex_] and "inactive" not in tags(game, zombies_at(game)[hex_])


def test_with_no_free_neighbour_the_nearest_free_hexes_are_offered(make_game: Any) -> None:
    """Stacking (design where the text is silent): no adjacent hex free -> the first player picks
    among the nearest free hexes."""
    game = make_game("director")
    p0, p1 = setup(game)
    put(game, p0, -2, 0)
    put(game, p1, -2, 2)
    for h in ((1, 1), (2, 0), (1, 0), (0, 1), (0, 2)):
        zombie(game, *h)
    force(game, dice=[6])
    asked = drive(game, place_zombies(game, 1, "weakest"), {"director.stack": [0, 0]})
    assert [(d.side, d.options) for d in asked] == [("player:0", [[-1, 1], [-1, 2], [0, 0], [1, -1], [2, -1]])]
    assert (0, 0) in zombies_at(game)


def test_only_the_nearest_free_hexes_are_offered(make_game: Any) -> None:
    """Stacking fallback (design): of the free hexes, only those nearest the due hex; here (0, 0)
    alone, two away (the other hexes two away are taken), so nobody is asked."""
    game = make_game("director")
    p0, p1 = setup(game)
    put(game, p0, -2, 0)
    put(game, p1, -2, 2)
    for h in ((1, 1), (2, 0), (1, 0), (0, 1), (0, 2), (-1, 1), (-1, 2), (1, -1), (2, -1)):
        zombie(game, *h)
    force(game, dice=[6])
    asked = drive(game, place_zombies(game, 1, "weakest"))
    assert asked == [] and (0, 0) in zombies_at(game)


def test_a_zombie_with_no_free_hex_left_is_not_placed(make_game: Any) -> None:
    """Design: a zombie that finds no free hex on the map is not placed (and says so)."""
    game = make_game("director")
    setup(game)
    _s, t = start_tile(game)
    for q, r in t.hexes:
        if (q, r) not in ((-2, 0), (-2, 1)):
            zombie(game, q, r)
    since = mark(game)
    force(game, dice=[3])
    drive(game, place_zombies(game, 1, "weakest"))
    assert events(game, "zombie_not_placed", since) == [{"reason": "no free hex"}]
    assert events(game, "zombie_placed", since) == [] and len(zombies_at(game)) == 17


# -- special conditions, every card of the deck -----------------------------------------------------


def _fire(total: int) -> list[str]:
    return {0: [], 1: ["P1"], 2: ["P2"], 3: ["P3"], 4: ["P3", "P1"], 5: ["P3", "P2"], 6: ["P3", "P3"]}[total]


def _resolve_at_margin(game: Any, face: str, margin: int) -> tuple[int, list[str]]:
    """Resolve a hand of `face` (+ HORDE cards to raise the horde) against a pile that makes
    suppressing fire minus horde equal `margin`; returns the card and the logged checks."""
    p0, p1 = setup(game)
    put(game, p0, 0, 0)
    put(game, p1, -2, 0)
    own = {"SHAMBLERS": 1, "HORDE": 3}.get(face, 2)  # the horde numbers tested above
    extra = max(0, -(margin + own) + 2) // 3
    hand = director_hand(game, [face] + ["HORDE"] * extra)
    fire = margin + own + 3 * extra
    pile = give_hand(game, p0, _fire(fire))
    game.world.get(p0, AttackHand).cards["pistol"] = []
    state(game).pile = [[c, p0] for c in pile]
    run_system(game, "director.resolve")
    (check,) = events(game, "suppression_check")
    assert check["margin"] == margin
    return hand[0], state(game).specials


# (card, margin, what happens): each card's design conditions at and around their thresholds;
# "failed by more than N" fires below -N, "not passed by more than M" at M and below.
CONDITIONS = [
    ("SMOKER", -4, "smoker"), ("SMOKER", -3, "lurk"), ("SMOKER", 3, "lurk"), ("SMOKER", 4, None),
    ("HUNTER", -5, "hunter"), ("HUNTER", -4, "lurk"), ("HUNTER", 1, "lurk"), ("HUNTER", 2, None),
    ("BOOMER", -3, "boomer"), ("BOOMER", -2, None),
    ("JOCKEY", -4, "jockey"), ("JOCKEY", -3, "lurk"), ("JOCKEY", 2, "lurk"), ("JOCKEY", 3, None),
    ("CHARGER", -5, "charger"), ("CHARGER", -4, None),
    ("SPITTER", -4, "spitter"), ("SPITTER", -3, "lurk"), ("SPITTER", 0, "lurk"), ("SPITTER", 1, None),
    ("SHAMBLERS", -5, None), ("HORDE", -6, None), ("MOB", -5, None),
]


@pytest.mark.parametrize(("face", "margin", "effect"), CONDITIONS)
def test_each_cards_special_conditions(make_game: Any, face: str, margin: int, effect: str | None) -> None:
    """Check Special Conditions: "Some cards will be triggered if a Suppressing Fire Check is failed
    by a certain amount ... Some other cards have additional rules if the Suppression Check is not
    beaten by a certain amount. Typically these cards will Lurk" (design: each card's thresholds)."""
    game = make_game("director")
    card, specials = _resolve_at_margin(game, face, margin)
    st = state(game)
    if effect == "lurk":
        assert st.lurking == [card] and specials == []
        assert events(game, "lurk") == [{"card": face}]
    else:
        assert st.lurking == [] and card in game.deck(DIRECTOR_DECK)[1].discard
        assert specials == ([effect] if effect else [])
        assert events(game, "special_attack") == ([{"card": face, "special": effect}] if effect else [])
    assert st.hand == []


def test_a_card_may_place_its_zombies_on_the_first_players_tile(make_game: Any, tmp_path: Path) -> None:
    """"unless otherwise specified on the Director Card" (design: a card's `placement: first`
    puts them on the first player's tile; a replaced deck with the Mob so placed)."""
    game = make_game(str(scenario_with(tmp_path, "director.cards", "director_cards.yaml", "placement: rear",
                                       "placement: first")))
    p0, p1 = setup(game)
    _second_tile(game)
    put(game, p0, 6, 0)
    put(game, p1, 0, 0)
    hp(game, p1, 1)  # the weakest stands on the street; the first player on the alley
    director_hand(game, ["MOB"])
    force(game, dice=[1, 2])
    run_system(game, "director.resolve")
    assert sorted(zombies_at(game)) == [(6, -2), (7, -1)]  # hexes 2 and 1 of the alley
