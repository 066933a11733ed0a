"""Night of the Shambling Dead — every event kind the rules log, with all its fields, where the rule
produces it; the reasons given with each die roll and card draw; and the game's metrics.

Replays and debugging read these records: a field renamed or an event dropped must fail here.
"""

from __future__ import annotations

from ecs_zombie import Game
from tests.shambling.shambling_setup import (
    CHARGE,
    FRONT,
    HERO,
    STAND,
    SUPPORT,
    SURVIVOR,
    SURVIVORS,
    ZOMBIE,
    ZOMBIES,
    at_turn,
    board,
    counter_charged,
    events,
    force,
    narrate,
    rolls,
    run_system,
    survivors,
    tags,
    zombies,
)


def test_battle_events(game: Game) -> None:
    """stance, contact, combat_round, strike, wound and removed, in the order the battle makes them:
    one survivor (wounded) Stands and Receives one zombie; the zombie's 6 kills him."""
    ids = board(game, front=[(SURVIVOR, 1)], support=[(SURVIVOR, 0)], zombies_front=1)
    (s,), (z,) = ids[FRONT], ids["zombies_front"]
    run_system(game, "shambling.engage", {"shambling.stance": STAND})
    force(game, dice=[6, 1, 1])
    run_system(game, "shambling.combat")
    start = next(i for i, e in enumerate(game.events) if e[1] == "stance")
    kinds = [e[1] for e in game.events[start:] if e[1] not in ("roll", "decision")]
    assert kinds == ["stance", "contact", "combat_round", "strike", "wound", "removed", "zombies_advance",
                     "contact"]
    assert events(game, "stance") == [{"board": 0, "zone": FRONT, "stance": STAND}]
    assert events(game, "contact")[0] == {"a": min(s, z), "b": max(s, z)}
    assert events(game, "combat_round") == [{"board": 0, "round": 1}]
    assert events(game, "strike") == [
        {"board": 0, "zone": FRONT, "side": ZOMBIES, "strength": 1, "roll": 6, "wounds": 1}]
    assert events(game, "wound") == [{"figure": s, "taken": 2}]
    assert events(game, "removed") == [{"figure": s, "piece": SURVIVOR, "zone": FRONT, "why": "killed"}]
    assert events(game, "zombies_advance") == [{"board": 0, "into": SUPPORT, "zombies": 1}]
    assert events(game, "contact")[1] == {"a": min(ids[SUPPORT][0], z), "b": max(ids[SUPPORT][0], z)}


def test_a_destroyed_zombie_is_logged_and_counted(game: Game) -> None:
    """removed (why killed) for a zombie, and the board's zombies_destroyed count."""
    ids = board(game, front=[(HERO, 0)], zombies_front=[1])
    run_system(game, "shambling.engage", {"shambling.stance": STAND})
    force(game, dice=[1, 6])  # hero 3: CRT[6][3] = 2 wounds, the second one lost
    run_system(game, "shambling.combat")
    z = ids["zombies_front"][0]
    assert events(game, "removed") == [{"figure": z, "piece": ZOMBIE, "zone": FRONT, "why": "killed"}]
    assert game.metrics()["zombies_destroyed"] == 1


def test_counter_charge_and_pursuit_events(game: Game) -> None:
    """join_roll and pursuit, with the rolls' reasons."""
    ids = board(game, front=[(HERO, 0), (SURVIVOR, 0)], zombies_front=1)
    hero, other = ids[FRONT]
    force(game, dice=[1, 1, 1, 6, 1, 1, 1, 1])
    run_system(game, "shambling.engage", {"shambling.stance": CHARGE,
                                          "shambling.charger": lambda d: hero if hero in d.options else "done"})
    run_system(game, "shambling.pursuit")
    assert "charging" in tags(game, other)
    assert events(game, "join_roll") == [{"board": 0, "roll": 3, "joining": 1}]
    assert events(game, "pursuit") == [{"board": 0, "roll": 8, "pursuing": 0}]
    assert [why for why, _v in rolls(game)] == ["counter-charge join roll", "counter-charge joiners", "pursuit roll"]


def test_pursuers_roll_and_removed_event(make_game) -> None:
    g = make_game("shambling", 1)
    ids = board(g, front=[(SURVIVOR, 0)])
    counter_charged(g, ids[FRONT])
    force(g, dice=[1, 1, 4])
    run_system(g, "shambling.pursuit")
    assert [why for why, _v in rolls(g)] == ["pursuit roll", "pursuers"]
    assert events(g, "pursuit") == [{"board": 0, "roll": 2, "pursuing": 1}]
    assert events(g, "removed") == [{"figure": ids[FRONT][0], "piece": SURVIVOR, "zone": FRONT, "why": "pursued"}]


def test_narration_events_and_reasons(game: Game) -> None:
    """narration (the turn's title), gauntlet, assault, dissension, reinforcements, placed, and the
    reasons of their rolls and draws."""
    board(game, front=[(HERO, 0)] + [(SURVIVOR, 0)] * 3)
    force(game, dice=[1])
    narrate(game, 1)
    force(game, dice=[3], cards=["2S"])
    narrate(game, 3, {"shambling.flee": lambda d: d.options[-1]})
    force(game, cards=["2C", "AH"])
    narrate(game, 4, {"shambling.place": SUPPORT})
    assert events(game, "narration") == [{"title": "A Gauntlet of Zombies"}, {"title": "Dissention in the Ranks"},
                                         {"title": "Saviours"}]
    assert events(game, "gauntlet") == [{"board": 0, "roll": 1, "strength": 10, "wounds": 0}]
    assert events(game, "dissension") == [{"board": 0, "fleeing": 1}]
    assert events(game, "assault") == [{"board": 0, "zone": FRONT, "zombies": 2}]
    assert events(game, "reinforcements") == [{"board": 0, "survivors": 1, "hero": False}]
    newcomer = survivors(game)[-1]
    assert events(game, "placed") == [{"figure": newcomer, "zone": SUPPORT}]
    assert [why for why, _v in rolls(game)] == ["gauntlet (board 0)", "dissension (board 0)"]
    assert [e["why"] for e in events(game, "draw")] == [
        "dissension (board 0)", "assault (board 0)", "replacement (board 0)"]


def test_enemy_within_and_national_guard_events(game: Game) -> None:
    """turned and removed (why turned, then shot), and the draws' reasons."""
    ids = board(game, front=[(HERO, 0), (SURVIVOR, 1)])
    hero, hurt = ids[FRONT]
    force(game, cards=["3S", "4C"])
    narrate(game, 10)
    (z,) = zombies(game)
    game.world.delete(z)
    run_system(game, "core.aftermath", track="shambling.narration")
    assert events(game, "turned") == [{"figure": hurt, "zombie": z, "zone": FRONT}]
    assert events(game, "removed") == [{"figure": hurt, "piece": SURVIVOR, "zone": FRONT, "why": "turned"},
                                       {"figure": hero, "piece": HERO, "zone": FRONT, "why": "shot"}]
    assert [e["why"] for e in events(game, "draw")] == [f"enemy within (figure {hurt})",
                                                       f"national guard (figure {hero})"]


def test_reordered_and_board_fallen_events(make_game) -> None:
    g = make_game("shambling", 1, players=2)
    ids = board(g, front=[(HERO, 0), (SURVIVOR, 1)])
    board(g, seat=1)
    run_system(at_turn(g, 2), "shambling.reorder", {"shambling.reorder": lambda d: d.options[-1]
                                                    if len(d.options) > 2 else "done"}, track="shambling.narration")
    assert events(g, "reordered") == [{"figure": ids[FRONT][1], "zone": SUPPORT}]
    run_system(g, "shambling.turn_end", track="shambling.narration")
    assert events(g, "board_fallen") == [{"board": 1}] and not g.over


def test_metrics_count_each_way_of_leaving_the_board(make_game) -> None:
    """The game's numbers: figures left, zombies destroyed and on the boards, boards standing, and
    survivors killed, fled, pursued, turned and shot, summed over the boards."""
    g = make_game("shambling", 1, players=2)
    run_system(at_turn(g, 1), "shambling.deploy")
    assert g.metrics() == {"survivors_left": 20, "heroes_left": 2, "zombies_destroyed": 0, "zombies_on_boards": 0,
                           "boards_standing": 2, "survivors_killed": 0, "survivors_fled": 0,
                           "survivors_pursued": 0, "survivors_turned": 0, "survivors_shot": 0}
    force(g, dice=[4, 4], cards=["3S", "5C"])  # turn 3: 4 // 2 = 2 flee on each board
    narrate(g, 3, {"shambling.flee": lambda d: d.options[-1]})
    force(g, cards=["2D", "3D"])
    narrate(g, 2)
    board(g, seat=1)
    run_system(g, "shambling.turn_end", track="shambling.narration")
    m = g.metrics()
    assert (m["survivors_left"], m["heroes_left"], m["survivors_fled"]) == (8, 1, 4)
    assert (m["zombies_on_boards"], m["boards_standing"]) == (2, 1)


def test_the_end_of_the_game_is_logged(game: Game) -> None:
    board(game, front=[(HERO, 0)])
    run_system(at_turn(game, 10), "shambling.turn_end", track="shambling.narration")
    assert events(game, "game_over") == [{"outcome": SURVIVORS}]


def test_every_decision_kind_is_documented_with_who_answers(make_game) -> None:
    """Each decision the rules ask is documented (`ecs-zombie decisions`), with the side that answers:
    the player of the board, or the narrator for the zombies."""
    from ecs_zombie.decisions import KINDS

    make_game("shambling")
    players = ("place", "stance", "charger", "charge_target", "join", "pursue", "flee", "new_hero", "reorder")
    expected = {f"shambling.{k}": "player:N" for k in players}
    expected |= {"shambling.assign": "narrator", "shambling.wound": "player:N | narrator",
                 "shambling.re_engage": "player:N | narrator"}
    assert {k: v.side for k, v in KINDS.items() if k.startswith("shambling.")} == expected
    assert all(KINDS[k].options and KINDS[k].doc for k in expected)
