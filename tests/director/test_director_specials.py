"""Special infected, one system each, dice forced (design in prefabs/director/specials.yaml):
Smoker 1 damage for 2 rounds, pinned, dragged; Hunter 2 damage, pinned in place; Charger drags
and knocks down the survivors in the line; Boomer slimes within 1 and brings a bile zombie;
Jockey 1 damage, steers 2 hexes, no firing; Spitter acid within 1 for 2 rounds."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from ecs_zombie import hexgrid
from ecs_zombie.systems.director.board import kill_zombie
from ecs_zombie.systems.director.components import AreaHazard, HeldBy, StatusTimers
from ecs_zombie.systems.director.director import allowance
from ecs_zombie.systems.director.players import action_options
from tests.director.director_setup import (
    at,
    director_hand,
    events,
    force,
    give_hand,
    held,
    hp,
    mark,
    put,
    run_system,
    setup,
    state,
    tags,
    timers,
    zombie,
    zombies_at,
)


def _two(game: Any, weak_at: tuple[int, int], other_at: tuple[int, int], weak_hp: int = 4) -> tuple[int, int]:
    p0, p1 = setup(game)
    put(game, p0, *weak_at)
    put(game, p1, *other_at)
    hp(game, p0, weak_hp)
    return p0, p1


def test_smoker_drags_to_the_tile_edge_pins_and_hurts_each_round(make_game: Any) -> None:
    """Smoker: "move player to tile edge in random direction. Pinned with token and damage per turn"."""
    game = make_game("director")
    p0, _p1 = _two(game, (0, 0), (-2, 1))
    state(game).specials = ["smoker"]
    force(game, dice=[1])  # direction 0: east
    run_system(game, "director.smoker")
    assert at(game, p0) == (2, 0) and "pinned" in tags(game, p0) and hp(game, p0) == 3
    assert game.world.get(p0, HeldBy).by == "smoker" and state(game).specials == []
    run_system(game, "director.smoker")
    assert hp(game, p0) == 2
    run_system(game, "director.smoker")  # its two rounds are up: let go, no damage, still pinned
    assert hp(game, p0) == 2 and game.world.try_get(p0, HeldBy) is None and "pinned" in tags(game, p0)
    run_system(game, "director.unpin")
    assert "pinned" not in tags(game, p0)


def test_hunter_pins_in_place_with_heavier_damage(make_game: Any) -> None:
    """Hunter: "player Pinned with token in current location and damage+ per turn"."""
    game = make_game("director")
    p0, _p1 = _two(game, (0, 0), (-2, 1), weak_hp=5)
    state(game).specials = ["hunter"]
    run_system(game, "director.hunter")
    assert at(game, p0) == (0, 0) and hp(game, p0) == 3 and "pinned" in tags(game, p0)
    run_system(game, "director.hunter")
    assert hp(game, p0) == 1
    run_system(game, "director.unpin")
    assert "pinned" in tags(game, p0)  # held: no getting up while the Hunter is on you


def test_charger_pins_the_players_in_its_line(make_game: Any) -> None:
    """Charger: dragged to the tile edge, pinned; "Intervening players in line are Pinned"."""
    game = make_game("director")
    p0, p1 = _two(game, (-2, 0), (0, 0), weak_hp=3)
    state(game).specials = ["charger"]
    force(game, dice=[1])
    run_system(game, "director.charger")
    assert at(game, p0) == (2, 0) and at(game, p1) == (0, 0)
    assert "pinned" in tags(game, p0) and "pinned" in tags(game, p1)
    assert hp(game, p0) == 2 and hp(game, p1) == 8


def test_a_player_knocked_down_in_the_chargers_line_adds_no_suppressing_fire(make_game: Any) -> None:
    """Add Suppressing Fire: "A player who is Pinned by a Special Attack may add no cards" - that
    includes the "Intervening players in line" a Charger pins, while they stay down (a zombie
    next to them keeps them pinned at the un-pin check), not one card as if pinned otherwise."""
    game = make_game("director")
    _p0, p1 = _two(game, (-2, 0), (0, 0), weak_hp=3)
    state(game).specials = ["charger"]
    force(game, dice=[1])
    run_system(game, "director.charger")
    zombie(game, 0, 1)
    run_system(game, "director.unpin")
    assert "pinned" in tags(game, p1)
    director_hand(game, ["HORDE"])
    give_hand(game, p1, ["P3"])
    asked = run_system(game, "director.suppress")
    assert "player:1" not in [d.side for d in asked] and state(game).pile == []
    for z in zombies_at(game).values():
        game.world.delete(z)
    run_system(game, "director.unpin")
    assert "pinned" not in tags(game, p1) and "knocked_down" not in tags(game, p1)


def test_boomer_slimes_nearby_and_its_bile_zombie_slimes_on_death(make_game: Any) -> None:
    """Boomer: "player+nearby players slimed ..., spawn single new zombie with token (causes
    adjacent to be slimed on death)"; slime lasts 2 rounds."""
    game = make_game("director", players=3)
    p0, p1, p2 = setup(game)
    put(game, p0, 0, 0)
    put(game, p1, 1, 0)
    put(game, p2, -2, 2)
    hp(game, p0, 2)
    state(game).specials = ["boomer"]
    run_system(game, "director.boomer")
    assert "slimed" in tags(game, p0) and "slimed" in tags(game, p1) and "slimed" not in tags(game, p2)
    (bile_hex, bile), = zombies_at(game).items()
    assert bile_hex == (1, -1) and "bile" in tags(game, bile)
    put(game, p2, 2, -1)
    plain = zombie(game, 2, -2)  # an ordinary zombie beside p2: killing it slimes nobody
    kill_zombie(game, plain, "test")
    assert "slimed" not in tags(game, p2)
    kill_zombie(game, bile, "test")
    assert "slimed" in tags(game, p2)
    run_system(game, "director.boomer")
    assert "slimed" in tags(game, p0)
    run_system(game, "director.boomer")
    assert "slimed" not in tags(game, p0) and game.world.get(p0, StatusTimers).left == {}


def test_jockey_steers_in_the_player_turn_and_stops_firing(make_game: Any) -> None:
    """Jockey: "move player in random directions in player turn. not pinned but cannot fire.
    damage per turn"."""
    game = make_game("director")
    p0, _p1 = _two(game, (0, 0), (-2, 1))
    give_hand(game, p0, ["P3"])
    zombie(game, 0, -2)
    state(game).specials = ["jockey"]
    force(game, dice=[1, 1])
    run_system(game, "director.jockey")
    assert at(game, p0) == (2, 0) and "pinned" not in tags(game, p0) and hp(game, p0) == 3
    assert allowance(game, p0) == (None, 0)
    opts = action_options(game, p0)
    assert "shoot" not in opts and "reload" not in opts


def test_spitter_acid_hurts_everyone_in_it_for_its_rounds(make_game: Any) -> None:
    """Spitter: "Area damage for x turns" (design: radius 1, 1 damage, 2 rounds)."""
    game = make_game("director")
    p0, p1 = _two(game, (0, 0), (1, 0), weak_hp=4)
    state(game).specials = ["spitter"]
    run_system(game, "director.spitter")
    assert (hp(game, p0), hp(game, p1)) == (3, 7)
    put(game, p1, -2, 2)
    run_system(game, "director.spitter")
    assert (hp(game, p0), hp(game, p1)) == (2, 7)
    assert game.world.query1(AreaHazard) == ()
    run_system(game, "director.spitter")
    assert hp(game, p0) == 2


def test_smokers_events_and_the_weakest_free_victim(make_game: Any) -> None:
    """Smoker: dragged (a D6 gives the direction: 4 is west), grabbed, pinned, hurt; a second Smoker
    the same round takes the weakest survivor not already held."""
    game = make_game("director")
    p0, p1 = _two(game, (0, 0), (1, 1), weak_hp=4)
    hp(game, p1, 6)
    state(game).specials = ["smoker", "smoker"]
    force(game, dice=[4, 1])
    run_system(game, "director.smoker")
    assert (at(game, p0) == (-2, 0) and at(game, p1) == (2, 1)) or at(game, p1) == (1, 1)
    assert events(game, "special_grab") == [{"special": "smoker", "survivor": p0},
                                            {"special": "smoker", "survivor": p1}]
    assert events(game, "dragged")[0] == {"survivor": p0, "to": [-2, 0], "direction": 3}
    assert events(game, "pinned") == [{"survivor": p0, "why": "smoker"}, {"survivor": p1, "why": "smoker"}]
    assert events(game, "damage") == [{"survivor": p0, "amount": 1, "hp": 3, "why": "smoker"},
                                      {"survivor": p1, "amount": 1, "hp": 5, "why": "smoker"}]



def test_a_special_picks_a_victim_still_standing(make_game: Any) -> None:
    """Special infected choose living victims, the weakest above 0 hit points: a survivor at 1 is
    one (and the weakest); one at 0 is down and passed over."""
    from ecs_zombie.systems.director.specials import victim

    game = make_game("director")
    p0, p1 = _two(game, (0, 0), (-2, 2))
    hp(game, p0, 1)
    hp(game, p1, 6)
    assert victim(game) == p0
    hp(game, p0, 0)
    assert victim(game) == p1

def test_a_special_attack_with_no_free_survivor_is_lost(make_game: Any) -> None:
    """Design: a victim is a survivor no special infected already holds; with none free, the
    attack strikes nobody."""
    game = make_game("director")
    p0, p1 = _two(game, (0, 0), (-2, 2))
    game.world.add(p0, HeldBy("jockey", 2, 1))
    game.world.add(p1, HeldBy("jockey", 2, 1))
    state(game).specials = ["hunter"]
    run_system(game, "director.hunter")
    assert events(game, "special_grab") == [] and state(game).specials == []


@pytest.mark.parametrize(("name", "damage"), [("smoker", 1), ("hunter", 2), ("charger", 1), ("jockey", 1)])
def test_holds_last_two_rounds_with_damage_each(make_game: Any, name: str, damage: int) -> None:
    """"damage per turn" while held (design: Smoker 1, Hunter 2, Charger 1, Jockey 1 a round, for 2
    rounds: at the strike and the round after; the third round lets go)."""
    game = make_game("director")
    p0, _p1 = _two(game, (0, 0), (-2, 2), weak_hp=7)
    state(game).specials = [name]
    force(game, dice=[3, 3, 3, 3, 3, 3])  # drag/steer directions: north-west, off the tile soon
    run_system(game, f"director.{name}")
    assert hp(game, p0) == 7 - damage and held(game, p0) is not None
    run_system(game, f"director.{name}")
    assert hp(game, p0) == 7 - 2 * damage and held(game, p0) is not None
    since = mark(game)
    run_system(game, f"director.{name}")
    assert hp(game, p0) == 7 - 2 * damage and held(game, p0) is None
    assert events(game, "special_release", since) == [{"special": name, "survivor": p0}]


def test_the_boomer_deals_no_damage_and_its_slime_is_logged(make_game: Any) -> None:
    """Boomer: slime, not damage (design: damage 0); slimed and slime_gone are logged."""
    game = make_game("director")
    p0, p1 = _two(game, (0, 0), (-2, 2), weak_hp=5)
    state(game).specials = ["boomer"]
    since = mark(game)
    run_system(game, "director.boomer")
    assert hp(game, p0) == 5 and events(game, "damage", since) == []
    assert events(game, "special_grab", since) == [{"special": "boomer", "survivor": p0}]
    assert events(game, "slimed", since) == [{"survivor": p0, "why": "boomer"}]
    (placed,) = events(game, "zombie_placed", since)
    assert placed["at"] == [1, 0] and placed["active"] is True  # the first free neighbour, east
    assert timers(game, p0) == {"slimed": 2}
    run_system(game, "director.boomer")
    since = mark(game)
    run_system(game, "director.boomer")
    assert events(game, "slime_gone", since) == [{"survivor": p0}] and "slimed" not in tags(game, p1)


def test_a_boomer_given_damage_in_its_table_deals_it_as_it_strikes(make_game: Any) -> None:
    """`director.specials`: "`damage` is dealt when it strikes" for every special: a hybrid's table
    giving the Boomer damage 2 hurts its victim by 2 (once, as it strikes), and no one else."""
    game = make_game("director")
    p0, p1 = _two(game, (0, 0), (1, 0), weak_hp=5)
    other = hp(game, p1)
    specials = dict(game.tables["director.specials"])  # the loaded table is shared: change a copy
    specials["boomer"] = dataclasses.replace(specials["boomer"], damage=2)
    game.tables = {**game.tables, "director.specials": specials}
    state(game).specials = ["boomer"]
    since = mark(game)
    run_system(game, "director.boomer")
    assert hp(game, p0) == 3 and hp(game, p1) == other and "slimed" in tags(game, p1)  # slimed, unhurt
    assert [(d["survivor"], d["amount"], d["why"]) for d in events(game, "damage", since)] == [(p0, 2, "boomer")]
    assert events(game, "slimed", since)[0] == {"survivor": p0, "why": "boomer"}


def test_the_jockey_steers_two_steps_and_a_blocked_step_is_lost(make_game: Any) -> None:
    """Jockey: "move player in random directions in player turn" (design: 2 steps, a D6 each; a
    step onto a zombie, a player or off the map is lost)."""
    game = make_game("director")
    p0, p1 = _two(game, (0, 0), (1, 0))
    state(game).specials = ["jockey"]
    since = mark(game)
    force(game, dice=[1, 3])  # east (p1 there: lost), then north-west
    run_system(game, "director.jockey")
    assert at(game, p0) == (0, -1)
    assert events(game, "steered", since) == [{"survivor": p0, "to": [0, -1]}]
    assert at(game, p1) == (1, 0)


def test_the_spitter_logs_where_its_acid_lands(make_game: Any) -> None:
    """Spitter: "Area damage for x turns" centred on the victim (logged with the hex)."""
    game = make_game("director")
    p0, _p1 = _two(game, (0, 0), (-2, 2))
    state(game).specials = ["spitter"]
    since = mark(game)
    run_system(game, "director.spitter")
    assert events(game, "special_grab", since) == [{"special": "spitter", "survivor": p0, "at": [0, 0]}]
    (acid,) = game.world.query1(AreaHazard)
    assert sorted(map(tuple, acid[1].hexes)) == sorted(hexgrid.within((0, 0), 1))


def test_the_chargers_line_is_logged(make_game: Any) -> None:
    """Charger: the victim carried along the line (D6 1 = east) past the players in it, who are
    pinned ("charger line")."""
    game = make_game("director")
    p0, p1 = _two(game, (-2, 0), (0, 0), weak_hp=3)
    state(game).specials = ["charger"]
    since = mark(game)
    force(game, dice=[1])
    run_system(game, "director.charger")
    assert events(game, "dragged", since) == [{"survivor": p0, "to": [2, 0], "direction": 0}]
    assert events(game, "pinned", since) == [{"survivor": p1, "why": "charger line"},
                                             {"survivor": p0, "why": "charger"}]


def test_a_drag_stops_at_a_zombie_or_a_player(make_game: Any) -> None:
    """"move player to tile edge" (design: hex by hex while the next hex is on the same tile and
    free): a Smoker's drag stops before a zombie, and before another survivor (only a Charger
    ploughs through the line)."""
    game = make_game("director")
    p0, p1 = _two(game, (-2, 0), (1, 0))
    state(game).specials = ["smoker"]
    force(game, dice=[1])
    run_system(game, "director.smoker")
    assert at(game, p0) == (0, 0) and at(game, p1) == (1, 0) and "pinned" not in tags(game, p1)
    game2 = make_game("director")
    q0, _q1 = _two(game2, (-2, 0), (-2, 2))
    zombie(game2, 1, 0)
    state(game2).specials = ["smoker"]
    force(game2, dice=[1])
    run_system(game2, "director.smoker")
    assert at(game2, q0) == (0, 0)


def test_a_boomer_with_no_free_hex_beside_its_victim_brings_no_bile_zombie(make_game: Any) -> None:
    """Design: the bile zombie appears on the first free hex next to the victim; none free, none."""
    game = make_game("director")
    p0, _p1 = _two(game, (0, 0), (-2, 2))
    for h in hexgrid.neighbours((0, 0)):
        zombie(game, *h)
    state(game).specials = ["boomer"]
    since = mark(game)
    run_system(game, "director.boomer")
    assert events(game, "zombie_placed", since) == [] and "slimed" in tags(game, p0)


def test_slime_again_keeps_the_longer_time(make_game: Any) -> None:
    """Slime lasts its 2 rounds from the latest sliming; a second sliming never shortens it."""
    game = make_game("director")
    p0, _p1 = _two(game, (0, 0), (-2, 2))
    state(game).specials = ["boomer"]
    run_system(game, "director.boomer")
    assert timers(game, p0) == {"slimed": 2}
    state(game).specials = ["boomer"]
    run_system(game, "director.boomer")  # a round wears off (1 left), then slimed again: 2
    assert timers(game, p0) == {"slimed": 2}
    timers(game, p0)["slimed"] = 5
    state(game).specials = ["boomer"]
    run_system(game, "director.boomer")
    assert timers(game, p0) == {"slimed": 4}
