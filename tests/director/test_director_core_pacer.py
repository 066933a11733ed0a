"""The adaptive director's pacing machine as a core system (issue 11, point 7: "the adaptive
director's pacing machine as a system that needs only per-figure intensity and a place to summon,
not the hex board"), mapped into a tiny square-grid ruleset (tests/director/square_pacing.py) that
loads no Director package, lays no hex and draws no director card.

The design followed is Booth's (2009): Build Up "until the peak intensity crosses a threshold",
Sustain Peak briefly, Peak Fade "until intensity drops", Relax "for a while", mobs only in Build Up
"growing the longer since the last"; thresholds are the design's documented defaults (peak 40,
fade to 20, sustain 1 round, relax 2 rounds; docs/director.md, "The core pacer")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ecs_zombie import testing
from ecs_zombie.components import SQUARE, Faction, Position, Wounds
from ecs_zombie.systems.core.pacing import BUILD_UP, FADE, RELAX, SUSTAIN, Intensity, PacerState
from tests.director import square_pacing  # noqa: F401  (registers the square game's systems)
from tests.helpers import events, force, run_system

RULESET = """\
id: square-paced
name: a square grid paced by the core pacer
tick: round
max_ticks: 12
packages: [core, tests.director.square_pacing]
prefabs: [pieces.yaml]
phases:
  - name: zombies
    systems:
      - {system: core.pacer, params: {dice: 1d3}}
      - square.shamble
  - name: end
    systems: [core.intensity, square.end]
steps:
  summon: {system: square.summon, params: {x: 4, y: 0}}
metrics: square.metrics
"""

PIECES = """\
hero:
  Kind: {name: hero}
  Faction: {side: survivors}
  Position: {x: 0, y: 0, grid: square}
  Wounds: {taken: 0, limit: 12}
  Intensity: {}
board:
  Kind: {name: board}
  Tally: {}
"""


@pytest.fixture
def square(tmp_path: Path) -> str:
    (tmp_path / "ruleset.yaml").write_text(RULESET)
    (tmp_path / "pieces.yaml").write_text(PIECES)
    (tmp_path / "scenario.yaml").write_text("ruleset: ruleset.yaml\nentities: [{prefab: hero}, {prefab: board}]\n")
    return str(tmp_path / "scenario.yaml")


def _pacer(game: Any) -> PacerState:
    return game.world.query1(PacerState)[0][1]


def _hero(game: Any) -> int:
    return next(e for e, f in game.world.query1(Faction) if f.side == "survivors")


def _zombies(game: Any) -> list[Position]:
    return [game.world.get(e, Position) for e, f in game.world.query1(Faction) if f.side == "zombies"]


def _round(game: Any, d3: int | None = None) -> list[dict[str, Any]]:
    """One pass of the pacer (its D3 forced when it summons): the zombies it brought in."""
    since = len(game.events)
    if d3 is not None:
        force(game, dice=[d3])
    run_system(game, "core.pacer")
    return [data for _t, kind, data, _p in game.events[since:] if kind == "zombies_arrive"]


def test_the_pacer_runs_a_whole_cycle_on_a_square_grid(make_game: Any, square: str) -> None:
    """Build Up summons (a D3, + 1 for a Build Up round without new zombies) through the ruleset's
    own `summon` step (zombies on the square spawn point); at a peak intensity of 40 Sustain Peak
    summons a D3 for 1 round; Peak Fade and Relax summon nothing; after 2 rounds of Relax the next
    Build Up completes a cycle. No hex and no Director system anywhere."""
    game = make_game(square)
    assert tuple(game.ruleset.packages) == ("core", "tests.director.square_pacing")
    assert _round(game, 2) == [{"count": 3, "x": 4, "y": 0}]  # first round: D3 2 + 1 growth
    assert _pacer(game).mode == BUILD_UP
    assert {(p.x, p.y, p.grid) for p in _zombies(game)} == {(4, 0, SQUARE)}
    hero = _hero(game)
    game.world.get(hero, Wounds).taken = 4  # four bites this round
    run_system(game, "core.intensity")
    assert game.world.get(hero, Intensity).value == 40  # +10 a wound
    assert _round(game, 1) == [{"count": 1, "x": 4, "y": 0}]  # Sustain Peak: a D3, no growth
    assert _pacer(game).mode == SUSTAIN
    run_system(game, "core.intensity")  # no bite: -20
    assert game.world.get(hero, Intensity).value == 20
    assert _round(game) == [] and _pacer(game).mode == FADE
    assert _round(game) == [] and _pacer(game).mode == RELAX  # the peak is down to 20
    assert _round(game) == [] and _pacer(game).mode == RELAX
    assert _round(game, 3) == [{"count": 3, "x": 4, "y": 0}]
    assert (_pacer(game).mode, _pacer(game).cycles) == (BUILD_UP, 1)
    assert [e["mode"] for e in events(game, "pacing_mode")] == [SUSTAIN, FADE, RELAX, BUILD_UP]


def test_peak_fade_waits_for_the_intensity_to_drop(make_game: Any, square: str) -> None:
    """Peak Fade keeps the threat minimal "until intensity drops" (design: to 20): at 21 it holds
    and summons nothing."""
    game = make_game(square)
    st = PacerState(mode=FADE, mode_rounds=1)
    game.world.create(st)
    game.world.get(_hero(game), Intensity).value = 21
    assert _round(game) == [] and st.mode == FADE


def test_the_square_game_plays_whole_games_strictly(square: str) -> None:
    """The pacer mapped into a square-grid game plays to an end, saving and reloading at every
    round, with every access declared (strict mode): it needs nothing of the hex board."""
    for seed in range(3):
        testing.check_random_play(square, seed=seed)


def test_the_pacers_state_after_its_first_round(make_game: Any, square: str) -> None:
    """The state the pacer keeps (saved, shown by `inspect`): after its first round it is in Build
    Up for 1 round, no cycle done, one round of growth, no zombie seen yet (the ones it summons
    come after it looks), and no progress or advance measured."""
    game = make_game(square)
    _round(game, 2)
    assert _pacer(game) == PacerState(mode=BUILD_UP, mode_rounds=1, cycles=0, growth=1, zombie_mark=0, progress=0,
                                      advance_mark=0)


def test_a_figures_intensity_starts_at_zero_and_keeps_its_peak(make_game: Any, square: str) -> None:
    """Intensity starts at 0 (value and peak), and `peak` is the highest value so far: 40 after four
    wounds, still 40 once the value has decayed to 20."""
    game = make_game(square)
    hero = _hero(game)
    assert game.world.get(hero, Intensity) == Intensity(0, 0, 0, False, 0)
    run_system(game, "core.intensity")  # nothing happened: stays 0
    assert (game.world.get(hero, Intensity).value, game.world.get(hero, Intensity).peak) == (0, 0)
    game.world.get(hero, Wounds).taken = 4
    run_system(game, "core.intensity")
    run_system(game, "core.intensity")
    assert (game.world.get(hero, Intensity).value, game.world.get(hero, Intensity).peak) == (20, 40)


def test_the_peak_is_among_figures_with_a_hit_point_left(make_game: Any, square: str) -> None:
    """A figure with 1 hit point left is still in the fight: its intensity is the peak. With no
    figure carrying an intensity at all the peak is 0."""
    from ecs_zombie.systems.core.pacing import peak_intensity

    game = make_game(square)
    hero = _hero(game)
    other = game.world.create(Faction("survivors"), Position(1, 1, SQUARE), Wounds(0, 12), Intensity(value=10))
    game.world.get(hero, Wounds).taken = 11  # 1 of 12 left
    game.world.get(hero, Intensity).value = 70
    assert peak_intensity(game) == 70
    game.world.get(hero, Wounds).taken = 12  # down: the other figure holds the peak
    assert peak_intensity(game) == 10
    game.world.delete(other)
    game.world.delete(hero)
    assert peak_intensity(game) == 0


def test_sustain_peak_lasts_its_rounds(make_game: Any, square: str) -> None:
    """Sustain Peak lasts `sustain` rounds, the round it begins included: with 2, it summons in the
    round it begins and the next, and fades in the third."""
    game = make_game(square)
    st = PacerState(mode=BUILD_UP)
    game.world.create(st)
    game.world.get(_hero(game), Intensity).value = 40
    for d3, mode in ((1, SUSTAIN), (1, SUSTAIN), (None, FADE)):
        if d3 is not None:
            force(game, dice=[d3])
        run_system(game, "core.pacer", sustain=2)
        assert st.mode == mode


@pytest.mark.parametrize(("every", "growth", "extra"), [(2, 3, 1), (2, 1, 0), (1, 2, 2), (0, 2, 2)])
def test_build_up_grows_by_one_per_growth_every_rounds(make_game: Any, square: str, every: int, growth: int,
                                                       extra: int) -> None:
    """In Build Up one more per `growth_every` rounds since zombies last appeared: growth 3 at every
    2 rounds is one more, growth 1 none, growth 2 at every round two more; `growth_every` 0 counts
    as 1 (no division by zero)."""
    game = make_game(square)
    st = PacerState(mode=BUILD_UP, growth=growth - 1, zombie_mark=10**6)  # no newer zombie: it grows
    game.world.create(st)
    since = len(game.events)
    force(game, dice=[1])
    run_system(game, "core.pacer", growth_every=every)
    assert st.growth == growth
    assert [d["count"] for _t, k, d, _p in game.events[since:] if k == "zombies_arrive"] == [1 + extra]
