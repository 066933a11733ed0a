"""Pacing: Left 4 Dead's adaptive director as a system any game can use (Booth, "The AI Systems of
Left 4 Dead", 2009).

Published design: each survivor's *intensity* rises with damage taken, being incapacitated and
nearby kills, and decays when no infected are attacking; the director cycles **Build Up** (full
threat until the peak intensity crosses a threshold) -> **Sustain Peak** (briefly) -> **Peak
Fade** (minimal threat until intensity drops) -> **Relax** (a while, or until the team has advanced
far enough) -> Build Up; mobs only in Build Up, growing the longer since the last. It "adjusts
pacing, not difficulty".

What a game gives it, and nothing more:

- **Figures with an `Intensity`** (put `Intensity: {}` in the prefab of every figure to pace by)
  and the core `Wounds`. `core.intensity` measures it once a round (schedule it at the end of the
  round) from `Wounds.taken` (this round's wounds are what grew since the last measure) and
  `Wounds.left` (0 or less is "down"); a game that wants nearby kills to count bumps
  `Intensity.kills` in its own kill rule (the Director game counts kills within 2 hexes).
- **A place to summon**: `core.pacer` calls the ruleset's step `summon` with `count`, the number of
  things to bring this round (a roll of `dice`, plus the growth in Build Up). The step decides
  what that means: the Director game draws that many director cards, a square-grid game could
  spawn that many zombies.
- **Optionally, a measure of progress**: `progress: STEP` names a step that writes the team's
  advance (any unit that grows as the team advances) into `PacerState.progress`; Relax then ends
  early once it grew by `relax_advance` since Relax began. Without it Relax ends on time only.

The pacer keeps its state in a `PacerState` on an entity it makes on its first run; it sees zombies
appear as zombie entities (core `Faction` side `zombies`) newer than the newest it saw before
(entity ids only grow). Event: `pacing_mode` (`mode`, `peak_intensity`) on every change of mode.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass

from ecs_zombie.components import Faction, Kind, Wounds, component
from ecs_zombie.decisions import Decision
from ecs_zombie.game import Game
from ecs_zombie.schedule import system

BUILD_UP, SUSTAIN, FADE, RELAX = "build_up", "sustain_peak", "peak_fade", "relax"
MODES = (BUILD_UP, SUSTAIN, FADE, RELAX)


@component
@dataclass(slots=True)
class Intensity:
    """A figure's emotional intensity (Booth 2009), 0..cap: it rises with wounds taken, going down
    and zombies killed nearby, and decays in a round the figure is not attacked. `seen` is the
    `Wounds.taken` last measured (this round's wounds are the difference), `down` whether it was at
    0 hit points or less then, `kills` the zombies killed within reach since (bumped by the game's
    kill rule), `peak` the highest value so far."""

    value: int = 0
    peak: int = 0
    seen: int = 0
    down: bool = False
    kills: int = 0


@component
@dataclass(slots=True)
class PacerState:
    """The pacing director's state (Booth 2009): its `mode` (build_up, sustain_peak, peak_fade,
    relax) and the rounds spent in it; `growth`, Build Up rounds since zombies last appeared (capped);
    `zombie_mark`, the newest zombie entity seen (entity ids only grow, so a newer one appeared);
    `progress`, the team's advance as the game last measured it, and `advance_mark`, its value when
    Relax began; `cycles`, the times Relax has given way to Build Up (completed cycles)."""

    mode: str = BUILD_UP
    mode_rounds: int = 0
    cycles: int = 0
    growth: int = 0
    zombie_mark: int = 0
    progress: int = 0
    advance_mark: int = 0


@system("core.intensity",
        reads=("Intensity", "Wounds"),
        writes=("Intensity",))
def intensity(game: Game, hurt: int = 10, down: int = 15, kill: int = 4, decay: int = 20, cap: int = 100) -> None:
    """Per-figure intensity (Booth 2009), from what every game has: + `hurt` per wound taken since
    the last measure (`Wounds.taken` grew), + `down` on going down (0 hit points or less, once until
    back up), + `kill` per zombie killed within reach (the game's kill rule counts them); in a round
    the figure was not attacked (no wound taken) it decays by `decay`. Kept between 0 and `cap`."""
    for _ent, (inten, wounds) in game.world.query(Intensity, Wounds):
        taken = max(0, wounds.taken - inten.seen)
        now_down = wounds.left <= 0
        gain = taken * hurt + inten.kills * kill + (down if now_down and not inten.down else 0)
        value = inten.value + gain - (0 if taken else decay)
        inten.value = max(0, min(cap, value))
        inten.peak = max(inten.peak, inten.value)
        inten.seen, inten.down, inten.kills = wounds.taken, now_down, 0


def peak_intensity(game: Game) -> int:
    """The highest intensity among the figures still in the fight (above 0 hit points; DESIGN
    CHOICE: a figure that is down is out of the fight, and one lying among zombies would hold the
    peak at the cap for good); among all figures when none is up."""
    values = [(w.left > 0, i.value) for _e, (i, w) in game.world.query(Intensity, Wounds)]
    up = [v for is_up, v in values if is_up]
    return max(up or [v for _u, v in values], default=0)


def pacer_state(game: Game) -> PacerState:
    """The pacer's state, on an entity of its own made the first time it runs."""
    for _e, st in game.world.query1(PacerState):
        return st
    st = PacerState()
    game.world.create(Kind("pacer"), st)
    return st


def _progress(game: Game, st: PacerState, step: str) -> Generator[Decision, object, int]:
    """The team's progress, as the game's `step` writes it into the pacer's state."""
    yield from game.run_step(step, {})
    return st.progress


@system("core.pacer",
        reads=("Intensity", "Wounds", "Faction", "PacerState"),
        writes=("PacerState",),
        creates=("Kind", "PacerState"),
        calls={"summon": ("count",)},
        step_params=("progress",))
def pacer(game: Game, dice: str = "1d3", peak: int = 40, sustain: int = 1, fade_to: int = 20, relax: int = 2,
          relax_advance: int = 2, growth_every: int = 1, growth_max: int = 3,
          progress: str = "") -> Generator[Decision, object, None]:
    """The pacing director's round: advance Build Up -> Sustain Peak -> Peak Fade -> Relax by the
    peak intensity, then summon only in Build Up and Sustain Peak: `dice` things, in Build Up one
    more per `growth_every` Build Up rounds since zombies last appeared (at most `growth_max` rounds
    counted), through the ruleset's `summon` step; nothing in Peak Fade and Relax."""
    st = pacer_state(game)
    newest = max((e for e, f in game.world.query1(Faction) if f.side == "zombies"), default=0)
    if newest > st.zombie_mark:  # zombies appeared since the last look: the count starts again
        st.zombie_mark = newest
        st.growth = 0
    elif st.mode == BUILD_UP:  # growing the longer since the last, while building up only
        st.growth = min(growth_max, st.growth + 1)
    top = peak_intensity(game)
    st.mode_rounds += 1
    old = st.mode
    if st.mode == BUILD_UP and top >= peak:
        st.mode = SUSTAIN
    elif st.mode == SUSTAIN and st.mode_rounds > sustain:
        st.mode = FADE
    elif st.mode == FADE and top <= fade_to:
        st.mode = RELAX
        if progress:
            st.advance_mark = yield from _progress(game, st, progress)
    elif st.mode == RELAX:
        ended = st.mode_rounds > relax
        if not ended and progress:
            ended = (yield from _progress(game, st, progress)) - st.advance_mark >= relax_advance
        if ended:
            st.mode = BUILD_UP
            st.cycles += 1
    if st.mode != old:
        st.mode_rounds = 1
        game.log("pacing_mode", mode=st.mode, peak_intensity=top)
    if st.mode in (BUILD_UP, SUSTAIN):
        extra = st.growth // max(1, growth_every) if st.mode == BUILD_UP else 0
        yield from game.run_step("summon", {"count": game.roll(dice, "pacer summons") + extra})
