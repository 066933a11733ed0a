"""The scenarios and the campaign: setting up, the numbered events, winning and losing, rewards,
the vehicle; each scenario alone and both in sequence with characters carried across, saves (also
between the scenarios), replays, and properties over random seeds ("Scenario", "Reward")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sza_helpers import (
    BUNGALOW,
    NAMES,
    STREET,
    SURVIVORS,
    ZOMBIES,
    arms,
    at,
    attrs,
    character,
    ctx,
    dice,
    drive,
    engaged_with,
    infection,
    items,
    laid_out,
    logged,
    markers,
    put,
    run_system,
    set_stamina,
    stage,
    stamina,
    total_stamina,
    vehicle,
    who,
    zombie,
)

from ecs_zombie import new_game
from ecs_zombie.components import Wounds
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.snapshot import restore, state_bytes
from ecs_zombie.systems.sza import stage as stage_mod
from ecs_zombie.systems.sza.actions import act, options, perform
from ecs_zombie.systems.sza.components import Arms, Character, Inventory
from tests.helpers import play_recorded, run_cli


def test_bungalow_alone_is_won_by_the_default_policies(make_game: Any) -> None:
    for seed in range(3):
        game = make_game(BUNGALOW, seed=seed)
        game.play()
        assert game.outcome == "survivors"
        assert stage(game).results == ["bungalow:won"]
        assert all(g.items.get("documents", 0) <= 1 for _e, g in game.world.query1(Inventory))
        assert sum(g.items.get("documents", 0) for _e, g in game.world.query1(Inventory)) == 1


def test_street_alone(make_game: Any) -> None:
    game = make_game(STREET, seed=2)
    game.play()
    assert game.over and stage(game).results == ["street:won"]


def test_the_created_party_uses_the_class_abilities(make_game: Any) -> None:
    """prefabs/scenarios/sza/created.yaml: the campaign with created characters, each with one class
    ability ("you may only pick ONE of the available class specific abilities"); played by the
    default policies, the abilities that take an action come into play."""
    game = make_game("prefabs/scenarios/sza/created.yaml", seed=0)
    picked = sorted(a for _e, ch in game.world.query1(Character) for a in ch.abilities)
    assert picked == ["fire_suit", "inspire", "lock_picking", "morale_boost", "sharp_shooter",
                      "tending_to_wounds", "vial_of_antidote"]
    used: set[str] = set()
    for seed in range(6):
        game = make_game("prefabs/scenarios/sza/created.yaml", seed=seed)
        game.play()
        assert game.over
        used |= {e[2]["ability"] for e in game.events if e[1] == "ability"}
    assert {"morale_boost", "tending_to_wounds"} <= used


def test_campaign_carries_characters_and_rewards(make_game: Any) -> None:
    game = make_game("sza", seed=3)
    carried: dict[int, tuple[int, dict[str, int]]] = {}

    def watch(g: Any) -> None:
        s = stage(g)
        if s.index == 1 and not s.built and not carried:
            for ent in stage_mod.roster(g):
                carried[ent] = (g.world.get(ent, Wounds).left, dict(items(g, ent)))

    game.play(on_tick=watch)
    assert stage(game).results == ["bungalow:won", "street:won"] and game.outcome == "survivors"
    assert carried
    for _ent, (_hp, kit) in carried.items():
        assert kit.get("bandage", 0) >= 3 and kit.get("water", 0) >= 3  # the safe's reward


def test_event_graph_follows_choices(make_game: Any) -> None:
    game = laid_out(make_game, BUNGALOW)
    asked = drive(game, stage_mod.events(game), {"sza.event_choice": "Fix the circuit breaker so the lights come back"})
    assert [d.kind for d in asked].count("sza.event_choice") == 1
    assert stage(game).event == "4" and stage(game).supply == 12
    stage(game).flags.append("lights")
    drive(game, stage_mod.events(game))
    assert stage(game).event == "2" and stage(game).supply == 10  # 4a brought two more


def test_save_between_scenarios_resumes_the_campaign(make_game: Any) -> None:
    straight = make_game("sza", seed=4)
    straight.play()
    end = state_bytes(straight)
    game = make_game("sza", seed=4)
    policies = PolicyTable("heuristic")
    while not (stage(game).index == 1 and not stage(game).built):
        game.play(policies, stop_after=game.tick + 1)
        assert not game.over
    body = state_bytes(game)
    resumed = restore(msgpack.unpackb(body, raw=False))
    try:
        assert state_bytes(resumed) == body
        assert stage(resumed).index == 1
        resumed.play(PolicyTable("heuristic"))
        assert state_bytes(resumed) == end
    finally:
        resumed.close()


def test_replay_verifies_heavy_across_the_campaign(make_game: Any, tmp_path: Path) -> None:
    """Heavy verification (save + reload after every tick) through both scenarios and the boundary."""
    for seed, policy in ((5, "heuristic"), (6, "random"), (7, "heuristic,party=random")):
        game = make_game("sza", seed=seed, policy=policy)
        assert play_recorded(game, tmp_path / f"sza{seed}.replay") is None
        if policy.startswith("heuristic"):
            assert stage(game).results == ["bungalow:won", "street:won"]


def test_every_event_branch_can_be_played(make_game: Any) -> None:
    """With the party choosing at random, the default characters reach every event of both graphs."""
    seen: set[tuple[str, str]] = set()
    for seed in range(25):
        game = make_game("sza", seed=seed, policy="heuristic,party=random")
        game.play()
        seen |= {(d["scenario"], d["event"]) for d in logged(game, "event")}
        assert game.over
    from ecs_zombie.ruleset import load_ruleset

    table = load_ruleset("sza").tables["sza.scenarios"]
    every = {(sid, eid) for sid, sc in table.by_id.items() for eid in sc.events}
    assert seen == every


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=2**31), policy=st.sampled_from(["random", "heuristic"]),
       target=st.sampled_from(["sza", BUNGALOW, STREET]))
def test_properties_over_random_seeds(seed: int, policy: str, target: str) -> None:
    """Stamina never above its total, ammunition never negative, every game ends."""
    game = new_game(target, seed, policy=policy)

    def check(g: Any) -> None:
        for _e, h in g.world.query1(Wounds):
            assert h.left <= h.limit
        for _e, a in g.world.query1(Arms):
            assert a.rounds >= 0 and a.magazines >= 0
        for _e, inv in g.world.query1(Inventory):
            assert all(n > 0 for n in inv.items.values())

    try:
        game.play(on_tick=check)
        assert game.over and game.outcome in ("survivors", "zombies")  # never the engine's timeout
        assert game.tick <= game.ruleset.max_ticks
    finally:
        game.close()


# -- Setting Up ------------------------------------------------------------------------------------

def test_setting_up_scenario_1(make_game: Any) -> None:
    """Scenario 1, Setting Up: "The reader should pick 15 zombie counters. Player characters chose a
    desired grid location inside the Planning Room"."""
    game = laid_out(make_game, BUNGALOW)
    board, st = ctx(game)
    assert st.supply == 15 and st.event == "1" and st.turn == 1
    assert {board.room_at[board.cell(*at(game, who(game, n)))] for n in NAMES} == {"planning"}
    assert len({at(game, who(game, n)) for n in NAMES}) == 6  # each on a square of its own
    assert logged(game, "scenario") == [{"scenario": "bungalow", "title": "This Place Isn't Safe Anymore", "stage": 1}]


def test_setting_up_scenario_2(make_game: Any) -> None:
    """Scenario 2, Setting Up: "The reader should pick 5 zombie counters"; "Characters start from the
    right side of the map in the middle of the road" (DESIGN CHOICE: the two right columns, rows 2-4).
    The safe house's people are there with their printed statistics (Ah Booi: Stamina 70, Accuracy 70,
    a 1d6 parang; Randy Mutu: Stamina 60, Smarts 80; DESIGN CHOICE: 50s for the rest)."""
    game = laid_out(make_game, STREET)
    board, st = ctx(game)
    assert st.supply == 5
    assert all(at(game, who(game, n))[0] >= 22 and 2 <= at(game, who(game, n))[1] <= 4 for n in NAMES)
    npcs = {ch.name: e for e, ch in game.world.query1(Character) if ch.cls == "npc"}
    assert set(npcs) == {"Ah Heng", "Ah Booi", "Randy Mutu", "Mrs Camellia Chan", "Cynthia Chan"}
    stats = {}
    for name, e in npcs.items():
        a = attrs(game, e)
        stats[name] = (stamina(game, e), total_stamina(game, e), a.strength, a.accuracy, a.smarts, a.initiative,
                       a.morale, arms(game, e).melee)
    assert stats == {  # Stamina, total, Strength, Accuracy, Smarts, Initiative, Morale, weapon
        "Ah Heng": (50, 50, 50, 50, 50, 5, 5, "bite"),
        "Ah Booi": (70, 70, 50, 70, 50, 7, 5, "parang"),
        "Randy Mutu": (60, 60, 50, 50, 80, 5, 8, "bite"),
        "Mrs Camellia Chan": (50, 50, 50, 50, 50, 5, 5, "bite"),
        "Cynthia Chan": (50, 50, 50, 50, 50, 5, 5, "bite"),
    }
    assert all(board.feature(board.cell(*at(game, e))) == "safehouse" for e in npcs.values())
    assert all(not markers(game, e).has("offboard") for e in npcs.values())
    _v, car = vehicle(game)
    assert (car.kind, car.capacity, car.unlocked, at(game, _v)) == ("car", 5, False, (6, 2))


def test_spawn_step_overrides_and_supply(make_game: Any) -> None:
    """The game master's counters cap the zombies; an event may bring tougher ones (DESIGN CHOICE data).
    A zombie brought in engages whoever stands on its square."""
    game = laid_out(make_game, BUNGALOW)
    st_ = stage(game)
    st_.supply = 2
    mary = who(game, "Mary Jacobs")
    put(game, mary, 28, 1)  # the first level 2 spawn square, inside a window
    drive(game, stage_mod.spawn(game, 5, "level2", components={"Wounds": {"taken": 0, "limit": 60}}),
          {"sza.spawn_point": lambda d: d.options[0]})
    made = logged(game, "spawned")
    assert [m["at"] for m in made] == [[28, 1], [28, 1]] and st_.supply == 0
    assert all(total_stamina(game, m["zombie"]) == 60 for m in made)
    assert sorted(engaged_with(game, mary)) == sorted(m["zombie"] for m in made)


def test_zombie_supply_is_15_in_the_bungalow(make_game: Any) -> None:
    """Never more than the 15 counters come in, however the party plays."""
    for seed in range(4):
        game = make_game(BUNGALOW, seed=seed, policy="random")
        game.play()
        assert len(logged(game, "spawned")) <= 15


# -- Winning and losing ---------------------------------------------------------------------------

def test_scenario_1_won_with_the_documents_and_nobody_engaged(make_game: Any) -> None:
    """Winning Criteria: "obtain the documents stored in the safe, and fend off any zombies currently
    engaged in combat with them"; the Reward: "3 Bandages" and "a bottle of mineral water (Can be used
    3 times ...)" for each character."""
    game = laid_out(make_game, BUNGALOW)
    st = stage(game)
    before = {n: dict(items(game, who(game, n))) for n in NAMES}
    st.event, st.entered = "10", True
    mary = who(game, "Mary Jacobs")
    z = zombie(game, *at(game, mary))
    drive(game, stage_mod.events(game))
    assert st.event == "10"  # Mary is still engaged
    game.world.delete(z)  # fended off
    drive(game, stage_mod.events(game))
    assert st.event == "10"  # the way into the end is taken when the win is declared, at the turn's end
    run_system(game, "sza.objective")
    assert st.event == "11" and logged(game, "event", event="11") == [
        {"scenario": "bungalow", "event": "11", "title": "This Place Isn't Safe Anymore"}]
    assert game.over and game.outcome == SURVIVORS and st.results == ["bungalow:won"]
    assert logged(game, "scenario_won") == [{"scenario": "bungalow"}]
    for n in NAMES:
        got = items(game, who(game, n))
        assert got.get("bandage", 0) - before[n].get("bandage", 0) == 3
        assert got.get("water", 0) - before[n].get("water", 0) == 3
        assert markers(game, who(game, n)).has("offboard")


def test_scenario_1_not_won_while_a_zombie_is_engaged(make_game: Any) -> None:
    """Nobody is engaged when the turn starts, so event 10 gives way to 11; then a zombie comes in on
    Mary's square during the turn. At the end of the turn a zombie is engaged with her: not won."""
    game = laid_out(make_game, BUNGALOW)
    st = stage(game)
    st.event, st.entered = "10", True
    drive(game, stage_mod.events(game))
    zombie(game, *at(game, who(game, "Mary Jacobs")))
    run_system(game, "sza.objective")
    assert not game.over and st.results == []


def test_scenario_1_won_the_turn_the_documents_are_taken(make_game: Any) -> None:
    """The safe is opened during the turn (event 9) with no zombie on the board: the scenario is won at
    the end of that same turn."""
    game = laid_out(make_game, BUNGALOW)
    board, st = ctx(game)
    st.event, st.entered = "9", True
    st.opened.append(board.cell(32, 4))
    bruce = who(game, "Bruce Long")
    put(game, bruce, 32, 3)
    dice(game, 10)
    drive(game, perform(game, bruce, f"safe:{board.cell(32, 2)}", board, st))
    assert items(game, bruce)["documents"] == 1
    run_system(game, "sza.objective")
    assert game.over and st.results == ["bungalow:won"]


def test_scenario_2_won_when_everyone_is_in_the_safe_house(make_game: Any) -> None:
    """Winning Criteria: "Successfully make your way into the safe house" (DESIGN CHOICE: every
    character still human stands in it); Scenario 2 gives no items."""
    game = laid_out(make_game, STREET)
    st = stage(game)
    st.event, st.entered = "6", True
    homes = [(0, 2), (0, 3), (0, 4)]
    ents = [who(game, n) for n in NAMES]
    for i, ent in enumerate(ents):
        put(game, ent, *homes[i % 3])
    put(game, ents[-1], 1, 3)
    drive(game, stage_mod.events(game))
    assert st.event == "6"
    put(game, ents[-1], 0, 3)
    before = {e: dict(items(game, e)) for e in ents}
    drive(game, stage_mod.events(game))
    run_system(game, "sza.objective")
    assert game.over and game.outcome == SURVIVORS and st.results == ["street:won"]
    assert all(items(game, e) == before[e] for e in ents)


def test_the_campaign_moves_on_to_the_street(make_game: Any) -> None:
    """The campaign: winning Scenario 1 clears its board and the next turn lays out Scenario 2, the
    characters keeping their Stamina, items and spent abilities."""
    game = laid_out(make_game, "sza")
    st = stage(game)
    mary = who(game, "Mary Jacobs")
    set_stamina(game, mary, 33)
    character(game, mary).used.append("vial_of_antidote")
    st.event, st.entered = "11", True
    run_system(game, "sza.objective")
    assert not game.over and (st.index, st.built, st.results) == (1, False, ["bungalow:won"])
    drive(game, stage_mod.build(game))
    assert st.built and st.supply == 5 and st.event == "1"
    assert stamina(game, mary) == 33 and character(game, mary).used == ["vial_of_antidote"]
    assert items(game, mary) == {"bandage": 5 + 3, "water": 3}


def test_turn_limit(make_game: Any) -> None:
    """DESIGN CHOICE: a scenario still running after `scenario_turn_limit` (40) turns is lost."""
    for limit, turn, over in ((None, 39, False), (None, 40, True), (7, 7, True), (7, 6, False)):
        game = laid_out(make_game, BUNGALOW, params={"scenario_turn_limit": limit} if limit else {})
        st = stage(game)
        st.turn = turn
        run_system(game, "sza.objective")
        assert game.over == over, (limit, turn)
        if over:
            assert game.outcome == ZOMBIES and st.results == ["bungalow:lost"]
            assert logged(game, "overrun") == [{"scenario": "bungalow"}]


def test_turns_are_counted(make_game: Any) -> None:
    """Each turn of a built scenario counts towards the limit."""
    game = make_game(BUNGALOW, seed=3)
    game.play(PolicyTable("heuristic"), stop_after=5)
    assert stage(game).turn == 5


def test_losing_everyone_ends_the_game(make_game: Any) -> None:
    """With no character left human the zombies have won."""
    game = laid_out(make_game, BUNGALOW)
    for ent in stage_mod.roster(game):
        infection(game, ent).infected = True
        infection(game, ent).turns_left = 1
    stage_mod.infection(game)
    assert stage_mod.roster(game) == []
    run_system(game, "sza.objective")
    assert game.over and game.outcome == ZOMBIES


# -- the vehicle -----------------------------------------------------------------------------------

def test_vehicle_break_in_board_and_drive(make_game: Any) -> None:
    """Break in, board, drive towards the safe house, the passengers carried along."""
    game = laid_out(make_game, STREET)
    board, st_ = ctx(game)
    run_system(game, "sza.objective")  # no zombie on the street: the car may be approached
    dexter, mary = who(game, "Dexter"), who(game, "Mary Jacobs")
    put(game, dexter, 7, 2)
    put(game, mary, 7, 3)
    assert "break_in" in options(game, dexter, board, st_)
    dice(game, 6)  # 6 + Smarts 65 (+1) >= 6
    drive(game, perform(game, dexter, "break_in", board, st_))
    vent, car = vehicle(game)
    assert car.unlocked
    drive(game, perform(game, dexter, "board", board, st_))
    drive(game, perform(game, mary, "board", board, st_))
    assert logged(game, "boarded") == [{"piece": dexter}, {"piece": mary}]
    assert "drive" in options(game, dexter, board, st_) and "drive" not in options(game, mary, board, st_)
    drive(game, perform(game, dexter, "drive", board, st_))
    assert logged(game, "drove") == [{"driver": dexter, "to": [0, 2], "squares": 6}]
    assert at(game, vent) == at(game, mary) == at(game, dexter) == (0, 2)


def test_no_approaching_the_car_while_zombies_remain(make_game: Any) -> None:
    """Street: "All zombies have to be eliminated before the vehicle may be approached"."""
    game = laid_out(make_game, STREET)
    board, st_ = ctx(game)
    z = zombie(game, 20, 5)
    run_system(game, "sza.objective")
    dexter = who(game, "Dexter")
    put(game, dexter, 7, 2)
    assert "break_in" not in options(game, dexter, board, st_)
    assert board.cell(6, 2) not in st_.opened
    game.world.delete(z)
    assert "break_in" in options(game, dexter, board, st_)


def aboard_on_foot(make_game: Any) -> Any:
    """The street cleared; Dexter and Mary boarded the car; the party then set off on foot (event 6)."""
    game = laid_out(make_game, STREET)
    board, st = ctx(game)
    run_system(game, "sza.objective")
    _v, car = vehicle(game)
    car.unlocked = True
    for n in ("Dexter", "Mary Jacobs"):
        put(game, who(game, n), 7, 2)
        drive(game, perform(game, who(game, n), "board", board, st))
    st.event, st.entered = "6", True
    return game


def test_a_passenger_can_get_out(make_game: Any) -> None:
    """Some action of Mary's, aboard as a passenger, takes her out of the car."""
    game = aboard_on_foot(make_game)
    board, st = ctx(game)
    mary = who(game, "Mary Jacobs")
    outs = []
    for option in options(game, mary, board, st):
        trial = aboard_on_foot(make_game)
        tb, ts = ctx(trial)
        drive(trial, perform(trial, mary, option, tb, ts))
        if not markers(trial, mary).has("aboard") and mary not in vehicle(trial)[1].passengers:
            outs.append(option)
    assert outs


def test_going_on_foot_with_some_aboard_still_reaches_the_safe_house(make_game: Any) -> None:
    game = aboard_on_foot(make_game)
    game.play(PolicyTable("heuristic"))
    assert game.outcome == SURVIVORS


def test_getting_out_of_the_car(make_game: Any) -> None:
    """DESIGN CHOICE: a passenger gets out (an action: the turn) onto the car's square and walks on next
    turn; a passenger locked in melee cannot ("cannot move out of combat")."""
    game = aboard_on_foot(make_game)
    board, st = ctx(game)
    mary, dexter = who(game, "Mary Jacobs"), who(game, "Dexter")
    assert "alight" in options(game, mary, board, st) and "goto:safehouse" not in options(game, mary, board, st)
    drive(game, perform(game, mary, "alight", board, st))
    _v, car = vehicle(game)
    assert car.passengers == [dexter] and not markers(game, mary).has("aboard") and at(game, mary) == (6, 2)
    assert logged(game, "alighted") == [{"piece": mary}]
    assert "goto:safehouse" in options(game, mary, board, st) and "alight" not in options(game, mary, board, st)
    zombie(game, 6, 2)
    assert "alight" not in options(game, dexter, board, st) and "attack" in options(game, dexter, board, st)


def test_the_driver_drives_whoever_is_aboard_home_on_foot(make_game: Any) -> None:
    """The party's default policy on foot (event 6): the first aboard drives the others aboard to the
    safe house, even with a zombie back on the street (getting into the car needed it clear, not
    driving it); the passengers wait to be driven."""
    game = aboard_on_foot(make_game)
    board, st = ctx(game)
    zombie(game, 20, 5)
    mary, dexter = who(game, "Mary Jacobs"), who(game, "Dexter")
    assert st.event == "6"
    for ent in (dexter, mary):
        drive(game, act(game, ent, board, st, "safehouse"))
    assert [(a["piece"], a["action"]) for a in logged(game, "action")][2:] == [(dexter, "drive"), (mary, "wait")]
    assert at(game, dexter) == at(game, mary) == (0, 2)


def test_windows_open_when_broken(make_game: Any) -> None:
    """"All windows are breakable": a broken window's square becomes passable (DESIGN CHOICE)."""
    game = laid_out(make_game)
    board, st = ctx(game)
    mary = who(game, "Mary Jacobs")
    put(game, mary, 1, 7)
    window = board.cell(0, 7)
    assert window not in board.graph(st.opened).from_(board.cell(1, 7))
    dice(game, 10)
    drive(game, perform(game, mary, f"window:{window}", board, st))
    assert window in board.graph(st.opened).from_(board.cell(1, 7))


def test_a_broken_window_leads_somewhere(make_game: Any) -> None:
    """Breaking any window of the bungalow opens a way to some square besides the window itself."""
    game = laid_out(make_game)
    board, _st = ctx(game)
    door = board.cell(32, 4)
    before = set(board.graph([door]).from_(board.start[0]))
    gained = set()
    for w in board.features["window"]:
        gained |= set(board.graph(sorted([door, w])).from_(board.start[0])) - before - {w}
    assert gained


def test_cli_runs_the_campaign() -> None:
    res = run_cli("run", "sza", "--seed", "3", "--json")
    assert res.returncode == 0, res.stderr
    assert '"scenarios_won": 2' in res.stdout
    res = run_cli("run", "prefabs/scenarios/sza/bungalow.yaml", "--seed", "1", "--json")
    assert res.returncode == 0 and '"outcome": "survivors"' in res.stdout
