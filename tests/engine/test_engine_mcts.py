"""The `mcts` policy: reproducible for any worker count, replayed without searching, and blind to
what a player cannot see at the table."""

from __future__ import annotations

from typing import Any

import pytest

from ecs_zombie import registry
from ecs_zombie.balance import play_batch
from ecs_zombie.batch import BatchSpec
from ecs_zombie.components import Kind, Markers, Wounds
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.game import Game, new_game
from ecs_zombie.replay import Recorder, verify
from ecs_zombie.rng import PCG32
from ecs_zombie.search import MCTSPolicy, Node, determinize
from ecs_zombie.state import state_bytes

NARRATOR_SEARCHES = "heuristic,narrator=mcts:iterations=3"


def test_an_mcts_batch_is_the_same_for_any_worker_count() -> None:
    one = play_batch(BatchSpec("shambling", 4, 7, NARRATOR_SEARCHES), workers=1)
    two = play_batch(BatchSpec("shambling", 4, 7, NARRATOR_SEARCHES), workers=2)
    assert one.summary.to_dict() == two.summary.to_dict()
    assert one.summary.games == 4 and not one.summary.failed


def test_a_replay_of_an_mcts_game_verifies_without_searching(monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game("shambling", 11, policy=NARRATOR_SEARCHES)
    recorder = Recorder(game)
    searched = MCTSPolicy(iterations=3)
    game.play(PolicyTable(NARRATOR_SEARCHES))
    replay = recorder.replay(game)
    game.close()
    assert any(e[1] == "decision" and e[2]["side"] == "narrator" for e in replay.events)

    def no_search(*_args: Any) -> None:
        raise AssertionError("verification searched again")

    monkeypatch.setattr(MCTSPolicy, "_iterate", no_search)
    assert verify(replay) is None
    assert verify(replay, heavy=True) is None
    assert searched.decisions == 0


class RecordingMCTS(MCTSPolicy):
    """Keeps the root of its last search, to compare what two searches saw."""

    root: Node

    def _iterate(self, game: Game, decision: Any, root: Node, team: str, rng: PCG32) -> None:
        self.root = root
        super()._iterate(game, decision, root, team, rng)


def _face_down_position() -> tuple[Game, list[int]]:
    """A Stalingrad game at an action of the player's with a face-down zombie on the board."""
    game = new_game("stalingrad", 3)
    game.keep_tick_start = True
    policies = PolicyTable("heuristic")
    decision = game.step()
    while decision is not None:
        hidden = [e for e, (m, _k) in game.world.query(Markers, Kind) if m.has("hidden")]
        if hidden and decision.kind == "stalingrad.action" and len(decision.options) > 2:
            return game, hidden
        decision = game.step(policies.choose(game, decision))
    raise AssertionError("no face-down zombie met")


def _retyped(game: Game, hidden: list[int], name: str) -> Game:
    """A fork whose face-down zombies are of type `name`: at the tick's start too, since a fork made
    mid-tick (as the search makes them) replays the tick from there."""
    from ecs_zombie.game import _hold, _release

    fork = game.fork()
    assert fork.tick_start is not None
    # A fork shares its game's tick-start copy (it is only ever copied); this one is edited, so the
    # fork gets its own.
    own = fork.tick_start.copy()
    _release(fork.tick_start)
    fork.tick_start = _hold(own)
    for world in (fork.world, own.world):
        for ent in hidden:
            world.get(ent, Kind).name = name
            wounds = world.get(ent, Wounds)
            wounds.limit = max(wounds.taken + 1, 3)
    return fork


def _samples(forks: list[Game]) -> set[bytes]:
    """The distinct states the search's determinization makes of each table, from the same stream."""
    found = set()
    for fork in forks:
        sample = fork.fork()
        determinize(sample, PCG32(99, 1))
        found.add(state_bytes(sample))
        sample.close()
    return found


def test_the_search_never_sees_a_face_down_type(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two tables that differ only in the type under a face-down counter give the search the same
    samples and the same tree: the type is re-drawn from the spawn die, never read."""
    game, hidden = _face_down_position()
    types = ["walker", "runner", "brute", "lurker"]
    forks = [_retyped(game, hidden, t) for t in types]
    refork = [f.fork() for f in forks]
    assert len({state_bytes(f) for f in refork}) == len(types)  # the tables really differ, forked too
    for f in refork:
        f.close()
    assert len(_samples(forks)) == 1
    trees = set()
    for fork in forks:
        policy = RecordingMCTS(iterations=12)
        choice = policy.choose(fork, fork.pending)  # type: ignore[arg-type]
        trees.add((choice, tuple(sorted((k, c.visits, c.wins) for k, c in policy.root.children.items()))))
    assert len(trees) == 1
    # the same check with the ruleset's determinizer removed sees the types: the check can fail
    monkeypatch.setitem(registry.HIDDEN, "stalingrad.hidden", lambda _g, _r: None)
    assert len(_samples(forks)) == len(types)
    for fork in forks:
        fork.close()
    game.close()


def _height(node: Node) -> int:
    return 1 + max((_height(c) for c in node.children.values()), default=-1)


@pytest.mark.parametrize("depth", [1, 2])
def test_the_tree_grows_only_through_the_searching_sides_decisions_down_to_its_depth(depth: int) -> None:
    """The tree holds the searching side's decisions of more than one option, at most `depth` of
    them down any path; past that, and at every other side's decision, the rollout policy answers.
    A Stalingrad action is followed by many more of the player's within the same rollout, so a
    tree that ignored its depth would grow deeper with every iteration."""
    game, _hidden = _face_down_position()
    policy = RecordingMCTS(iterations=60, depth=depth)
    policy.choose(game, game.pending)  # type: ignore[arg-type]
    assert _height(policy.root) == depth
    # every iteration passes through the root and one of its options, and counts once on each
    root = policy.root
    assert root.visits == 60 and sum(c.visits for c in root.children.values()) == 60
    assert 0 <= root.wins <= root.visits and root.wins == sum(c.wins for c in root.children.values())
    game.close()


def test_every_rollout_is_played_to_the_games_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rollout is scored by the game's outcome: the one that expands the tree plays on by the
    rollout policy from the new node, never scored where a decision is still pending."""
    from ecs_zombie import search

    forks: list[Game] = []

    def keep(fork: Game, rng: PCG32) -> None:
        forks.append(fork)
        determinize(fork, rng)

    monkeypatch.setattr(search, "determinize", keep)
    game, _hidden = _face_down_position()
    policy = RecordingMCTS(iterations=12, depth=2)
    policy.choose(game, game.pending)  # type: ignore[arg-type]
    assert len(forks) == 12 and all(f.outcome is not None for f in forks)
    # a rollout the player's team (the survivors) wins counts 1, any other 0
    wins = sum(f.outcome == "survivors" for f in forks)
    assert policy.root.wins == wins > 0
    game.close()


def test_searching_frees_every_world_it_makes() -> None:
    """Each iteration forks the game mid-tick, and each tick keeps a copy of its start: each is
    closed once no game shares it. Before, every fork left an esper world behind (13 GB after 400
    searched Shambling games in benchmarks/strength.py)."""
    import esper

    before = len(esper._context_map)
    for seed in range(2):
        with new_game("shambling", seed) as game:
            game.play(PolicyTable("mcts:iterations=4,narrator=heuristic"))
            assert game.over
    assert len(esper._context_map) == before


@pytest.mark.parametrize("ruleset", ["shambling", "stalingrad", "director"])
def test_the_rollout_policy_is_the_searchs_prior(ruleset: str) -> None:
    """PUCT with the rollout policy's choice as the prior: with one iteration the search takes, at
    every decision, the option the heuristic takes (the game is the heuristic's, answer for answer),
    so a small budget never plays below the heuristic by discarding what it knows."""
    for seed in (0, 1):
        plain = new_game(ruleset, seed, policy="heuristic")
        plain.play()
        searched = new_game(ruleset, seed, policy="mcts:iterations=1")
        searched.play()
        answers = [[e[2]["choice"] for e in g.events if e[1] == "decision"] for g in (plain, searched)]
        assert answers[0] == answers[1] and len(answers[0]) > 20
        plain.close()
        searched.close()


def test_the_search_leaves_the_prior_where_its_rollouts_say_so() -> None:
    """The prior only orders the options: an option whose rollouts win gathers the visits. Here the
    favoured option never wins and another always does, and PUCT picks the winner; among untried
    options the prior picks the favoured one."""
    policy = MCTSPolicy(iterations=40, c=1.4)
    node = Node(visits=30, wins=10.0, favoured=b"a")
    node.children = {b"a": Node(visits=10, wins=0.0), b"b": Node(visits=10, wins=10.0), b"c": Node(visits=10)}
    assert policy._select(node, [b"a", b"b", b"c"], PCG32(1, 1)) == 1
    fresh = Node(favoured=b"c")
    assert policy._select(fresh, [b"a", b"b", b"c"], PCG32(1, 1)) == 2  # untried: the prior decides
    with pytest.raises(ValueError, match="prior"):
        MCTSPolicy(prior=1.5)


def test_the_prior_left_by_the_favoured_option_is_shared_by_the_others() -> None:
    """PUCT's prior: the favoured option `prior` (0.75), the other n - 1 options the rest in equal
    shares (0.25 each here, with two options). Node of 4 visits, 2 wins (mean 0.5); the favoured
    option a tried 3 times, 2 wins: a scores 2/3 + 1.4 x 0.75 x 2 / 4 = 1.192, the untried b
    0.5 + 1.4 x 0.25 x 2 / 1 = 1.2: b is taken (with a share of 0.25 / 2, a would be)."""
    policy = MCTSPolicy(c=1.4, prior=0.75)
    node = Node(visits=4, wins=2.0, favoured=b"a")
    node.children = {b"a": Node(visits=3, wins=2.0)}
    assert policy._select(node, [b"a", b"b"], PCG32(1, 1)) == 1


def test_a_decision_of_one_option_is_answered_without_searching() -> None:
    """Only one legal option: nothing to search, no fork made, no draw from the policy's stream."""
    from ecs_zombie.decisions import Decision

    policy = MCTSPolicy(iterations=50)
    with new_game("shambling", 1) as game:
        before = game.rng.get_state(policy=True)
        assert policy.choose(game, Decision("player:0", "anything", ["only"])) == 0
        assert policy.decisions == 0 and policy.searching == 0.0
        assert game.rng.get_state(policy=True) == before


@pytest.mark.parametrize("bad", [{"iterations": 0}, {"time": -1}, {"c": -0.5}, {"depth": 0}, {"prior": 1.5},
                                 {"rollout": "mcts"}, {"c": "nan"}, {"c": "inf"}, {"time": "nan"}, {"time": "inf"},
                                 {"prior": "nan"}])
def test_each_bad_search_option_is_refused(bad: dict[str, Any]) -> None:
    """NaN as well: it fails every comparison, so `c=nan` once reached the tree's selection (an
    IndexError there) and `time=nan` searched nothing; an endless `time=inf` never answered."""
    with pytest.raises(ValueError):
        MCTSPolicy(**bad)


def test_an_option_unknown_to_the_rollout_policy_leaves_the_prior_even() -> None:
    """Where the rollout policy's option is not among the options offered (a determinization that
    offers others), every option has the same prior, 1/n: here an unvisited option is explored
    before a visited one worth 1 (with 1/3 each; a prior of 0.25 / 2 each would not explore it)."""
    from ecs_zombie.rng import PCG32

    policy = MCTSPolicy(c=1.4, prior=0.75)
    node = Node(visits=100, wins=0.0, children={b"a": Node(visits=1, wins=1.0)}, favoured=b"elsewhere")
    assert policy._select(node, [b"a", b"b", b"c"], PCG32()) in (1, 2)


class TiedSearch(MCTSPolicy):
    """Its "search" leaves every option of the root with the same visits and wins, and the rollout
    policy favouring the option `favoured`."""

    favoured = 0

    def _iterate(self, game: Game, decision: Any, root: Node, team: str, rng: PCG32) -> None:
        from ecs_zombie import canonical

        keys = [canonical.pack_sorted(o) for o in decision.options]
        root.children = {k: Node(visits=2, wins=1.0) for k in keys}
        root.favoured = keys[self.favoured]


@pytest.mark.parametrize("favoured", [1, 2])
def test_a_tie_of_visits_and_wins_goes_to_the_rollout_policys_choice(favoured: int) -> None:
    """The answer is the most visited option, then the most winning; where the search left options
    equal, the one the rollout policy (the prior) would play, not the first offered."""
    game, _hidden = _face_down_position()
    assert game.pending is not None and len(game.pending.options) > 2
    policy = TiedSearch(iterations=1)
    policy.favoured = favoured
    assert policy.choose(game, game.pending) == favoured
    game.close()


def test_the_search_draws_from_its_stream_only_to_break_a_tie() -> None:
    """A random draw (from the side's policy stream) settles a tie of PUCT scores, and only a tie:
    a draw for a lone best option would shift every later draw of the game's search."""
    policy = MCTSPolicy(c=1.4)
    node = Node(visits=30, wins=10.0, favoured=b"a")
    node.children = {b"a": Node(visits=10, wins=0.0), b"b": Node(visits=10, wins=10.0), b"c": Node(visits=10)}
    rng = PCG32(1, 1)
    assert policy._select(node, [b"a", b"b", b"c"], rng) == 1
    assert rng.next32() == PCG32(1, 1).next32()  # nothing drawn
    even = Node(visits=20, wins=10.0, favoured=b"z")
    even.children = {b"a": Node(visits=10, wins=5.0), b"b": Node(visits=10, wins=5.0)}
    rng, twin = PCG32(1, 1), PCG32(1, 1)
    picked = policy._select(even, [b"a", b"b"], rng)
    assert picked == twin.below(2) and rng.next32() == twin.next32()  # one draw, the tie's


@pytest.mark.parametrize("edge", [{"iterations": 1}, {"time": 0}, {"c": 0}, {"depth": 1}, {"prior": 0},
                                  {"prior": 1}])
def test_each_search_option_at_its_edge_is_taken(edge: dict[str, Any]) -> None:
    """The smallest budget, no exploration, a tree of one level, a uniform prior and the rollout
    policy's choice alone are all searches a user may ask for."""
    policy = MCTSPolicy(**edge)
    assert policy.name == "mcts"


def test_a_time_budget_searches_until_its_time_is_up() -> None:
    """`time=S`: iterations run until S seconds after the decision was asked, at least one."""
    game, _hidden = _face_down_position()
    policy = RecordingMCTS(time=0.05)
    policy.choose(game, game.pending)  # type: ignore[arg-type]
    assert policy.root.visits >= 1 and 0.05 <= policy.searching < 5 and policy.decisions == 1
    game.close()


def test_determinizing_reshuffles_each_draw_pile_and_forgets_scripted_dice() -> None:
    """The order of unseen cards is sampled again in a fork (the searching side cannot know it):
    each deck's draw pile holds the same cards in another order; dice and cards a test scripted
    for the game are not the fork's."""
    from ecs_zombie.components import Deck

    game = new_game("shambling", 1)
    game.dice_script.values, game.dice_script.pos = [6, 6], 0
    fork = game.fork()
    determinize(fork, PCG32(5, 7))
    (_ent, deck), = game.world.query1(Deck)
    (_e, forked), = fork.world.query1(Deck)
    assert sorted(forked.draw) == sorted(deck.draw) and forked.draw != deck.draw
    assert fork.dice_script.values == [] and fork.dice_script.pos == 0 and fork.card_script == []
    fork.close()
    game.close()
