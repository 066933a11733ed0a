"""What a ruleset author needs to test rules: force the dice and the cards, run one system as the
ruleset schedules it, answer its decisions, read the events it logged, and check a whole ruleset
the way the engine checks its own (random play saved and reloaded at every tick, recorded games
replayed and verified, all in strict mode).

A rule test sets the board, forces what chance would decide, runs the one system, and asserts the
number the rule text gives::

    from ecs_zombie import new_game
    from ecs_zombie.testing import events, force, run_system

    def test_a_six_kills_the_zombie() -> None:
        game = new_game("mygame", seed=1)
        force(game, dice=[6])
        run_system(game, "mygame.shoot", answers={"mygame.target": lambda d: d.options[0]})
        assert events(game, "zombie_killed") == [{"zombie": 5}]

and a ruleset as a whole is checked with::

    @pytest.mark.parametrize("seed", range(3))
    def test_mygame_plays_saves_and_replays(seed: int, tmp_path: Path) -> None:
        check_random_play("mygame", seed)
        check_recorded_replay("mygame", seed, tmp_path / "game.replay")

`make_game` is a pytest fixture (fresh games, closed after the test): import it into a
`conftest.py` (`from ecs_zombie.testing import make_game`) to use it. Nothing here needs pytest
otherwise; failed checks raise AssertionError with what differs.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ecs_zombie.decisions import Decision, PolicyTable
from ecs_zombie.dice import DiceScript
from ecs_zombie.game import Game, answer_all, new_game

__all__ = ["Answers", "check_random_play", "check_recorded_replay", "drive", "events", "force", "games",
           "make_game", "play_recorded", "run_system", "strict_mode"]

# A decision kind -> the option to choose, or a function of the decision returning it.
Answers = Mapping[str, Any]


def force(game: Game, dice: Sequence[int] = (), cards: Sequence[str] = ()) -> None:
    """The next dice rolled and cards drawn are these, in order (checked against the game's dice
    and decks when drawn); after them, the seeded streams take over again."""
    game.dice_script = DiceScript(list(dice))
    game.card_script = list(cards)


def drive(game: Game, steps: Generator[Decision, object, Any] | Iterator[Decision], answers: Answers | None = None,
          policy: str = "heuristic") -> list[Decision]:
    """Run a generator of decisions (a system, a tick) to its end. A decision whose kind `answers`
    names is answered with that option (or what the function given returns for the decision);
    the others by `policy`. Returns every decision asked, in order."""
    policies = PolicyTable(policy)
    asked: list[Decision] = []

    class Answering:
        name = "test answers"

        def choose(self, game: Game, d: Decision) -> int:
            asked.append(d)
            rule = (answers or {}).get(d.kind)
            if rule is None:
                return policies.choose(game, d)
            return d.options.index(rule(d) if callable(rule) else rule)

    answer_all(game, steps, Answering())  # type: ignore[arg-type]
    return asked


def run_system(game: Game, name: str, answers: Answers | None = None, policy: str = "heuristic",
               **params: Any) -> list[Decision]:
    """Run one registered system to its end, its decisions answered as `drive` answers them;
    returns the decisions asked.

    Where the game's ruleset schedules the system (by label, or by name), it runs with the
    parameters the ruleset binds there (`$name` taken from the game's parameters), `params`
    overriding them: the system as the ruleset runs it. `name` may also be a step's name (or an
    entry's label): the system the ruleset maps there runs (`run_system(game, "strike", ...)`)."""
    from ecs_zombie.schedule import lookup

    bound: dict[str, Any] = {}
    spec = None
    for step in game.ruleset.scheduled():
        if step.label == name or step.spec.name == name:
            spec, bound = step.spec, dict(step.bound(game.params))
            break
    spec = spec or lookup(name)
    if spec is None:
        raise AssertionError(f"no system {name!r} is registered (is its package imported by the ruleset?)")
    return drive(game, spec.run(game, {**bound, **params}), answers, policy)


def events(game: Game, kind: str) -> list[dict[str, Any]]:
    """The data of every event of `kind` logged so far, in order."""
    return [e[2] for e in game.events if e[1] == kind]


@contextmanager
def strict_mode(on: bool = True) -> Iterator[None]:
    """Games made (or loaded) within the block hold every system to its declarations (as
    ECS_ZOMBIE_STRICT=1 does)."""
    before = os.environ.get("ECS_ZOMBIE_STRICT")
    os.environ["ECS_ZOMBIE_STRICT"] = "1" if on else "0"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("ECS_ZOMBIE_STRICT", None)
        else:
            os.environ["ECS_ZOMBIE_STRICT"] = before


@contextmanager
def games() -> Iterator[Callable[..., Game]]:
    """`with games() as make: game = make("mygame", seed=3, dice=[6])`: every game made is closed
    when the block ends."""
    made: list[Game] = []

    def make(target: str = "shambling", seed: int = 1, **kw: Any) -> Game:
        game = new_game(target, seed, **kw)
        made.append(game)
        return game

    try:
        yield make
    finally:
        for g in made:
            g.close()


def play_recorded(game: Game, path: Path) -> Any:
    """Play `game` to its end while recording, write the replay to `path`, and verify it heavily
    (the game re-run from the recording, saved and reloaded after every tick). Returns None when
    every tick matches, else the `ecs_zombie.replay.Divergence`. The game stays open."""
    from ecs_zombie.replay import Recorder, load_replay, verify
    from ecs_zombie.snapshot import write_atomic

    recorder = Recorder(game)
    game.play()
    write_atomic(path, recorder.to_bytes(game))
    return verify(load_replay(path), heavy=True)


def check_random_play(ruleset: str, seed: int = 0, policy: str = "random", strict: bool = True,
                      players: int | None = None) -> None:
    """The engine's check of every ruleset (the OpenSpiel RandomSimTest idea): a game played by
    `policy` ends; played again with a save and a reload after every tick, it ends in the same
    bytes, and each reload is byte-identical to what was saved. In strict mode by default, so a
    system that touches what it does not declare fails here too."""
    import msgpack

    from ecs_zombie.snapshot import restore
    from ecs_zombie.state import state_bytes

    with strict_mode(strict):
        straight = new_game(ruleset, seed, policy=policy, players=players)
        try:
            straight.play()
            end, outcome = state_bytes(straight), straight.outcome
        finally:
            straight.close()
        if outcome is None:
            raise AssertionError(f"{ruleset} seed {seed}: the game ended without an outcome")
        game = new_game(ruleset, seed, policy=policy, players=players)
        policies = PolicyTable(policy)
        try:
            while not game.over:
                game.play(policies, stop_after=game.tick + 1)
                saved = state_bytes(game)
                reloaded = restore(msgpack.unpackb(saved, raw=False))
                again = state_bytes(reloaded)
                game.close()
                game = reloaded
                if again != saved:
                    raise AssertionError(f"{ruleset} seed {seed}: tick {game.tick} reloaded differs from its save")
            if state_bytes(game) != end:
                raise AssertionError(f"{ruleset} seed {seed}: saving and reloading at every tick ended elsewhere "
                                     f"({game.outcome} after {game.tick}) than playing straight through "
                                     f"({outcome})")
        finally:
            game.close()


def check_recorded_replay(ruleset: str, seed: int, path: Path, policy: str = "random", strict: bool = True) -> None:
    """A game recorded to `path` replays exactly, verified heavily (`play_recorded`), in strict
    mode by default; raises AssertionError naming the first tick, system and fields that differ."""
    with strict_mode(strict):
        game = new_game(ruleset, seed, policy=policy)
        try:
            found = play_recorded(game, path)
        finally:
            game.close()
    if found is not None:
        raise AssertionError(f"{ruleset} seed {seed}: the replay departs at tick {found.tick}"
                             + (f" in {found.system}" if found.system else "") + f": {found.reason}\n"
                             + "\n".join(found.differences))


def _fixture() -> Any:
    try:
        import pytest
    except ImportError:  # pytest is only needed for the fixture
        return None

    @pytest.fixture
    def make_game() -> Iterable[Callable[..., Game]]:
        """`make_game(target, seed=..., dice=[...], cards=[...], params={...})`: a fresh game, closed
        after the test."""
        with games() as make:
            yield make

    return make_game


make_game = _fixture()
