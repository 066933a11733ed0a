"""The adaptive director (Booth 2009): intensity per survivor, the Build Up -> Sustain Peak ->
Peak Fade -> Relax cycle of the core pacer (`systems/core/pacing.py`), hordes only in Build Up
growing with time and placed behind the team through the Director game's `summon` step; and the
ruleset is director.yaml with one system swapped.

Published design (the design notes): intensity "rises with damage taken, being incapacitated and
nearby kills, and decays when no infected are attacking"; Build Up "until the peak intensity
crosses a threshold" -> Sustain Peak (briefly) -> Peak Fade "(minimal threat until intensity
drops)" -> Relax "(30-45 s, or until the team has advanced far enough)"; "mobs only during Build
Up, growing the longer since the last; most mobs come from behind the team". The figures are the
design's (director-adaptive.yaml), written here as literals."""

from __future__ import annotations

from typing import Any

import pytest

from ecs_zombie.data import load_yaml, plain
from ecs_zombie.errors import DataError
from ecs_zombie.ruleset import RULESETS_DIR
from ecs_zombie.systems.director.board import kill_zombie
from tests.director.director_setup import (
    BUILD_UP,
    FADE,
    RELAX,
    SUSTAIN,
    director_hand,
    east_tile,
    equip,
    events,
    faces,
    force,
    hp,
    intensity,
    lay_after,
    mark,
    pacer,
    put,
    run_defaults,
    run_system,
    setup,
    state,
    tiles,
    zombie,
    zombies_at,
    zombies_just_appeared,
)


def _measure(game: Any, how: str) -> None:
    """The Admin phase's intensity: as the ruleset runs it (its YAML's figures) or with the
    system's own defaults (the same figures)."""
    if how == "ruleset":
        run_system(game, "core.intensity")
    else:
        run_defaults(game, "core.intensity")


MEASURES = pytest.mark.parametrize(("ruleset", "how"), [("director", "ruleset"), ("director-adaptive", "ruleset"),
                                                        ("director", "defaults")])


@MEASURES
def test_intensity_rises_with_wounds_going_down_and_kills(make_game: Any, ruleset: str, how: str) -> None:
    """Intensity "rises with damage taken, being incapacitated and nearby kills" (design: +10 a
    wound, +15 on going down, once, +4 a zombie killed within 2 hexes) and decays by 20 in a round
    the survivor is not attacked; both rulesets measure it the same way."""
    game = make_game(ruleset)
    p0, p1 = setup(game)
    put(game, p0, 0, 0)
    put(game, p1, -2, 2)
    zombie(game, 1, 0)
    zombie(game, 0, -1)
    run_system(game, "director.zombie_attack")  # two wounds
    _measure(game, how)
    assert (intensity(game, p0), intensity(game, p1)) == (20, 0)
    hp(game, p0, 0)  # six more wounds (8 hit points), and down
    _measure(game, how)
    assert intensity(game, p0) == 20 + 60 + 15
    hp(game, p0, 0)
    _measure(game, how)  # not attacked this round: decays; still down counts nothing
    assert intensity(game, p0) == 95 - 20
    intensity(game, p1, 30)
    put(game, p1, -1, 1)  # two hexes from (1, 0)
    kill_zombie(game, zombies_at(game)[(1, 0)], "test")
    _measure(game, how)
    assert (intensity(game, p0), intensity(game, p1)) == (75 + 4 - 20, 30 + 4 - 20)
    put(game, p1, -2, 2)  # three hexes from (0, -1): no credit
    intensity(game, p1, 50)
    kill_zombie(game, zombies_at(game)[(0, -1)], "test")
    _measure(game, how)
    assert (intensity(game, p0), intensity(game, p1)) == (59 + 4 - 20, 50 - 20)


@MEASURES
def test_intensity_stays_between_0_and_100(make_game: Any, ruleset: str, how: str) -> None:
    """Intensity is kept within 0..100 (design `cap`): two wounds at 95 make 100, a quiet round
    at 5 makes 0."""
    game = make_game(ruleset)
    p0, p1 = setup(game)
    put(game, p0, 0, 0)
    put(game, p1, -2, 2)
    intensity(game, p0, 95)
    intensity(game, p1, 5)
    zombie(game, 1, 0)
    zombie(game, 0, -1)
    run_system(game, "director.zombie_attack")
    _measure(game, how)
    assert (intensity(game, p0), intensity(game, p1)) == (100, 0)


def test_going_down_counts_again_after_a_revive(make_game: Any) -> None:
    """Being incapacitated raises intensity each time it happens: down, revived to 1, down again
    (design: +15 each time, and +10 a wound)."""
    game = make_game("director")
    p0, _p1 = setup(game)
    hp(game, p0, 0)
    _measure(game, "ruleset")
    assert intensity(game, p0) == 80 + 15
    hp(game, p0, 1)  # revived: a wound healed is no wound taken, and the quiet round decays
    _measure(game, "ruleset")
    assert intensity(game, p0) == 75
    hp(game, p0, 0)
    _measure(game, "ruleset")
    assert intensity(game, p0) == 100


# -- the pacing, as the ruleset runs it (director-adaptive.yaml) ----------------------------------------


def _adapt(game: Any, d3: int = 1, how: str = "ruleset") -> list[str]:
    """One Director phase of the adaptive director with the ruleset's parameters (or the system's
    own defaults, which are the same figures); the faces drawn."""
    st = state(game)
    st.hand = []
    force(game, dice=[d3])
    (run_system if how == "ruleset" else run_defaults)(game, "core.pacer")
    return faces(game, st.hand)


HOW = pytest.mark.parametrize("how", ["ruleset", "defaults"])


@HOW
def test_build_up_until_the_peak_intensity_reaches_40(make_game: Any, how: str) -> None:
    """Build Up "until the peak intensity crosses a threshold" (design: 40, `peak`): at 39 it
    builds up (cards behind the team, one more for a held petrol can), at 40 Sustain Peak begins."""
    game = make_game("director-adaptive")
    p0, p1 = setup(game)
    equip(game, p0, "petrol", ["petrol"])
    zombies_just_appeared(game)
    intensity(game, p0, 39)
    intensity(game, p1, 12)
    assert len(_adapt(game, how=how)) == 2 and pacer(game).mode == BUILD_UP and state(game).placement == "rear"
    zombies_just_appeared(game)
    since = mark(game)
    intensity(game, p1, 40)
    assert len(_adapt(game, 2, how)) == 3 and pacer(game).mode == SUSTAIN and state(game).placement == "rear"
    assert events(game, "pacing_mode", since) == [{"mode": SUSTAIN, "peak_intensity": 40}]


def test_the_peak_is_the_highest_among_survivors_still_up(make_game: Any) -> None:
    """Design: a survivor who is down is out of the fight; the peak is taken among those above 0
    hit points (one lying at 100 does not end Build Up while the one standing is at 30)."""
    game = make_game("director-adaptive")
    p0, p1 = setup(game)
    hp(game, p0, 0)
    intensity(game, p0, 100)
    intensity(game, p1, 30)
    _adapt(game)
    assert pacer(game).mode == BUILD_UP
    hp(game, p1, 0)  # nobody up: the highest of all
    _adapt(game)
    assert pacer(game).mode == SUSTAIN


@HOW
def test_sustain_peak_draws_a_d3_for_one_round_then_peak_fade(make_game: Any, how: str) -> None:
    """Sustain Peak "(3-5 s)" (design: 1 round, `sustain`, D3 cards, no growth) -> Peak Fade."""
    game = make_game("director-adaptive")
    p0, _p1 = setup(game)
    st = pacer(game)
    st.mode, st.mode_rounds, st.growth = BUILD_UP, 3, 3
    intensity(game, p0, 80)
    assert len(_adapt(game, 2, how)) == 2 and st.mode == SUSTAIN
    since = mark(game)
    assert _adapt(game, how=how) == [] and st.mode == FADE
    assert events(game, "pacing_mode", since) == [{"mode": FADE, "peak_intensity": 80}]


@HOW
def test_peak_fade_until_the_peak_intensity_is_down_to_20_and_lurkers_wait(make_game: Any, how: str) -> None:
    """Peak Fade: "minimal threat until intensity drops" (design: no cards until the highest
    intensity is 20 or less, `fade_to`; lurking cards wait) -> Relax."""
    game = make_game("director-adaptive")
    p0, _p1 = setup(game)
    st = pacer(game)
    st.mode, st.mode_rounds = FADE, 1
    (smoker,) = director_hand(game, ["SMOKER"])
    state(game).hand, state(game).lurking = [], [smoker]
    intensity(game, p0, 21)
    assert _adapt(game, how=how) == [] and st.mode == FADE and state(game).lurking == [smoker]
    intensity(game, p0, 20)
    assert _adapt(game, how=how) == [] and st.mode == RELAX and state(game).lurking == [smoker]


@HOW
def test_relax_lasts_two_rounds_and_completes_a_cycle(make_game: Any, how: str) -> None:
    """Relax "(30-45 s, or until the team has advanced far enough)" (design: 2 rounds, `relax`, no
    cards) -> Build Up, where last round's lurkers join the hand; the cycle is counted."""
    game = make_game("director-adaptive")
    setup(game)
    st = pacer(game)
    st.mode, st.mode_rounds = FADE, 4
    (smoker,) = director_hand(game, ["SMOKER"])
    state(game).hand, state(game).lurking = [], [smoker]
    assert _adapt(game, how=how) == [] and st.mode == RELAX
    assert _adapt(game, how=how) == [] and st.mode == RELAX and st.cycles == 0
    since = mark(game)
    drawn = _adapt(game, how=how)  # a D3 of 1, no growth (none in Relax), and the lurker
    assert st.mode == BUILD_UP and st.cycles == 1 and len(drawn) == 2 and smoker in state(game).hand
    assert events(game, "pacing_mode", since) == [{"mode": BUILD_UP, "peak_intensity": 0}]
    assert game.metrics()["pacer_cycles"] == 1 and game.metrics()["director_mode"] == BUILD_UP


@pytest.mark.parametrize(("deeper", "mark", "mode"), [(1, 0, RELAX), (2, 0, BUILD_UP), (2, 1, RELAX)])
def test_relax_ends_when_the_team_is_two_tiles_deeper(make_game: Any, deeper: int, mark: int, mode: str) -> None:
    """Relax ends early "until the team has advanced far enough" (design: 2 tiles, `relax_advance`,
    the deepest tile a survivor stands on, counted from where Relax began: the `progress` step).
    From a mark of 1, depth 2 is one tile of advance: Relax goes on."""
    game = make_game("director-adaptive")
    p0, p1 = setup(game)
    t1 = east_tile(game)
    (t2,) = lay_after(game, t1, ["ALLEY", "QUIET"])
    st = pacer(game)
    st.mode, st.mode_rounds, st.advance_mark = RELAX, 1, mark
    put(game, p0, *((5, 0) if deeper == 1 else (10, 0)))
    put(game, p1, 0, 0)
    assert tiles(game)[t2].depth == 2
    _adapt(game)
    assert st.mode == mode and st.progress == deeper


def test_without_a_progress_step_relax_ends_on_time_only(make_game: Any) -> None:
    """The core pacer on its own (no `progress` step named) knows no advance: Relax lasts its 2
    rounds however deep the team goes."""
    game = make_game("director-adaptive")
    p0, p1 = setup(game)
    t1 = east_tile(game)
    lay_after(game, t1, ["ALLEY", "QUIET"])
    st = pacer(game)
    st.mode, st.mode_rounds, st.advance_mark = RELAX, 1, 0
    put(game, p0, 10, 0)
    put(game, p1, 0, 0)
    _adapt(game, how="defaults")
    assert (st.mode, st.progress) == (RELAX, 0)
    _adapt(game, how="defaults")
    assert st.mode == BUILD_UP


def test_entering_relax_marks_the_teams_depth(make_game: Any) -> None:
    """Relax counts the advance from the deepest tile a survivor stood on when it began."""
    game = make_game("director-adaptive")
    p0, p1 = setup(game)
    east_tile(game)
    st = pacer(game)
    st.mode, st.mode_rounds = FADE, 1
    put(game, p0, 5, 0)
    put(game, p1, 0, 0)
    _adapt(game)
    assert (st.mode, st.advance_mark) == (RELAX, 1)


@pytest.mark.parametrize(("mode", "growth", "appeared", "after", "cards"), [
    (BUILD_UP, 0, False, 1, 1 + 1),   # a Build Up round without new zombies: one more card
    (BUILD_UP, 2, False, 3, 1 + 3),
    (BUILD_UP, 3, False, 3, 1 + 3),   # at most 3 rounds count (`growth_max`)
    (BUILD_UP, 3, True, 0, 1),        # zombies appeared: the count starts again
    (RELAX, 2, False, 2, 1 + 2),      # a Relax round adds nothing (Relax ends here: Build Up draws)
])
@HOW
def test_build_up_grows_one_card_a_build_up_round_since_zombies_last_appeared(
        make_game: Any, mode: str, growth: int, appeared: bool, after: int, cards: int, how: str) -> None:
    """"mobs only during Build Up, growing the longer since the last" (design: +1 card a Build Up
    round without new zombies, `growth_every` 1, at most `growth_max` 3 rounds; new zombies start
    the count again; Peak Fade and Relax rounds add nothing)."""
    game = make_game("director-adaptive")
    setup(game)
    st = pacer(game)
    st.mode, st.mode_rounds, st.growth = mode, 5, growth
    if appeared:
        zombie(game, 3, 3)
    assert len(_adapt(game, how=how)) == cards and st.growth == after and st.mode == BUILD_UP


def test_a_zombie_seen_once_is_not_new_again(make_game: Any) -> None:
    """The pacer remembers the newest zombie it saw: the same zombie next round is no new zombie,
    and that Build Up round grows the horde."""
    game = make_game("director-adaptive")
    setup(game)
    zombie(game, 3, 3)
    _adapt(game)
    assert pacer(game).growth == 0
    _adapt(game)
    assert pacer(game).growth == 1


def test_the_first_round_of_a_fresh_game_builds_up_with_one_more_card(make_game: Any) -> None:
    """Build Up from the start: with no zombie on the map, round 1 is a Build Up round without new
    zombies: a D3 and one card of growth; the pacer's state is made on its first run."""
    game = make_game("director-adaptive")
    setup(game)
    assert len(_adapt(game)) == 2 and pacer(game).mode == BUILD_UP


def test_the_card_director_has_no_pacing(make_game: Any) -> None:
    """`director` keeps no pacing state: its figures say so."""
    game = make_game("director")
    setup(game)
    force(game, dice=[1])
    run_system(game, "director.draw")
    assert (game.metrics()["director_mode"], game.metrics()["pacer_cycles"]) == ("none", 0)


def test_adaptive_ruleset_is_the_card_ruleset_with_one_system_swapped() -> None:
    """director-adaptive.yaml = director.yaml but `director.draw` -> `core.pacer` (+ its ids, its
    parameters, and its two steps mapped to the Director game)."""
    base = plain(load_yaml(RULESETS_DIR / "director.yaml"))
    adapt = plain(load_yaml(RULESETS_DIR / "director-adaptive.yaml"))
    for key in ("id", "name", "description", "default_scenario"):
        base.pop(key), adapt.pop(key)
    swapped = adapt["phases"][0]["systems"][1]
    assert swapped["system"] == "core.pacer"
    assert base["phases"][0]["systems"][1]["system"] == "director.draw"
    adapt["phases"][0]["systems"][1] = base["phases"][0]["systems"][1]
    # ... and the parameters the swapped system takes its thresholds from ($name), nothing else.
    own = {v[1:] for v in swapped["params"].values() if isinstance(v, str) and v.startswith("$")}
    assert own and own <= set(adapt["parameters"])
    for name in own:
        adapt["parameters"].pop(name)
    assert adapt.pop("steps") == {"summon": {"system": "director.summon", "params": {"noise": 1, "behind": True}},
                                  "progress": "director.progress"}
    assert adapt == base


# (ruleset, parameter, lowest, highest) accepted: the ruleset's tunable figures and their bounds.
BOUNDS = [
    ("director", "zombie_move", 0, 10), ("director", "player_move", 0, 10), ("director", "ladder_cost", 1, 10),
    ("director-adaptive", "zombie_move", 0, 10), ("director-adaptive", "player_move", 0, 10),
    ("director-adaptive", "ladder_cost", 1, 10), ("director-adaptive", "peak", 1, 100),
    ("director-adaptive", "sustain", 0, 10), ("director-adaptive", "fade_to", 0, 100),
    ("director-adaptive", "relax", 0, 20), ("director-adaptive", "relax_advance", 0, 20),
    ("director-adaptive", "growth_every", 1, 10), ("director-adaptive", "growth_max", 0, 20),
]


@pytest.mark.parametrize(("ruleset", "name", "low", "high"), BOUNDS)
def test_parameter_bounds(make_game: Any, ruleset: str, name: str, low: int, high: int) -> None:
    """`--param` takes each figure within its stated range and refuses one step beyond, in one line."""
    for value in (low, high):
        assert make_game(ruleset, params={name: value}).params[name] == value
    for value in (low - 1, high + 1):
        with pytest.raises(DataError, match=name):
            make_game(ruleset, params={name: value})
