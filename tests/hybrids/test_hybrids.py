"""The hybrids composed across the four games (issue 11, point 9): each joins one game's seam to
another game's rule through steps, so each test drives the seam and asserts the other game's rule
as its text gives it. (Playing every hybrid strictly, with saves and verified replays, is
tests/test_all_rulesets.py's, which lists every shipped ruleset.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from ecs_zombie import Game, new_game
from ecs_zombie.components import Engaged, Faction, Wounds
from ecs_zombie.ruleset import RULESETS_DIR
from ecs_zombie.strict import StrictError
from ecs_zombie.systems.core.pacing import BUILD_UP, FADE, RELAX, SUSTAIN, Intensity, PacerState
from tests.helpers import events, force, run_system

# -- stalingrad-paced: Stalingrad Z's grid paced by the adaptive director -------------------------


def test_paced_build_up_brings_the_dice_in_zombies_at_the_spawn_squares() -> None:
    """Booth (2009), the core pacer: in Build Up the director summons `dice` things (1d3 here, forced
    2); Stalingrad's spawn places them round the map's spawn squares in label order (A at column 6
    of the top row, then B at column 14), each of the type the spawn section's 1d12 gives
    (1-6 walker, 7-8 runner)."""
    game = new_game("stalingrad-paced", seed=1)
    run_system(game, "stalingrad.setup")
    force(game, dice=[2, 3, 8])
    run_system(game, "spawn")
    arrived = [(e["type"], e["square"]) for e in events(game, "zombie_spawned")]
    assert arrived == [("walker", [6, 0]), ("runner", [14, 0])]


def test_paced_relax_brings_no_zombies() -> None:
    """Booth (2009): mobs only in Build Up (and the Sustain Peak that follows); Relax brings none."""
    game = new_game("stalingrad-paced", seed=1)
    run_system(game, "stalingrad.setup")
    force(game, dice=[1, 1])
    run_system(game, "spawn")  # Build Up: one zombie; the pacer's state is made
    state = game.world.query1(PacerState)[0][1]
    state.mode, state.mode_rounds = RELAX, 0
    run_system(game, "spawn")
    assert len(events(game, "zombie_spawned")) == 1


@pytest.mark.parametrize(("mode", "rounds", "top", "after"), [
    (BUILD_UP, 0, 39, BUILD_UP), (BUILD_UP, 0, 40, SUSTAIN),  # peak 40: two wounds of 20
    (SUSTAIN, 0, 0, SUSTAIN), (SUSTAIN, 1, 0, FADE),  # sustain: 1 round
    (FADE, 3, 21, FADE), (FADE, 3, 20, RELAX),  # fade_to 20
    (RELAX, 1, 0, RELAX), (RELAX, 2, 0, BUILD_UP),  # relax: 2 rounds
])
def test_paced_stalingrads_pacer_thresholds(mode: str, rounds: int, top: int, after: str) -> None:
    """DESIGN CHOICE (prefabs/rulesets/stalingrad-paced.yaml): "a character takes 3 or 4 wounds, so a
    wound counts 20 and the peak is two wounds in quick succession": Build Up ends at a highest
    intensity of 40, Sustain Peak lasts 1 round, Peak Fade until the highest is 20 or less, Relax 2
    rounds. Each boundary, from the pacer's state at the start of a spawn step."""
    game = new_game("stalingrad-paced", seed=1)
    run_system(game, "stalingrad.setup")
    force(game, dice=[1] * 6)
    run_system(game, "spawn")  # the pacer's state is made
    state = game.world.query1(PacerState)[0][1]
    state.mode, state.mode_rounds = mode, rounds
    for _ent, inten in game.world.query1(Intensity):
        inten.value = 0
    game.world.query1(Intensity)[0][1].value = top
    run_system(game, "spawn")
    assert state.mode == after
    game.close()


def test_paced_stalingrad_counts_a_wound_20_and_grows_the_summons_every_2_rounds() -> None:
    """DESIGN CHOICE: a wound adds 20 to a character's intensity (`wound_intensity`), and in Build Up
    one more zombie comes per 2 rounds since zombies last appeared (`growth_every`, at most 2)."""
    game = new_game("stalingrad-paced", seed=1)
    run_system(game, "stalingrad.setup")
    ent, inten = game.world.query1(Intensity)[0]
    game.world.get(ent, Wounds).taken += 1
    run_system(game, "core.intensity")
    assert inten.value == 20
    force(game, dice=[1, 1])
    run_system(game, "spawn")  # one zombie (1d3 forced 1): the count starts again
    state = game.world.query1(PacerState)[0][1]
    arrived = len(events(game, "zombie_spawned"))
    # one Build Up round since the last zombie appeared: the next makes 2, worth one more zombie
    state.zombie_mark = max(e for e, f in game.world.query1(Faction) if f.side == "zombies")
    state.growth = 1
    force(game, dice=[1, 1, 1])
    run_system(game, "spawn")
    assert state.growth == 2 and len(events(game, "zombie_spawned")) - arrived == 2
    game.close()


def _without_attached(tmp_path: Path, ruleset: str, line: str) -> str:
    text = (RULESETS_DIR / f"{ruleset}.yaml").read_text()
    assert line in text
    path = tmp_path / f"{ruleset}.yaml"
    path.write_text(text.replace(line, "").replace(f"id: {ruleset}\n", f"id: {ruleset}-bare\n"))
    return str(path)


@pytest.mark.parametrize(("ruleset", "line", "component"), [
    ("stalingrad-paced", "attached: [Intensity]\n", "Intensity"),
    ("shambling-sza", "attached: [SzaAttributes, SzaArms]\n", "SzaArms"),
])
def test_grafted_components_need_declaring_as_attached(tmp_path: Path, ruleset: str, line: str,
                                                        component: str) -> None:
    """Strict mode: a system may make or delete only entities whose components it declares; a
    component a hybrid grafts onto another game's figures goes with them only when the ruleset
    lists it under `attached:` (the shipped hybrid plays strictly; the same file without it does not)."""
    new_game(ruleset, seed=5, strict=True).play()
    game = new_game(_without_attached(tmp_path, ruleset, line), seed=5, strict=True)
    with pytest.raises(StrictError, match=component):
        game.play()


# -- shambling-sza: Shambling's battles fought with SZA's percentile melee -------------------------


def _fight(seed: int = 1) -> tuple[object, int, int]:
    """A shambling-sza game with its first survivor in contact with a fresh zombie on the Front Line."""
    game = new_game("shambling-sza", seed=seed)
    survivor = next(e for e, f in game.world.query1(Faction) if f.side == "survivors"
                    and game.world.get(e, Wounds).limit == 12)
    zombie = game.world.create(*game.ruleset.prefabs["zombie"].make())
    game.world.get(survivor, Engaged).opponents = [zombie]
    game.world.get(zombie, Engaged).opponents = [survivor]
    return game, survivor, zombie


def _strike(game: object, side: str, attackers: list[int], eligible: list[int]) -> None:
    run_system(game, "strike", board=0, zone="front", side=side, attackers=attackers, eligible=eligible,  # type: ignore[arg-type]
               supporters=[], attacker_player="player:0", defender_player="narrator")


def test_shambling_sza_a_hit_deals_weapon_damage_plus_bonus_attack_value() -> None:
    """SZA, Combat Sequence (Melee): Accuracy plus the weapon's stationary modifier is the chance to
    hit (55 + 7 for a baseball bat = 62); percentile dice at or under it hit (6 then 2: 62); the
    weapon's 1d6 (4) plus the Bonus Attack Value of Strength 60 (+1) comes off the target's
    Stamina: 5 of the zombie's 6."""
    game, survivor, zombie = _fight()
    force(game, dice=[6, 2, 4])
    _strike(game, "survivors", [survivor], [zombie])
    assert game.world.get(zombie, Wounds).taken == 5
    assert events(game, "attack")[0]["chance"] == 62


def test_shambling_sza_a_roll_over_the_chance_misses() -> None:
    """SZA: a percentile roll above the chance to hit (63 against 62) misses: no damage."""
    game, survivor, zombie = _fight()
    force(game, dice=[6, 3])
    _strike(game, "survivors", [survivor], [zombie])
    assert game.world.get(zombie, Wounds).taken == 0


def test_shambling_sza_a_figure_at_its_limit_leaves_play_counted_on_its_board() -> None:
    """Shambling: a figure that takes its last wound is removed (zombies destroyed are counted on
    the board); here 1d6 = 5 plus 1 takes all 6 of the zombie's Stamina."""
    game, survivor, zombie = _fight()
    force(game, dice=[1, 10, 5])  # 10 (the units die shows 0)
    _strike(game, "survivors", [survivor], [zombie])
    assert not game.world.exists(zombie)
    assert [e["why"] for e in events(game, "removed")] == ["killed"]


# -- director-sza: the Director game's zombies biting as SZA's ---------------------------------------


def _bitten(dice: list[int]) -> tuple[object, int]:
    """A two-player director-sza game on its start tile alone (the Director tests' set-up), one
    survivor at (0, 0) with one active zombie next to it at (1, 0), the other survivor far off."""
    from tests.director.director_setup import put, setup, zombie

    game = new_game("director-sza", seed=1)
    p0, p1 = setup(game)
    put(game, p0, 0, 0)
    put(game, p1, -2, 2)
    zombie(game, 1, 0)
    force(game, dice=dice)
    run_system(game, "hybrids.sza_bites")
    return game, p0


def test_director_sza_a_bite_that_lands_takes_its_damage_in_hit_points() -> None:
    """SZA, Combat Sequence (Melee): percentile dice at or under the chance to hit (the zombie's
    Accuracy 20, a bite's stationary modifier 0) hit (2 then 10: 20), and the bite's 1d10 (7) plus
    the Bonus Attack Value of Strength 50 (none) is the damage; the Director game takes it from the
    survivor's 8 hit points, leaving 1, and marks them hurt."""
    from ecs_zombie.components import Markers

    game, survivor = _bitten([2, 10, 7])
    assert game.world.get(survivor, Wounds).left == 1
    assert game.world.get(survivor, Markers).has("hurt")
    assert [e["amount"] for e in events(game, "damage") if "survivor" in e] == [7]


def test_director_sza_a_bite_that_misses_does_nothing() -> None:
    """SZA: a roll above the chance to hit (21 against 20) misses; the survivor keeps 8 hit points."""
    from ecs_zombie.components import Markers

    game, survivor = _bitten([2, 1])
    assert game.world.get(survivor, Wounds).left == 8
    assert not game.world.get(survivor, Markers).has("hurt")


# -- sza-paced: SZA's campaign paced by the adaptive director ----------------------------------------

LEVEL2 = [[28, 1], [23, 9], [30, 10], [33, 6]]  # prefabs/sza/maps.yaml, the bungalow's spawns level2
LEVEL1 = [[1, 2], [10, 1], [19, 3], [19, 10], [12, 10], [1, 7]]  # and level1


def _laid_out() -> object:
    game = new_game("sza-paced", seed=1)
    run_system(game, "sza.stage")
    return game


def test_sza_paced_summons_come_in_at_the_spawn_area_the_game_master_picks() -> None:
    """SZA: the game master brings zombies in at a spawn area's squares (here the pacer's 2, at the
    area level2 picked for it), each counter used leaving one fewer."""
    from ecs_zombie.systems.sza.state import stage_of

    game = _laid_out()
    before = stage_of(game)[1].supply
    run_system(game, "summon", answers={"hybrids.spawn_area": "level2"}, count=2)
    assert [e["at"] in LEVEL2 for e in events(game, "spawned")] == [True, True]
    assert stage_of(game)[1].supply == before - 2


def test_sza_paced_summons_stop_when_the_counters_run_out() -> None:
    """SZA: zombies come in only while the scenario's counters last (one left: one of the 3)."""
    from ecs_zombie.systems.sza.state import stage_of

    game = _laid_out()
    stage_of(game)[1].supply = 1
    run_system(game, "summon", answers={"hybrids.spawn_area": "level1"}, count=3)
    assert len(events(game, "spawned")) == 1


def test_validate_counts_attached_components_as_carried_by_the_hosts_figures(tmp_path: Path) -> None:
    """The Director game places its zombies at run time from its `zombie` prefab, which director-sza
    redefines with SZA's ratings: listed under `attached:`, SZA's strike finds them there; without
    it, the scenario is refused (nothing it places carries them and no system declares making them)."""
    from ecs_zombie.errors import DataError
    from ecs_zombie.ruleset import load_ruleset
    from ecs_zombie.scenario import load_scenario

    scenario = str(RULESETS_DIR.parent / "scenarios" / "director-sza.yaml")
    load_scenario(scenario)
    bare = load_ruleset(_without_attached(tmp_path, "director-sza", "attached: [SzaAttributes, SzaArms]\n"))
    with pytest.raises(DataError, match="reads SzaArms, SzaAttributes, but the scenario places no entity with them"):
        load_scenario(scenario, bare)


def test_director_sza_measures_intensity_as_the_director_game() -> None:
    """director-sza keeps the Director game's intensity (docs/director.md, "Intensity and the
    adaptive director"): +10 a wound, +15 on going down, +4 a zombie killed nearby, -20 in a round
    without a wound, kept within 0..100."""
    from ecs_zombie.systems.core.pacing import Intensity

    game = new_game("director-sza", seed=1)
    survivor = next(e for e, f in game.world.query1(Faction) if f.side == "survivors"
                    and game.world.try_get(e, Intensity) is not None)
    wounds, inten = game.world.get(survivor, Wounds), game.world.get(survivor, Intensity)
    start = wounds.taken
    wounds.taken = start + 2
    run_system(game, "core.intensity")
    assert inten.value == 20
    wounds.taken = start + wounds.left + 2  # down: 0 hit points left
    run_system(game, "core.intensity")
    assert inten.value == min(100, 20 + 10 * (wounds.taken - start - 2) + 15)
    inten.value, inten.kills = 50, 1
    run_system(game, "core.intensity")  # no wound this round, one kill nearby
    assert inten.value == 50 + 4 - 20
    inten.value = 95
    wounds.taken += 1
    run_system(game, "core.intensity")
    assert inten.value == 100
    game.close()


def test_director_sza_is_the_director_game_with_its_bite_swapped() -> None:
    """director-sza.yaml = director.yaml but `director.zombie_attack` -> `hybrids.sza_bites` (with
    SZA's packages, its rules table, the components grafted onto the survivors, its pieces and the
    melee step the bite calls): every other number (the draw's dice and noise, X, Y, Z, the
    intensity weights) is the Director game's, which its own tests play."""
    from ecs_zombie.data import load_yaml, plain

    base = plain(load_yaml(RULESETS_DIR / "director.yaml"))
    hybrid = plain(load_yaml(RULESETS_DIR / "director-sza.yaml"))
    for key in ("id", "name", "description", "default_scenario"):
        base.pop(key), hybrid.pop(key)
    zombies = next(p for p in hybrid["phases"] if p["name"] == "zombies")["systems"]
    at = zombies.index("hybrids.sza_bites")
    assert next(p for p in base["phases"] if p["name"] == "zombies")["systems"][at] == "director.zombie_attack"
    zombies[at] = "director.zombie_attack"
    assert hybrid.pop("packages") == [*base.pop("packages"), "sza", "hybrids"]
    assert hybrid.pop("prefabs") == [*base.pop("prefabs"), "hybrids/director-sza/pieces.yaml"]
    assert hybrid.pop("attached") == ["SzaAttributes", "SzaArms"]
    assert hybrid.pop("steps") == {"melee_strike": "sza.melee_strike"}
    assert hybrid["tables"].pop("sza.rules") == "sza/rules.yaml"
    assert hybrid == base


def _sza_paced() -> Game:
    game = new_game("sza-paced", seed=1)
    run_system(game, "sza.stage")  # the party, each character with its Intensity
    force(game, dice=[1] * 6)
    run_system(game, "core.pacer")  # the pacer's state is made
    return game


@pytest.mark.parametrize(("mode", "turns", "top", "after"), [
    (BUILD_UP, 0, 49, BUILD_UP), (BUILD_UP, 0, 50, SUSTAIN),  # peak 50
    (SUSTAIN, 0, 0, SUSTAIN), (SUSTAIN, 1, 0, FADE),  # sustain: 1 turn
    (FADE, 3, 21, FADE), (FADE, 3, 20, RELAX),  # fade_to 20
    (RELAX, 3, 0, RELAX), (RELAX, 4, 0, BUILD_UP),  # relax: 4 turns
])
def test_sza_paced_pacer_thresholds(mode: str, turns: int, top: int, after: str) -> None:
    """DESIGN CHOICE (prefabs/rulesets/sza-paced.yaml): Build Up ends when the highest character
    intensity reaches 50, Sustain Peak lasts 1 turn, Peak Fade until the highest is 20 or less,
    Relax 4 turns. Each boundary, from the pacer's state as its system starts."""
    game = _sza_paced()
    state = game.world.query1(PacerState)[0][1]
    state.mode, state.mode_rounds = mode, turns
    for _ent, inten in game.world.query1(Intensity):
        inten.value = 0
    game.world.query1(Intensity)[0][1].value = top
    force(game, dice=[1] * 6)
    run_system(game, "core.pacer")
    assert state.mode == after
    game.close()


def test_sza_paced_intensity_counts_stamina_three_a_point_and_decays_ten() -> None:
    """DESIGN CHOICE (sza-paced.yaml): "a point of Stamina counts 3"; going down adds 15; kills add
    nothing; a turn without a wound takes 10 off; never above 100."""
    game = _sza_paced()
    ent, inten = game.world.query1(Intensity)[0]
    wounds = game.world.get(ent, Wounds)
    wounds.taken += 2
    run_system(game, "core.intensity")
    assert inten.value == 6
    inten.value, inten.kills = 30, 2
    run_system(game, "core.intensity")
    assert inten.value == 20  # no wound: -10, and the two kills count 0
    inten.seen = wounds.taken = wounds.limit - 1  # one point of Stamina left
    wounds.taken += 1  # down: the point lost, and 15 for going down
    run_system(game, "core.intensity")
    assert inten.value == 20 + 3 + 15
    wounds.taken -= 10  # back up (healed), then 5 more points lost
    inten.value, inten.seen = 95, wounds.taken
    wounds.taken += 5
    run_system(game, "core.intensity")
    assert inten.value == 100  # 95 + 15, never above the cap
    game.close()


def test_sza_paced_is_sza_with_the_adaptive_director_added() -> None:
    """sza-paced.yaml = sza.yaml plus the adaptive director: `core.pacer` once the scenario's events
    have run, `core.intensity` once a turn, the pacer's `summon` step (an SZA spawn where the game
    master picks), the Intensity component and the pacer's parameters (played above), summons of
    1d2-1 a turn growing by one per 3 Build Up turns without zombies, at most 2 more. Every other
    number is SZA's, which its own tests play."""
    from ecs_zombie.data import load_yaml, plain

    base = plain(load_yaml(RULESETS_DIR / "sza.yaml"))
    paced = plain(load_yaml(RULESETS_DIR / "sza-paced.yaml"))
    for key in ("id", "name", "description", "default_scenario"):
        base.pop(key), paced.pop(key)
    assert paced.pop("packages") == [*base.pop("packages"), "hybrids"]
    assert paced.pop("prefabs") == [*base.pop("prefabs"), "hybrids/sza-paced/characters.yaml"]
    assert paced.pop("attached") == ["Intensity"]
    assert paced["steps"].pop("summon") == "hybrids.sza_summon"
    added = {"peak", "sustain", "fade_to", "relax", "summons", "growth_every", "stamina_intensity"}
    assert {k: paced["parameters"].pop(k)["default"] for k in added} == {
        "peak": 50, "sustain": 1, "fade_to": 20, "relax": 4, "summons": "1d2-1", "growth_every": 3,
        "stamina_intensity": 3}
    systems = [s for phase in paced["phases"] for s in phase["systems"]]
    pacer = next(s for s in systems if isinstance(s, dict) and s["system"] == "core.pacer")
    assert pacer["params"] == {"dice": "$summons", "peak": "$peak", "sustain": "$sustain", "fade_to": "$fade_to",
                               "relax": "$relax", "growth_every": "$growth_every", "growth_max": 2}
    for phase in paced["phases"]:
        phase["systems"] = [s for s in phase["systems"]
                            if not (isinstance(s, dict) and s["system"] in ("core.pacer", "core.intensity"))]
    assert paced == base


def test_shambling_sza_is_shambling_with_its_strike_swapped() -> None:
    """shambling-sza.yaml = shambling.yaml but the `strike` step -> `hybrids.sza_melee` (with SZA's
    packages, rules table, grafted components, figures and the melee step it calls): every other
    number is Shambling's, which its own tests play."""
    from ecs_zombie.data import load_yaml, plain

    base = plain(load_yaml(RULESETS_DIR / "shambling.yaml"))
    hybrid = plain(load_yaml(RULESETS_DIR / "shambling-sza.yaml"))
    for key in ("id", "name", "description", "default_scenario"):
        base.pop(key), hybrid.pop(key)
    assert hybrid.pop("packages") == [*base.pop("packages"), "sza", "hybrids"]
    assert hybrid.pop("prefabs") == [*base.pop("prefabs"), "hybrids/shambling-sza/figures.yaml"]
    assert hybrid.pop("attached") == ["SzaAttributes", "SzaArms"]
    assert hybrid["tables"].pop("sza.rules") == "sza/rules.yaml"
    assert hybrid["steps"].pop("melee_strike") == "sza.melee_strike"
    assert (hybrid["steps"]["strike"], base["steps"]["strike"]) == ("hybrids.sza_melee", "shambling.crt_strike")
    hybrid["steps"]["strike"] = base["steps"]["strike"]
    assert hybrid == base


def test_paced_stalingrad_intensity_decays_twenty_and_counts_only_wounds() -> None:
    """DESIGN CHOICE (stalingrad-paced.yaml): a wound counts 20 (played above); going down and
    kills add nothing; a round without a wound takes 20 off; never above 100."""
    game = new_game("stalingrad-paced", seed=1)
    run_system(game, "stalingrad.setup")
    ent, inten = game.world.query1(Intensity)[0]
    wounds = game.world.get(ent, Wounds)
    inten.value, inten.kills = 50, 3
    run_system(game, "core.intensity")
    assert inten.value == 30  # no wound: -20, and the kills count 0
    inten.seen = wounds.taken = wounds.limit - 1
    wounds.taken += 1  # the last wound: down, which adds nothing of its own
    run_system(game, "core.intensity")
    assert inten.value == 50
    inten.value, inten.seen = 90, wounds.taken
    wounds.taken += 1
    run_system(game, "core.intensity")
    assert inten.value == 100  # 90 + 20, never above the cap
    game.close()


@pytest.mark.parametrize(("ruleset", "added"), [("stalingrad-shambling", "card"), ("stalingrad-paced", "pacer")])
def test_stalingrads_hybrids_are_stalingrad_with_their_spawn_swapped(ruleset: str, added: str) -> None:
    """stalingrad-shambling.yaml = stalingrad.yaml but the `spawn` step -> `stalingrad.card_spawn`
    (with Shambling's package and deck); stalingrad-paced.yaml = stalingrad.yaml but `spawn` ->
    `core.pacer` summoning through `stalingrad.spawn`, `core.intensity` before the end segment,
    Intensity on the characters and the pacer's parameters (played above). Every other number is
    Stalingrad's, which its own tests play."""
    from ecs_zombie.data import load_yaml, plain

    base = plain(load_yaml(RULESETS_DIR / "stalingrad.yaml"))
    hybrid = plain(load_yaml(RULESETS_DIR / f"{ruleset}.yaml"))
    for key in ("id", "name", "description", "default_scenario"):
        base.pop(key), hybrid.pop(key)
    assert base["steps"]["spawn"] == "stalingrad.spawn"
    if added == "card":
        assert hybrid.pop("packages") == [*base.pop("packages"), "shambling"]
        assert hybrid["tables"].pop("shambling.deck") == "shambling/deck.yaml"
        assert hybrid["steps"]["spawn"] == "stalingrad.card_spawn"
    else:
        assert hybrid.pop("prefabs") == [*base.pop("prefabs"), "hybrids/stalingrad-paced/figures.yaml"]
        assert hybrid.pop("attached") == ["Intensity"]
        assert hybrid["steps"].pop("summon") == "stalingrad.spawn"
        assert hybrid["steps"]["spawn"] == {"system": "core.pacer", "params": {
            "dice": "$summons", "peak": "$peak", "sustain": "$sustain", "fade_to": "$fade_to", "relax": "$relax",
            "growth_every": "$growth_every", "growth_max": 2}}
        added_params = {"peak", "sustain", "fade_to", "relax", "summons", "growth_every", "wound_intensity"}
        assert {k: hybrid["parameters"].pop(k)["default"] for k in added_params} == {
            "peak": 40, "sustain": 1, "fade_to": 20, "relax": 2, "summons": "1d3", "growth_every": 2,
            "wound_intensity": 20}
        for phase in hybrid["phases"]:
            phase["systems"] = [s for s in phase["systems"]
                                if not (isinstance(s, dict) and s["system"] == "core.intensity")]
    hybrid["steps"]["spawn"] = base["steps"]["spawn"]
    assert hybrid == base


def test_shambling_sza_a_striker_attacks_its_own_opponents_first_and_never_the_fallen() -> None:
    """The hybrid's strike: the striking side picks among the figures the strike may hurt that
    still stand (short of their limit), the attacker's own opponents first ("attack a figure
    engaged with you"); with none of those, any of them. The heuristic finishes off the weakest."""
    game, survivor, zombie = _fight()
    make = game.ruleset.prefabs["zombie"].make  # type: ignore[attr-defined]
    other, fallen, hurt = (game.world.create(*make()) for _ in range(3))  # type: ignore[attr-defined]
    game.world.get(fallen, Wounds).taken = 6  # type: ignore[attr-defined]
    game.world.get(hurt, Wounds).taken = 5  # type: ignore[attr-defined]
    eligible = [other, zombie, fallen, hurt]
    force(game, dice=[10, 10])  # 100: a miss, whoever is struck
    asked = run_system(game, "strike", board=0, zone="front", side="survivors", attackers=[survivor],  # type: ignore[arg-type]
                       eligible=eligible, supporters=[], attacker_player="player:0", defender_player="narrator")
    assert asked == [] and events(game, "attack")[0]["target"] == zombie  # its one opponent: no choice
    game.world.get(survivor, Engaged).opponents = []  # type: ignore[attr-defined]
    force(game, dice=[10, 10])
    asked = run_system(game, "strike", board=0, zone="front", side="survivors", attackers=[survivor],  # type: ignore[arg-type]
                       eligible=eligible, supporters=[], attacker_player="player:0", defender_player="narrator")
    assert [d.options for d in asked] == [[other, zombie, hurt]]
    assert events(game, "attack")[-1]["target"] == hurt  # 1 Stamina left: the weakest


@pytest.mark.parametrize("count", [0, 1])
def test_sza_paced_summons_nothing_for_none_and_one_for_one(count: int) -> None:
    """The pacer's summons on an SZA board: none asked, no area picked and nothing spawned; one
    asked, one zombie."""
    game = _laid_out()
    asked = run_system(game, "summon", answers={"hybrids.spawn_area": "level1"}, count=count)
    assert len([d for d in asked if d.kind == "hybrids.spawn_area"]) == count
    assert len(events(game, "spawned")) == count


def test_sza_paced_summons_nothing_before_the_board_is_laid_out() -> None:
    """Before a scenario's board is laid out there is nowhere to bring zombies in: nothing happens."""
    game = new_game("sza-paced", seed=1)
    assert run_system(game, "summon", count=2) == [] and events(game, "spawned") == []


@pytest.mark.parametrize(("where", "area"), [((20, 6), "level1"), ((16, 11), "level2"), ((1, 1), "level2")])
def test_sza_paced_summons_come_where_the_nearest_square_is_farthest_from_the_party(
        where: tuple[int, int], area: str) -> None:
    """The game master's heuristic (as Left 4 Dead's director spawns out of sight): the area whose
    nearest spawn square is farthest from every character, squares and diagonals counting 1. The
    bungalow's level1 squares: (1, 2) (10, 1) (19, 3) (19, 10) (12, 10) (1, 7); level2: (28, 1)
    (23, 9) (30, 10) (33, 6). From (20, 6): level1 is 3 away at (19, 3), level2 3 away at (23, 9):
    a tie, the first; from (16, 11): level1 3 at (19, 10), level2 7 at (23, 9)."""
    from ecs_zombie.components import Position
    from ecs_zombie.systems.sza.state import characters

    game = _laid_out()
    for ent in characters(game):  # type: ignore[arg-type]
        pos = game.world.get(ent, Position)  # type: ignore[attr-defined]
        pos.x, pos.y = where
    asked = run_system(game, "summon", count=1)  # the heuristic picks
    assert [d.options for d in asked if d.kind == "hybrids.spawn_area"] == [["level1", "level2"]]
    assert events(game, "spawned")[0]["at"] in {"level1": LEVEL1, "level2": LEVEL2}[area]


def test_shambling_sza_figures_start_unwounded_with_their_stamina() -> None:
    """Design (prefabs/hybrids/shambling-sza/figures.yaml): survivors have 12 Stamina, the hero 16,
    a zombie 6, and none starts with any taken."""
    game = new_game("shambling-sza", seed=1)
    limits = sorted(game.world.get(e, Wounds).limit for e, f in game.world.query1(Faction) if f.side == "survivors")
    assert limits[-1] == 16 and set(limits[:-1]) == {12}
    assert all(w.taken == 0 for _e, w in game.world.query1(Wounds))
    zombie = game.world.get(game.world.create(*game.ruleset.prefabs["zombie"].make()), Wounds)
    assert (zombie.taken, zombie.limit) == (0, 6)
    game.close()


@pytest.mark.parametrize(("striker", "roll", "hit"), [("hero", 73, True), ("hero", 74, False),
                                                      ("zombie", 35, True), ("zombie", 36, False)])
def test_shambling_sza_the_hero_and_a_zombie_strike_by_their_accuracy(striker: str, roll: int, hit: bool) -> None:
    """Design (shambling-sza figures): the hero's Accuracy 70 with a fire axe (+3 stationary) hits
    at 73 or under and takes 1d10 + 2 (Strength 75); a zombie's Accuracy 35 with its bite (+0) hits
    at 35 or under and takes 1d10 (Strength 50: no Bonus Attack Value). The damage die forced 1."""
    game, _survivor, zombie = _fight()
    hero = next(e for e, f in game.world.query1(Faction)  # type: ignore[attr-defined]
                if f.side == "survivors" and game.world.get(e, Wounds).limit == 16)  # type: ignore[attr-defined]
    game.world.get(hero, Engaged).opponents = [zombie]  # type: ignore[attr-defined]
    game.world.get(zombie, Engaged).opponents = [hero]  # type: ignore[attr-defined]
    attacker, target, side = (hero, zombie, "survivors") if striker == "hero" else (zombie, hero, "zombies")
    force(game, dice=[roll // 10 or 10, roll % 10 or 10, 1])
    _strike(game, side, [attacker], [target])
    (attack,) = events(game, "attack")
    assert (attack["chance"], attack["hit"]) == (73 if striker == "hero" else 35, hit)
    damage = (3 if striker == "hero" else 1) if hit else 0
    assert game.world.get(target, Wounds).taken == damage  # type: ignore[attr-defined]
