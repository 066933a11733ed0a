"""A game: one private world, the seed's RNG streams, the event log, and the tick loop.

A tick is one turn (or round) in the game's own words. `tick_steps()` is a generator over one
tick: it runs each phase's systems in order and yields every `Decision` a system raises, expecting
the chosen option's index back. `play()` drives it with policies; an outside answerer (a person, an
agent) drives it one decision at a time with `step()`.

`fork()` copies a game at any point, a pending decision mid-tick included: a copy at a tick
boundary shares nothing the game changes with the original (its own pieces, streams, scripts and
log; what it shares is read only: the ruleset and its tables, and the events logged before the
copy, which nothing changes once logged); a copy mid-tick is the copy kept at the tick's
start (`keep_tick_start`) re-run with the decisions answered since, which arrives, deterministically,
at the same pending decision (a generator suspended inside a rule cannot itself be copied).
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
from ecs_zombie.world import StrictWorld, World

# (tick, kind, data, path): `path` is the system that logged the event, steps included
# (`stalingrad.turns/spawn`), so a replay's divergence names the innermost rule.
Event = tuple[int, str, dict[str, Any], str]


class Game:
    """The whole state of one game; nothing of it lives anywhere else."""

    def __init__(self, ruleset: Ruleset, seed: int, params: dict[str, Any], players: int,
                 scenario: str, table_overrides: dict[str, str] | None = None, strict: bool | None = None,
                 world: World | None = None) -> None:
        self.ruleset = ruleset
        self.seed = seed
        self.params = params
        self.players = players
        self.scenario = scenario
        self.table_overrides = dict(table_overrides or {})
        self.tables = ruleset.tables
        if strict is None:
            from ecs_zombie.strict import enabled

            strict = enabled()
        self.world = world if world is not None else StrictWorld() if strict else World()
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
        self.system_path = ""
        self.guard: Any = None  # strict mode's access checker (ecs_zombie.strict), None otherwise
        # What `state.state_bytes` keeps between calls (a `state.StateRecords`): packed records of
        # entities that have not changed. Derived from the world, never part of the state.
        self.state_records: Any = None
        # The tick in progress when driven by `step()` (or re-created by a fork or a load mid-tick).
        self.running: Generator[Decision, object, None] | None = None
        self.pending: Decision | None = None
        self.in_tick = False
        # With `keep_tick_start`, a copy of the game as each tick began, and where the tick's events
        # start: what `fork()` and a save mid-tick re-run the tick from.
        self.keep_tick_start = False
        self.tick_start: Game | None = None
        # For a tick-start copy: how many games share it. The last to let it go closes its world
        # (a copy per tick of a searched game, and every fork of it, held an esper world forever).
        self.holders = 0
        self.tick_mark = 0
        if strict:
            from ecs_zombie.strict import install

            install(self)

    # -- lifecycle -----------------------------------------------------------------------------

    def close(self) -> None:
        """Free the game's world, and its tick's start when no other game shares it (a game is
        also a context manager that closes on exit)."""
        _release(self.tick_start)
        self.tick_start = None
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
        """Append an event of `kind` to the log, with the tick and the system that logged it."""
        self.events.append((self.tick, kind, data, self.system_path))

    @property
    def log_pos(self) -> int:
        """The number of events logged since the game began (those of earlier saves included)."""
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
        self.events.append((self.tick, "roll", {"dice": notation, "values": values, "why": why}, self.system_path))
        return values

    def roll(self, notation: str, why: str, stream: str = "dice") -> int:
        """The total of `notation`, modifier included."""
        return sum(self.roll_dice(notation, why, stream)) + parse(notation).modifier

    # -- cards ---------------------------------------------------------------------------------

    def deck(self, name: str) -> tuple[int, Deck]:
        """The deck called `name` (entity and component); a `GameError` when the game has none."""
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
        self.events.append((self.tick, "draw", {"deck": deck.name, "card": card.face, "why": why}, self.system_path))
        return ent, card

    # -- decisions -----------------------------------------------------------------------------

    def decide(self, side: str, kind: str, options: Sequence[Any], **context: Any
               ) -> Generator[Decision, object, Any]:
        """`choice = yield from game.decide(...)`: the chosen option (a lone option needs no asking)."""
        if self.guard is not None:
            self.guard.decide(kind)
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
                                                     "option": options[index]}, self.system_path))
        return options[index]

    # -- the loop ------------------------------------------------------------------------------

    def tick_steps(self) -> Generator[Decision, object, None]:
        """One tick: every phase's systems in order; yields decisions, takes option indices."""
        if self.keep_tick_start:
            start = self.copy()
            _release(start.tick_start)  # a tick-start copy is only ever copied: it keeps no start
            start.tick_start = None
            _release(self.tick_start)
            self.tick_start = _hold(start)
        self.tick_mark = len(self.events)
        self.in_tick = True
        self.tick += 1
        self.log("tick", tick=self.tick)
        recorder = self.recorder
        guard = self.guard
        for _phase, steps in self.ruleset.phases:
            for step in steps:
                self.system_path = step.label
                params = step.bound(self.params)
                yield from step.spec.run(self, params) if guard is None else guard.run(step.label, step.spec, params)
                if recorder is not None:
                    recorder.after_system(self, step.label)
                if self.over:
                    break
            if self.over:
                break
        self.system_path = ""  # the hard stop is the engine's, not the last system's
        if not self.over and self.tick >= self.ruleset.max_ticks:
            self.end("timeout")
        self.in_tick = False
        if recorder is not None:
            recorder.after_tick(self)

    def run_step(self, name: str, params: dict[str, Any]) -> Generator[Decision, object, None]:
        """Run the system the ruleset maps to the step `name`, with the step's own parameters (from
        the YAML) and `params` (from the caller). Its events are logged under `<caller>/<name>`."""
        step = self.ruleset.steps.get(name)
        if step is None:
            raise GameError(f"ruleset {self.ruleset.id!r} has no step {name!r}")
        own = step.bound(self.params)
        if own:
            if not params.keys().isdisjoint(own):
                raise GameError(f"step {name!r}: {', '.join(sorted(params.keys() & own.keys()))} given both by "
                                f"the caller and under steps.{name}")
            params = {**own, **params}
        outer = self.system_path
        self.system_path = f"{outer}/{name}"
        guard = self.guard
        try:
            yield from step.spec.run(self, params) if guard is None else guard.run(self.system_path, step.spec,
                                                                                   params, outer)
            if self.recorder is not None:
                self.recorder.after_step(self, self.system_path)
        finally:
            self.system_path = outer

    def play(self, policies: PolicyTable | Policy | None = None, stop_after: int | None = None,
             on_tick: Callable[[Game], None] | None = None) -> None:
        """Play to the end (or to the end of tick `stop_after`), answering decisions by policy."""
        policies = policies or PolicyTable(self.policy_spec)
        if getattr(policies, "needs_tick_start", False):
            self.keep_tick_start = True
        if self.running is not None:  # a tick under way (a fork or a load mid-tick): finish it first
            running, pending = self.running, self.pending
            self.running = self.pending = None
            answer_all(self, running, policies, pending)
            if on_tick is not None:
                on_tick(self)
        while not self.over and (stop_after is None or self.tick < stop_after):
            answer_all(self, self.tick_steps(), policies)
            if on_tick is not None:
                on_tick(self)

    def step(self, answer: object = None) -> Decision | None:
        """Run until a decision is pending (returned, and kept as `pending`) or the game is over
        (None), answering the pending decision with `answer` first. Crosses tick boundaries."""
        if self.pending is not None and answer is None:
            raise DecisionError(f"a {self.pending.kind} decision is pending: answer it")
        if self.pending is None and answer is not None:
            raise DecisionError("no decision is pending")
        while True:
            if self.running is None:
                if self.over:
                    return None
                self.running = self.tick_steps()
                answer = None
            running = self.running
            try:
                # sent as `object`: `decide` checks it (a compiled `int` parameter would raise a TypeError)
                decision = next(running) if answer is None else running.send(answer)  # type: ignore[arg-type]
            except StopIteration:
                self.running = self.pending = None
                answer = None
                continue
            self.pending = decision
            return decision

    # -- forks -----------------------------------------------------------------------------------

    def copy(self) -> Game:
        """An independent copy at a tick boundary (use `fork()`, which also handles mid-tick)."""
        other = Game(self.ruleset, self.seed, dict(self.params), self.players, self.scenario, self.table_overrides,
                     strict=False, world=self.world.fork())
        other.rng = self.rng.copy()
        other.dice_script = DiceScript(list(self.dice_script.values), self.dice_script.pos)
        other.card_script = list(self.card_script)
        other.events = list(self.events)  # events are never changed once logged
        other.log_base, other.tick, other.over, other.outcome = self.log_base, self.tick, self.over, self.outcome
        other.policy_spec = self.policy_spec
        if self.state_records is not None:
            other.state_records = type(self.state_records)(other.world, self.state_records)
        other.keep_tick_start = self.keep_tick_start
        other.tick_start = _hold(self.tick_start)  # only ever copied, never played: safe to share
        other.tick_mark = self.tick_mark
        if self.guard is not None:
            from ecs_zombie.strict import install

            install(other)
        return other

    def answers_this_tick(self) -> list[int]:
        """The decisions answered since the tick in progress began (empty between ticks)."""
        if not self.in_tick:
            return []
        return [e[2]["choice"] for e in self.events[self.tick_mark:] if e[1] == "decision"]

    def fork(self) -> Game:
        """An independent copy that continues exactly as this game would given the same answers.
        Between ticks it is a plain copy; mid-tick (a decision pending) it needs `keep_tick_start`."""
        if not self.in_tick:
            return self.copy()
        if self.tick_start is None:
            raise GameError("forking mid-tick needs the copy kept at the tick's start: set game.keep_tick_start "
                            "before the tick begins (Stepper(game, resumable=True) and search policies do)")
        other = self.tick_start.copy()
        keep, other.keep_tick_start = other.keep_tick_start, False  # its tick's start is this one's
        other.resume_tick(self.answers_this_tick())
        other.keep_tick_start = keep
        other.tick_start = _hold(self.tick_start)
        other.rng.set_state(self.rng.get_state(policy=True))  # the policies' own streams, as they are now
        return other

    def resume_tick(self, answers: list[int]) -> None:
        """Begin a tick and answer its first decisions with `answers`, leaving the next one pending."""
        running = self.running = self.tick_steps()
        try:
            decision = next(running)
            for answer in answers:
                decision = running.send(answer)
        except StopIteration:
            raise GameError(f"the tick ended before its {len(answers)} recorded answers were used") from None
        self.pending = decision

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.fork()

    def __copy__(self) -> Game:
        return self.fork()

    def __reduce__(self) -> Any:
        """Pickling would copy the esper world's name, not its entities: the copy would play on a
        world that is not its own. Refused, with the ways that work."""
        raise TypeError("a Game cannot be pickled: copy it with game.fork() (or copy.deepcopy), or save it "
                        "(ecs_zombie.snapshot.save) and load it where it is needed")

    def metrics(self) -> dict[str, Any]:
        """The ruleset's metrics of the game as it stands (`@metrics`)."""
        return METRICS[self.ruleset.metrics](self)

    def summary(self) -> dict[str, Any]:
        """Ruleset, scenario, seed, outcome and turns, with the metrics: a batch's row."""
        return {"ruleset": self.ruleset.id, "scenario": self.scenario, "seed": self.seed,
                "outcome": self.outcome, "turns": self.tick, **self.metrics()}


def answer_all(game: Game, steps: Generator[Decision, object, Any], policy: PolicyTable | Policy,
               pending: Decision | None = None) -> None:
    """Run a generator of decisions (a tick, a system) to its end, each answered by `policy`
    (`pending`: the decision it is already suspended at, when it has begun)."""
    choose = policy.choose
    try:
        decision = next(steps) if pending is None else pending
        while True:
            decision = steps.send(choose(game, decision))
    except StopIteration:
        pass


def new_game(target: str | Scenario, seed: int = 0, *, players: int | None = None,
             params: Mapping[str, Any] | None = None, dice: Iterable[int] = (), cards: Iterable[str] = (),
             policy: str = "heuristic", strict: bool | None = None) -> Game:
    """A fresh game of a ruleset (its default scenario) or of a scenario file, at tick 0."""
    scenario = target if isinstance(target, Scenario) else load_scenario(target)
    rs = scenario.ruleset
    merged = dict(scenario.params)
    merged.update(params or {})
    values = rs.params_with(merged, "--param")
    n = players if players is not None else scenario.players
    if not 1 <= n <= scenario.max_players:
        raise GameError(f"players must be 1..{scenario.max_players}, got {n} (scenario {scenario.name})")
    if not 0 <= seed < 2**64:  # what a save holds (ecs_zombie.limits)
        raise GameError(f"the seed must be a whole number from 0 to {2**64 - 1} (what a save holds), got {seed}")
    PolicyTable(policy)  # validate the name before anything runs
    game = Game(rs, seed, values, n, scenario.name, scenario.table_overrides, strict)
    game.policy_spec = policy
    spawn_entities(scenario, game.world, n)
    game.dice_script = DiceScript(list(dice))
    known = {c["face"] for d in scenario.decks for c in rs.tables[d["table"]]}
    game.card_script = cards_mod.check_card_script(list(cards), known)
    game.log("new_game", seed=seed, ruleset=rs.id, players=n)
    return game


def _hold(start: Game | None) -> Game | None:
    """One more game shares the tick-start copy `start`."""
    if start is not None:
        start.holders += 1
    return start


def _release(start: Game | None) -> None:
    """One game fewer shares `start`; the last one closes it."""
    if start is not None:
        start.holders -= 1
        if start.holders <= 0:
            start.close()
