"""A game: one private world, the seed's RNG streams, the event log, and the tick loop.

A tick is one turn (or round) in the game's own words. `tick_steps()` is a generator over one
tick: it runs each phase's systems in order and yields every `Decision` a system raises, expecting
the chosen option's index back. `play()` drives it with policies; an outside answerer (a person, an
agent) can drive it the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from typing import Any

from ecs_zombie import cards as cards_mod
from ecs_zombie.components import Card, Deck
from ecs_zombie.decisions import Decision, Policy, PolicyTable
from ecs_zombie.dice import DiceScript, parse, roll_die
from ecs_zombie.errors import DecisionError, GameError, ScriptError
from ecs_zombie.registry import METRICS
from ecs_zombie.rng import Streams
from ecs_zombie.ruleset import Ruleset
from ecs_zombie.scenario import Scenario, load_scenario, spawn_entities
from ecs_zombie.world import World

Event = tuple[int, str, dict[str, Any]]


class Game:
    """The whole state of one game; nothing of it lives anywhere else."""

    def __init__(self, ruleset: Ruleset, seed: int, params: dict[str, Any], players: int,
                 scenario: str, table_overrides: dict[str, str] | None = None) -> None:
        self.ruleset = ruleset
        self.seed = seed
        self.params = params
        self.players = players
        self.scenario = scenario
        self.table_overrides = dict(table_overrides or {})
        self.tables = ruleset.tables
        self.world = World()
        self.rng = Streams(seed)
        self.dice_script = DiceScript()
        self.card_script: list[str] = []
        self.events: list[Event] = []
        self.log_base = 0
        self.tick = 0
        self.over = False
        self.outcome: str | None = None
        self.policy_spec = "heuristic"
        self.recorder: Any = None
        self.system_name = ""
        # Packed records of entities whose components are all frozen, reused by `state.state_bytes`.
        self.frozen_records: dict[int, tuple[tuple[Any, ...], bytes]] = {}

    # -- lifecycle -----------------------------------------------------------------------------

    def close(self) -> None:
        self.world.close()

    def __enter__(self) -> Game:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def end(self, outcome: str) -> None:
        """Declare the game over; the current tick stops after the running system."""
        if not self.over:
            self.over = True
            self.outcome = outcome
            self.log("game_over", outcome=outcome)

    # -- the log -------------------------------------------------------------------------------

    def log(self, kind: str, **data: Any) -> None:
        self.events.append((self.tick, kind, data))

    @property
    def log_pos(self) -> int:
        return self.log_base + len(self.events)

    # -- dice ----------------------------------------------------------------------------------

    def roll_dice(self, notation: str, why: str, stream: str = "dice") -> list[int]:
        """Each die of `notation` (modifier not applied), logged with the reason."""
        spec = parse(notation)
        gen = self.rng(stream)
        script = self.dice_script
        if script:
            values = [roll_die(spec.sides, gen, script) for _ in range(spec.count)]
        else:  # the scripted values are used up (or there were none): the stream alone
            below, sides = gen.below, spec.sides
            values = [1 + below(sides) for _ in range(spec.count)]
        self.events.append((self.tick, "roll", {"dice": notation, "values": values, "why": why}))
        return values

    def roll(self, notation: str, why: str, stream: str = "dice") -> int:
        """The total of `notation`, modifier included."""
        return sum(self.roll_dice(notation, why, stream)) + parse(notation).modifier

    # -- cards ---------------------------------------------------------------------------------

    def deck(self, name: str) -> tuple[int, Deck]:
        for ent, deck in self.world.query1(Deck):
            if deck.name == name:
                return ent, deck
        raise GameError(f"this game has no deck {name!r}")

    def shuffle(self, deck: Deck, why: str) -> None:
        """Gather the discard pile into the draw pile and shuffle it with the deck's own stream."""
        deck.draw.extend(deck.discard)
        deck.discard.clear()
        deck.draw.sort()
        self.rng("deck/" + deck.name).shuffle(deck.draw)
        self.log("shuffle", deck=deck.name, why=why)

    def draw(self, deck: Deck, why: str) -> tuple[int, Card]:
        """Draw the top card (or the next scripted one) onto the discard pile.

        An empty draw pile is refilled by shuffling the discard pile (the texts never run a deck
        dry; this keeps every deck conserved whatever the number of players)."""
        if self.card_script:
            face = self.card_script.pop(0)
            for i, ent in enumerate(deck.draw):
                if self.world.get(ent, Card).face == face:
                    deck.draw.append(deck.draw.pop(i))
                    break
            else:
                raise ScriptError(f"card script: {face} is not in the draw pile of deck {deck.name!r}")
        if not deck.draw:
            self.shuffle(deck, "draw pile empty")
        ent = deck.draw.pop()
        deck.discard.append(ent)
        card = self.world.get(ent, Card)
        self.events.append((self.tick, "draw", {"deck": deck.name, "card": card.face, "why": why}))
        return ent, card

    # -- decisions -----------------------------------------------------------------------------

    def decide(self, side: str, kind: str, options: Sequence[Any], **context: Any
               ) -> Generator[Decision, object, Any]:
        """`choice = yield from game.decide(...)`: the chosen option (a lone option needs no asking)."""
        if not options:
            raise GameError(f"decision {kind} offered no options")
        if len(options) == 1:
            return options[0]
        options = list(options)  # the request keeps the options as they were when asked
        # Sent as `object`: whatever an outside answerer sends is checked here (compiled, an `int`
        # would be checked first, with a TypeError, and a bool taken for 0 or 1).
        index = yield Decision(side, kind, options, context)
        if type(index) is not int or not 0 <= index < len(options):  # bool is no answer
            raise DecisionError(f"answer {index!r} to {kind} is not an option index 0..{len(options) - 1}")
        self.events.append((self.tick, "decision", {"side": side, "kind": kind, "choice": index,
                                                     "option": options[index]}))
        return options[index]

    # -- the loop ------------------------------------------------------------------------------

    def tick_steps(self) -> Generator[Decision, int, None]:
        """One tick: every phase's systems in order; yields decisions, takes option indices."""
        self.tick += 1
        self.log("tick", tick=self.tick)
        recorder = self.recorder
        for _phase, steps in self.ruleset.phases:
            for step in steps:
                self.system_name = step.spec.name
                yield from step.spec.run(self, step.bound(self.params))
                if recorder is not None:
                    recorder.after_system(self, step.spec.name)
                if self.over:
                    break
            if self.over:
                break
        if not self.over and self.tick >= self.ruleset.max_ticks:
            self.end("timeout")
        self.system_name = ""
        if recorder is not None:
            recorder.after_tick(self)

    def run_step(self, name: str, params: dict[str, Any]) -> Generator[Decision, int, None]:
        """Run a named step system of the ruleset (what track systems call)."""
        spec = self.ruleset.steps.get(name)
        if spec is None:
            raise GameError(f"ruleset {self.ruleset.id!r} has no step {name!r}")
        yield from spec.run(self, params)

    def play(self, policies: PolicyTable | Policy | None = None, stop_after: int | None = None,
             on_tick: Callable[[Game], None] | None = None) -> None:
        """Play to the end (or to the end of tick `stop_after`), answering decisions by policy."""
        policies = policies or PolicyTable(self.policy_spec)
        while not self.over and (stop_after is None or self.tick < stop_after):
            answer_all(self, self.tick_steps(), policies)
            if on_tick is not None:
                on_tick(self)

    def metrics(self) -> dict[str, Any]:
        return METRICS[self.ruleset.metrics](self)

    def summary(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset.id, "scenario": self.scenario, "seed": self.seed,
                "outcome": self.outcome, "turns": self.tick, **self.metrics()}


def answer_all(game: Game, steps: Generator[Decision, int, Any], policy: PolicyTable | Policy) -> None:
    """Run a generator of decisions (a tick, a system) to its end, each answered by `policy`."""
    choose = policy.choose
    try:
        decision = next(steps)
        while True:
            decision = steps.send(choose(game, decision))
    except StopIteration:
        pass


def new_game(target: str | Scenario, seed: int = 0, *, players: int | None = None,
             params: Mapping[str, Any] | None = None, dice: Iterable[int] = (), cards: Iterable[str] = (),
             policy: str = "heuristic") -> Game:
    """A fresh game of a ruleset (its default scenario) or of a scenario file, at tick 0."""
    scenario = target if isinstance(target, Scenario) else load_scenario(target)
    rs = scenario.ruleset
    merged = dict(scenario.params)
    merged.update(params or {})
    values = rs.params_with(merged, "--param")
    n = players if players is not None else scenario.players
    if not 1 <= n <= 8:
        raise GameError(f"players must be 1..8, got {n}")
    PolicyTable(policy)  # validate the name before anything runs
    game = Game(rs, seed, values, n, scenario.name, scenario.table_overrides)
    game.policy_spec = policy
    spawn_entities(scenario, game.world, n)
    game.dice_script = DiceScript(list(dice))
    known = {c["face"] for d in scenario.decks for c in rs.tables[d["table"]]}
    game.card_script = cards_mod.check_card_script(list(cards), known)
    game.log("new_game", seed=seed, ruleset=rs.id, players=n)
    return game
