"""The `strike` step: Shambling's strike resolution as a seam another game's attack can fill.

`shambling.combat` runs the step `strike` for each side's strike in a zone with plain data (see
`shambling.crt_strike`); the shipped step rolls the CRT. A ruleset here maps `strike` to a stand-in
for another game's attack (each attacker damages one eligible figure's Wounds by one) to show what
the contract gives a hybrid and what combat does with what the step leaves.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from ecs_zombie import Game, new_game
from ecs_zombie.components import Kind
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.ruleset import RULESETS_DIR
from tests.shambling.shambling_setup import (
    FRONT,
    HERO,
    NARRATOR,
    STAND,
    SUPPORT,
    SURVIVOR,
    SURVIVORS,
    ZOMBIES,
    board,
    events,
    force,
    player,
    run_system,
    run_unbound,
    tally,
    wounds,
)

STAND_IN = '''
from ecs_zombie.components import Wounds
from ecs_zombie.schedule import system


@system("standin.strike", reads=("Wounds",), writes=("Wounds",))
def strike(game, board: int, zone: str, side: str, attackers: list[int], eligible: list[int],
           supporters: list[int], attacker_player: str, defender_player: str, damage: int = 1) -> None:
    """Each attacker in turn damages one eligible figure (the next in id order) by `damage`."""
    game.log("standin_strike", board=board, zone=zone, side=side, attackers=attackers, eligible=eligible,
             supporters=supporters, attacker_player=attacker_player, defender_player=defender_player)
    for i, ent in enumerate(attackers):
        game.world.get(eligible[i % len(eligible)], Wounds).taken += damage
'''


@pytest.fixture(scope="module")
def hybrid(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ruleset folder: Shambling with `strike` mapped to the stand-in, and its scenario (one folder
    for the module: its systems module is imported once per process)."""
    tmp_path = tmp_path_factory.mktemp("standin")
    text = (RULESETS_DIR / "shambling.yaml").read_text()
    text = text.replace("id: shambling\n", "id: shambling-standin\n")
    text = text.replace("packages: [core, shambling]", "packages: [core, shambling, standinsys]")
    text = text.replace("default_scenario: scenarios/shambling.yaml", "default_scenario: scenario.yaml")
    text = text.replace("  strike: shambling.crt_strike", "  strike: {system: standin.strike, params: {damage: 1}}")
    assert "standin.strike" in text and "standinsys" in text
    (tmp_path / "hybrid.yaml").write_text(text)
    (tmp_path / "standinsys.py").write_text(textwrap.dedent(STAND_IN))
    scenario = (RULESETS_DIR.parent / "scenarios" / "shambling.yaml").read_text()
    (tmp_path / "scenario.yaml").write_text(scenario.replace("ruleset: shambling\n", "ruleset: hybrid.yaml\n"))
    return tmp_path / "hybrid.yaml"


def test_combat_passes_the_strike_plain_data_and_removes_the_dead(hybrid: Path) -> None:
    """Each side's strike in a zone gets the board, the zone, the side, its figures in contact, the
    enemy figures that began the round in contact with them, the Support survivors whose support
    adds to a Front Line survivors' strike, and who answers for each side. A figure the step leaves
    at its wound limit (two: "if a figure takes two wounds he is removed from play") is removed and
    counted as destroyed."""
    g = new_game(str(hybrid), 1, params={"combat_rounds": 1}, strict=True)
    try:
        ids = board(g, front=[(SURVIVOR, 0), (SURVIVOR, 0)], support=[(SURVIVOR, 0), (SURVIVOR, 1)],
                    zombies_front=[0, 1])
        s1, s2 = ids[FRONT]
        z_a, z_b = ids["zombies_front"]
        run_system(g, "shambling.engage", {"shambling.stance": STAND,
                                           "shambling.assign": lambda d: d.options[0]})
        run_system(g, "shambling.combat")
        passed = events(g, "standin_strike")
        assert passed == [
            {"board": 0, "zone": FRONT, "side": ZOMBIES, "attackers": [z_a, z_b], "eligible": [s1, s2],
             "supporters": [], "attacker_player": NARRATOR, "defender_player": player(0)},
            {"board": 0, "zone": FRONT, "side": SURVIVORS, "attackers": [s1, s2], "eligible": [z_a, z_b],
             "supporters": ids[SUPPORT], "attacker_player": player(0), "defender_player": NARRATOR},
        ]
        assert (wounds(g, s1), wounds(g, s2), wounds(g, z_a), wounds(g, z_b)) == (1, 1, 1, None)
        assert [(e["figure"], e["why"]) for e in events(g, "removed")] == [(z_b, "killed")]
        assert tally(g)["zombies_destroyed"] == 1
    finally:
        g.close()


def test_a_hybrid_game_plays_strictly_with_its_strikes_under_the_step(hybrid: Path) -> None:
    """A whole game of the hybrid plays in strict mode; every strike is logged under
    `shambling.combat/strike`, and the CRT is never rolled."""
    g = new_game(str(hybrid), 3, strict=True)
    try:
        g.play(PolicyTable("heuristic"))
        paths = {e[3] for e in g.events if e[1] == "standin_strike"}
        assert g.over and paths == {"shambling.combat/strike"}
        assert events(g, "strike") == []
    finally:
        g.close()


def test_the_shipped_strike_is_logged_under_the_step(make_game) -> None:
    """The CRT strike's roll and wounds are logged under `shambling.combat/strike`, the removal of
    the figures it kills under its `kill` step."""
    g = make_game("shambling", 3)
    g.play(PolicyTable("heuristic"))
    by_kind: dict[str, set[str]] = {}
    for e in g.events:
        if "/strike" in e[3]:
            by_kind.setdefault(e[1], set()).add(e[3])
    assert by_kind == {"strike": {"shambling.combat/strike"}, "roll": {"shambling.combat/strike"},
                       "decision": {"shambling.combat/strike"},
                       "wound": {"shambling.combat/strike"}, "removed": {"shambling.combat/strike/kill"}}
    assert all(e[3] == "shambling.combat/strike" for e in g.events if e[1] == "strike")


def crt_strike(game: Game, **given: Any) -> None:
    params: dict[str, Any] = {"board": 0, "zone": FRONT, "side": SURVIVORS, "supporters": [],
                              "attacker_player": player(0), "defender_player": NARRATOR}
    params.update(given)
    run_unbound(game, "shambling.crt_strike", {"shambling.wound": lambda d: d.options[0]}, **params)


def test_crt_strike_counts_unwounded_supporters(make_game) -> None:
    """Every unwounded survivor in Support adds 1 to the Front Line's strength: of three supporters
    given, the wounded one adds nothing (2 + 2 = 4)."""
    g = make_game("shambling", 1)
    ids = board(g, front=[(SURVIVOR, 0)], support=[(SURVIVOR, 0), (SURVIVOR, 1), (SURVIVOR, 0)],
                zombies_front=1)
    force(g, dice=[4])
    crt_strike(g, attackers=ids[FRONT], eligible=ids["zombies_front"], supporters=ids[SUPPORT])
    assert events(g, "strike") == [{"board": 0, "zone": FRONT, "side": SURVIVORS, "strength": 4, "roll": 4,
                                    "wounds": 0}]


def test_crt_strike_wounds_only_the_eligible(make_game) -> None:
    """Wounds can only be spread amongst figures who begin the round in contact: of two zombies only
    the eligible one is offered, and a second wound beyond its two is lost. Strength 3 (a hero),
    roll 6: CRT[6][3] = 2 wounds."""
    g = make_game("shambling", 1)
    ids = board(g, front=[(HERO, 0)], zombies_front=[1, 0])
    z_hurt, z_free = ids["zombies_front"]
    force(g, dice=[6])
    crt_strike(g, attackers=ids[FRONT], eligible=[z_hurt])
    assert events(g, "strike")[0]["wounds"] == 2
    assert wounds(g, z_hurt) is None and wounds(g, z_free) == 0
    assert [e["figure"] for e in events(g, "wound")] == [z_hurt]


@pytest.mark.parametrize(("roll", "hero_hit"), [(6, True), (5, False)])
def test_crt_strike_a_six_wounds_the_hero(make_game, roll: int, hero_hit: bool) -> None:
    """If the dice rolled by the attacker was a 6, any Hero present must take a wound: two zombies
    (strength 2) roll a 6 (CRT[6][2] = 1); on a 5 (CRT[5][2] = 0) nobody is hurt."""
    g = make_game("shambling", 1)
    ids = board(g, front=[(SURVIVOR, 0), (HERO, 0)], zombies_front=2)
    force(g, dice=[roll])
    crt_strike(g, side=ZOMBIES, attackers=ids["zombies_front"], eligible=ids[FRONT], attacker_player=NARRATOR,
               defender_player=player(0))
    assert wounds(g, ids[FRONT][1]) == (1 if hero_hit else 0) and wounds(g, ids[FRONT][0]) == 0


def test_survivors_striking_in_support_count_one_each(make_game) -> None:
    """All Survivors in the Support zone have a combat strength of 1 each if attacked in that zone:
    a hero and a survivor strike at 2, whatever supporters are given."""
    g = make_game("shambling", 1)
    ids = board(g, support=[(HERO, 0), (SURVIVOR, 0)], zombies_support=1)
    force(g, dice=[1])
    crt_strike(g, zone=SUPPORT, attackers=ids[SUPPORT], eligible=ids["zombies_support"], supporters=ids[SUPPORT])
    assert events(g, "strike")[0]["strength"] == 2


# A tiny ruleset of its own that borrows Shambling's CRT strike under `steps:`: two hand-placed
# groups of figures with nothing but `Kind` and `Wounds` (no board, zone, side or tally), a round
# system of its own that calls `strike`, and a `kill` step of its own for the dead.
DUEL_SYSTEMS = '''
from ecs_zombie.components import Kind, Wounds
from ecs_zombie.registry import metrics
from ecs_zombie.schedule import system

SIDE = {"hero": "survivors", "survivor": "survivors", "zombie": "zombies"}
PLAYER = {"survivors": "player:0", "zombies": "narrator"}
ENEMY = {"survivors": "zombies", "zombies": "survivors"}


def side(game, name):
    return [e for e, k in sorted(game.world.query1(Kind)) if SIDE[k.name] == name]


@system("duel.round", reads=("Kind", "Wounds"), calls={"strike": ("board", "zone", "side", "attackers",
        "eligible", "supporters", "attacker_player", "defender_player")})
def duel_round(game):
    """The survivors strike every figure of the horde, then the horde strikes back."""
    for name in ("survivors", "zombies"):
        ours, theirs = side(game, name), side(game, ENEMY[name])
        if ours and theirs:
            yield from game.run_step("strike", {
                "board": 0, "zone": "front", "side": name, "attackers": ours, "eligible": theirs,
                "supporters": [], "attacker_player": PLAYER[name], "defender_player": PLAYER[ENEMY[name]]})
    for name in ("survivors", "zombies"):
        if not side(game, name):
            game.end(ENEMY[name])
            return


@system("duel.kill", reads=("Kind", "Wounds"))
def kill(game, figure: int):
    """The dead leave the table."""
    game.log("dead", figure=figure)
    game.world.delete(figure)


@metrics("duel.metrics")
def duel_metrics(game):
    return {"figures": len(game.world.query1(Kind))}
'''

DUEL_RULESET = """\
id: crt-duel
name: A duel on Shambling's CRT
tick: round
max_ticks: 20
packages: [core, shambling, duelsys]
default_scenario: scenario.yaml
prefabs: [pieces.yaml]
tables:
  shambling.crt: shambling/crt.yaml
  shambling.strength: shambling/strength.yaml
phases:
  - name: duel
    systems: [duel.round]
steps:
  strike: shambling.crt_strike
  kill: duel.kill
metrics: duel.metrics
"""

DUEL_PIECES = """\
hero: {Kind: {name: hero}, Wounds: {taken: 0, limit: 2}}
survivor: {Kind: {name: survivor}, Wounds: {taken: 0, limit: 2}}
zombie: {Kind: {name: zombie}, Wounds: {taken: 0, limit: 2}}
"""


@pytest.fixture(scope="module")
def duel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny ruleset's folder: a hero and a survivor against three zombies."""
    folder = tmp_path_factory.mktemp("duel")
    (folder / "duel.yaml").write_text(DUEL_RULESET)
    (folder / "duelsys.py").write_text(textwrap.dedent(DUEL_SYSTEMS))
    (folder / "pieces.yaml").write_text(DUEL_PIECES)
    (folder / "scenario.yaml").write_text("ruleset: duel.yaml\nentities:\n  - {prefab: hero}\n"
                                          "  - {prefab: survivor}\n  - {prefab: zombie, count: 3}\n")
    return folder / "duel.yaml"


def test_another_ruleset_strikes_on_the_crt_with_figures_of_kind_and_wounds_alone(duel: Path) -> None:
    """The CRT strike in a ruleset with no Shambling board: a hero (3) and a survivor (2) strike at
    5 and roll a 6: CRT[6][5] = 3 wounds, placed by the defender (two wounds remove a figure:
    the ruleset's `kill` step runs on it); the two zombies left (wounded 1 + unwounded 1 = 2)
    roll a 6: CRT[6][2] = 1 wound, which must go to the Hero ("if the dice rolled by the attacker
    was a 6 then any Hero present must take a wound")."""
    g = new_game(str(duel), 0, strict=True)
    try:
        hero, surv, z1, z2, z3 = (e for e, _k in sorted(g.world.query1(Kind)))
        force(g, dice=[6, 6])
        asked = run_system(g, "duel.round", {"shambling.wound": lambda d: d.options[0]})
        assert [(e["side"], e["strength"], e["roll"], e["wounds"]) for e in events(g, "strike")] == [
            (SURVIVORS, 5, 6, 3), (ZOMBIES, 2, 6, 1)]
        assert [(e["figure"], e["taken"]) for e in events(g, "wound")] == [(z1, 1), (z1, 2), (z2, 1), (hero, 1)]
        assert events(g, "dead") == [{"figure": z1}]
        # the hero's wound is the only option left to the survivors' player: not asked
        assert [(d.side, d.options) for d in asked] == [
            (NARRATOR, [z1, z2, z3]), (NARRATOR, [z1, z2, z3]), (NARRATOR, [z2, z3])]
        assert not g.world.exists(z1) and wounds(g, surv) == 0
    finally:
        g.close()


def test_the_tiny_ruleset_plays_strictly_to_an_end(duel: Path) -> None:
    """Whole games of the tiny ruleset play in strict mode (the CRT strike touches nothing it does
    not declare) until one side is gone; its strikes and kills log under its own system."""
    for seed in range(5):
        g = new_game(str(duel), seed, strict=True)
        try:
            g.play(PolicyTable("heuristic"))
            assert g.over and g.outcome in (SURVIVORS, ZOMBIES)
            paths = {e[1]: e[3] for e in g.events if e[1] in ("strike", "dead")}
            assert paths == {"strike": "duel.round/strike", "dead": "duel.round/strike/kill"}
        finally:
            g.close()
