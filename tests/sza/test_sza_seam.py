"""The melee strike as a seam (`sza.melee_strike`, issue 11): one SZA melee attack from plain data,
usable by a ruleset with no SZA board ("Combat Sequence (Melee)": chance to hit = Accuracy + the
weapon's modifier; a d100 at or under it hits; damage = the weapon's dice + the move's damage
modifier + the Bonus Attack Value of Strength). A small ruleset of duelling figures, in its own
folder with its own systems module as a hybrid's would be, fights with it in strict mode; SZA's own
combat goes through the same step, the board's modifiers bound from the ruleset's parameters."""

from __future__ import annotations

from typing import Any

import pytest
from sza_helpers import ctx, d100, dice, drive, laid_out, logged, put, who, zombie

from ecs_zombie.components import Wounds
from ecs_zombie.schedule import lookup
from ecs_zombie.systems.sza.actions import perform

DUELSYS = '''
from ecs_zombie.components import Kind, Wounds
from ecs_zombie.registry import metrics
from ecs_zombie.schedule import system


@metrics("szaduel.metrics")
def numbers(game):
    return {}


@system("szaduel.duel", reads=("Kind", "Wounds"), calls={"melee_strike": ("attacker", "target", "pace")})
def duel(game, pace: str = "still"):
    """Each red figure strikes the first blue one (by entity id)."""
    blue = [e for e, k in game.world.query1(Kind) if k.name == "blue"]
    for red in [e for e, k in game.world.query1(Kind) if k.name == "red"]:
        yield from game.run_step("melee_strike", {"attacker": red, "target": blue[0], "pace": pace})
'''
RULESET = """\
id: szaduel
name: Duel
tick: turn
max_ticks: 2
packages: [core, sza, szaduelsys]
prefabs: [figures.yaml]
tables: {sza.rules: sza/rules.yaml}
metrics: szaduel.metrics
parameters:
  pace: {type: str, default: still, choices: [still, walk, run]}
phases:
  - name: fight
    systems:
      - {system: szaduel.duel, params: {pace: $pace}}
steps:
  melee_strike: sza.melee_strike
"""
FIGURES = """\
red:
  Kind: {name: red}
  Faction: {side: survivors}
  Wounds: {taken: 0, limit: 30}
  SzaAttributes: {strength: 75, accuracy: 70}
  SzaArms: {melee: fire_axe}
blue:
  Kind: {name: blue}
  Faction: {side: zombies}
  Wounds: {taken: 0, limit: 10}
"""
SCENARIO = "ruleset: duel.yaml\nentities:\n  - {prefab: red}\n  - {prefab: blue}\n"


@pytest.fixture(scope="module")
def duel(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A ruleset folder with no SZA board: figures with SZA attributes and a weapon, and others that
    have only Wounds (its systems module may be imported from one folder only)."""
    path = tmp_path_factory.mktemp("szaduel")
    (path / "szaduelsys.py").write_text(DUELSYS)
    (path / "duel.yaml").write_text(RULESET)
    (path / "figures.yaml").write_text(FIGURES)
    (path / "scenario.yaml").write_text(SCENARIO)
    return str(path / "scenario.yaml")


def test_the_strike_declares_only_what_it_needs() -> None:
    """It needs the attacker's attributes and weapon and the target's Wounds; SZA's own pieces and
    board are read only where present, so another game's ruleset loads without them."""
    spec = lookup("sza.melee_strike")
    assert spec is not None
    assert spec.reads == ("SzaAttributes", "SzaArms", "Wounds")
    assert "SzaStage" in spec.optional and "SzaStage" not in spec.reads


def test_a_strike_without_an_sza_board(make_game: Any, duel: str) -> None:
    """A stationary Fire Axe (+3) at Accuracy 70: 73 to hit; 73 hits. 1d8 5 + 0 + Strength 75's +2 = 7
    off the blue figure's 10. Strict mode holds the step to its declarations in a game with no
    SzaStage, Markers or SzaCharacter anywhere."""
    game = make_game(duel, seed=1, strict=True, dice=[*d100(73), 5])
    game.play(stop_after=1)
    red, blue = 1, 2
    assert logged(game, "attack") == [{"attacker": red, "target": blue, "pace": "still", "chance": 73, "roll": 73,
                                      "hit": True, "why": "melee"}]
    assert logged(game, "damage") == [{"target": blue, "damage": 7, "stamina": 3, "source": "melee"}]
    assert [e[3] for e in game.events if e[1] in ("attack", "damage")] == ["szaduel.duel/melee_strike"] * 2
    assert game.world.get(blue, Wounds).taken == 7


def test_no_sza_consequence_without_a_board(make_game: Any, duel: str) -> None:
    """Without a board Stamina at 0 means nothing to the step: the figure stays, its Wounds past the
    limit, for the host game to judge. A miss (a d100 above the chance) takes nothing."""
    game = make_game(duel, seed=1, strict=True, dice=[*d100(1), 8, *d100(73), 8])
    game.play()
    blue = 2
    assert game.world.exists(blue) and game.world.get(blue, Wounds).left == 10 - 2 * (8 + 2)
    assert not logged(game, "destroyed") and not logged(game, "infected")
    game = make_game(duel, seed=1, dice=[*d100(74)])
    game.play(stop_after=1)
    assert [a["hit"] for a in logged(game, "attack")] == [False] and not logged(game, "damage")


@pytest.mark.parametrize(("pace", "chance", "damage"), [("walk", 67, 5 + 3 + 2), ("run", 65, 5 + 5 + 2)])
def test_the_pace_modifiers_without_a_board(make_game: Any, duel: str, pace: str, chance: int, damage: int) -> None:
    """WEAPONS TABLE (Melee): the Fire Axe walking -3 / +3, running -5 / +5."""
    game = make_game(duel, seed=1, strict=True, dice=[*d100(chance), 5], params={"pace": pace})
    game.play(stop_after=1)
    assert [(a["pace"], a["chance"], a["hit"]) for a in logged(game, "attack")] == [(pace, chance, True)]
    assert [d["damage"] for d in logged(game, "damage")] == [damage]


def test_sza_strikes_through_the_step_with_its_parameters(make_game: Any) -> None:
    """SZA's own attacks go through the ruleset's `melee_strike` step, which takes the board's
    modifiers from the ruleset's parameters: Bruce (Accuracy 60, Fire Axe +3) stationary on the
    planning room's table with `furniture_bonus` 7 hits at 70 (the book's +3 would give 66); Mary
    (75, Pocket Knife +10) in the dark store room with `darkness_penalty` 20 at 65."""
    game = laid_out(make_game, params={"furniture_bonus": 7, "darkness_penalty": 20})
    board, st = ctx(game)
    bruce, mary = who(game, "Bruce Long"), who(game, "Mary Jacobs")
    put(game, bruce, 2, 2)
    zombie(game, 2, 2, stamina=100)
    put(game, mary, 2, 7)
    zombie(game, 2, 7, stamina=100)
    dice(game, *d100(99), *d100(99))
    drive(game, perform(game, bruce, "attack", board, st))
    drive(game, perform(game, mary, "attack", board, st))
    assert [(a["attacker"], a["chance"]) for a in logged(game, "attack")] == [(bruce, 70), (mary, 65)]



def test_the_step_alone_gives_the_books_furniture_and_darkness(make_game: Any) -> None:
    """The step composed without parameters takes the book's table bonus and the dark rooms'
    penalty, whatever the ruleset's own parameters say: "Tables provide a + 3 to Accuracy while a
    character or zombie is stationery and positioned on it" (Planning Room), and the DESIGN CHOICE
    -10 Accuracy of a dark room (docs/sza.md): Bruce on the planning room's table hits at 66, Mary
    in the dark store room at 75."""
    from ecs_zombie.systems.sza.combat import melee_strike

    game = laid_out(make_game, params={"furniture_bonus": 7, "darkness_penalty": 20})
    bruce, mary = who(game, "Bruce Long"), who(game, "Mary Jacobs")
    put(game, bruce, 2, 2)
    first = zombie(game, 2, 2, stamina=100)
    put(game, mary, 2, 7)
    second = zombie(game, 2, 7, stamina=100)
    dice(game, *d100(99), *d100(99))
    melee_strike(game, bruce, first)
    melee_strike(game, mary, second)
    assert [(a["attacker"], a["chance"]) for a in logged(game, "attack")] == [(bruce, 66), (mary, 75)]


def test_the_systems_command_lists_what_the_strike_reads_if_present() -> None:
    """`ecs-zombie systems sza` shows the optional reads apart from the needed ones."""
    import json

    from tests.helpers import run_cli

    res = run_cli("systems", "sza", "--json")
    assert res.returncode == 0, res.stderr
    strike = next(s for s in json.loads(res.stdout) if s["name"] == "sza.melee_strike")
    assert strike["reads"] == ["SzaArms", "SzaAttributes", "Wounds"]
    assert strike["optional"] == ["Engaged", "Faction", "Kind", "Markers", "Owner", "Position", "SzaCharacter",
                                  "SzaInfection", "SzaInventory", "SzaStage", "Tally"]
    text = run_cli("systems", "sza").stdout
    assert "reads if present: Engaged, Faction" in text
