"""What a character may do on its turn ("Game Turn", "Combat Time": locked in melee a character
"cannot move out of combat"; "Non-Combat Time": trading and salvaging "usually occur outside of
combat"; "Replenishing Stamina"): the legal actions offered in each situation."""

from __future__ import annotations

from typing import Any

from sza_helpers import (
    STREET,
    add_item,
    alone,
    arms,
    at,
    ctx,
    dice,
    drive,
    give,
    laid_out,
    markers,
    put,
    run_system,
    set_stamina,
    vehicle,
    who,
    zombie,
)

from ecs_zombie import new_game
from ecs_zombie.components import Faction
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.systems.sza import stage as stage_mod
from ecs_zombie.systems.sza.actions import options, perform
from ecs_zombie.systems.sza.state import engage_square, has_ability, is_character


def opts(game: Any, ent: int) -> list[str]:
    board, st = ctx(game)
    return options(game, ent, board, st)


def prefixed(game: Any, ent: int, *prefixes: str) -> list[str]:
    return [o for o in opts(game, ent) if o.startswith(prefixes)]


def test_goals_worth_going_to(make_game: Any) -> None:
    """A goal is offered while there is something to do there and a way to it: not a looted safe or
    cabinet, an opened locked door, a fixed fuse box; the safe once its room is open."""
    game = laid_out(make_game)
    board, st = ctx(game)
    bruce = alone(game, "Bruce Long", 3, 3)
    goals = set(prefixed(game, bruce, "goto:"))
    assert {"goto:cabinet", "goto:locked_door", "goto:fuse", "goto:counter", "goto:stairs"} <= goals
    assert "goto:safe" not in goals  # behind the locked door
    st.opened.append(board.cell(32, 4))
    goals = set(prefixed(game, bruce, "goto:"))
    assert "goto:safe" in goals and "goto:locked_door" not in goals
    st.looted.append(board.cell(32, 2))
    st.looted.append(board.cell(1, 8))
    st.flags.append("lights")
    goals = set(prefixed(game, bruce, "goto:"))
    assert not {"goto:safe", "goto:cabinet", "goto:fuse"} & goals
    assert {"goto:counter", "goto:stairs", "goto:op_cabinet"} <= goals
    st.looted.extend(board.cell(x, 1) for x in (16, 17, 18))
    assert "goto:counter" not in prefixed(game, bruce, "goto:")


def test_goto_walks_towards_the_nearest_open_goal(make_game: Any) -> None:
    """Going to a kind of feature heads for the nearest one still worth it: with the nearer counter
    square looted, the next."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 16, 3)  # walks 3, runs 4 indoors
    st.looted.append(board.cell(16, 1))
    drive(game, perform(game, mary, "goto:counter", board, st))
    assert at(game, mary) == (17, 1)


def test_no_goal_where_one_already_stands(make_game: Any) -> None:
    """In the safe house or in a bush there is nowhere further to go of that kind."""
    game = laid_out(make_game, STREET)
    mary = alone(game, "Mary Jacobs", 0, 3)
    assert "goto:safehouse" not in prefixed(game, mary, "goto:") and "goto:bush" in prefixed(game, mary, "goto:")
    put(game, mary, 14, 0)
    assert "goto:bush" not in prefixed(game, mary, "goto:") and "goto:safehouse" in prefixed(game, mary, "goto:")
    assert "goto:stairs" not in prefixed(game, mary, "goto:")


def test_interactions_only_with_features_next_to_the_character(make_game: Any) -> None:
    """Salvage, unlock, the safe, the fuse box and windows are acted on from the square or one next to it;
    a broken window or a fixed fuse box no more."""
    game = laid_out(make_game)
    board, st = ctx(game)
    bruce = alone(game, "Bruce Long", 2, 2)  # on a planning room table: no window next to him
    assert prefixed(game, bruce, "window:", "salvage:", "unlock:", "safe:", "fuse:") == []
    put(game, bruce, 1, 2)
    assert prefixed(game, bruce, "window:") == [f"window:{board.cell(0, 2)}"]
    st.opened.append(board.cell(0, 2))
    assert prefixed(game, bruce, "window:") == []
    put(game, bruce, 5, 8)
    assert prefixed(game, bruce, "fuse:") == []  # two squares from the fuse box
    put(game, bruce, 5, 7)
    assert prefixed(game, bruce, "fuse:") == [f"fuse:{board.cell(5, 6)}"]
    st.flags.append("lights")
    assert prefixed(game, bruce, "fuse:") == []
    put(game, bruce, 29, 10)
    cabinet = board.cell(30, 10)
    assert prefixed(game, bruce, "unlock:", "salvage:") == [f"unlock:{cabinet}"]
    st.opened.append(cabinet)
    assert prefixed(game, bruce, "unlock:", "salvage:") == [f"salvage:{cabinet}"]


def test_the_car_only_from_next_to_it(make_game: Any) -> None:
    game = laid_out(make_game, STREET)
    run_system(game, "sza.objective")
    dexter = alone(game, "Dexter", 8, 2)  # two squares from the car
    assert not {"break_in", "board", "drive"} & set(opts(game, dexter))
    put(game, dexter, 7, 3)
    assert "break_in" in opts(game, dexter)
    _v, car = vehicle(game)
    car.unlocked = True
    assert "board" in opts(game, dexter) and "break_in" not in opts(game, dexter)


def test_aboard_no_engaging_and_no_walking(make_game: Any) -> None:
    """A character in the vehicle neither engages, approaches nor walks off towards a goal."""
    game = laid_out(make_game, STREET)
    board, st = ctx(game)
    run_system(game, "sza.objective")
    _v, car = vehicle(game)
    car.unlocked = True
    dexter = alone(game, "Dexter", 7, 2)
    drive(game, perform(game, dexter, "board", board, st))
    assert markers(game, dexter).has("aboard")
    zombie(game, 8, 2)
    assert prefixed(game, dexter, "engage:", "approach:", "goto:") == []


def test_no_engaging_a_zombie_out_of_reach_by_any_way(make_game: Any) -> None:
    """A zombie behind the panic room's locked door can be neither engaged nor approached."""
    game = laid_out(make_game)
    dexter = alone(game, "Dexter", 32, 5)
    z = zombie(game, 32, 2)
    assert prefixed(game, dexter, f"engage:{z}", f"approach:{z}") == []


def test_on_grass_a_zombie_at_a_walk_is_engaged_walking_only(make_game: Any) -> None:
    """From grass, a zombie exactly a walk away (3 squares for the Prison Convict) is engaged walking;
    it is not also approached."""
    game = laid_out(make_game, STREET)
    dexter = alone(game, "Dexter", 20, 0)
    z = zombie(game, 17, 0)
    assert prefixed(game, dexter, "engage:", "approach:") == [f"engage:{z}:walk"]


def test_locked_in_melee(make_game: Any) -> None:
    """Engaged, a character attacks, uses an ability or an item, or waits: no moving, shooting,
    reloading, salvaging or trading."""
    game = laid_out(make_game)
    connor, mary = who(game, "SGT Connor"), who(game, "Mary Jacobs")
    alone(game, "SGT Connor", 2, 8)  # beside the store room's cabinet
    put(game, mary, 2, 7)
    arms(game, connor).rounds = 5
    set_stamina(game, connor, 60)
    zombie(game, 2, 8)
    assert opts(game, connor) == ["attack", "bandage", "water", "wait"]


def test_healing_items_need_a_hurt_character_and_the_item(make_game: Any) -> None:
    """Bandages and water help a character between 1 and its total Stamina who carries them."""
    game = laid_out(make_game)
    costa = alone(game, "Costa Wang", 2, 2)  # carries nothing
    set_stamina(game, costa, 1)
    assert not {"bandage", "water"} & set(opts(game, costa))
    add_item(game, costa, "bandage")
    add_item(game, costa, "water")
    assert {"bandage", "water"} <= set(opts(game, costa))
    set_stamina(game, costa, 55)
    assert not {"bandage", "water"} & set(opts(game, costa))


def test_trading_and_reloading_outside_melee_only(make_game: Any) -> None:
    """Trading takes place between adjacent characters out of combat; the Soldier reloads out of
    melee with a magazine to spare."""
    game = laid_out(make_game)
    connor, mary = who(game, "SGT Connor"), who(game, "Mary Jacobs")
    alone(game, "SGT Connor", 8, 2)
    put(game, mary, 8, 3)
    arms(game, connor).rounds = 9
    assert "reload" in opts(game, connor) and f"give:bandage:{mary}" in opts(game, connor)
    zombie(game, 8, 2)
    assert "reload" not in opts(game, connor) and not prefixed(game, connor, "give:")


def test_healing_abilities_are_offered_to_whom_they_help(make_game: Any) -> None:
    """Tending to Wounds is offered when an ally within 2 squares has lost Stamina (even down to 1);
    the Vial of Antidote for an ally within 1 square who is infected or hurt, not for a healthy one."""
    game = laid_out(make_game)
    mary, bruce = who(game, "Mary Jacobs"), who(game, "Bruce Long")
    alone(game, "Mary Jacobs", 2, 2)
    put(game, bruce, 3, 2)
    give(game, mary, "tending_to_wounds", "vial_of_antidote")
    assert prefixed(game, mary, "ability:") == []
    set_stamina(game, bruce, 1)
    assert prefixed(game, mary, "ability:") == ["ability:tending_to_wounds", f"ability:vial_of_antidote:{bruce}"]


def test_goto_from_grass_walks(make_game: Any) -> None:
    """Grass Patches: walking only, whatever the errand: from the verge a Paramedic goes 2 squares."""
    game = laid_out(make_game, STREET)
    board, st = ctx(game)
    mary = alone(game, "Mary Jacobs", 20, 6)
    drive(game, perform(game, mary, "goto:safehouse", board, st))
    assert at(game, mary)[0] == 18
    put(game, mary, 20, 3)  # from the road she runs 3
    drive(game, perform(game, mary, "goto:safehouse", board, st))
    assert at(game, mary)[0] == 17


def test_the_boards_state_stays_in_order(make_game: Any) -> None:
    """What is opened, looted and flagged is kept sorted, so that equal states save equally whatever the
    order things happened in."""
    game = laid_out(make_game)
    board, st = ctx(game)
    bruce = alone(game, "Bruce Long", 1, 7)
    dice(game, 10, 1, 1, 10, 10, 10)  # the window, the salvage (11), the door, the safe, the fuse
    drive(game, perform(game, bruce, f"window:{board.cell(0, 7)}", board, st))
    put(game, bruce, 2, 8)
    drive(game, perform(game, bruce, f"salvage:{board.cell(1, 8)}", board, st))
    put(game, bruce, 32, 5)
    drive(game, perform(game, bruce, f"unlock:{board.cell(32, 4)}", board, st))
    put(game, bruce, 32, 3)
    drive(game, perform(game, bruce, f"safe:{board.cell(32, 2)}", board, st))
    put(game, bruce, 5, 7)
    drive(game, perform(game, bruce, f"fuse:{board.cell(5, 6)}", board, st))
    assert st.opened == [board.cell(32, 4), board.cell(0, 7)]  # (32, 4) is square 172, (0, 7) 245
    assert st.looted == [board.cell(32, 2), board.cell(1, 8)]
    assert st.flags == ["lights", "looted_cabinet", "looted_safe", "opened_locked_door"]
    stage_vehicle = laid_out(make_game, STREET)
    sb, ss = ctx(stage_vehicle)
    ss.opened.append(sb.cell(23, 6))  # something opened further down the board than the car
    run_system(stage_vehicle, "sza.objective")  # no zombie: the car's square opens
    assert ss.opened == [sb.cell(6, 2), sb.cell(23, 6)]


def test_nothing_replenishes_stamina_gone_to_zero(make_game: Any) -> None:
    """"These Bandages ... neither help to replenish a character's Stamina who has gone to 0": at 0 no
    bandage or water is offered, Tending to Wounds finds nobody to tend, and resting offers nothing."""
    game = laid_out(make_game, STREET)
    mary, bruce = who(game, "Mary Jacobs"), who(game, "Bruce Long")
    give(game, mary, "tending_to_wounds")
    alone(game, "Mary Jacobs", 20, 3)
    put(game, bruce, 21, 3)
    add_item(game, bruce, "water")
    add_item(game, bruce, "bandage")
    set_stamina(game, bruce, 0)
    assert not {"bandage", "water"} & set(opts(game, bruce))
    assert prefixed(game, mary, "ability:") == []
    asked = drive(game, stage_mod.rest(game))
    assert not [d for d in asked if d.context["piece"] == bruce]


class _Distinct:
    """The heuristic, checking first that every decision's options are distinct (the heuristics
    read an option's index by its text)."""

    name = "distinct"

    def __init__(self) -> None:
        self.policy = PolicyTable("heuristic")
        self.checked = 0

    def choose(self, game: Any, decision: Any) -> int:
        keys = [repr(o) for o in decision.options]
        assert len(set(keys)) == len(keys), (decision.kind, decision.options)
        self.checked += 1
        return self.policy.choose(game, decision)


def test_every_decision_offers_distinct_options() -> None:
    """In played campaigns (SZA and the paced hybrid), no decision lists one option twice."""
    policy = _Distinct()
    for ruleset, seed in (("sza", 1), ("sza", 2), ("sza-paced", 3)):
        game = new_game(ruleset, seed)
        game.play(policy)  # type: ignore[arg-type]
        game.close()
    assert policy.checked > 500


def test_a_piece_gone_from_the_board_is_no_character_and_has_no_ability(make_game: Any) -> None:
    """Rules asked about a piece removed from the game (a zombie destroyed mid-turn, a character
    gone) answer no: not a character, no ability."""
    game = laid_out(make_game)
    mary = who(game, "Mary Jacobs")
    give(game, mary, "inspire")
    assert is_character(game, mary) and has_ability(game, mary, "inspire")
    game.world.delete(mary)
    assert not is_character(game, mary) and not has_ability(game, mary, "inspire")


def test_a_piece_of_neither_side_engages_both_in_id_order(make_game: Any) -> None:
    """A piece of a side neither the survivors' nor the zombies' (a hybrid's third party) engages
    every piece on its square, of both sides, in id order."""
    game = laid_out(make_game)
    mary = alone(game, "Mary Jacobs", 4, 4)
    z = zombie(game, 4, 4)
    third = zombie(game, 4, 4)
    game.world.add(third, Faction("neutral"))
    assert engage_square(game, third) == sorted([mary, z])
