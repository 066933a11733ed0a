"""Initiative and the order of play (SZA "Initiative"), and the pre-generated characters as printed."""

from __future__ import annotations

from typing import Any

from sza_helpers import ctx, dice, laid_out, who, zombie

from ecs_zombie.systems.sza.components import Attributes, Character
from ecs_zombie.systems.sza.state import stage_of
from ecs_zombie.systems.sza.turn import human_order, initiative

PRINTED = {  # Stamina, Strength, Accuracy, Smarts, Initiative, Morale, ability
    "Bruce Long": (85, 75, 60, 50, 5, 5, "bright_yellow_fire_suit"),
    "Mary Jacobs": (75, 55, 75, 75, 4, 2, "intravenous_injection"),
    "Dexter": (70, 65, 85, 65, 6, 1, "one_shot_one_kill"),
    "Costa Wang": (55, 55, 60, 85, 7, 2, "motivational_speech"),
    "SGT Connor": (70, 85, 75, 55, 1, 3, "combat_awareness"),
    "CPL Teoh": (65, 75, 70, 65, 2, 2, "k9_companion"),
}


def test_pregenerated_characters_keep_their_printed_values(make_game: Any) -> None:
    """Their printed Initiative and Morale do not follow Accuracy / 10 and Smarts / 10: kept as printed."""
    from ecs_zombie.components import Health

    game = make_game("sza")
    seen = {}
    for ent, ch in game.world.query1(Character):
        a = game.world.get(ent, Attributes)
        seen[ch.name] = (game.world.get(ent, Health).maximum, a.strength, a.accuracy, a.smarts, a.initiative,
                         a.morale, ch.abilities[0])
    assert seen == PRINTED
    assert any(v[4] != v[2] // 10 for v in PRINTED.values())


def test_side_initiative_and_tie_break(make_game: Any) -> None:
    game = laid_out(make_game)
    zombie(game, 12, 6)
    _e, stage = stage_of(game)
    dice(game, 3, 2)  # humans 3 + Dexter's 6 (Accuracy 85, the highest) = 9; zombies 2 + 7 = 9
    initiative(game)
    assert stage.order == ["humans", "zombies"]  # tie: the side with the single highest Accuracy
    dice(game, 1, 9)
    initiative(game)
    assert stage.order == ["zombies", "humans"]
    dice(game, 10, 1)
    initiative(game)
    assert stage.order == ["humans", "zombies"]


def test_humans_act_by_initiative_then_accuracy(make_game: Any) -> None:
    game = laid_out(make_game)
    board, stage = ctx(game)
    order = [game.world.get(e, Character).name for e in human_order(game, board, stage)]
    assert order == ["Costa Wang", "Dexter", "Bruce Long", "Mary Jacobs", "CPL Teoh", "SGT Connor"]
    game.world.get(who(game, "Mary Jacobs"), Attributes).initiative = 5  # ties Bruce; Accuracy 75 beats 60
    order = [game.world.get(e, Character).name for e in human_order(game, board, stage)]
    assert order[2:4] == ["Mary Jacobs", "Bruce Long"]


def test_no_zombies_no_initiative_roll(make_game: Any) -> None:
    game = laid_out(make_game)
    dice(game)
    initiative(game)
    assert stage_of(game)[1].order == ["humans"]
    assert not [d for _t, k, d in game.events if k == "roll"]


def test_interleave_alternates_pieces_once_engaged(make_game: Any) -> None:
    from conftest import drive
    from sza_helpers import clear_others, put

    from ecs_zombie.systems.sza.turn import turn

    game = laid_out(make_game, params={"interleave": True})
    mary, dexter = who(game, "Mary Jacobs"), who(game, "Dexter")
    clear_others(game, [mary, dexter])
    put(game, mary, 8, 2)
    put(game, dexter, 11, 2)
    z1 = zombie(game, 8, 2, stamina=500)
    z2 = zombie(game, 11, 2, stamina=500)
    stage_of(game)[1].order = ["humans", "zombies"]
    drive(game, turn(game))
    actors: list[int] = []
    for _t, k, d in game.events:
        who_ = d.get("piece") if k == "action" else d.get("attacker") if k == "attack" else None
        if who_ in (z1, z2) or (k == "action" and who_ is not None):
            if who_ not in actors:
                actors.append(who_)
    names = {e: n for n in PRINTED for e in [who(game, n)]}
    names.update({z1: "z1", z2: "z2"})
    # Costa (Initiative 7), a zombie, Dexter (6), the other zombie, then the rest of the humans
    assert [names[a] for a in actors] == ["Costa Wang", "z1", "Dexter", "z2", "Bruce Long", "Mary Jacobs",
                                          "CPL Teoh", "SGT Connor"]


def test_free_exploration_out_of_combat(make_game: Any) -> None:
    from conftest import drive
    from sza_helpers import put

    from ecs_zombie.components import Position
    from ecs_zombie.systems.sza.actions import perform

    for free, expect_stairs in ((True, True), (False, False)):
        game = laid_out(make_game, params={"free_exploration": free})
        board, stage = ctx(game)
        bruce = who(game, "Bruce Long")
        put(game, bruce, 3, 3)
        drive(game, perform(game, bruce, "goto:stairs", board, stage))
        pos = game.world.get(bruce, Position)
        assert (board.feature(board.cell(pos.x, pos.y)) == "stairs") == expect_stairs
