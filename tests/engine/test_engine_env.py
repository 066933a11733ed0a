"""The learning environment (`ecs_zombie.env`, docs/rl.md): PettingZoo's own API and seed tests on
every ruleset the catalog lists, replays of games played through it, what an observation may not
show, and the action layout's documented arithmetic."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from ecs_zombie.catalog import catalog  # noqa: E402
from ecs_zombie.env import aec_env  # noqa: E402
from ecs_zombie.env.spec import ACTIONS, EnvError, action_forms  # noqa: E402
from ecs_zombie.game import new_game  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted(catalog().entries)


def play_random(env, seed: int) -> list[int]:
    """Play one game through `env`, each agent taking a uniformly random legal action (numpy's
    generator seeded with `seed`); returns the actions taken."""
    rng = np.random.default_rng(seed)
    taken = []
    env.reset(seed=seed)
    for _agent in env.agent_iter():
        obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        taken.append(action)
        env.step(action)
    return taken


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pettingzoo_api_test_passes(ruleset: str) -> None:
    """PettingZoo's api_test: agents, spaces, last/step bookkeeping, rewards and masks, one game."""
    env = aec_env(ruleset, opponents="random", seed=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice only (agent names without a number, e.g. `narrator`)
        api_test(env, num_cycles=2000)
    env.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pettingzoo_seed_test_passes(ruleset: str) -> None:
    """PettingZoo's seed_test: two environments reset with one seed step identically."""
    seed_test(lambda: aec_env(ruleset, opponents="random"), num_cycles=2000)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_game_through_the_env_replays_as_the_same_answers_given_by_policies(ruleset: str, tmp_path: Path) -> None:
    """A game played through the environment is recorded as `run --record` records; its replay
    verifies, and the same answers given by a scripted policy record the very same bytes."""
    from ecs_zombie.decisions import ScriptedPolicy
    from ecs_zombie.replay import Recorder, load_replay, verify

    path = tmp_path / "env.replay"
    env = aec_env(ruleset, opponents="random", record=path, seed=11)
    play_random(env, 11)
    players = env.players
    env.close()
    replay = load_replay(path)
    assert verify(replay, heavy=True) is None
    game = new_game(ruleset, 11, players=players, policy="random")  # the spec a save records, as the env had
    recorder = Recorder(game)
    game.play(ScriptedPolicy(replay.decisions))
    assert recorder.to_bytes(game) == path.read_bytes()
    game.close()


def test_the_stalingrad_observation_hides_what_the_determinizer_resamples() -> None:
    """Escape from Stalingrad Z: a face-down zombie's type is unknown to the player until it is
    seen. An observation equals the one of a copy whose face-down types were drawn anew."""
    from ecs_zombie.components import Kind, Markers
    from ecs_zombie.registry import HIDDEN
    from ecs_zombie.rng import PCG32

    env = aec_env("stalingrad", seed=5)
    env.reset(seed=5)
    checked = 0
    changed = 0
    while env.agents and checked < 40:
        game = env.game
        hidden = [e for e, m in game.world.query1(Markers) if m.has("hidden")]
        if hidden:
            before = env.observe("player_0")["observation"]
            other = game.copy()  # the world as it is now (copy() needs no tick start)
            HIDDEN["stalingrad.hidden"](other, PCG32(checked + 1))
            changed += any(game.world.get(e, Kind).name != other.world.get(e, Kind).name for e in hidden)
            after = env.encoder.build(other, env.encoder.rows(other), "player:0", env.stepper.pending)
            assert np.array_equal(before, after)
            other.close()
            checked += 1
        obs, _r, term, trunc, _i = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert checked >= 10 and changed >= 1  # the check saw face-down zombies whose type did change


def test_shambling_actions_keep_their_documented_indices() -> None:
    """docs/rl.md: kinds in name order, each taking its forms' slots, an entity one slot per row
    (48 rows in Shambling with one player). assign 0-47, charge_target 48-95, charger 96-144 (done,
    then rows), flee 145-192, join 193-240, new_hero 241-242, place 243-244: `support` is 244."""
    env = aec_env("shambling", agents=["player:0"], seed=1)
    env.reset(seed=1)
    assert env.game is not None
    assert env.stepper.pending.kind == "shambling.place"
    legal = env.legal_options()
    assert legal == {243: "front", 244: "support"}
    assert env.describe(244) == "shambling.place {front|support} #1"
    env.close()


def test_an_option_no_form_covers_is_a_clear_error() -> None:
    """An option the declarations cannot map stops with the kind, the option and the forms."""
    saved = ACTIONS["shambling.place"]
    action_forms("shambling.place", "{front}")
    try:
        env = aec_env("shambling", agents=["player:0"], seed=1)
        with pytest.raises(EnvError, match=r"option 'support' of decision shambling.place matches none of its "
                                           r"action forms \(\{front\}\)"):
            env.reset(seed=1)
    finally:
        ACTIONS["shambling.place"] = saved


def test_the_outcome_pays_one_to_the_winners_and_takes_one_from_the_losers() -> None:
    """+1 to the side whose team the outcome names, -1 to the other, once, at the end."""
    env = aec_env("shambling", opponents="random", seed=2)
    env.reset(seed=2)
    totals = {a: 0.0 for a in env.possible_agents}
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            outcome = info["outcome"]
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert outcome in ("survivors", "zombies")
    winner = "player_0" if outcome == "survivors" else "narrator"
    loser = "narrator" if winner == "player_0" else "player_0"
    assert totals == {winner: 1.0, loser: -1.0}


def test_sides_not_trained_are_answered_by_their_policy_and_bad_sides_are_refused() -> None:
    """Only the trained side is ever selected; a side the ruleset lacks is refused in one line."""
    env = aec_env("shambling", opponents={"narrator": "heuristic"}, seed=4)
    assert env.possible_agents == ["player_0"]
    seen = set()
    env.reset(seed=4)
    for agent in env.agent_iter(200):
        seen.add(agent)
        obs, _r, term, trunc, _i = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert seen == {"player_0"}
    with pytest.raises(EnvError, match="opponents name sides gm that ruleset 'shambling' does not have"):
        aec_env("shambling", opponents="random,gm=heuristic")
    with pytest.raises(EnvError, match="agent 'party' is not a side of ruleset 'shambling'"):
        aec_env("shambling", agents=["party"])


def test_an_illegal_action_is_refused_with_what_it_means() -> None:
    env = aec_env("shambling", agents=["player:0"], seed=1)
    env.reset(seed=1)
    with pytest.raises(EnvError, match=r"action 0 is not legal for player_0 now \(legal: \[243, 244\]; "
                                       r"shambling.assign \{entity\} #0\)"):
        env.step(0)


def test_the_engine_imports_and_loads_every_ruleset_without_numpy() -> None:
    """The rl extra is optional: with numpy, gymnasium and pettingzoo unimportable the engine loads
    every ruleset, and asking for the environment says which extra to install."""
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('numpy', 'gymnasium', 'pettingzoo'):\n"
        "            raise ImportError('blocked ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import ecs_zombie\n"
        "from ecs_zombie.catalog import catalog\n"
        "from ecs_zombie.ruleset import load_ruleset\n"
        "for rid in sorted(catalog().entries):\n"
        "    load_ruleset(rid)\n"
        "from ecs_zombie.env import aec_env\n"
        "try:\n"
        "    aec_env('shambling')\n"
        "except Exception as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith('EnvError the learning environment needs the rl extra: pip install "ecs-zombie[rl]"')


def test_a_plugins_hybrid_gets_its_layout_from_its_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The example plugin's `stalingrad-dusk` (Stalingrad's pieces, Shambling's deck, its own spawn
    adapter, no `hidden:` in its YAML) passes PettingZoo's tests from its file alone, and hides
    face-down zombie types as Stalingrad does: its packages bring their declarations."""
    monkeypatch.syspath_prepend(str(ROOT / "examples" / "plugin"))
    path = str(ROOT / "examples" / "plugin" / "zombie_dusk" / "rulesets" / "dusk.yaml")
    env = aec_env(path, opponents="random", seed=2)
    assert [c.marker for c in env.layout.concealed] == ["hidden"]
    assert "deck:shambling:draw" in env.layout.scalars and "Zone.name" in env.layout.columns
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=2000)
    seed_test(lambda: aec_env(path, opponents="random"), num_cycles=2000)


@pytest.mark.parametrize(("ruleset", "players", "rows"), [("shambling", 3, 128), ("director", 4, 136), ("sza", 2, 40)])
def test_every_seat_is_an_agent_with_more_players(ruleset: str, players: int, rows: int) -> None:
    """With more seats each is its own agent (`player_0` ... `player_N`), and the table grows by the
    rows each further seat declares (Shambling 48 + 40 a seat, the Director 64 + 24, SZA 32 + 8)."""
    env = aec_env(ruleset, players=players, opponents="random", seed=1)
    assert [a for a in env.possible_agents if a.startswith("player_")] == [f"player_{i}" for i in range(players)]
    assert env.layout.rows == rows
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=4000)


def test_docs_rl_shows_the_layouts_the_declarations_give() -> None:
    """docs/rl.md's per-ruleset part is generated (`python docs/gen_rl.py`): it must be current."""
    from ecs_zombie.env.reference import generated, splice

    page = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    assert splice(page, generated()) == page, "docs/rl.md is out of date: run python docs/gen_rl.py"


def test_a_set_of_rows_is_numbered_after_the_single_rows() -> None:
    """docs/rl.md: `{entities:K}` takes C(rows,1)+...+C(rows,K) slots; with 88 rows (the Director
    game with two players) row r alone is slot r, and pairs follow in order: (0,1) is 88, (0,2) 89,
    (1,2) comes after the 87 pairs starting at row 0, at 175."""
    from ecs_zombie.env.spec import _combination_index

    assert [_combination_index(rows, 88) for rows in ([5], [0, 1], [0, 2], [1, 2])] == [5, 88, 89, 175]


def test_an_entity_outside_the_table_says_to_raise_the_rows() -> None:
    from ecs_zombie.env.spec import Mapper, layout
    from ecs_zombie.ruleset import load_ruleset

    lay = layout(load_ruleset("shambling"), 1)
    with pytest.raises(EnvError, match=r"option 5 of decision shambling.assign: entity 5 is not among the "
                                       r"observation's 48 rows"):
        Mapper(lay, {}, None).slot("shambling.assign", 5, 0, {})


def test_a_search_policy_can_answer_the_sides_not_trained() -> None:
    """`opponents` takes any policy, mcts included (it forks the game mid-tick)."""
    env = aec_env("shambling", agents=["player:0"], opponents="narrator=mcts:iterations=2", seed=3)
    env.reset(seed=3)
    for _agent in env.agent_iter(60):
        obs, _r, term, trunc, _i = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.game is not None and env.game.tick >= 1
