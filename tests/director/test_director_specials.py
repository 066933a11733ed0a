"""Special infected, one system each, dice forced (design in prefabs/director/specials.yaml):
Smoker 1 damage for 2 rounds, pinned, dragged; Hunter 2 damage, pinned in place; Charger drags
and knocks down the survivors in the line; Boomer slimes within 1 and brings a bile zombie;
Jockey 1 damage, steers 2 hexes, no firing; Spitter acid within 1 for 2 rounds."""

from __future__ import annotations

from typing import Any

from ecs_zombie.systems.director.board import kill_zombie
from ecs_zombie.systems.director.components import AreaHazard, HeldBy, StatusTimers
from ecs_zombie.systems.director.director import allowance
from ecs_zombie.systems.director.players import action_options
from tests.director.director_setup import (
    at,
    director_hand,
    force,
    give_hand,
    hp,
    put,
    run_system,
    setup,
    state,
    tags,
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
