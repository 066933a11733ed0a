"""The adaptive director: Left 4 Dead's pacing instead of a D3 of director cards.

Published design (Booth, "The AI Systems of Left 4 Dead", 2009; summary in the design notes):
per-survivor intensity rises with damage, incapacitation and nearby kills and decays when nothing
threatens; the director cycles Build Up (full threat until the peak intensity crosses a
threshold) -> Sustain Peak (briefly) -> Peak Fade (minimal threat until intensity falls) -> Relax
(calm for a while, or until the team has advanced far enough); mobs only in Build Up, growing the
longer since the last, mostly behind the team. It "adjusts pacing, not difficulty".

`director.adaptive` replaces `director.draw` in the ruleset and nothing else: it decides how many
director cards reach the hand and where this round's zombies appear; suppressing fire, the
special conditions and lurking are the board game's own. Intensity is measured by
`director.intensity` (both rulesets run it). Every threshold and duration is a parameter.
"""

from __future__ import annotations

from ecs_zombie.components import Position
from ecs_zombie.game import Game
from ecs_zombie.schedule import system
from ecs_zombie.systems.director.board import Board, director, hex_of, survivors
from ecs_zombie.systems.director.components import Intensity
from ecs_zombie.systems.director.director import card_count, draw_cards, join_lurkers

BUILD_UP, SUSTAIN, FADE, RELAX = "build_up", "sustain_peak", "peak_fade", "relax"


def team_depth(game: Game) -> int:
    """How far along the route the team has come: the deepest tile a survivor stands on."""
    board = Board(game)
    depths = [board.tiles[t].depth for e in survivors(game)
              if (t := board.tile_of.get(hex_of(game.world.get(e, Position)))) is not None]
    return max(depths, default=0)


def peak_intensity(game: Game) -> int:
    return max((i.value for _e, i in game.world.query1(Intensity)), default=0)


@system("director.adaptive", reads=("DirectorState", "Deck", "Card", "Intensity", "Loadout", "Position", "MapTile",
                                    "Markers", "Faction", "Owner"),
        writes=("DirectorState", "Deck"))
def adaptive(game: Game, dice: str = "1d3", noise: int = 1, peak: int = 70, sustain: int = 2, fade_to: int = 50,
             relax: int = 2, relax_advance: int = 2, growth_every: int = 1, behind: bool = True) -> None:
    """Director phase, adaptive: advance the pacing state, then draw director cards only in Build
    Up and Sustain Peak (D3 + modifiers + 1 per `growth_every` rounds since the last horde), placed
    on the rearmost tile when `behind`; in Peak Fade and Relax lurkers wait and nothing is drawn."""
    state = director(game)[1]
    state.since_horde = 0 if state.spawned else state.since_horde + 1
    top = peak_intensity(game)
    state.mode_rounds += 1
    old = state.mode
    if state.mode == BUILD_UP and top >= peak:
        state.mode = SUSTAIN
    elif state.mode == SUSTAIN and state.mode_rounds > sustain:
        state.mode = FADE
    elif state.mode == FADE and top <= fade_to:
        state.mode = RELAX
        state.advance_mark = team_depth(game)
    elif state.mode == RELAX and (state.mode_rounds > relax or team_depth(game) - state.advance_mark >= relax_advance):
        state.mode = BUILD_UP
    if state.mode != old:
        state.mode_rounds = 1
        game.log("director_mode", mode=state.mode, peak_intensity=top)
    state.placement = "rear" if behind else ""
    if state.mode in (BUILD_UP, SUSTAIN):
        # the horde bonus, growing with the rounds since the last, comes in Build Up only
        extra = state.since_horde // max(1, growth_every) if state.mode == BUILD_UP else 0
        draw_cards(game, card_count(game, dice, noise) + extra)
        join_lurkers(game)
    else:
        state.placement = ""
