"""The Director game's side of the adaptive director: the steps the core pacer (`core.pacer`,
`systems/core/pacing.py`, Booth 2009) calls.

`director-adaptive` schedules `core.pacer` where `director` draws a D3 of director cards, and maps
its steps here:

- `summon` -> `director.summon`: the pacer's `count` becomes that many director cards, plus the
  usual modifiers (the first player's tile card, held petrol cans, the team size), then last
  round's lurkers join the hand; this round's zombies appear on the rearmost tile when `behind`.
  Suppressing fire, special conditions and lurking are the board game's own, unchanged.
- `progress` -> `director.progress`: the team's advance is the deepest tile a survivor stands on,
  so that Relax ends early once the team is `relax_advance` tiles deeper.

Intensity is the core `Intensity`, measured by `core.intensity` in both rulesets (so that the two
directors can be compared); kills within 2 hexes count (`board.kill_zombie`).
"""

from __future__ import annotations

from ecs_zombie.components import Position
from ecs_zombie.game import Game
from ecs_zombie.schedule import system
from ecs_zombie.systems.core.pacing import pacer_state
from ecs_zombie.systems.director.board import Board, director, hex_of, survivors
from ecs_zombie.systems.director.director import card_modifier, draw_cards, join_lurkers


def team_depth(game: Game) -> int:
    """How far along the route the team has come: the deepest tile a survivor stands on."""
    board = Board(game)
    depths = [board.tiles[t].depth for e in survivors(game)
              if (t := board.tile_of.get(hex_of(game.world.get(e, Position)))) is not None]
    return max(depths, default=0)


@system("director.summon",
        reads=("DirectorState", "Deck", "Card", "Loadout", "Position", "MapTile", "Markers", "Faction", "Owner",
               "FloorItem", "LadderLink", "Tally"),
        writes=("DirectorState", "Deck"))
def summon(game: Game, count: int, noise: int = 1, behind: bool = True) -> None:
    """The pacer's summons: `count` director cards plus the usual modifiers (never below 0), then
    last round's lurkers join the hand; placed on the rearmost tile when `behind`."""
    mod = card_modifier(game, noise)
    total = max(0, count + mod)
    game.log("director_cards", roll=count, modifier=mod, cards=total)
    draw_cards(game, total)
    join_lurkers(game)
    director(game)[1].placement = "rear" if behind else ""


@system("director.progress",
        reads=("PacerState", "Position", "Faction", "MapTile", "Owner", "DirectorState", "FloorItem", "LadderLink",
               "Tally"),
        writes=("PacerState",))
def progress(game: Game) -> None:
    """The team's progress for the pacer: the deepest tile a survivor stands on."""
    pacer_state(game).progress = team_depth(game)
