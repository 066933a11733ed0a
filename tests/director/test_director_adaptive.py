"""The adaptive director (Booth 2009): intensity per survivor, the Build Up -> Sustain Peak ->
Peak Fade -> Relax cycle, hordes only in Build Up growing with time and placed behind the team;
and the ruleset is director.yaml with one system swapped."""

from __future__ import annotations

from typing import Any

from ecs_zombie.data import load_yaml, plain
from ecs_zombie.ruleset import RULESETS_DIR
from ecs_zombie.systems.director.board import kill_zombie
from ecs_zombie.systems.director.components import Intensity
from tests.director.director_setup import force, hp, put, run_system, setup, state, zombie, zombies_at

PACING = {"peak": 60, "sustain": 1, "fade_to": 25, "relax": 2, "relax_advance": 2, "growth_every": 2}


def intensity(game: Any, ent: int, value: int | None = None) -> int:
    i = game.world.get(ent, Intensity)
    if value is not None:
        i.value = value
    return i.value


def test_intensity_rises_with_damage_pins_and_kills_and_decays_when_safe(make_game: Any) -> None:
    """Intensity: +10 per hit point lost, +15 on being pinned, +4 per nearby kill; -10 a round when
    no zombie is adjacent (`threat` 1)."""
    game = make_game("director-adaptive")
    p0, p1 = setup(game)
    put(game, p0, 0, 0)
    put(game, p1, -2, 2)
    zombie(game, 1, 0)
    run_system(game, "director.zombie_attack")
    run_system(game, "director.intensity")
    assert (intensity(game, p0), intensity(game, p1)) == (10, 0)
    hp(game, p0, 0)
    run_system(game, "director.pin")
    run_system(game, "director.intensity")
    assert intensity(game, p0) == 25
    kill_zombie(game, zombies_at(game)[(1, 0)], "test")
    run_system(game, "director.intensity")
    assert intensity(game, p0) == 29
    run_system(game, "director.intensity")
    assert intensity(game, p0) == 19


def test_build_up_sustain_fade_relax_cycle(make_game: Any) -> None:
    """Build Up until the peak intensity crosses 60 -> Sustain Peak for 1 round -> Peak Fade until
    it falls to 25 -> Relax for 2 rounds -> Build Up; cards are drawn only in Build Up and Sustain."""
    game = make_game("director-adaptive")
    p0, _p1 = setup(game)
    st = state(game)
    st.spawned = 1
    force(game, dice=[2])
    run_system(game, "director.adaptive", **PACING)
    assert st.mode == "build_up" and len(st.hand) == 2 and st.placement == "rear"
    st.hand = []
    intensity(game, p0, 70)
    force(game, dice=[1])
    run_system(game, "director.adaptive", **PACING)
    assert st.mode == "sustain_peak" and len(st.hand) == 1
    st.hand = []
    run_system(game, "director.adaptive", **PACING)
    assert st.mode == "peak_fade" and st.hand == []
    run_system(game, "director.adaptive", **PACING)
    assert st.mode == "peak_fade"
    intensity(game, p0, 20)
    run_system(game, "director.adaptive", **PACING)
    assert st.mode == "relax" and st.hand == []
    run_system(game, "director.adaptive", **PACING)
    assert st.mode == "relax"
    force(game, dice=[1])
    run_system(game, "director.adaptive", **PACING)
    assert st.mode == "build_up" and len(st.hand) >= 1


def test_hordes_grow_the_longer_since_the_last(make_game: Any) -> None:
    """"mobs ... growing the longer since the last": +1 card per 2 rounds without new zombies."""
    game = make_game("director-adaptive")
    setup(game)
    st = state(game)
    st.spawned, st.since_horde = 0, 3
    force(game, dice=[1])
    run_system(game, "director.adaptive", **PACING)
    assert st.since_horde == 4 and len(st.hand) == 1 + 2


def test_relax_ends_early_when_the_team_advances(make_game: Any) -> None:
    """Relax lasts its rounds "or until the team has advanced far enough" (2 tiles)."""
    game = make_game("director-adaptive")
    setup(game)
    st = state(game)
    st.mode, st.mode_rounds, st.advance_mark = "relax", 0, -2
    force(game, dice=[1])
    run_system(game, "director.adaptive", **PACING)
    assert st.mode == "build_up"


def test_adaptive_ruleset_is_the_card_ruleset_with_one_system_swapped() -> None:
    """director-adaptive.yaml = director.yaml but `director.draw` -> `director.adaptive` (+ its ids)."""
    base = plain(load_yaml(RULESETS_DIR / "director.yaml"))
    adapt = plain(load_yaml(RULESETS_DIR / "director-adaptive.yaml"))
    for key in ("id", "name", "description", "default_scenario"):
        base.pop(key), adapt.pop(key)
    swapped = adapt["phases"][0]["systems"][1]
    assert swapped["system"] == "director.adaptive"
    assert base["phases"][0]["systems"][1]["system"] == "director.draw"
    adapt["phases"][0]["systems"][1] = base["phases"][0]["systems"][1]
    # ... and the parameters the swapped system takes its thresholds from ($name), nothing else.
    own = {v[1:] for v in swapped["params"].values() if isinstance(v, str) and v.startswith("$")}
    assert own and own <= set(adapt["parameters"])
    for name in own:
        adapt["parameters"].pop(name)
    assert adapt == base
